/* =================================================================================================
 * group.c: groups of devices (ocl_reduce.h, "Several devices: groups"): which devices, and their
 * contexts.
 * ============================================================================================== */
#include "group/group.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/context_facts.h"
#include "base/errors.h"
#include "exec/staging.h"
#include "group/group_shares.h"
#include "group/group_workers.h"

#define FN_CREATE "ocl_reduce_group_create"
#define SELECTORS_CAPACITY 4096

static uint64_t next_group_id(void) {
  static atomic_uint_fast64_t last;
  return (uint64_t)atomic_fetch_add(&last, 1) + 1;
}

static int is_gpu_like(ocl_reduce_device_type type) {
  return type == OCL_REDUCE_DEVICE_GPU || type == OCL_REDUCE_DEVICE_ACCELERATOR;
}

/* No list given: every GPU and accelerator of the platform or backend of the device a context
 * would take, else that device alone. */
static ocl_reduce_status default_selectors(const ocl_reduce_options *opts, char *list,
                                           size_t capacity) {
  ocl_reduce_context *probe = NULL;
  ORX_FORWARD(ocl_reduce_context_create(opts, &probe));
  orx_device_facts facts;
  orx_context_device(probe, &facts);
  snprintf(list, capacity, "%s", facts.selector);
  ocl_reduce_status status = OCL_REDUCE_OK;
  size_t total = 0, listed = 0;
  ocl_reduce_device_desc *all = NULL;
  if (is_gpu_like(facts.type) && (status = ocl_reduce_devices(NULL, 0, &listed)) == OCL_REDUCE_OK &&
      listed > 0) {
    all = orx_calloc(listed, sizeof *all);
    if (!all)
      status = orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, FN_CREATE ": out of memory");
    else {
      all[0].struct_size = sizeof *all;
      status = ocl_reduce_devices(all, listed, &total);
      total = total < listed ? total : listed; /* the list may have grown meanwhile */
    }
    size_t used = 0, taken = 0;
    for (size_t i = 0; status == OCL_REDUCE_OK && i < total; i++) {
      if (all[i].backend != facts.backend || !is_gpu_like(all[i].device_type) ||
          strcmp(all[i].platform_name, facts.platform_name) != 0 ||
          taken == OCL_REDUCE_GROUP_MAX_DEVICES)
        continue;
      const int wrote =
          snprintf(list + used, capacity - used, "%s%s", taken ? "," : "", all[i].selector);
      if (wrote < 0 || (size_t)wrote >= capacity - used)
        break;
      used += (size_t)wrote;
      taken++;
    }
  }
  free(all);
  ocl_reduce_context_destroy(probe);
  return status;
}

static ocl_reduce_group *group_new(void) {
  ocl_reduce_group *g = orx_calloc(1, sizeof *g);
  if (g) {
    g->id = next_group_id();
    g->holders = 1;
  }
  return g;
}

/* What every group takes once its contexts are there: the planner's least part, the shares and
 * the threads its devices run on. */
static ocl_reduce_status group_finish(ocl_reduce_group *g) {
  g->min_part_bytes = orx_context_group_min_part_bytes(g->contexts[0]);
  g->seam_staged_bytes = orx_context_group_seam_staged_bytes(g->contexts[0]);
  ORX_FORWARD(orx_group_initial_shares(g));
  return orx_group_workers_start(g);
}

/* The devices' selectors: the caller's list, else OCL_REDUCE_DEVICES, else the default ones. */
static ocl_reduce_status selector_list(const char *devices, const ocl_reduce_options *o,
                                       char *list, size_t capacity) {
  const char *given = devices ? devices : getenv("OCL_REDUCE_DEVICES");
  if (!given || !*given)
    return default_selectors(o, list, capacity);
  if (strlen(given) >= capacity)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    FN_CREATE ": %s is longer than %zu characters",
                    devices ? "devices" : "OCL_REDUCE_DEVICES", capacity - 1);
  orx_strlcpy(list, given, capacity);
  return OCL_REDUCE_OK;
}

/* One selector of the list (trimmed of spaces here): its device's context, appended to g. */
static ocl_reduce_status add_device(ocl_reduce_group *g, ocl_reduce_options *o, char *item) {
  while (*item == ' ')
    item++;
  for (char *end = item + strlen(item); end > item && end[-1] == ' ';)
    *--end = '\0';
  if (g->size == OCL_REDUCE_GROUP_MAX_DEVICES)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, FN_CREATE ": devices: more than %d",
                    OCL_REDUCE_GROUP_MAX_DEVICES);
  if (!*item)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    FN_CREATE ": devices: selector %zu is empty", g->size);
  o->device = item;
  const ocl_reduce_status status = ocl_reduce_context_create(o, &g->contexts[g->size]);
  if (status == OCL_REDUCE_OK) {
    g->size++;
    return OCL_REDUCE_OK;
  }
  char why[1024]; /* the thread's message, which the next one replaces */
  orx_strlcpy(why, ocl_reduce_last_error(NULL), sizeof why);
  return orx_fail(NULL, status, FN_CREATE ": device %zu ('%s'): %s", g->size, item, why);
}

ocl_reduce_status ocl_reduce_group_create(const ocl_reduce_options *opts, const char *devices,
                                          ocl_reduce_group **out) {
  ORX_CHECK_ARG(NULL, out, FN_CREATE ": out is NULL");
  ocl_reduce_options o = OCL_REDUCE_OPTIONS_INIT;
  /* Each context's creation checks the rest of opts (struct_size too). */
  ORX_CHECK_ARG(NULL,
                !opts || (opts->struct_size >= ORX_FIRST_OPTIONS_SIZE &&
                          opts->struct_size <= OCL_REDUCE_STRUCT_SIZE_MAX),
                FN_CREATE ": opts->struct_size is %zu, not sizeof(ocl_reduce_options) (%zu): start "
                          "from OCL_REDUCE_OPTIONS_INIT",
                opts ? opts->struct_size : 0, sizeof o);
  if (opts) /* the fields the caller's struct has; later ones keep their defaults */
    memcpy(&o, opts, opts->struct_size < sizeof o ? opts->struct_size : sizeof o);
  o.struct_size = sizeof o;
  o.device = NULL;
  char list[SELECTORS_CAPACITY];
  ORX_FORWARD(selector_list(devices, &o, list, sizeof list));
  ocl_reduce_group *g = group_new();
  if (!g)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, FN_CREATE ": out of memory");
  g->owns_contexts = 1;
  ocl_reduce_status status = OCL_REDUCE_OK;
  /* Split at every comma (an empty selector between two is an error, not skipped). */
  for (char *item = list, *next = NULL; item && status == OCL_REDUCE_OK; item = next) {
    char *comma = strchr(item, ',');
    next = comma ? comma + 1 : NULL;
    if (comma)
      *comma = '\0';
    status = add_device(g, &o, item);
  }
  if (status == OCL_REDUCE_OK && g->size == 0)
    status = orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, FN_CREATE ": devices: none listed");
  if (status == OCL_REDUCE_OK)
    status = group_finish(g);
  if (status != OCL_REDUCE_OK) {
    ocl_reduce_group_destroy(g);
    return status;
  }
  *out = g;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_group_create_from(ocl_reduce_context *const *contexts, size_t count,
                                               ocl_reduce_group **out) {
  static const char fn[] = "ocl_reduce_group_create_from";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  ORX_CHECK_ARG(NULL, contexts, "%s: contexts is NULL", fn);
  ORX_CHECK_ARG(NULL, count >= 1 && count <= OCL_REDUCE_GROUP_MAX_DEVICES,
                "%s: count is %zu (1 .. %d)", fn, count, OCL_REDUCE_GROUP_MAX_DEVICES);
  for (size_t d = 0; d < count; d++) {
    ORX_CHECK_ARG(NULL, contexts[d], "%s: contexts[%zu] is NULL", fn, d);
    for (size_t e = 0; e < d; e++)
      ORX_CHECK_ARG(NULL, contexts[e] != contexts[d], "%s: contexts[%zu] is contexts[%zu]", fn, d,
                    e);
    /* The states of SUM are the reproducible sum's under CROSS_DEVICE: all or none. */
    ORX_CHECK_ARG(NULL,
                  orx_context_determinism(contexts[d]) == orx_context_determinism(contexts[0]),
                  "%s: contexts[%zu]'s determinism differs from contexts[0]'s", fn, d);
  }
  ocl_reduce_group *g = group_new();
  if (!g)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  memcpy(g->contexts, contexts, count * sizeof *contexts);
  g->size = count;
  const ocl_reduce_status status = group_finish(g);
  if (status != OCL_REDUCE_OK) {
    ocl_reduce_group_destroy(g);
    return status;
  }
  *out = g;
  return OCL_REDUCE_OK;
}

void orx_group_hold(ocl_reduce_group *group) { group->holders++; }

void orx_group_release(ocl_reduce_group *group) {
  if (--group->holders > 0)
    return;
  orx_group_workers_stop(group);
  for (size_t d = 0; d < group->size; d++) {
    ocl_reduce_buffer_destroy(group->states[d]);
    ocl_reduce_host_free(group->contexts[d], group->host_states[d]);
    orx_buffer_wait(group->seam[d], group->seam_written[d]);
    ocl_reduce_buffer_destroy(group->seam[d]);
    ocl_reduce_host_free(group->contexts[d], group->host_seam[d]);
  }
  for (size_t d = 0; group->owns_contexts && d < group->size; d++)
    ocl_reduce_context_destroy(group->contexts[d]);
  free(group);
}

void ocl_reduce_group_destroy(ocl_reduce_group *group) {
  if (group)
    orx_group_release(group);
}

size_t ocl_reduce_group_size(const ocl_reduce_group *group) { return group ? group->size : 0; }

ocl_reduce_context *ocl_reduce_group_context(const ocl_reduce_group *group, size_t index) {
  return group && index < group->size ? group->contexts[index] : NULL;
}
