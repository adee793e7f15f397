/* =================================================================================================
 * cache_trust.h: what makes the program cache safe to read back (cache_trust.c). A program read
 * from disk runs on the device with the process's rights, so the cache is used only where nobody
 * but its owner can have written it:
 * - its directory is the user's own and not writable by group or others, and every directory
 *   above it belongs to the user or root and is writable by others only when sticky (/tmp), as
 *   OpenSSH checks ~/.ssh; otherwise the cache is off, with one log line saying why;
 * - every entry carries an HMAC-SHA-256 under a per-user secret (<dir>/secret, 0600, 32 random
 *   bytes): an entry that another user, or another cache, wrote is refused before any driver
 *   sees it;
 * - files are opened without following links and only when they are regular files of the user
 *   (a FIFO or a device at an entry's name never blocks), temporaries are created exclusively
 *   under unpredictable names, and everything the cache writes is 0600.
 * ============================================================================================== */
#ifndef ORX_CACHE_TRUST_H
#define ORX_CACHE_TRUST_H

#include <stddef.h>

#include "base/digest.h"

#define ORX_CACHE_SECRET_BYTES 32
/* The secret's file name in the cache directory (never an entry's: cache_bound.c). */
#define ORX_CACHE_SECRET_NAME "secret"

/* Makes `dir` ready for use: creates it (0700) and its missing parents, checks it and its
 * parents, replaces it by its real path (resolved, size bytes), and reads or creates the
 * secret. 1 when the cache may be used; else 0, logged once per directory and process with the
 * reason. */
int orx_cache_trust(char *dir, size_t size, unsigned char secret[ORX_CACHE_SECRET_BYTES]);

/* The real path of an existing trusted cache directory (for listing and clearing it): 1 and dir
 * replaced when `dir` passes the directory checks; 0 when it is not there or fails them (*why). */
int orx_cache_dir_checked(char *dir, size_t size, const char **why);

/* Opens a file of the cache for reading (O_NOFOLLOW, never blocking): its descriptor when it is a
 * regular file of the user not writable by others, else -1 with *problem set (NULL when it is
 * simply not there). */
int orx_cache_open_file(const char *path, int flags, const char **problem);

/* Creates a temporary for `path`: `<path>.<16 random hex digits>.tmp`, exclusively, 0600; its
 * descriptor, or -1. */
int orx_cache_create_temporary(const char *path, char *temporary, size_t size);

/* The whole of size bytes read from, or written to, fd (retrying short transfers): 1, else 0. */
int orx_cache_read(int fd, void *bytes, size_t size);
int orx_cache_write(int fd, const void *bytes, size_t size);

#endif /* ORX_CACHE_TRUST_H */
