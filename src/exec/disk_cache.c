/* =================================================================================================
 * disk_cache.c: built programs kept on disk between processes (disk_cache.h).
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* mkdir, fsync, getpid, flock, nanosleep in strict C11 */
#include "exec/disk_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exec/context.h"

/* The layout of an entry: this header, then payload_bytes of the backend's binary. Native byte
 * order: an entry from a machine of the other order fails the magic check and is rebuilt. */
typedef struct entry_header {
  char magic[8]; /* ENTRY_MAGIC; the last digit is the layout's version */
  uint64_t key[2];
  uint64_t payload_bytes;
  uint64_t payload_hash;
} entry_header;

static const char ENTRY_MAGIC[8] = {'O', 'R', 'X', 'C', 'A', 'C', 'H', '1'};
/* The largest payload read back: a program binary is kilobytes to a few megabytes. */
#define ENTRY_MAX_PAYLOAD ((uint64_t)1 << 28)
/* A second, independent start for the key's second half and the payload's checksum. */
#define SECOND_SEED 0x84222325cbf29ce4u

ocl_reduce_status orx_disk_cache_dir(const char *option, char *dir, size_t size) {
  const char *chosen = option ? option : orx_env("OCL_REDUCE_CACHE_DIR");
  const char *from = option ? "options.cache_dir" : "OCL_REDUCE_CACHE_DIR";
  dir[0] = '\0';
  if (chosen && strlen(chosen) == 3 && orx_strcasestr(chosen, "off"))
    return OCL_REDUCE_OK;
  int fits;
  if (chosen && *chosen) {
    fits = snprintf(dir, size, "%s", chosen) < (int)size;
  } else {
    const char *xdg = orx_env("XDG_CACHE_HOME"), *home = orx_env("HOME");
    from = xdg ? "XDG_CACHE_HOME" : "HOME";
    if (xdg)
      fits = snprintf(dir, size, "%s/ocl_reduce", xdg) < (int)size;
    else if (home)
      fits = snprintf(dir, size, "%s/.cache/ocl_reduce", home) < (int)size;
    else
      fits = 1; /* nowhere to keep it: no cache */
  }
  if (!fits) {
    dir[0] = '\0';
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                    "%s: the program cache's path is longer than %zu bytes", from, size - 1);
  }
  return OCL_REDUCE_OK;
}

/* ---- Keys ------------------------------------------------------------------------------------ */

/* Feeds one field, its length first, so that no two sequences of fields hash alike by moving
 * bytes from one field to the next. */
static void feed(uint64_t key[2], const void *bytes, size_t size) {
  const uint64_t length = size;
  key[0] = orx_hash(orx_hash(key[0], &length, sizeof length), bytes, size);
  key[1] = orx_hash(orx_hash(key[1], &length, sizeof length), bytes, size);
}

static void feed_text(uint64_t key[2], const char *text) { feed(key, text, strlen(text)); }

static void key_of(const ocl_reduce_context *ctx, const orx_source *sources, size_t count,
                   const char *kernel_name, unsigned wg_size, uint64_t key[2]) {
  key[0] = ORX_HASH_SEED;
  key[1] = SECOND_SEED;
  const int version = OCL_REDUCE_VERSION;
  feed(key, &version, sizeof version);
  feed_text(key, ctx->backend_row->keyword);
  const orx_caps *c = &ctx->caps;
  const char *identity[] = {c->platform_name,  c->platform_version, c->device_name,
                            c->device_version, c->driver_version,   c->compiler_version};
  for (size_t i = 0; i < ORX_ARRAY_SIZE(identity); i++)
    feed_text(key, identity[i]);
  feed_text(key, kernel_name);
  feed(key, &wg_size, sizeof wg_size);
  for (size_t i = 0; i < count; i++)
    feed(key, sources[i].text, sources[i].length);
}

static void path_of(const ocl_reduce_context *ctx, const uint64_t key[2], char *path,
                    size_t size) {
  snprintf(path, size, "%s/%016llx%016llx.bin", ctx->cache_dir, (unsigned long long)key[0],
           (unsigned long long)key[1]);
}

/* ---- Reading --------------------------------------------------------------------------------- */

/* The payload of the entry at `path` when it is whole and is key's (malloc'd), else NULL. */
static void *read_entry(const char *path, const uint64_t key[2], size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL; /* not there yet: the usual first time */
  entry_header h;
  void *payload = NULL;
  const char *problem = NULL;
  if (fread(&h, sizeof h, 1, f) != 1)
    problem = "shorter than its header";
  else if (memcmp(h.magic, ENTRY_MAGIC, sizeof h.magic) != 0)
    problem = "not an entry of this library version's layout";
  else if (h.key[0] != key[0] || h.key[1] != key[1])
    problem = "another program's entry";
  else if (h.payload_bytes == 0 || h.payload_bytes > ENTRY_MAX_PAYLOAD)
    problem = "an implausible size";
  else if (!(payload = orx_malloc((size_t)h.payload_bytes)))
    problem = "out of host memory";
  else if (fread(payload, 1, (size_t)h.payload_bytes, f) != h.payload_bytes || fgetc(f) != EOF)
    problem = "truncated or too long";
  else if (orx_hash(SECOND_SEED, payload, (size_t)h.payload_bytes) != h.payload_hash)
    problem = "a checksum that does not match";
  fclose(f);
  if (problem) {
    orx_log("program cache: ignored %s: %s", path, problem);
    free(payload);
    return NULL;
  }
  *size = (size_t)h.payload_bytes;
  orx_cache_touch(path);
  return payload;
}

/* ---- Writing --------------------------------------------------------------------------------- */

/* Creates dir and its missing parents (0700: programs are the user's own). */
static int make_directories(const char *dir) {
  char path[ORX_CACHE_DIR_CAPACITY];
  orx_strlcpy(path, dir, sizeof path);
  for (char *p = path + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      return 0;
    *p = '/';
  }
  return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* Writes the entry next to `path` and renames it into place: readers in other processes see the
 * old entry or the whole new one. Failures only cost the next process a build. */
static void write_entry(const ocl_reduce_context *ctx, const char *path, const uint64_t key[2],
                        const void *payload, size_t size) {
  static _Atomic unsigned serial; /* temporaries of one process's threads differ */
  char temporary[ORX_CACHE_DIR_CAPACITY + 80];
  snprintf(temporary, sizeof temporary, "%s.%ld.%u.tmp", path, (long)getpid(), ++serial);
  entry_header h;
  memcpy(h.magic, ENTRY_MAGIC, sizeof h.magic);
  h.key[0] = key[0];
  h.key[1] = key[1];
  h.payload_bytes = size;
  h.payload_hash = orx_hash(SECOND_SEED, payload, size);
  const char *problem = NULL;
  FILE *f = NULL;
  if (!make_directories(ctx->cache_dir))
    problem = "cannot create the directory";
  else if (!(f = fopen(temporary, "wb")))
    problem = "cannot create a file";
  else if (fwrite(&h, sizeof h, 1, f) != 1 || fwrite(payload, 1, size, f) != size ||
           fflush(f) != 0 || fsync(fileno(f)) != 0)
    problem = "cannot write (disk full?)";
  if (f && fclose(f) != 0 && !problem)
    problem = "cannot write (disk full?)";
  if (!problem && rename(temporary, path) != 0)
    problem = "cannot rename the entry into place";
  if (problem) {
    orx_log("program cache: %s: %s (%s); the program is not kept", ctx->cache_dir, problem,
            strerror(errno));
    if (f)
      unlink(temporary);
    return;
  }
  const char *name = strrchr(path, '/');
  orx_cache_trim(ctx->cache_dir, ctx->cache_max, name ? name + 1 : path);
}

/* ---- One build of an entry at a time ------------------------------------------------------- */

/* How long a context waits for another context, of this process or another, that builds the
 * same entry, before it builds it too. Builds take milliseconds to tens of seconds (PoCL 3.1's
 * largest, the collectives' test programs, about 30 s on 2 cores); a holder stuck for longer
 * (stopped in a debugger) must not stop everyone else. A holder that dies releases the lock. */
#define BUILD_WAIT_MS 120000
/* The first look again after a millisecond (a load takes a few), then ever less often. */
#define BUILD_POLL_FIRST_US 1000
#define BUILD_POLL_LONGEST_US 50000

/* Takes the build lock of the entry at `path`: `<path>.lock`, held with flock. Of the contexts
 * that miss one entry at once (an MPI job's ranks on one node, a test suite's processes, one
 * process's contexts), the first builds and the others wait and load what it wrote, instead of
 * each compiling the same program. Returns the lock's descriptor, else -1 (a directory that
 * cannot hold the file, a file system without locks, or the wait ran out): the caller then
 * builds without it. */
static int lock_build(const ocl_reduce_context *ctx, const char *path, char *lock_path,
                      size_t size) {
  snprintf(lock_path, size, "%s.lock", path);
  if (!make_directories(ctx->cache_dir))
    return -1;
  const int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  long waited_us = 0, pause_us = BUILD_POLL_FIRST_US;
  int error;
  while ((error = flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : errno) == EWOULDBLOCK &&
         waited_us < BUILD_WAIT_MS * 1000L) {
    if (waited_us == 0)
      orx_log("program cache: waiting for another build of %s", path);
    nanosleep(&(struct timespec){pause_us / 1000000, (pause_us % 1000000) * 1000}, NULL);
    waited_us += pause_us;
    pause_us = pause_us * 2 < BUILD_POLL_LONGEST_US ? pause_us * 2 : BUILD_POLL_LONGEST_US;
  }
  if (error == 0)
    return fd;
  orx_log("program cache: %s: %s; building without it", lock_path,
          error == EWOULDBLOCK ? "still held after the longest wait" : strerror(error));
  close(fd);
  return -1;
}

/* Removes the lock file while it is held: a context that opened it meanwhile gets the lock next,
 * finds the entry written, and loads it; one that comes later finds the entry first. A context
 * that got the lock after its builder had removed the file leaves the path alone: it may be a
 * newer lock, held by a context rebuilding an entry the implementation refused. */
static void unlock_build(int fd, const char *lock_path) {
  if (fd < 0)
    return;
  struct stat held, named;
  if (fstat(fd, &held) == 0 && stat(lock_path, &named) == 0 && held.st_ino == named.st_ino &&
      held.st_dev == named.st_dev)
    unlink(lock_path);
  close(fd);
}

/* ---- Building -------------------------------------------------------------------------------- */

/* The entry at `path` loaded for ctx's device: 1 when it was there, whole, and the implementation
 * took it. */
static int load_entry(ocl_reduce_context *ctx, const char *path, const uint64_t key[2],
                      const char *kernel_name, unsigned wg_size, orx_program **out,
                      unsigned *subgroup_size) {
  size_t size = 0;
  void *binary = read_entry(path, key, &size);
  if (!binary)
    return 0;
  const ocl_reduce_status loaded = ctx->ops->build_binary(ctx, ctx->backend, binary, size,
                                                          kernel_name, wg_size, out, subgroup_size);
  free(binary);
  if (loaded == OCL_REDUCE_OK)
    return 1;
  /* Another driver's binary under the same versions, or damage the checksum missed. */
  orx_log("program cache: the implementation refused %s (%s); building from source", path,
          orx_error_text(ctx));
  return 0;
}

ocl_reduce_status orx_build_program(ocl_reduce_context *ctx, const orx_source *sources,
                                    size_t count, const char *kernel_name, unsigned wg_size,
                                    orx_program **out, unsigned *subgroup_size, int *from_disk) {
  const orx_backend_ops *ops = ctx->ops;
  *from_disk = 0;
  if (!ctx->cache_dir[0] || !ops->build_binary || !ops->program_binary)
    return ops->build(ctx, ctx->backend, sources, count, kernel_name, wg_size, out,
                      subgroup_size);
  uint64_t key[2];
  key_of(ctx, sources, count, kernel_name, wg_size, key);
  char path[ORX_CACHE_DIR_CAPACITY + 40], lock_path[ORX_CACHE_DIR_CAPACITY + 48];
  path_of(ctx, key, path, sizeof path);
  if (load_entry(ctx, path, key, kernel_name, wg_size, out, subgroup_size)) {
    *from_disk = 1;
    return OCL_REDUCE_OK;
  }
  const int lock = lock_build(ctx, path, lock_path, sizeof lock_path);
  if (lock >= 0 && load_entry(ctx, path, key, kernel_name, wg_size, out, subgroup_size)) {
    unlock_build(lock, lock_path); /* the context we waited for built it */
    *from_disk = 1;
    return OCL_REDUCE_OK;
  }
  const ocl_reduce_status built =
      ops->build(ctx, ctx->backend, sources, count, kernel_name, wg_size, out, subgroup_size);
  void *binary = NULL;
  size_t size = 0;
  if (built == OCL_REDUCE_OK &&
      ops->program_binary(ctx, ctx->backend, *out, &binary, &size) == OCL_REDUCE_OK && binary)
    write_entry(ctx, path, key, binary, size);
  free(binary);
  unlock_build(lock, lock_path);
  return built;
}
