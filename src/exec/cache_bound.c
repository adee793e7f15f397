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
  char name[128];
  uint64_t bytes;
  struct timespec used;
  int temporary;
} cache_file;

/* Whether `name` has `count` lowercase hex digits at `at`. */
static int hex_run(const char *name, size_t at, size_t count) {
  for (size_t i = at; i < at + count; i++)
    if (!name[i] || !strchr("0123456789abcdef", name[i]))
      return 0;
  return 1;
}

/* Whether `name` is one of the names the cache gives its files, and whether it is a temporary:
 * <64 hex>.bin (an entry), <64 hex>.bin.lock (a build lock), <64 hex>.bin.<16 hex>.tmp and
 * secret.<16 hex>.tmp (temporaries). Nothing else in the directory is the cache's to remove,
 * the secret itself included. */
static int cache_name(const char *name, int *temporary) {
  const size_t n = strlen(name), entry = 64 + 4;
  *temporary = 0;
  if (n >= entry && hex_run(name, 0, 64) && strncmp(name + 64, ".bin", 4) == 0) {
    if (n == entry)
      return 1;
    *temporary = 1;
    return strcmp(name + entry, ".lock") == 0 ||
           (n == entry + 21 && name[entry] == '.' && hex_run(name, entry + 1, 16) &&
            strcmp(name + entry + 17, ".tmp") == 0);
  }
  *temporary = 1;
  return n == 7 + 21 && strncmp(name, "secret.", 7) == 0 && hex_run(name, 7, 16) &&
         strcmp(name + 23, ".tmp") == 0;
}

/* The cache's files of the directory dirfd (malloc'd; *count of them): entries and temporaries
 * that are regular files, nothing else. Build locks (disk_cache.c) count as temporaries: one
 * left by a builder that died is removed once it is old, as its half-written entry is. */
static cache_file *list_files(int dirfd, size_t *count) {
  *count = 0;
  const int listed = dup(dirfd);
  DIR *d = listed >= 0 ? fdopendir(listed) : NULL;
  if (!d) {
    if (listed >= 0)
      close(listed);
    return NULL;
  }
  size_t capacity = 0;
  cache_file *files = NULL;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    int temporary;
    if (strlen(e->d_name) >= sizeof files->name || !cache_name(e->d_name, &temporary))
      continue;
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue; /* removed meanwhile by another process, or not a file the cache wrote */
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

/* The cache directory `dir` opened without following a link at its end (a directory swapped for
 * a link is never walked), or -1. */
static int open_dir(const char *dir) {
  return open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int older_first(const void *a, const void *b) {
  const cache_file *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec)
    return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  return (x->used.tv_nsec > y->used.tv_nsec) - (x->used.tv_nsec < y->used.tv_nsec);
}

static void remove_file(int dirfd, const char *dir, const char *name) {
  if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
    orx_log("program cache: cannot remove %s/%s: %s", dir, name, strerror(errno));
}

void orx_cache_usage(const char *dir, uint64_t *bytes, uint64_t *entries) {
  size_t count = 0;
  const int dirfd = open_dir(dir);
  cache_file *files = dirfd >= 0 ? list_files(dirfd, &count) : NULL;
  if (dirfd >= 0)
    close(dirfd);
  *bytes = *entries = 0;
  for (size_t i = 0; i < count; i++)
    if (!files[i].temporary) {
      *bytes += files[i].bytes;
      (*entries)++;
    }
  free(files);
}

void orx_cache_trim(const char *dir, uint64_t max, const char *keep) {
  size_t count = 0;
  const int dirfd = open_dir(dir);
  cache_file *files = dirfd >= 0 ? list_files(dirfd, &count) : NULL;
  if (!files) {
    if (dirfd >= 0)
      close(dirfd);
    return;
  }
  qsort(files, count, sizeof *files, older_first);
  const time_t now = time(NULL);
  uint64_t total = 0;
  for (size_t i = 0; i < count; i++) {
    if (files[i].temporary && now - files[i].used.tv_sec > STALE_SECONDS) {
      remove_file(dirfd, dir, files[i].name);
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
      remove_file(dirfd, dir, files[i].name);
      orx_log("program cache: removed %s/%s (%llu bytes), least recently used of %llu bytes over "
              "the limit of %llu",
              dir, files[i].name, (unsigned long long)files[i].bytes, (unsigned long long)total,
              (unsigned long long)max);
      total -= files[i].bytes;
      files[i].bytes = 0;
    }
  free(files);
  close(dirfd);
}

uint64_t orx_cache_clear(const char *dir) {
  size_t count = 0;
  const int dirfd = open_dir(dir);
  if (dirfd < 0)
    return 0;
  cache_file *files = list_files(dirfd, &count);
  for (size_t i = 0; i < count; i++)
    remove_file(dirfd, dir, files[i].name);
  free(files);
  close(dirfd);
  return count;
}
