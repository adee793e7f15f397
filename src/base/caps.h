/* =================================================================================================
 * caps.h: what a device can do, as its backend reads it (backends/) and the planner uses it
 * (planner.c). Plain data: tests build synthetic devices from it.
 * ============================================================================================== */
#ifndef ORX_CAPS_H
#define ORX_CAPS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"
#include "orx_contract.h" /* ORX_SYNC_ ids */

typedef struct orx_caps {
  char platform_name[256];
  char platform_version[256];
  char device_name[256];
  char device_version[256];
  char driver_version[256];
  char compiler_version[64]; /* where the driver's version does not name it: "NVRTC 13.0" */
  unsigned platform_index, device_index;
  ocl_reduce_device_type type;
  unsigned compute_units;
  size_t max_work_group_size;
  uint64_t local_mem_bytes;
  uint64_t max_alloc_bytes;
  uint64_t global_mem_bytes;
  unsigned base_align_bytes; /* every allocation starts at a multiple of this */
  /* The bytes of the device's native vector registers (OpenCL: CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT
   * floats; a CPU's SIMD width: 32 with AVX2, 64 with AVX-512); 0 where not known. */
  unsigned native_vector_bytes;
  int has_fp64;
  int has_khr_subgroups; /* cl_khr_subgroups, or the OpenCL C 3.0 feature __opencl_c_subgroups */
  int has_khr_shuffle;       /* cl_khr_subgroup_shuffle */
  int has_intel_subgroups;   /* cl_intel_subgroups */
  /* The width of fixed-width warps (orx_subgroup_impl_warps): NVIDIA's OpenCL
   * CL_DEVICE_WARP_SIZE_NV, CUDA's warp size; 0 elsewhere. */
  unsigned warp_size;
  int has_cuda_shuffle;      /* the CUDA backend: __shfl_xor_sync */
  int has_pci_address;       /* pci_*: where the device sits (cl_khr_pci_bus_info) */
  unsigned pci_domain, pci_bus, pci_device;
  int emulated_subgroups;    /* subgroup operations are work-group barriers (PoCL's CPU device) */
  int work_items_in_turn;    /* a group's work-items run one after another between barriers (PoCL's
                                CPU device: a loop over them per stretch between barriers) */
  /* The implementation keeps compiled kernels in a cache of its own, and reading a program's binary
   * costs it a compile of every kernel (PoCL with POCL_KERNEL_CACHE on): the library's program
   * cache leaves its programs to it (orx_plan_caches_binaries). */
  int keeps_own_kernel_cache;
  int host_visible_memory;   /* the backend's alloc_host_visible works (OpenCL: fine-grained SVM) */
  /* How work-groups of one launch order their writes for each other (an ORX_SYNC_ id of
   * cl/orx_contract.h), and for ORX_SYNC_CL_ATOMICS the compiler option that turns on the OpenCL C
   * version that has them ("-cl-std=CL3.0"), which the programs that use them are built with. */
  int device_sync;
  char sync_build_option[16];
} orx_caps;

#endif /* ORX_CAPS_H */
