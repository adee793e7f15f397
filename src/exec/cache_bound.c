/* =================================================================================================
 * cache_bound.c: the program cache's size limit and its least-recently-used eviction
 * (cache_bound.h). An entry's modification time is its last use: loads set it, so the order
 * needs no index file that processes would have to lock.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* dirent's d_name, utimensat in strict C11 */
#include "exec/cache_bound.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/util.h"

/* A killed writer's temporary, or a killed builder's lock: no write or build of a program takes
 * an hour. */
#define STALE_SECONDS 3600

ocl_reduce_status orx_cache_max(uint64_t option, uint64_t *max) {
  *max = ORX_CACHE_MAX_DEFAULT;
  if (option) {
    *max = option;
    return OCL_REDUCE_OK;
  }
  const char *text = orx_env("OCL_REDUCE_CACHE_MAX");
  if (!text || !*text)
    return OCL_REDUCE_OK;
  char *end = NULL;
  errno = 0;
  const unsigned long long number = strtoull(text, &end, 10);
  unsigned shift = 0;
  switch (toupper((unsigned char)*end)) {
  case 'K': shift = 10; break;
  case 'M': shift = 20; break;
  case 'G': shift = 30; break;
  default: break;
  }
  if (shift)
    end++;
  if (shift && (*end == 'i' || *end == 'I') && (end[1] == 'B' || end[1] == 'b'))
    end += 2; /* "512MiB" */
  else if (shift && (*end == 'B' || *end == 'b'))
    end++; /* "512MB", also 1024-based */
  if (!isdigit((unsigned char)text[0]) || *end || errno || number == 0 ||
      number > (UINT64_MAX >> shift))
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                    "OCL_REDUCE_CACHE_MAX: '%s' is not a size above 0 (bytes, or with K, M or G)",
                    text);
  *max = (uint64_t)number << shift;
  return OCL_REDUCE_OK;
}

/* ---- The directory's files ------------------------------------------------------------------ */

typedef struct cache_file {
  char name[72]; /* <32 hex digits>.bin[.<pid>.<serial>.tmp|.lock] (longer ones are not ours) */
  uint64_t bytes;
  struct timespec used;
  int temporary;
} cache_file;

static int ends_with(const char *name, const char *suffix) {
  const size_t n = strlen(name), s = strlen(suffix);
  return n >= s && strcmp(name + n - s, suffix) == 0;
}

/* The cache's files of dir (malloc'd; *count of them): entries and temporaries, nothing else.
 * Build locks (disk_cache.c) count as temporaries: one left by a builder that died is removed
 * once it is old, as its half-written entry is. */
static cache_file *list_files(const char *dir, size_t *count) {
  *count = 0;
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  size_t capacity = 0;
  cache_file *files = NULL;
  char path[ORX_CACHE_PATH_CAPACITY];
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    const int temporary = ends_with(e->d_name, ".tmp") || ends_with(e->d_name, ".lock");
    if ((!temporary && !ends_with(e->d_name, ".bin")) || strlen(e->d_name) >= sizeof files->name)
      continue;
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue; /* removed meanwhile by another process */
    if (*count == capacity) {
      capacity = capacity ? 2 * capacity : 64;
      cache_file *grown = orx_realloc(files, capacity * sizeof *files);
      if (!grown)
        break; /* the files listed so far */
      files = grown;
    }
    cache_file *f = &files[(*count)++];
    orx_strlcpy(f->name, e->d_name, sizeof f->name);
    f->bytes = (uint64_t)st.st_size;
    f->used = st.st_mtim;
    f->temporary = temporary;
  }
  closedir(d);
  return files;
}

static int older_first(const void *a, const void *b) {
  const cache_file *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec)
    return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  return (x->used.tv_nsec > y->used.tv_nsec) - (x->used.tv_nsec < y->used.tv_nsec);
}

static void remove_file(const char *dir, const char *name) {
  char path[ORX_CACHE_PATH_CAPACITY];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (unlink(path) != 0 && errno != ENOENT)
    orx_log("program cache: cannot remove %s: %s", path, strerror(errno));
}

void orx_cache_usage(const char *dir, uint64_t *bytes, uint64_t *entries) {
  size_t count = 0;
  cache_file *files = list_files(dir, &count);
  *bytes = *entries = 0;
  for (size_t i = 0; i < count; i++)
    if (!files[i].temporary) {
      *bytes += files[i].bytes;
      (*entries)++;
    }
  free(files);
}

void orx_cache_touch(const char *path) {
  /* A read-only cache cannot record the use: its order stays the writes'. */
  (void)utimensat(AT_FDCWD, path, NULL, 0);
}

void orx_cache_trim(const char *dir, uint64_t max, const char *keep) {
  size_t count = 0;
  cache_file *files = list_files(dir, &count);
  if (!files)
    return;
  qsort(files, count, sizeof *files, older_first);
  const time_t now = time(NULL);
  uint64_t total = 0;
  for (size_t i = 0; i < count; i++) {
    if (files[i].temporary && now - files[i].used.tv_sec > STALE_SECONDS) {
      remove_file(dir, files[i].name);
      files[i].bytes = 0;
    }
    if (!files[i].temporary)
      total += files[i].bytes;
  }
  /* Oldest first; the entry just written only when it alone is over the limit. */
  for (int last_pass = 0; last_pass < 2 && total > max; last_pass++)
    for (size_t i = 0; i < count && total > max; i++) {
      const int is_keep = keep && strcmp(files[i].name, keep) == 0;
      if (files[i].temporary || files[i].bytes == 0 || is_keep != last_pass)
        continue;
      remove_file(dir, files[i].name);
      orx_log("program cache: removed %s/%s (%llu bytes), least recently used of %llu bytes over "
              "the limit of %llu",
              dir, files[i].name, (unsigned long long)files[i].bytes, (unsigned long long)total,
              (unsigned long long)max);
      total -= files[i].bytes;
      files[i].bytes = 0;
    }
  free(files);
}

uint64_t orx_cache_clear(const char *dir) {
  size_t count = 0;
  cache_file *files = list_files(dir, &count);
  for (size_t i = 0; i < count; i++)
    remove_file(dir, files[i].name);
  free(files);
  return count;
}
