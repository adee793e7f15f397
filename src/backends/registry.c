/* =================================================================================================
 * registry.c: the backends this library was built with, in order of preference (backend.h). A
 * backend built only where its headers exist (CUDA) is listed only then.
 * ============================================================================================== */
#include "backends/backend.h"
#include "core/util.h"

extern const orx_backend_ops orx_opencl_backend; /* opencl/ */
#ifdef ORX_HAVE_CUDA
extern const orx_backend_ops orx_cuda_backend; /* cuda/ */
#endif

static const orx_backend_ops *const registry[] = {
    &orx_opencl_backend,
#ifdef ORX_HAVE_CUDA
    &orx_cuda_backend,
#endif
};

size_t orx_backend_count(void) { return ORX_ARRAY_SIZE(registry); }

const orx_backend_ops *orx_backend_at(size_t index) { return registry[index]; }

const orx_backend_ops *orx_backend_of_kind(ocl_reduce_backend kind) {
  for (size_t i = 0; i < ORX_ARRAY_SIZE(registry); i++)
    if (registry[i]->kind == kind)
      return registry[i];
  return NULL;
}
