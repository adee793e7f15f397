/* =================================================================================================
 * mpi_device.c: device memory that MPI moves itself (mpi_device.h).
 * ============================================================================================== */
#include "mpi/mpi_device.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ocl_reduce_mpi.h"

/* Open MPI declares MPIX_Query_cuda_support in mpi-ext.h wherever its CUDA extension is built
 * (returning 0 where the library was built without CUDA, as Debian's is); MPICH 4 has
 * MPIX_GPU_query_support in mpi.h. */
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

static int ask_mpi(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
  int supported = 0;
  return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS && supported;
#else
  return 0;
#endif
}

int orx_mpi_cuda_setting_valid(const char **value) {
  const char *setting = getenv("OCL_REDUCE_MPI_CUDA_AWARE");
  *value = setting;
  return !setting || !*setting || strcasecmp(setting, "auto") == 0 ||
         strcasecmp(setting, "off") == 0;
}

int orx_mpi_cuda_aware(void) {
  static atomic_int known = -1;
  int aware = atomic_load(&known);
  if (aware < 0) {
    const char *setting = NULL;
    /* Any other value is refused by every call (orx_mpi_begin) before this is asked. */
    const int valid = orx_mpi_cuda_setting_valid(&setting);
    aware = valid && !(setting && strcasecmp(setting, "off") == 0) && ask_mpi();
    atomic_store(&known, aware);
  }
  return aware;
}

int ocl_reduce_mpi_cuda_aware(void) { return orx_mpi_cuda_aware(); }

int orx_mpi_device_memory(ocl_reduce_context *ctx, const ocl_reduce_buffer *buffer,
                          uint64_t *address) {
  *address = 0;
  if (!buffer || !orx_mpi_cuda_aware())
    return 0;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  /* OpenCL buffers have no device address, and a group's buffer no one (INVALID_ARGUMENT). */
  return ocl_reduce_context_query(ctx, &info) == OCL_REDUCE_OK &&
         info.backend == OCL_REDUCE_BACKEND_CUDA &&
         ocl_reduce_buffer_native(buffer, NULL, address) == OCL_REDUCE_OK && *address != 0;
}

/* A device buffer per context for a rank's results on their way out, kept from call to call: one
 * made per call cost 300-400 us more than the hand-written form's reused buffer at 2-8 MiB of
 * results on an H100 (its allocation, and on the other ranks Open MPI's opening of a new
 * address's IPC handle). They hold their contexts until MPI_Finalize, which frees them (an
 * attribute of MPI_COMM_SELF, whose deletion MPI_Finalize runs first). A buffer in use by another
 * thread's call is not shared: that call makes its own. */
#define KEPT_MAX 8
static struct kept {
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *buffer;
  int in_use;
} kept[KEPT_MAX];
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static int kept_keyval = MPI_KEYVAL_INVALID;

static int release_kept(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  pthread_mutex_lock(&kept_lock);
  for (int k = 0; k < KEPT_MAX; k++) {
    ocl_reduce_buffer_destroy(kept[k].buffer);
    kept[k] = (struct kept){0};
  }
  pthread_mutex_unlock(&kept_lock);
  return MPI_SUCCESS;
}

ocl_reduce_status orx_mpi_device_results(ocl_reduce_context *ctx, size_t bytes,
                                         ocl_reduce_buffer **out) {
  *out = NULL;
  pthread_mutex_lock(&kept_lock);
  if (kept_keyval == MPI_KEYVAL_INVALID &&
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_kept, &kept_keyval, NULL) ==
          MPI_SUCCESS)
    MPI_Comm_set_attr(MPI_COMM_SELF, kept_keyval, NULL);
  int slot = -1;
  for (int k = 0; k < KEPT_MAX && slot < 0; k++)
    if (kept[k].ctx == ctx && !kept[k].in_use)
      slot = k;
  for (int k = 0; k < KEPT_MAX && slot < 0; k++)
    if (!kept[k].ctx)
      slot = k;
  ocl_reduce_status status = OCL_REDUCE_OK;
  if (slot >= 0 && kept[slot].buffer && ocl_reduce_buffer_size(kept[slot].buffer) < bytes) {
    ocl_reduce_buffer_destroy(kept[slot].buffer); /* too small: a larger one */
    kept[slot] = (struct kept){0};
  }
  if (slot >= 0 && !kept[slot].buffer &&
      (status = ocl_reduce_buffer_create(ctx, bytes, &kept[slot].buffer)) == OCL_REDUCE_OK)
    kept[slot].ctx = ctx;
  if (slot >= 0 && kept[slot].buffer) {
    kept[slot].in_use = 1;
    *out = kept[slot].buffer;
  }
  pthread_mutex_unlock(&kept_lock);
  if (slot < 0) /* every slot another context's, or in use: this call's own */
    status = ocl_reduce_buffer_create(ctx, bytes, out);
  return status;
}

void orx_mpi_device_results_done(ocl_reduce_buffer *buffer) {
  pthread_mutex_lock(&kept_lock);
  int found = 0;
  for (int k = 0; k < KEPT_MAX && !found; k++)
    if (kept[k].buffer == buffer && buffer) {
      kept[k].in_use = 0;
      found = 1;
    }
  pthread_mutex_unlock(&kept_lock);
  if (!found)
    ocl_reduce_buffer_destroy(buffer);
}
