/* =================================================================================================
 * list_test_targets.c: prints, for ctest, every (device, path, subgroup implementation) the library
 * can run on here, one per line:
 *   "<implementation>|<selector>|<path>|<subgroup impl>|<cpu|gpu>|<auto|forced>|<backend>"
 * ("auto": the configuration automatic selection takes on that device), and when the CUDA backend
 * cannot run here, one line "-|cuda-unavailable|<why>" so that ctest reports its tests skipped. The
 * library itself decides what each device supports: a combination is listed when a context can
 * be created with it. tests/discover_tests.cmake.in turns the lines into ctest tests.
 * ============================================================================================== */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ocl_reduce.h"

/* A short name for the implementation: "pocl", "intel", "nvidia", "cuda", else the platform's
 * first word. */
static void implementation_name(const ocl_reduce_device_desc *d, char *out, size_t size) {
  if (d->backend == OCL_REDUCE_BACKEND_CUDA) {
    snprintf(out, size, "cuda");
    return;
  }
  static const struct {
    const char *needle, *name;
  } known[] = {{"Portable Computing Language", "pocl"}, {"Intel", "intel"}, {"NVIDIA", "nvidia"},
               {"AMD", "amd"}, {"Advanced Micro Devices", "amd"}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    if (strstr(d->platform_name, known[i].needle)) {
      snprintf(out, size, "%s", known[i].name);
      return;
    }
  }
  size_t n = 0;
  for (const char *p = d->platform_name; *p && !isspace((unsigned char)*p) && n + 1 < size; p++)
    if (isalnum((unsigned char)*p))
      out[n++] = (char)tolower((unsigned char)*p);
  out[n] = '\0';
  if (n == 0)
    snprintf(out, size, "platform%u", d->platform_index);
}

int main(void) {
  static const struct {
    ocl_reduce_path path;
    ocl_reduce_subgroup_impl impl;
    const char *path_name, *impl_name;
  } configs[] = {
      {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR, "subgroup", "khr"},
      {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL, "subgroup", "intel"},
      {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_NV_PTX, "subgroup", "ptx"},
      {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_CUDA, "subgroup", "cuda"},
      {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN, "subgroup", "builtin"},
      {OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_AUTO, "local", "auto"},
  };
  ocl_reduce_device_desc devices[32] = {{.struct_size = sizeof devices[0]}};
  size_t count = 0;
  if (ocl_reduce_devices(devices, 32, &count) != OCL_REDUCE_OK) {
    fprintf(stderr, "ocl_reduce_devices: %s\n", ocl_reduce_last_error(NULL));
    return 1;
  }
  if (count > 32)
    count = 32;
  for (size_t i = 0; i < count; i++) {
    char name[64];
    implementation_name(&devices[i], name, sizeof name);
    /* Tell devices of one implementation apart. */
    int twin = 0;
    for (size_t j = 0; j < count; j++) {
      char other[64];
      implementation_name(&devices[j], other, sizeof other);
      twin |= j != i && strcmp(other, name) == 0;
    }
    if (twin)
      snprintf(name + strlen(name), sizeof name - strlen(name), "-%u-%u",
               devices[i].platform_index, devices[i].device_index);
    /* What automatic selection takes on this device. */
    ocl_reduce_options defaults = OCL_REDUCE_OPTIONS_INIT;
    defaults.device = devices[i].selector;
    defaults.backend = devices[i].backend; /* else AUTO would hand NVIDIA's OpenCL to CUDA */
    defaults.path = OCL_REDUCE_PATH_AUTO;
    defaults.subgroup_impl = OCL_REDUCE_SUBGROUP_AUTO;
    ocl_reduce_context_info chosen = {.struct_size = sizeof chosen};
    ocl_reduce_context *probe = NULL;
    if (ocl_reduce_context_create(&defaults, &probe) == OCL_REDUCE_OK) {
      chosen.path = OCL_REDUCE_PATH_LOCAL;
      ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
      /* The query's subgroup size needs a build; path and implementation are all we need. */
      if (ocl_reduce_context_query(probe, &info) == OCL_REDUCE_OK)
        chosen = info;
    }
    ocl_reduce_context_destroy(probe);
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
      ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
      opts.device = devices[i].selector;
      opts.backend = devices[i].backend;
      opts.path = configs[c].path;
      opts.subgroup_impl = configs[c].impl;
      ocl_reduce_context *ctx = NULL;
      ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
      const int is_auto = configs[c].path == chosen.path &&
                          (chosen.path == OCL_REDUCE_PATH_LOCAL ||
                           configs[c].impl == chosen.subgroup_impl);
      if (s == OCL_REDUCE_OK)
        printf("%s|%s|%s|%s|%s|%s|%s\n", name, devices[i].selector, configs[c].path_name,
               configs[c].impl_name,
               devices[i].device_type == OCL_REDUCE_DEVICE_CPU ? "cpu" : "gpu",
               is_auto ? "auto" : "forced",
               devices[i].backend == OCL_REDUCE_BACKEND_CUDA ? "cuda" : "opencl");
      else if (s != OCL_REDUCE_ERROR_PATH_UNSUPPORTED)
        fprintf(stderr, "%s %s/%s: %s\n", devices[i].selector, configs[c].path_name,
                configs[c].impl_name, ocl_reduce_last_error(NULL));
      ocl_reduce_context_destroy(ctx);
    }
  }
  /* Why the CUDA backend's tests cannot run, if they cannot: the library's own reason. */
  ocl_reduce_options cuda = OCL_REDUCE_OPTIONS_INIT;
  cuda.backend = OCL_REDUCE_BACKEND_CUDA;
  ocl_reduce_context *probe = NULL;
  if (ocl_reduce_context_create(&cuda, &probe) != OCL_REDUCE_OK) {
    char why[256];
    snprintf(why, sizeof why, "%s", ocl_reduce_last_error(NULL));
    for (char *p = why; *p; p++)
      if (*p == '|' || *p == ';' || *p == '\n' || *p == '"' || *p == '\'')
        *p = ' ';
    printf("-|cuda-unavailable|%s\n", why);
  }
  ocl_reduce_context_destroy(probe);
  return 0;
}
