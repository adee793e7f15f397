/* =================================================================================================
 * cache_trust.c: the program cache's directory checks, its secret and its file openings
 * (cache_trust.h).
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* realpath, O_NOFOLLOW, O_CLOEXEC, getrandom in strict C11 */
#include "exec/cache_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/util.h"

/* Why the directory `path` (the cache's own when is_cache, else one above it) may not be trusted,
 * or NULL. Above the cache, root's directories and sticky ones (/tmp) are safe: nobody else can
 * rename or replace what is in them. */
static const char *directory_problem(const char *path, int is_cache) {
  struct stat st;
  if (stat(path, &st) != 0)
    return strerror(errno);
  const uid_t me = geteuid();
  if (!S_ISDIR(st.st_mode))
    return "not a directory";
  if (is_cache && st.st_uid != me)
    return "owned by another user";
  if (is_cache && (st.st_mode & (S_IWGRP | S_IWOTH)))
    return "writable by group or others";
  if (!is_cache && st.st_uid != me && st.st_uid != 0)
    return "a directory above it is owned by another user";
  if (!is_cache && (st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
    return "a directory above it is writable by group or others";
  return NULL;
}

int orx_cache_dir_checked(char *dir, size_t size, const char **why) {
  char resolved[PATH_MAX];
  if (!realpath(dir, resolved)) {
    *why = strerror(errno);
    return 0;
  }
  if (strlen(resolved) >= size) {
    *why = "its real path is too long";
    return 0;
  }
  if ((*why = directory_problem(resolved, 1)) != NULL)
    return 0;
  char above[PATH_MAX];
  orx_strlcpy(above, resolved, sizeof above);
  for (char *slash; (slash = strrchr(above, '/')) != NULL;) {
    slash[slash == above] = '\0'; /* "/a/b" -> "/a" -> "/" */
    if ((*why = directory_problem(above, 0)) != NULL)
      return 0;
    if (slash == above)
      break;
  }
  orx_strlcpy(dir, resolved, size);
  return 1;
}

/* Creates dir and its missing parents (0700: programs are the user's own). */
static int make_directories(const char *dir) {
  char path[PATH_MAX];
  if (strlen(dir) >= sizeof path)
    return 0;
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

int orx_cache_open_file(const char *path, int flags, const char **problem) {
  *problem = NULL;
  const int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno != ENOENT)
      *problem = errno == ELOOP ? "a symbolic link" : strerror(errno);
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0)
    *problem = strerror(errno);
  else if (!S_ISREG(st.st_mode))
    *problem = "not a regular file";
  else if (st.st_uid != geteuid())
    *problem = "owned by another user";
  else if (st.st_mode & (S_IWGRP | S_IWOTH))
    *problem = "writable by group or others";
  if (*problem) {
    close(fd);
    return -1;
  }
  /* Blocking again for the reads and writes of a regular file. */
  (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

static int random_bytes(void *bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t got = getrandom((char *)bytes + done, size - done, 0);
    if (got < 0 && errno != EINTR)
      return 0;
    done += got > 0 ? (size_t)got : 0;
  }
  return 1;
}

int orx_cache_create_temporary(const char *path, char *temporary, size_t size) {
  unsigned char noise[8];
  if (!random_bytes(noise, sizeof noise))
    return -1;
  int written = snprintf(temporary, size, "%s.", path);
  for (size_t i = 0; i < sizeof noise && written > 0 && (size_t)written < size; i++)
    written += snprintf(temporary + written, size - (size_t)written, "%02x", noise[i]);
  if (written < 0 || (size_t)written + 5 > size)
    return -1;
  orx_strlcpy(temporary + written, ".tmp", size - (size_t)written);
  return open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

int orx_cache_read(int fd, void *bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t got = read(fd, (char *)bytes + done, size - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return 0;
    done += (size_t)got;
  }
  return 1;
}

int orx_cache_write(int fd, const void *bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t put = write(fd, (const char *)bytes + done, size - done);
    if (put < 0 && errno == EINTR)
      continue;
    if (put <= 0)
      return 0;
    done += (size_t)put;
  }
  return 1;
}

/* Reads the secret of the trusted directory `dir`, creating it on first use: written to a
 * temporary and linked into place, so that of processes creating it at once one wins and the
 * others read the winner's. */
static const char *load_secret(const char *dir, unsigned char secret[ORX_CACHE_SECRET_BYTES]) {
  char path[PATH_MAX + 32], temporary[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/" ORX_CACHE_SECRET_NAME, dir);
  for (int attempt = 0; attempt < 2; attempt++) {
    const char *problem;
    int fd = orx_cache_open_file(path, O_RDONLY, &problem);
    if (fd >= 0) {
      char extra;
      const int whole = orx_cache_read(fd, secret, ORX_CACHE_SECRET_BYTES) && read(fd, &extra, 1) == 0;
      close(fd);
      return whole ? NULL : "its secret is not 32 bytes";
    }
    if (problem)
      return problem;
    unsigned char fresh[ORX_CACHE_SECRET_BYTES];
    if (!random_bytes(fresh, sizeof fresh))
      return "no random bytes for its secret";
    fd = orx_cache_create_temporary(path, temporary, sizeof temporary);
    if (fd < 0)
      return "cannot create its secret";
    const int written = orx_cache_write(fd, fresh, sizeof fresh);
    const int kept = close(fd) == 0 && written && (link(temporary, path) == 0 || errno == EEXIST);
    unlink(temporary);
    if (!kept)
      return "cannot write its secret";
  }
  return "its secret vanished while it was read";
}

int orx_cache_trust(char *dir, size_t size, unsigned char secret[ORX_CACHE_SECRET_BYTES]) {
  const char *why = NULL;
  char configured[PATH_MAX];
  orx_strlcpy(configured, dir, sizeof configured);
  if (orx_digest_ready(&why)) {
    why = NULL;
    if (!make_directories(dir))
      why = strerror(errno);
    else if (orx_cache_dir_checked(dir, size, &why))
      why = load_secret(dir, secret);
  }
  if (!why)
    return 1;
  orx_log("program cache: %s not used: %s", configured, why);
  return 0;
}
