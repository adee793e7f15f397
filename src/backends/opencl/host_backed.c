/* =================================================================================================
 * host_backed.c: the host memory a CPU device's buffers live in (opencl.h). Buffers of CPU
 * devices live in host memory we allocate ourselves. Large ones 2 MiB aligned and marked for
 * transparent huge pages: streaming through 4 KiB pages costs a TLB miss every 4 KiB, which under
 * virtualisation is a two-level page walk. Measured on a 2-core VM: 22 -> 29 and 38 -> 56 GB/s for
 * a 64 MiB sum. Small ones on whole pages, sized in whole pages: Intel's CPU runtime works in a
 * CL_MEM_USE_HOST_PTR buffer's own memory only when it starts on a page and its size is a multiple
 * of 64 bytes; then the calling thread can reduce them in place (the host plan of CPU devices).
 * The memory is freed when the implementation destroys the cl_mem. The caller's own host memory
 * is viewed the same way, for one call (orx_cl_view_host_memory).
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) on Linux */
#include <stdint.h>
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

/* Whether the device works in bytes [at, at + bytes) of a fresh page of ours as a
 * CL_MEM_USE_HOST_PTR buffer's memory, rather than in a copy it writes back only when mapped
 * (which the specification allows): a fill of such a buffer, on a queue of the probe's own, must
 * reach the memory. The page is freed with the buffer. */
static int works_in_place(orx_backend *be, size_t at, size_t bytes) {
  unsigned char *page = orx_aligned_alloc(ORX_PAGE, ORX_PAGE);
  if (!page)
    return 0;
  unsigned char *memory = page + at;
  cl_int code = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(be->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, memory,
                              &code);
  if (!mem || clSetMemObjectDestructorCallback(mem, free_host_memory, page) != CL_SUCCESS) {
    if (mem)
      clReleaseMemObject(mem); /* the page may still be the buffer's: left, a page once */
    else
      free(page);
    return 0;
  }
  cl_command_queue queue = clCreateCommandQueue(be->context, be->device, 0, &code);
  int in_place = 0;
  if (queue) {
    memset(memory, 0, bytes);
    const cl_uint pattern = 0xa5a5a5a5u;
    if (clEnqueueFillBuffer(queue, mem, &pattern, sizeof pattern, 0, bytes, 0, NULL, NULL) ==
            CL_SUCCESS &&
        clFinish(queue) == CL_SUCCESS) {
      in_place = 1;
      for (size_t i = 0; i < bytes; i++)
        in_place &= memory[i] == 0xa5;
    }
    clReleaseCommandQueue(queue);
  }
  clReleaseMemObject(mem);
  return in_place;
}

/* Where the device works in a CL_MEM_USE_HOST_PTR buffer's own memory (opencl.h): in any host
 * memory (PoCL), in memory that starts on a page and is a multiple of 64 bytes (Intel's CPU
 * runtime, which copies other memory), or nowhere. Probed on a page, then on memory 16 bytes
 * into one and of a size that is no multiple of 64 (as malloc gives large arrays). Where it does,
 * the host reads what the device wrote there with no map: our buffers' storage (host_storage) and
 * views of the caller's memory (device_views.c). */
orx_cl_in_place orx_cl_probe_in_place(orx_backend *be) {
  if (!works_in_place(be, 0, ORX_PAGE))
    return ORX_CL_IN_PLACE_NONE;
  return works_in_place(be, 16, ORX_PAGE - 48) ? ORX_CL_IN_PLACE_ANY : ORX_CL_IN_PLACE_PAGES;
}

/* The caller's host memory as a CL_MEM_USE_HOST_PTR buffer, where the device works in it in place
 * (orx_cl_probe_in_place). Intel's runtime copies other memory at once, and back when mapped:
 * 2^24 i32 keys and f32 values from malloc's memory, reduced by key on this 2-core machine,
 * took 69 ms where our copies took 25-28 (the kernel 10). Other devices: none. */
ocl_reduce_status orx_cl_view_host_memory(ocl_reduce_context *ctx, orx_backend *be, void *host,
                                          size_t bytes, orx_mem **out) {
  *out = NULL;
  const int whole_pages = (uintptr_t)host % ORX_PAGE == 0 && bytes % 64 == 0;
  if (bytes == 0 || be->in_place == ORX_CL_IN_PLACE_NONE ||
      (be->in_place == ORX_CL_IN_PLACE_PAGES && !whole_pages))
    return OCL_REDUCE_OK;
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  /* Read-write even where the device only reads: Intel's runtime copies the memory of a
   * CL_MEM_READ_ONLY one (28 ms for 64 MiB here), and works in that of a read-write one. */
  cl_int code = CL_SUCCESS;
  m->mem =
      clCreateBuffer(be->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &code);
  if (code != CL_SUCCESS) {
    free(m);
    return orx_cl_fail(ctx, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", code);
  }
  *out = m;
  return OCL_REDUCE_OK;
}
