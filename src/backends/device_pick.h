/* =================================================================================================
 * device_pick.h: choosing a device from a backend's device list. A pure function of the list and
 * the selector string, shared by every backend (device_pick.c).
 * ============================================================================================== */
#ifndef ORX_DEVICE_PICK_H
#define ORX_DEVICE_PICK_H

#include <stddef.h>

#include "ocl_reduce.h"

typedef struct orx_device_entry {
  unsigned platform_index;
  unsigned device_index;
  const char *platform_name;
  const char *device_name;
  ocl_reduce_device_type type;
} orx_device_entry;

/* Picks the entry `selector` names (OCL_REDUCE_DEVICE syntax): "P:D" indices, a short name
 * (pocl, intel, nvidia, cuda, amd: the implementation's platform; cpu, gpu, accelerator: the
 * device type), else a case-insensitive substring of the platform or device name; first match
 * wins. NULL or "" picks the first GPU or
 * accelerator, else the first device. A selector that matches nothing fails with
 * OCL_REDUCE_ERROR_NO_DEVICE, and the message lists the devices there are. */
ocl_reduce_status orx_pick_device(ocl_reduce_context *ctx, const orx_device_entry *list,
                                  size_t count, const char *selector, size_t *index);

/* Writes the selector that names a device: the backend's prefix and the device's index where it
 * has one (backend.h's selector_prefix: "cuda:N"), "P:D" otherwise (prefix NULL). */
void orx_format_selector(const char *prefix, unsigned platform_index, unsigned device_index,
                         char *out, size_t capacity);

#endif /* ORX_DEVICE_PICK_H */
