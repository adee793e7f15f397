/* =================================================================================================
 * plan_path.c: which path and subgroup implementation a context takes on a device (planner.h):
 * the subgroup implementations in order of preference, where the device offers one, else local
 * memory (and local memory on CPU devices whose subgroups are real, where it was measured faster);
 * a forced path or named implementation is never a fallback.
 * ============================================================================================== */
#include "planner/planner.h"
#include "base/util.h"

static int impl_available(const orx_caps *caps, ocl_reduce_subgroup_impl impl) {
  switch (impl) {
  case OCL_REDUCE_SUBGROUP_KHR:
    return caps->has_khr_shuffle;
  case OCL_REDUCE_SUBGROUP_INTEL:
    return caps->has_intel_subgroups;
  case OCL_REDUCE_SUBGROUP_BUILTIN:
    return caps->has_khr_subgroups;
  case OCL_REDUCE_SUBGROUP_NV_PTX:
    /* shfl.sync.bfly with clamp 0x1f and a full member mask is written for 32-lane warps. */
    return caps->warp_size == 32 && !caps->has_cuda_shuffle;
  case OCL_REDUCE_SUBGROUP_CUDA:
    return caps->has_cuda_shuffle;
  default:
    return 0;
  }
}

static const char *impl_requirement(ocl_reduce_subgroup_impl impl) {
  switch (impl) {
  case OCL_REDUCE_SUBGROUP_KHR:
    return "cl_khr_subgroup_shuffle";
  case OCL_REDUCE_SUBGROUP_INTEL:
    return "cl_intel_subgroups";
  case OCL_REDUCE_SUBGROUP_BUILTIN:
    return "cl_khr_subgroups (or the OpenCL C 3.0 feature __opencl_c_subgroups)";
  case OCL_REDUCE_SUBGROUP_NV_PTX:
    return "NVIDIA's OpenCL with a warp size of 32 (cl_nv_device_attribute_query)";
  case OCL_REDUCE_SUBGROUP_CUDA:
    return "the CUDA backend";
  default:
    return "a subgroup extension";
  }
}

ocl_reduce_status orx_plan_path(const orx_caps *caps, ocl_reduce_path path,
                                ocl_reduce_subgroup_impl impl, ocl_reduce_path *path_out,
                                ocl_reduce_subgroup_impl *impl_out, const char **why) {
  static const ocl_reduce_subgroup_impl preference[] = {
      OCL_REDUCE_SUBGROUP_KHR, OCL_REDUCE_SUBGROUP_INTEL, OCL_REDUCE_SUBGROUP_NV_PTX,
      OCL_REDUCE_SUBGROUP_CUDA, OCL_REDUCE_SUBGROUP_BUILTIN};
  *why = NULL;
  if (path == OCL_REDUCE_PATH_LOCAL) {
    *path_out = OCL_REDUCE_PATH_LOCAL;
    *impl_out = OCL_REDUCE_SUBGROUP_NONE;
    return OCL_REDUCE_OK;
  }
  /* A named implementation is a request for the subgroup path with it, never a fallback. */
  if (impl != OCL_REDUCE_SUBGROUP_AUTO && impl != OCL_REDUCE_SUBGROUP_DEFAULT) {
    if (!impl_available(caps, impl)) {
      *why = impl_requirement(impl);
      return OCL_REDUCE_ERROR_PATH_UNSUPPORTED;
    }
    *path_out = OCL_REDUCE_PATH_SUBGROUP;
    *impl_out = impl;
    return OCL_REDUCE_OK;
  }
  /* CPU devices whose subgroups are real (Intel's CPU runtime; PoCL's are work-group barriers,
   * which its plans leave aside) take local memory unless the subgroup path is asked for: on
   * Intel's runtime (2 cores, 32 MiB from buffers, device us, subgroup / local) f32 MAX 4464 /
   * 947, i32 SUM 4070 / 730, f64 SUM 4462 / 1303, MEAN_VAR 3981 / 2659; segments alike
   * (docs/perf/cpu-intel-local-path.txt). */
  if (path != OCL_REDUCE_PATH_SUBGROUP && caps->type == OCL_REDUCE_DEVICE_CPU &&
      !caps->emulated_subgroups) {
    *path_out = OCL_REDUCE_PATH_LOCAL;
    *impl_out = OCL_REDUCE_SUBGROUP_NONE;
    return OCL_REDUCE_OK;
  }
  for (size_t i = 0; i < ORX_ARRAY_SIZE(preference); i++) {
    if (impl_available(caps, preference[i])) {
      *path_out = OCL_REDUCE_PATH_SUBGROUP;
      *impl_out = preference[i];
      return OCL_REDUCE_OK;
    }
  }
  if (path == OCL_REDUCE_PATH_SUBGROUP) {
    *why = "cl_khr_subgroup_shuffle, cl_intel_subgroups, cl_khr_subgroups or NVIDIA's OpenCL";
    return OCL_REDUCE_ERROR_PATH_UNSUPPORTED;
  }
  *path_out = OCL_REDUCE_PATH_LOCAL;
  *impl_out = OCL_REDUCE_SUBGROUP_NONE;
  return OCL_REDUCE_OK;
}

/* Every device blocks in the implementation's wait. CPU devices: polling would take a core from
 * the implementation's own worker threads. NVIDIA's OpenCL (H200, driver 580, f32 sums of
 * 2^10 ... 2^24, the result in host memory, one run): a blocking read 22-24 us up to 2^20, 31 at
 * 2^22, 43 at 2^24; a read without blocking, flushed and polled, 29-31, 62 and 75 (its floor,
 * bench_floor: blocking 14.0 us, polled 20.0). wait=poll keeps polling for other GPUs. */
int orx_plan_wait_polls(const orx_caps *caps, const orx_policy_override *forced) {
  (void)caps;
  return forced->wait_polls > 0;
}

/* The library's program cache keeps a device's binaries, but not where the implementation keeps
 * compiled kernels itself and reading a binary back costs it a compile of every kernel (PoCL with
 * its kernel cache on, caps.keeps_own_kernel_cache): PoCL builds a generic work-group function
 * for each kernel then, beside the one each launch's work-group size gets. 30 programs of
 * test_operators (light): PoCL 3.1 built them from source in 3.7 s and read their binaries in
 * 7.3 s more; PoCL 5 (16-core Xeon, H200 machine) 8.8 s and 7.0-7.3 s more; NVIDIA's OpenCL 5.0
 * s and nothing. test_operators, cold caches: 45 s with the library's cache, 26 s with PoCL's
 * alone; warm: 4.1 s with both, 5.9 s with PoCL's alone (it preprocesses the text to find it).
 * binaries=1 keeps them anyway (the tests of the cache), binaries=0 keeps none. */
int orx_plan_caches_binaries(const orx_caps *caps, const orx_policy_override *forced) {
  return forced->binaries >= 0 ? forced->binaries : !caps->keeps_own_kernel_cache;
}

/* Threads spin 250 us after a call, as OpenMP's do, before they sleep: waking a sleeping one
 * took some 30 us (PoCL 5's host grid; two H100s, where the second device's launch waited for
 * it), and a loop of f32 sums of 2^28 over two H100s calls every 200 us. spin_us=0 makes them
 * sleep at once, for applications that would rather keep those cores idle. */
unsigned long orx_plan_spin_ns(const orx_policy_override *forced) {
  return forced && forced->spin_us >= 0 ? (unsigned long)forced->spin_us * 1000ul : 250000ul;
}
