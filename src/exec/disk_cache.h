/* =================================================================================================
 * disk_cache.h: built programs kept on disk between processes (disk_cache.c), so that a new
 * process's first reduction loads a device binary instead of compiling. Every build of the
 * library goes through orx_build_program.
 *
 * An entry is one file, <dir>/<64 hex digits>.bin, named by a SHA-256 of everything that changes
 * the code: the library's version, the backend, the device, platform, driver and compiler
 * versions, the program's text (defines included), its kernel and work-group size. The file
 * repeats that key and carries the payload's size and an HMAC-SHA-256 under the cache's secret
 * (cache_trust.h): an entry that is truncated, corrupt, another key's, another cache's or one the
 * implementation refuses is ignored and rewritten, and nothing reaches a driver unauthenticated. Writes go to a
 * temporary file renamed into place (atomic on POSIX file systems), so processes filling one
 * cache at once never see half an entry, and an entry is built under a lock file beside it
 * (<entry>.lock, flock), so that contexts missing it at once build it once: the others wait and
 * load it. A directory that cannot be created or written costs the speed, never a result. The
 * cache keeps to its size limit (cache_bound.h).
 * ============================================================================================== */
#ifndef ORX_DISK_CACHE_H
#define ORX_DISK_CACHE_H

#include <stddef.h>

#include "backends/backend.h"
#include "exec/cache_bound.h"

/* The cache directory for a context: `option` (ocl_reduce_options.cache_dir), else
 * OCL_REDUCE_CACHE_DIR, else $XDG_CACHE_HOME/ocl_reduce, else $HOME/.cache/ocl_reduce; "off"
 * (any case) in the option or the variable turns the cache off: dir becomes "". INVALID_OPTION
 * when the path does not fit. */
ocl_reduce_status orx_disk_cache_dir(const char *option, char *dir, size_t size);

/* Builds `sources` for ctx's device, as the backend's build() does, through the disk cache when
 * ctx has one and the backend offers binaries. *from_disk says whether the program was loaded. */
ocl_reduce_status orx_build_program(ocl_reduce_context *ctx, const orx_source *sources,
                                    size_t count, const char *options, const char *kernel_name,
                                    unsigned wg_size, orx_program **out, unsigned *subgroup_size,
                                    int *from_disk);

#endif /* ORX_DISK_CACHE_H */
