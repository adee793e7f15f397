/* =================================================================================================
 * cache_bound.h: the program cache's size limit (cache_bound.c). The disk cache (disk_cache.h)
 * marks an entry used by setting its modification time when it loads it; after each entry it
 * writes, the directory is trimmed to its limit by removing the least recently used entries, and
 * temporaries that a killed process left (older than an hour) go too. Processes share a cache
 * safely: an entry removed while another process reads it stays readable to that process (POSIX
 * unlink), an entry removed twice is a harmless ENOENT, and a removed entry only costs a build.
 * ============================================================================================== */
#ifndef ORX_CACHE_BOUND_H
#define ORX_CACHE_BOUND_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

/* The longest cache directory path kept (bytes, with the terminating NUL), and a file's in it. */
#define ORX_CACHE_DIR_CAPACITY 1024
#define ORX_CACHE_PATH_CAPACITY (ORX_CACHE_DIR_CAPACITY + 128)

/* The default limit: a few hundred programs of PoCL's size, thousands of NVIDIA's. */
#define ORX_CACHE_MAX_DEFAULT ((uint64_t)256 << 20)

/* The limit: `option` (ocl_reduce_options.cache_max_bytes) when nonzero, else
 * OCL_REDUCE_CACHE_MAX ("512M", "1G", "1048576"; K, M, G are powers of 1024), else the default.
 * INVALID_OPTION naming the variable when it does not parse. */
ocl_reduce_status orx_cache_max(uint64_t option, uint64_t *max);

/* The cache's entries and their bytes (0 and 0 for a directory that is not there). */
void orx_cache_usage(const char *dir, uint64_t *bytes, uint64_t *entries);

/* Removes the least recently used entries of `dir` until its entries take at most max bytes,
 * and temporaries older than an hour; `keep` (an entry just written) goes last. */
void orx_cache_trim(const char *dir, uint64_t max, const char *keep);

/* Removes every entry and temporary of `dir`, and nothing else (only the names the cache gives
 * its files, only regular files, never through a link); the number of files removed. */
uint64_t orx_cache_clear(const char *dir);

#endif /* ORX_CACHE_BOUND_H */
