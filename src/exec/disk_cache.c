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

#include "exec/cache_trust.h"
#include "exec/context.h"

/* The layout of an entry: this header, then payload_bytes of the backend's binary. Native byte
 * order: an entry from a machine of the other order fails the magic check and is rebuilt. */
typedef struct entry_header {
  char magic[8]; /* ENTRY_MAGIC; the last digit is the layout's version */
  orx_digest key;
  uint64_t payload_bytes;
  orx_digest mac; /* mac_of: HMAC-SHA-256 under the cache's secret (cache_trust.h) */
} entry_header;

static const char ENTRY_MAGIC[8] = {'O', 'R', 'X', 'C', 'A', 'C', 'H', '2'};
/* The largest payload read back: a program binary is kilobytes to a few megabytes. */
#define ENTRY_MAX_PAYLOAD ((uint64_t)1 << 28)

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
    /* The XDG Base Directory spec: a relative XDG_CACHE_HOME is invalid and ignored. A relative
     * HOME is no home either. */
    const char *xdg = orx_env("XDG_CACHE_HOME"), *home = orx_env("HOME");
    if (xdg && xdg[0] != '/')
      xdg = NULL;
    if (home && home[0] != '/')
      home = NULL;
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
static void feed(orx_digest_stream *key, const void *bytes, size_t size) {
  const uint64_t length = size;
  orx_digest_feed(key, &length, sizeof length);
  orx_digest_feed(key, bytes, size);
}

static void feed_text(orx_digest_stream *key, const char *text) { feed(key, text, strlen(text)); }

/* The SHA-256 of everything that changes the program: equal keys are equal programs. */
static int key_of(const ocl_reduce_context *ctx, const orx_source *sources, size_t count,
                  const char *options, const char *kernel_name, unsigned wg_size,
                  orx_digest *key) {
  orx_digest_stream *stream = orx_digest_begin();
  feed(stream, ENTRY_MAGIC, sizeof ENTRY_MAGIC);
  const int version = OCL_REDUCE_VERSION;
  feed(stream, &version, sizeof version);
  feed_text(stream, ctx->backend_row->keyword);
  const orx_caps *c = &ctx->caps;
  const char *identity[] = {c->platform_name,  c->platform_version, c->device_name,
                            c->device_version, c->driver_version,   c->compiler_version};
  for (size_t i = 0; i < ORX_ARRAY_SIZE(identity); i++)
    feed_text(stream, identity[i]);
  feed_text(stream, options);
  feed_text(stream, kernel_name);
  feed(stream, &wg_size, sizeof wg_size);
  for (size_t i = 0; i < count; i++)
    feed(stream, sources[i].text, sources[i].length);
  return orx_digest_end(stream, key);
}

static void path_of(const ocl_reduce_context *ctx, const orx_digest *key, char *path,
                    size_t size) {
  char hex[2 * ORX_DIGEST_BYTES + 1];
  orx_digest_hex(key, hex);
  snprintf(path, size, "%s/%s.bin", ctx->cache_dir, hex);
}

/* The entry's MAC under the cache's secret: of its magic, key, size and payload. */
static int mac_of(const ocl_reduce_context *ctx, const entry_header *h, const void *payload,
                  orx_digest *mac) {
  struct {
    char magic[8];
    orx_digest key;
    uint64_t payload_bytes;
    orx_digest payload;
  } message;
  memset(&message, 0, sizeof message);
  memcpy(message.magic, h->magic, sizeof message.magic);
  message.key = h->key;
  message.payload_bytes = h->payload_bytes;
  orx_digest_stream *stream = orx_digest_begin();
  orx_digest_feed(stream, payload, (size_t)h->payload_bytes);
  return orx_digest_end(stream, &message.payload) &&
         orx_digest_mac(ctx->cache_secret, sizeof ctx->cache_secret, &message, sizeof message,
                        mac);
}

/* ---- Reading --------------------------------------------------------------------------------- */

/* The payload of the entry at `path` when it is whole, is key's and this cache wrote it
 * (malloc'd), else NULL. Nothing of it reaches a driver before its MAC is checked. */
static void *read_entry(const ocl_reduce_context *ctx, const char *path, const orx_digest *key,
                        size_t *size) {
  const char *problem = NULL;
  const int fd = orx_cache_open_file(path, O_RDONLY, &problem);
  entry_header h;
  void *payload = NULL;
  orx_digest mac;
  struct stat st;
  if (fd < 0) {
    if (problem)
      orx_log("program cache: ignored %s: %s", path, problem);
    return NULL; /* not there: the usual first time */
  }
  if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < sizeof h ||
           (uint64_t)st.st_size - sizeof h > ENTRY_MAX_PAYLOAD)
    problem = "an implausible size";
  else if (!orx_cache_read(fd, &h, sizeof h))
    problem = "shorter than its header";
  else if (memcmp(h.magic, ENTRY_MAGIC, sizeof h.magic) != 0)
    problem = "not an entry of this library version's layout";
  else if (!orx_digest_equal(&h.key, key))
    problem = "another program's entry";
  else if (h.payload_bytes == 0 || h.payload_bytes != (uint64_t)st.st_size - sizeof h)
    problem = "truncated or too long";
  else if (!(payload = orx_malloc((size_t)h.payload_bytes)))
    problem = "out of host memory";
  else if (!orx_cache_read(fd, payload, (size_t)h.payload_bytes))
    problem = "truncated";
  else if (!mac_of(ctx, &h, payload, &mac) || !orx_digest_equal(&mac, &h.mac))
    problem = "not written by this cache (its MAC does not match)";
  else
    (void)futimens(fd, NULL); /* its last use, for the trimming (cache_bound.h) */
  close(fd);
  if (problem) {
    orx_log("program cache: ignored %s: %s", path, problem);
    free(payload);
    return NULL;
  }
  *size = (size_t)h.payload_bytes;
  return payload;
}

/* ---- Writing --------------------------------------------------------------------------------- */

/* Writes the entry to a fresh temporary and renames it into place: readers in other processes
 * see the old entry or the whole new one. Failures only cost the next process a build. */
static void write_entry(const ocl_reduce_context *ctx, const char *path, const orx_digest *key,
                        const void *payload, size_t size) {
  char temporary[ORX_CACHE_PATH_CAPACITY + 32];
  entry_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, ENTRY_MAGIC, sizeof h.magic);
  h.key = *key;
  h.payload_bytes = size;
  const char *problem = NULL;
  int fd = -1;
  if (!mac_of(ctx, &h, payload, &h.mac))
    problem = "cannot authenticate it";
  else if ((fd = orx_cache_create_temporary(path, temporary, sizeof temporary)) < 0)
    problem = "cannot create a file";
  else if (!orx_cache_write(fd, &h, sizeof h) || !orx_cache_write(fd, payload, size) || fsync(fd) != 0)
    problem = "cannot write (disk full?)";
  if (fd >= 0 && close(fd) != 0 && !problem)
    problem = "cannot write (disk full?)";
  if (!problem && rename(temporary, path) != 0)
    problem = "cannot rename the entry into place";
  if (problem) {
    orx_log("program cache: %s: %s (%s); the program is not kept", ctx->cache_dir, problem,
            strerror(errno));
    if (fd >= 0)
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
static int lock_build(const char *path, char *lock_path, size_t size) {
  snprintf(lock_path, size, "%s.lock", path);
  const char *problem;
  const int fd = orx_cache_open_file(lock_path, O_RDWR | O_CREAT, &problem);
  if (fd < 0) {
    orx_log("program cache: %s: %s; building without it", lock_path,
            problem ? problem : "cannot be created");
    return -1;
  }
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
  if (fstat(fd, &held) == 0 && lstat(lock_path, &named) == 0 && held.st_ino == named.st_ino &&
      held.st_dev == named.st_dev)
    unlink(lock_path);
  close(fd);
}

/* ---- Building -------------------------------------------------------------------------------- */

/* The entry at `path` loaded for ctx's device: 1 when it was there, whole, and the implementation
 * took it. */
static int load_entry(ocl_reduce_context *ctx, const char *path, const orx_digest *key,
                      const char *kernel_name, unsigned wg_size, orx_program **out,
                      unsigned *subgroup_size) {
  size_t size = 0;
  void *binary = read_entry(ctx, path, key, &size);
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
                                    size_t count, const char *options, const char *kernel_name,
                                    unsigned wg_size, orx_program **out, unsigned *subgroup_size,
                                    int *from_disk) {
  const orx_backend_ops *ops = ctx->ops;
  *from_disk = 0;
  if (ctx->cache_dir[0] && ctx->cache_trusted == 0)
    ctx->cache_trusted =
        orx_cache_trust(ctx->cache_dir, sizeof ctx->cache_dir, ctx->cache_secret) ? 1 : -1;
  orx_digest key;
  if (ctx->cache_trusted != 1 || !ops->build_binary || !ops->program_binary ||
      !orx_plan_caches_binaries(&ctx->caps, &ctx->target.forced) ||
      !key_of(ctx, sources, count, options, kernel_name, wg_size, &key))
    return ops->build(ctx, ctx->backend, sources, count, options, kernel_name, wg_size, out,
                      subgroup_size);
  char path[ORX_CACHE_PATH_CAPACITY], lock_path[ORX_CACHE_PATH_CAPACITY + 8];
  path_of(ctx, &key, path, sizeof path);
  if (load_entry(ctx, path, &key, kernel_name, wg_size, out, subgroup_size)) {
    *from_disk = 1;
    return OCL_REDUCE_OK;
  }
  const int lock = lock_build(path, lock_path, sizeof lock_path);
  if (lock >= 0 && load_entry(ctx, path, &key, kernel_name, wg_size, out, subgroup_size)) {
    unlock_build(lock, lock_path); /* the context we waited for built it */
    *from_disk = 1;
    return OCL_REDUCE_OK;
  }
  const ocl_reduce_status built =
      ops->build(ctx, ctx->backend, sources, count, options, kernel_name, wg_size, out,
                 subgroup_size);
  void *binary = NULL;
  size_t size = 0;
  if (built == OCL_REDUCE_OK &&
      ops->program_binary(ctx, ctx->backend, *out, &binary, &size) == OCL_REDUCE_OK && binary)
    write_entry(ctx, path, &key, binary, size);
  free(binary);
  unlock_build(lock, lock_path);
  return built;
}
