/* =================================================================================================
 * registry.c: the backends, one row each (registry.h). A backend built only where its headers
 * exist (CUDA) keeps its row without a table otherwise, so that its name still reads in
 * messages ("built without the CUDA backend") and its public value stays valid. A new backend is
 * its folder, its row here, its public enum value and its create and wrap functions.
 * ============================================================================================== */
#include "backends/registry/registry.h"

#include "base/util.h"

/* Each backend's table where its backend.cmake built it (ORX_HAVE_<NAME>), else NULL. */
#ifdef ORX_HAVE_OPENCL
extern const orx_backend_ops orx_opencl_backend; /* opencl/ */
#define ORX_OPENCL_OPS (&orx_opencl_backend)
#else
#define ORX_OPENCL_OPS NULL
#endif
#ifdef ORX_HAVE_CUDA
extern const orx_backend_ops orx_cuda_backend; /* cuda/ */
#define ORX_CUDA_OPS (&orx_cuda_backend)
#else
#define ORX_CUDA_OPS NULL
#endif

static const orx_backend_row rows[] = {
    {OCL_REDUCE_BACKEND_OPENCL, "opencl", "OpenCL", ORX_OPENCL_OPS},
    {OCL_REDUCE_BACKEND_CUDA, "cuda", "CUDA", ORX_CUDA_OPS},
};

size_t orx_backend_row_count(void) { return ORX_ARRAY_SIZE(rows); }

const orx_backend_row *orx_backend_row_at(size_t index) { return &rows[index]; }

const orx_backend_row *orx_backend_row_of(ocl_reduce_backend kind) {
  for (size_t i = 0; i < ORX_ARRAY_SIZE(rows); i++)
    if (rows[i].kind == kind)
      return &rows[i];
  return NULL;
}

const char *orx_backend_missing_slot(const orx_backend_ops *ops) {
#define ORX_REQUIRED(slot)                                                                         \
  if (!ops->slot)                                                                                  \
    return #slot;
  ORX_REQUIRED(list_devices) ORX_REQUIRED(open) ORX_REQUIRED(close) ORX_REQUIRED(build)
  ORX_REQUIRED(release_program) ORX_REQUIRED(program_native) ORX_REQUIRED(alloc)
  ORX_REQUIRED(wrap) ORX_REQUIRED(release_mem) ORX_REQUIRED(mem_native) ORX_REQUIRED(finish)
  ORX_REQUIRED(enqueue_wait) ORX_REQUIRED(enqueue_marker) ORX_REQUIRED(write) ORX_REQUIRED(read)
  ORX_REQUIRED(copy) ORX_REQUIRED(launch) ORX_REQUIRED(native) ORX_REQUIRED(wait_marker)
#undef ORX_REQUIRED
  /* Optional sets: all or none. */
  if (!ops->program_binary != !ops->build_binary)
    return "program_binary";
  const int pinned = !!ops->alloc_pinned + !!ops->write_async + !!ops->read_async;
  if (pinned != 0 && pinned != 3)
    return "alloc_pinned";
  return NULL;
}

const orx_backend_row *orx_backend_row_of_ops(const orx_backend_ops *ops) {
  for (size_t i = 0; i < ORX_ARRAY_SIZE(rows); i++)
    if (rows[i].ops == ops)
      return &rows[i];
  return NULL;
}
