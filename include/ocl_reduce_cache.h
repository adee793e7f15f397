/*
 * ocl_reduce_cache.h: the program cache seen from outside a context, included by ocl_reduce.h.
 * Programs built for a device are kept on disk between processes, only in a directory of the
 * user's own, each entry authenticated (docs/API.md, "Program cache").
 */
#ifndef OCL_REDUCE_CACHE_H
#define OCL_REDUCE_CACHE_H

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Its directory and limit are a context's (options.cache_dir and cache_max_bytes, else the
 * environment); least recently used entries go first. opts may be NULL. */
typedef struct ocl_reduce_cache_info {
  size_t struct_size; /* OCL_REDUCE_CACHE_INFO_INIT */
  char dir[1024];     /* the directory (its real path when it is used); "" when the cache is off */
  uint64_t bytes;     /* the entries' bytes now */
  uint64_t entries;
  uint64_t max_bytes; /* the limit (options.cache_max_bytes, OCL_REDUCE_CACHE_MAX, 256 MiB) */
  /* 0.3: why dir is not used although set ("" when it is, or is not there yet): it, or a
   * directory above it, belongs to another user or is writable by others. */
  char unused_because[256];
} ocl_reduce_cache_info;
#define OCL_REDUCE_CACHE_INFO_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_cache_info)
OCL_REDUCE_API ocl_reduce_status ocl_reduce_cache_query(const ocl_reduce_options *opts,
                                                        ocl_reduce_cache_info *info);
/* Removes every entry (also other processes' programs; they rebuild them) and nothing else;
 * *removed may be NULL. INVALID_OPTION for a directory the cache does not use. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_cache_clear(const ocl_reduce_options *opts,
                                                        uint64_t *removed);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_CACHE_H */
