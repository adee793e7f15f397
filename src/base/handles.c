/* =================================================================================================
 * handles.c: the set of live handles (handles.h): an open-addressing hash table of addresses
 * under one lock, which calls hold for a few tens of nanoseconds.
 * ============================================================================================== */
#include "base/handles.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

typedef struct slot {
  const void *handle; /* NULL: empty; TOMBSTONE: removed */
  orx_handle_kind kind;
} slot;

static char tombstone;
#define TOMBSTONE ((const void *)&tombstone)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static size_t capacity, used; /* used counts tombstones too: they lengthen probes */

static size_t home_of(const void *handle) {
  uint64_t h = (uint64_t)(uintptr_t)handle;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  return (size_t)h & (capacity - 1);
}

/* The slot of handle as kind, or NULL. */
static slot *find(const void *handle, orx_handle_kind kind) {
  if (!capacity)
    return NULL;
  for (size_t i = home_of(handle);; i = (i + 1) & (capacity - 1)) {
    if (table[i].handle == handle && table[i].kind == kind)
      return &table[i];
    if (!table[i].handle)
      return NULL;
  }
}

static void put(const void *handle, orx_handle_kind kind) {
  size_t i = home_of(handle);
  while (table[i].handle && table[i].handle != TOMBSTONE)
    i = (i + 1) & (capacity - 1);
  used += table[i].handle == NULL;
  table[i] = (slot){handle, kind};
}

/* Doubles the table (or rebuilds it without tombstones) when it is half full. */
static int make_room(void) {
  if (2 * (used + 1) <= capacity)
    return 1;
  size_t live = 0;
  for (size_t i = 0; i < capacity; i++)
    live += table[i].handle && table[i].handle != TOMBSTONE;
  const size_t grown = 4 * (live + 1) > capacity ? (capacity ? 2 * capacity : 64) : capacity;
  slot *fresh = orx_calloc(grown, sizeof *fresh);
  if (!fresh)
    return 0;
  slot *old = table;
  const size_t old_capacity = capacity;
  table = fresh;
  capacity = grown;
  used = 0;
  for (size_t i = 0; i < old_capacity; i++)
    if (old[i].handle && old[i].handle != TOMBSTONE)
      put(old[i].handle, old[i].kind);
  free(old);
  return 1;
}

int orx_handle_add(const void *handle, orx_handle_kind kind) {
  pthread_mutex_lock(&lock);
  const int added = make_room();
  if (added)
    put(handle, kind);
  pthread_mutex_unlock(&lock);
  return added;
}

int orx_handle_remove(const void *handle, orx_handle_kind kind) {
  pthread_mutex_lock(&lock);
  slot *s = handle ? find(handle, kind) : NULL;
  const int was_live = s != NULL;
  if (was_live)
    s->handle = TOMBSTONE;
  pthread_mutex_unlock(&lock);
  return was_live;
}

int orx_handle_live(const void *handle, orx_handle_kind kind, void (*hold)(void *handle)) {
  pthread_mutex_lock(&lock);
  const int live = handle && find(handle, kind);
  if (live && hold)
    hold((void *)(uintptr_t)handle);
  pthread_mutex_unlock(&lock);
  return live;
}
