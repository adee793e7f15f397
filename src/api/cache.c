/* =================================================================================================
 * cache.c: the program cache seen from outside a context: where it is, what it holds against its
 * limit, and clearing it (ocl-reduce cache). The cache itself is execution's (disk_cache.h,
 * cache_bound.h); the directory and limit come from options and environment as a context's do.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* lstat in strict C11 */
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "exec/cache_bound.h"
#include "exec/cache_trust.h"
#include "exec/context_facts.h"
#include "exec/disk_cache.h"
#include "base/errors.h"

/* The directory ("" when off) and limit that a context created with opts would have. */
static ocl_reduce_status resolve(const char *fn, const ocl_reduce_options *opts, char *dir,
                                 size_t size, uint64_t *max) {
  static const ocl_reduce_options defaults = OCL_REDUCE_OPTIONS_INIT;
  if (!opts)
    opts = &defaults;
  ORX_CHECK_ARG(NULL,
                opts->struct_size >= ORX_FIRST_OPTIONS_SIZE &&
                    opts->struct_size <= OCL_REDUCE_STRUCT_SIZE_MAX,
                "%s: opts->struct_size is %zu, not sizeof(ocl_reduce_options) (%zu): start from "
                "OCL_REDUCE_OPTIONS_INIT",
                fn, opts->struct_size, sizeof *opts);
  const int has_max =
      opts->struct_size >= offsetof(ocl_reduce_options, cache_max_bytes) + sizeof(uint64_t);
  ORX_FORWARD(orx_disk_cache_dir(opts->cache_dir, dir, size));
  return orx_cache_max(has_max ? opts->cache_max_bytes : 0, max);
}

/* The size of ocl_reduce_cache_info in 0.2, before unused_because: the smallest taken. */
#define FIRST_CACHE_INFO_SIZE offsetof(ocl_reduce_cache_info, unused_because)

/* Why the existing directory `dir` is not one the cache uses (cache_trust.h), replacing dir by
 * its real path when it is; NULL when it is used or is not there yet. */
static const char *unused_because(char *dir, size_t size) {
  struct stat st;
  const char *why = NULL;
  if (lstat(dir, &st) != 0 || orx_cache_dir_checked(dir, size, &why))
    return NULL;
  return why;
}

ocl_reduce_status ocl_reduce_cache_query(const ocl_reduce_options *opts,
                                         ocl_reduce_cache_info *info) {
  ORX_CHECK_ARG(NULL, info, "ocl_reduce_cache_query: info is NULL");
  ORX_CHECK_ARG(NULL,
                info->struct_size >= FIRST_CACHE_INFO_SIZE &&
                    info->struct_size <= OCL_REDUCE_STRUCT_SIZE_MAX,
                "ocl_reduce_cache_query: info->struct_size is %zu, not "
                "sizeof(ocl_reduce_cache_info) (%zu): start from OCL_REDUCE_CACHE_INFO_INIT",
                info->struct_size, sizeof *info);
  ocl_reduce_cache_info found;
  memset(&found, 0, sizeof found);
  ORX_FORWARD(
      resolve("ocl_reduce_cache_query", opts, found.dir, sizeof found.dir, &found.max_bytes));
  const char *why = found.dir[0] ? unused_because(found.dir, sizeof found.dir) : NULL;
  if (why)
    orx_strlcpy(found.unused_because, why, sizeof found.unused_because);
  else if (found.dir[0])
    orx_cache_usage(found.dir, &found.bytes, &found.entries);
  orx_copy_sized(info, info->struct_size, &found, sizeof found);
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_cache_clear(const ocl_reduce_options *opts, uint64_t *removed) {
  char dir[ORX_CACHE_DIR_CAPACITY];
  uint64_t max = 0; /* unused, but checked: options a context would refuse are refused here too */
  ORX_FORWARD(resolve("ocl_reduce_cache_clear", opts, dir, sizeof dir, &max));
  const char *why = dir[0] ? unused_because(dir, sizeof dir) : NULL;
  if (why)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                    "ocl_reduce_cache_clear: %s is not a directory the program cache uses (%s): "
                    "nothing removed",
                    dir, why);
  const uint64_t count = dir[0] ? orx_cache_clear(dir) : 0;
  if (removed)
    *removed = count;
  return OCL_REDUCE_OK;
}
