/* =================================================================================================
 * device_pick.c: which device of a backend's list a selector names (device_pick.h).
 * ============================================================================================== */
#include "backends/device_pick.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/errors.h"

/* The short names users type for an implementation or a kind of device. A vendor's name is
 * matched against platform names only: "intel" must not take PoCL's device, whose name holds the
 * CPU's ("pthread-skylake-avx512-Intel(R) Xeon(R) ..."). CUDA's own list calls its platform
 * "CUDA". */
static const struct {
  const char *name;
  const char *platforms[2]; /* substrings of the platform name; NULL: by device type */
  ocl_reduce_device_type type;
} short_names[] = {
    {"pocl", {"Portable Computing Language", NULL}, OCL_REDUCE_DEVICE_OTHER},
    {"intel", {"Intel", NULL}, OCL_REDUCE_DEVICE_OTHER},
    {"nvidia", {"NVIDIA", "CUDA"}, OCL_REDUCE_DEVICE_OTHER},
    {"cuda", {"CUDA", NULL}, OCL_REDUCE_DEVICE_OTHER},
    {"amd", {"AMD", NULL}, OCL_REDUCE_DEVICE_OTHER},
    {"cpu", {NULL, NULL}, OCL_REDUCE_DEVICE_CPU},
    {"gpu", {NULL, NULL}, OCL_REDUCE_DEVICE_GPU},
    {"accelerator", {NULL, NULL}, OCL_REDUCE_DEVICE_ACCELERATOR},
};

static int same_word(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

/* Whether entry e is what short name n (an index into short_names) names. */
static int short_name_matches(size_t n, const orx_device_entry *e) {
  if (!short_names[n].platforms[0])
    return e->type == short_names[n].type;
  for (size_t k = 0; k < 2 && short_names[n].platforms[k]; k++)
    if (orx_strcasestr(e->platform_name, short_names[n].platforms[k]))
      return 1;
  return 0;
}

static int parse_indices(const char *selector, unsigned *platform, unsigned *device) {
  char *end = NULL;
  unsigned long p = strtoul(selector, &end, 10);
  if (end == selector || *end != ':')
    return 0;
  const char *second = end + 1;
  unsigned long d = strtoul(second, &end, 10);
  if (end == second || *end != '\0')
    return 0;
  *platform = (unsigned)p;
  *device = (unsigned)d;
  return 1;
}

ocl_reduce_status orx_pick_device(ocl_reduce_context *ctx, const orx_device_entry *list,
                                  size_t count, const char *selector, size_t *index) {
  if (count == 0)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE, "no devices to choose from");
  if (!selector || !*selector) {
    for (size_t i = 0; i < count; i++) {
      if (list[i].type == OCL_REDUCE_DEVICE_GPU || list[i].type == OCL_REDUCE_DEVICE_ACCELERATOR) {
        *index = i;
        return OCL_REDUCE_OK;
      }
    }
    *index = 0;
    return OCL_REDUCE_OK;
  }
  unsigned p = 0, d = 0;
  const int by_index = parse_indices(selector, &p, &d);
  size_t short_name = sizeof short_names / sizeof short_names[0];
  for (size_t n = 0; n < sizeof short_names / sizeof short_names[0]; n++)
    if (same_word(selector, short_names[n].name))
      short_name = n;
  const int by_short_name = short_name < sizeof short_names / sizeof short_names[0];
  for (size_t i = 0; i < count; i++) {
    int match = by_index        ? (list[i].platform_index == p && list[i].device_index == d)
                : by_short_name ? short_name_matches(short_name, &list[i])
                                : (orx_strcasestr(list[i].platform_name, selector) ||
                                   orx_strcasestr(list[i].device_name, selector));
    if (match) {
      *index = i;
      return OCL_REDUCE_OK;
    }
  }
  ocl_reduce_status status = orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE,
                                      "device selector '%s' matches none of these devices:",
                                      selector);
  for (size_t i = 0; i < count; i++) {
    char line[600];
    snprintf(line, sizeof line, "\n  %u:%u  %s / %s", list[i].platform_index,
             list[i].device_index, list[i].platform_name, list[i].device_name);
    orx_error_append(ctx, line);
  }
  return status;
}

void orx_format_selector(const char *prefix, unsigned platform_index, unsigned device_index,
                         char *out, size_t capacity) {
  if (prefix)
    snprintf(out, capacity, "%s%u", prefix, device_index);
  else
    snprintf(out, capacity, "%u:%u", platform_index, device_index);
}
