/* =================================================================================================
 * devices.c: the OpenCL backend's devices: their capabilities, and opening one (by selector,
 * through the shared orx_pick_device over device_list.c's listing, or an application's queue).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/opencl.h"

/* ---- Capabilities ---------------------------------------------------------------------------- */

static void info_string(cl_device_id dev, cl_device_info what, char *buf, size_t size) {
  buf[0] = '\0';
  if (clGetDeviceInfo(dev, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

/* Whether a space-separated extension list holds `name` exactly. */
static int has_word(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += len) {
    int starts = (p == list) || p[-1] == ' ';
    int ends = p[len] == '\0' || p[len] == ' ';
    if (starts && ends)
      return 1;
  }
  return 0;
}

/* "OpenCL 2.1 ..." -> 21 */
static int version_of(const char *text) {
  int major = 0, minor = 0;
  if (sscanf(text, "OpenCL %d.%d", &major, &minor) == 2)
    return major * 10 + minor;
  return 0;
}

/* Whether the device's OpenCL C has the feature (3.0's CL_DEVICE_OPENCL_C_FEATURES); -1 when out
 * of host memory. */
static int has_c_feature(cl_device_id dev, const char *feature) {
#ifdef CL_DEVICE_OPENCL_C_FEATURES
  size_t bytes = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &bytes) != CL_SUCCESS || !bytes)
    return 0;
  cl_name_version *features = orx_malloc(bytes);
  if (!features)
    return -1;
  int found = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, bytes, features, NULL) == CL_SUCCESS) {
    for (size_t i = 0; i < bytes / sizeof *features; i++)
      if (strcmp(features[i].name, feature) == 0)
        found = 1;
  }
  free(features);
  return found;
#else
  (void)dev;
  (void)feature;
  return 0;
#endif
}

/* The names and version strings. */
static void read_names(orx_backend *be, orx_caps *caps) {
  cl_device_id dev = be->device;
  clGetPlatformInfo(be->platform, CL_PLATFORM_NAME, sizeof caps->platform_name,
                    caps->platform_name, NULL);
  clGetPlatformInfo(be->platform, CL_PLATFORM_VERSION, sizeof caps->platform_version,
                    caps->platform_version, NULL);
  caps->platform_name[sizeof caps->platform_name - 1] = '\0';
  caps->platform_version[sizeof caps->platform_version - 1] = '\0';
  info_string(dev, CL_DEVICE_NAME, caps->device_name, sizeof caps->device_name);
  info_string(dev, CL_DEVICE_VERSION, caps->device_version, sizeof caps->device_version);
  info_string(dev, CL_DRIVER_VERSION, caps->driver_version, sizeof caps->driver_version);
}

/* The device's type and sizes. */
static void read_sizes(cl_device_id dev, orx_caps *caps) {
  cl_device_type type = 0;
  cl_uint units = 0, align_bits = 0, native_floats = 0;
  size_t max_wg = 0;
  cl_ulong local_mem = 0, max_alloc = 0, global_mem = 0;
  clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof native_floats, &native_floats,
                  NULL);
  caps->type = orx_cl_device_type_of(type);
  caps->compute_units = units ? units : 1;
  caps->max_work_group_size = max_wg ? max_wg : 1;
  caps->local_mem_bytes = local_mem;
  caps->max_alloc_bytes = max_alloc;
  caps->global_mem_bytes = global_mem;
  caps->base_align_bytes = align_bits / 8;
  caps->native_vector_bytes = native_floats * 4;
}

/* What the device's extensions (ext) offer: double precision, subgroups, warps, its address; 0
 * when out of host memory. */
static int read_extensions(cl_device_id dev, const char *ext, orx_caps *caps) {
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  caps->has_fp64 = fp64 != 0 || has_word(ext, "cl_khr_fp64");
  caps->has_khr_shuffle = has_word(ext, "cl_khr_subgroup_shuffle");
  caps->has_intel_subgroups = has_word(ext, "cl_intel_subgroups");
  const int c_subgroups =
      has_word(ext, "cl_khr_subgroups") ? 1 : has_c_feature(dev, "__opencl_c_subgroups");
  if (c_subgroups < 0)
    return 0;
  caps->has_khr_subgroups = c_subgroups;
  /* NVIDIA's OpenCL has no subgroup extension, but its compiler takes inline PTX; the warp
   * size comes from cl_nv_device_attribute_query. */
  cl_uint warp = 0;
  if (strstr(caps->platform_name, "NVIDIA") && has_word(ext, "cl_nv_device_attribute_query") &&
      clGetDeviceInfo(dev, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) == CL_SUCCESS)
    caps->warp_size = warp;
  /* Where the device sits, so that AUTO can hand an NVIDIA GPU to the CUDA backend. */
  cl_device_pci_bus_info_khr pci;
  if (has_word(ext, "cl_khr_pci_bus_info") &&
      clGetDeviceInfo(dev, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL) == CL_SUCCESS) {
    caps->has_pci_address = 1;
    caps->pci_domain = pci.pci_domain;
    caps->pci_bus = pci.pci_bus;
    caps->pci_device = pci.pci_device;
  }
  return 1;
}

/* How the device's work-groups order their writes for each other (lib/orx_finish.cl): PTX fences
 * on NVIDIA's OpenCL (the only one with warp_size), else OpenCL C's atomics at device scope where
 * its 3.0 features or a 2.x version offer them (the programs that use them are built for that
 * version: the default, 1.2, has none), else none; 0 when out of host memory. */
static int read_sync(cl_device_id dev, orx_caps *caps) {
  caps->device_sync = ORX_SYNC_NONE;
  if (caps->warp_size) {
    caps->device_sync = ORX_SYNC_PTX;
    return 1;
  }
  const int acq_rel = has_c_feature(dev, "__opencl_c_atomic_order_acq_rel");
  const int device_scope = has_c_feature(dev, "__opencl_c_atomic_scope_device");
  if (acq_rel < 0 || device_scope < 0)
    return 0;
  char text[128];
  int major = 0, minor = 0;
  info_string(dev, CL_DEVICE_OPENCL_C_VERSION, text, sizeof text);
  const int c_version =
      sscanf(text, "OpenCL C %d.%d", &major, &minor) == 2 ? major * 10 + minor : 0;
  const char *option = acq_rel && device_scope             ? "-cl-std=CL3.0"
                       : c_version >= 20 && c_version < 30 ? "-cl-std=CL2.0"
                                                           : NULL;
  if (option) {
    caps->device_sync = ORX_SYNC_CL_ATOMICS;
    snprintf(caps->sync_build_option, sizeof caps->sync_build_option, "%s", option);
  }
  return 1;
}

/* PoCL's kernel cache is on unless POCL_KERNEL_CACHE=0: it finds a program built from the same
 * text again in a later process, and reading a program's binary (CL_PROGRAM_BINARIES) makes PoCL
 * compile a generic work-group function for every kernel (planner: plan_path.c). */
static int pocl_kernel_cache_on(void) {
  const char *setting = orx_env("POCL_KERNEL_CACHE");
  return !(setting && strcmp(setting, "0") == 0);
}

/* Out of host memory, the capabilities would be read short (a device without its extensions):
 * the open fails instead. */
static ocl_reduce_status read_caps(ocl_reduce_context *ctx, orx_backend *be, orx_caps *caps) {
  cl_device_id dev = be->device;
  memset(caps, 0, sizeof *caps);
  read_names(be, caps);
  read_sizes(dev, caps);
  size_t ext_bytes = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_bytes) == CL_SUCCESS) {
    char *ext = orx_calloc(ext_bytes + 1, 1);
    const int read = ext && clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, ext_bytes, ext, NULL) ==
                                CL_SUCCESS;
    const int complete =
        ext && (!read || read_extensions(dev, ext, caps)) && read_sync(dev, caps);
    free(ext);
    if (!complete)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                      "out of host memory reading the device's extensions");
  }
  /* PoCL's CPU device builds subgroup operations from work-group barriers and local memory
   * (lib/kernel/subgroups.cl); the kernels stay correct, only the policy needs to know. */
  const int pocl = strstr(caps->platform_name, "Portable Computing Language") != NULL;
  caps->emulated_subgroups = pocl && caps->type == OCL_REDUCE_DEVICE_CPU;
  /* ... and runs a work-group's work-items in turn, a loop over them between barriers. */
  caps->work_items_in_turn = caps->emulated_subgroups;
  caps->keeps_own_kernel_cache = pocl && pocl_kernel_cache_on();
  be->can_query_subgroups = version_of(caps->platform_version) >= 21 &&
                            version_of(caps->device_version) >= 21;
  cl_device_svm_capabilities svm = 0;
  if (version_of(caps->platform_version) >= 20 && version_of(caps->device_version) >= 20 &&
      clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) == CL_SUCCESS)
    be->has_fine_grain_svm = (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
  caps->host_visible_memory = be->has_fine_grain_svm;
  be->host_memory_device = caps->type == OCL_REDUCE_DEVICE_CPU;
  return OCL_REDUCE_OK;
}

/* ---- Life cycle --------------------------------------------------------------------------------
 */

void orx_cl_close(orx_backend *be) {
  if (!be)
    return;
  if (be->last_kernel)
    clReleaseEvent(be->last_kernel);
  if (be->queue)
    clReleaseCommandQueue(be->queue);
  if (be->context)
    clReleaseContext(be->context);
  free(be);
}

static cl_command_queue create_queue(cl_context context, cl_device_id device, int profiling,
                                     int platform_version, cl_int *code) {
  cl_command_queue_properties props = profiling ? CL_QUEUE_PROFILING_ENABLE : 0;
  if (platform_version >= 20) {
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    return clCreateCommandQueueWithProperties(context, device, list, code);
  }
  return clCreateCommandQueue(context, device, props, code);
}

static ocl_reduce_status open_queue(ocl_reduce_context *ctx, orx_backend *be, void *native_queue) {
  cl_command_queue queue = (cl_command_queue)native_queue;
  cl_device_id device = NULL;
  cl_context context = NULL;
  cl_platform_id platform = NULL;
  cl_command_queue_properties props = 0;
  CL_CHECK(ctx, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)",
           clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL));
  CL_CHECK(ctx, "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)",
           clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL));
  CL_CHECK(ctx, "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)",
           clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  CL_CHECK(ctx, "clGetDeviceInfo(CL_DEVICE_PLATFORM)",
           clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "cl_command_queue: the queue is out of order; ocl_reduce needs an in-order "
                    "queue");
  if (be->profiling && !(props & CL_QUEUE_PROFILING_ENABLE))
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "options.profiling is set but the queue lacks CL_QUEUE_PROFILING_ENABLE");
  CL_CHECK(ctx, "clRetainContext", clRetainContext(context));
  be->context = context;
  CL_CHECK(ctx, "clRetainCommandQueue", clRetainCommandQueue(queue));
  be->queue = queue;
  be->device = device;
  be->platform = platform;
  return OCL_REDUCE_OK;
}

static ocl_reduce_status open_selected(ocl_reduce_context *ctx, orx_backend *be,
                                       const char *selector, unsigned *platform_index,
                                       unsigned *device_index) {
  orx_cl_device_list list;
  ORX_FORWARD(orx_cl_device_list_load(ctx, &list));
  size_t pick = 0;
  ocl_reduce_status status = orx_pick_device(ctx, list.entries, list.count, selector, &pick);
  if (status == OCL_REDUCE_OK) {
    be->platform = list.platforms[pick];
    be->device = list.devices[pick];
    *platform_index = list.entries[pick].platform_index;
    *device_index = list.entries[pick].device_index;
  }
  orx_cl_device_list_free(&list);
  ORX_FORWARD(status);

  cl_int code = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)be->platform, 0};
  be->context = clCreateContext(props, 1, &be->device, NULL, NULL, &code);
  if (code != CL_SUCCESS) {
    be->context = NULL;
    return orx_cl_fail(ctx, "clCreateContext", code);
  }
  char version[256] = "";
  clGetPlatformInfo(be->platform, CL_PLATFORM_VERSION, sizeof version, version, NULL);
  version[sizeof version - 1] = '\0';
  be->queue = create_queue(be->context, be->device, be->profiling, version_of(version), &code);
  if (code != CL_SUCCESS) {
    be->queue = NULL;
    return orx_cl_fail(ctx, "clCreateCommandQueue", code);
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cl_open(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                              int profiling, orx_backend **out, orx_caps *caps) {
  orx_backend *be = orx_calloc(1, sizeof *be);
  if (!be)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  be->profiling = profiling;
  unsigned platform_index = 0, device_index = 0;
  ocl_reduce_status status = native_queue
                                 ? open_queue(ctx, be, native_queue)
                                 : open_selected(ctx, be, selector, &platform_index, &device_index);
  if (status == OCL_REDUCE_OK)
    status = read_caps(ctx, be, caps);
  if (status != OCL_REDUCE_OK) {
    orx_cl_close(be);
    return status;
  }
  be->in_place = be->host_memory_device ? orx_cl_probe_in_place(be) : ORX_CL_IN_PLACE_NONE;
  caps->platform_index = platform_index;
  caps->device_index = device_index;
  *out = be;
  return OCL_REDUCE_OK;
}

/* Waits for an event: flushed and polled, or the implementation's own wait, as the planner chose
 * (be->poll_events, orx_plan_wait_polls). */
cl_int orx_cl_wait_for(orx_backend *be, cl_event event) {
  if (!be->poll_events)
    return clWaitForEvents(1, &event);
  cl_int code = clFlush(be->queue);
  cl_int state = CL_QUEUED;
  while (code == CL_SUCCESS && state > CL_COMPLETE)
    code = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
  if (code == CL_SUCCESS && state < 0)
    code = state; /* the command failed: its status is an error code */
  return code;
}

