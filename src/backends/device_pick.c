/* =================================================================================================
 * device_pick.c: which device of a backend's list a selector names (device_pick.h).
 * ============================================================================================== */
#include "backends/device_pick.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/errors.h"

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
  int by_index = parse_indices(selector, &p, &d);
  for (size_t i = 0; i < count; i++) {
    int match = by_index ? (list[i].platform_index == p && list[i].device_index == d)
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
