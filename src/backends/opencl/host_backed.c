/* =================================================================================================
 * host_backed.c: the host memory a CPU device's buffers live in (opencl.h). Buffers of CPU
 * devices live in host memory we allocate ourselves. Large ones 2 MiB aligned and marked for
 * transparent huge pages: streaming through 4 KiB pages costs a TLB miss every 4 KiB, which under
 * virtualisation is a two-level page walk. Measured on a 2-core VM: 22 -> 29 and 38 -> 56 GB/s for
 * a 64 MiB sum. Small ones on whole pages, sized in whole pages: Intel's CPU runtime works in a
 * CL_MEM_USE_HOST_PTR buffer's own memory only when it starts on a page and its size is a multiple
 * of 64 bytes; then the calling thread can reduce them in place (the host plan of CPU devices).
 * The memory is freed when the implementation destroys the cl_mem.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) on Linux */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "backends/opencl/opencl.h"

#define ORX_HUGE_PAGE ((size_t)2 << 20)
#define ORX_PAGE ((size_t)4096)

static void CL_CALLBACK free_host_memory(cl_mem mem, void *memory) {
  (void)mem;
  free(memory);
}

cl_mem orx_cl_create_host_backed(orx_backend *be, size_t bytes, void **storage, cl_int *code) {
  const size_t align = bytes >= ORX_HUGE_PAGE ? ORX_HUGE_PAGE : ORX_PAGE;
  const size_t rounded = (bytes + align - 1) / align * align;
  void *memory = orx_aligned_alloc(align, rounded);
  if (!memory) {
    *code = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
#ifdef MADV_HUGEPAGE
  if (align == ORX_HUGE_PAGE)
    madvise(memory, rounded, MADV_HUGEPAGE); /* a hint: without THP the memory still works */
#endif
  cl_mem mem =
      clCreateBuffer(be->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, rounded, memory, code);
  if (*code == CL_SUCCESS)
    *code = clSetMemObjectDestructorCallback(mem, free_host_memory, memory);
  if (*code != CL_SUCCESS) {
    if (mem)
      clReleaseMemObject(mem);
    else
      free(memory);
    return NULL;
  }
  *storage = memory;
  return mem;
}

/* Whether the device works in the host memory of a CL_MEM_USE_HOST_PTR buffer, rather than in a
 * copy it writes back only when mapped (which the specification allows): a fill of such a buffer,
 * on a queue of the probe's own, must reach the memory. PoCL's and Intel's CPU devices work in
 * place. */
int orx_cl_buffers_in_place(orx_backend *be) {
  cl_int code = CL_SUCCESS;
  void *storage = NULL;
  cl_mem mem = orx_cl_create_host_backed(be, ORX_PAGE, &storage, &code);
  cl_command_queue queue = mem ? clCreateCommandQueue(be->context, be->device, 0, &code) : NULL;
  int in_place = 0;
  if (queue) {
    memset(storage, 0, ORX_PAGE);
    const cl_uint pattern = 0xa5a5a5a5u;
    if (clEnqueueFillBuffer(queue, mem, &pattern, sizeof pattern, 0, ORX_PAGE, 0, NULL, NULL) ==
            CL_SUCCESS &&
        clFinish(queue) == CL_SUCCESS) {
      in_place = 1;
      for (size_t i = 0; i < ORX_PAGE; i++)
        in_place &= ((const unsigned char *)storage)[i] == 0xa5;
    }
    clReleaseCommandQueue(queue);
  }
  if (mem)
    clReleaseMemObject(mem);
  return in_place;
}
