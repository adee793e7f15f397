/* =================================================================================================
 * group.h: what a group of devices holds (ocl_reduce_group.h), and how its
 * calls run one task per device at once. group.c makes and measures groups, group_buffer.c
 * spreads data over them, group_run.c reduces with them, group_workers.c runs their tasks. A
 * group is a client of the public API of its contexts: each device runs exactly what a one-device
 * call would.
 * ============================================================================================== */
#ifndef ORX_GROUP_H
#define ORX_GROUP_H

#include <stdint.h>

#include "exec/context_facts.h"
#include "ocl_reduce_group.h"

struct ocl_reduce_group {
  uint64_t id; /* what group buffers name their group by */
  size_t size;
  ocl_reduce_context *contexts[OCL_REDUCE_GROUP_MAX_DEVICES];
  int owns_contexts;                              /* made by ocl_reduce_group_create */
  double shares[2][OCL_REDUCE_GROUP_MAX_DEVICES]; /* by ocl_reduce_shares; each sums to 1 */
  uint64_t min_part_bytes;                        /* the planner's, with the first's policy */
  uint64_t seam_staged_bytes;                     /* the same */
  struct orx_group_workers *workers;              /* group_workers.c */
  /* Each device's states of a whole-array call from a group buffer while the group's threads
   * sleep (group_whole.c), made at the first such call: OCL_REDUCE_MULTI_MAX_OPS slots of
   * ORX_RESULT_SLOT_BYTES on the device, and as many in page-locked host memory
   * (ocl_reduce_host_alloc) that they are copied to. */
  ocl_reduce_buffer *states[OCL_REDUCE_GROUP_MAX_DEVICES];
  void *host_states[OCL_REDUCE_GROUP_MAX_DEVICES];
  /* Each device's memory for the seams of windows over a group buffer (group_windows.c), grown
   * as calls need: `seam_bytes` on the device, twice that in page-locked host memory (the
   * elements it reads for any seam, then those of its own seam), and the marker of its last copy
   * to the device, which the next call waits for before it writes that host memory again. */
  ocl_reduce_buffer *seam[OCL_REDUCE_GROUP_MAX_DEVICES];
  void *host_seam[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t seam_bytes[OCL_REDUCE_GROUP_MAX_DEVICES];
  void *seam_written[OCL_REDUCE_GROUP_MAX_DEVICES];
  /* The application's handle and each group buffer hold one: a buffer copies through the group's
   * threads, so ocl_reduce_group_destroy may come before the buffers' destruction. */
  size_t holders;
};

/* A group buffer: what an ocl_reduce_buffer of a group spreads (exec/spread_buffer.h). */
typedef struct orx_group_buffer {
  uint64_t group_id;
  ocl_reduce_group *group; /* for writes and reads, which need the group alive */
  size_t size, element_size, count;
  ocl_reduce_buffer *parts[OCL_REDUCE_GROUP_MAX_DEVICES]; /* NULL where empty */
  size_t first[OCL_REDUCE_GROUP_MAX_DEVICES], counts[OCL_REDUCE_GROUP_MAX_DEVICES];
} orx_group_buffer;

/* Takes and gives back a hold on the group (group.c); the last one frees it. */
void orx_group_hold(ocl_reduce_group *group);
void orx_group_release(ocl_reduce_group *group);

/* The group buffer an ocl_reduce_buffer spreads, or NULL (group_buffer.c). */
const orx_group_buffer *orx_group_buffer_of(const ocl_reduce_buffer *buffer);
/* How many windows of `window` start in each part of `in` (count - window + 1 in all): what each
 * part of their results' group buffer holds (group_buffer.c). */
void orx_group_window_result_counts(const orx_group_buffer *in, size_t window, uint64_t *counts);

/* What a group call's input and output may be: host memory or a group's buffer (taken whole)
 * in, host memory out (group_run.c). */
ocl_reduce_status orx_group_check_memory(const char *function, const ocl_reduce_input *input,
                                         const ocl_reduce_output *output);
/* The input's part of that check (segments check their results themselves); the same of an
 * input of another name (a pair call's a and b). */
ocl_reduce_status orx_group_check_input(const char *function, const ocl_reduce_input *input);
ocl_reduce_status orx_group_check_input_named(const char *function, const char *name,
                                              const ocl_reduce_input *input);
/* The output's part of that check. */
ocl_reduce_status orx_group_check_output(const char *function, const ocl_reduce_output *output);

/* One task per device: fn(arg, d) for every device d with run[d] set, devices at once (the
 * first's on the calling thread, the others' on the group's threads; tasks of contexts on one
 * physical device one after the other, see group_workers.c). Returns OK, or the status of the
 * first device in order that failed, with its message recorded for the thread (naming
 * `function`, the device and its context's own message). */
typedef ocl_reduce_status (*orx_group_task)(void *arg, size_t device);
ocl_reduce_status orx_group_each(const ocl_reduce_group *group, const char *function,
                                 const unsigned char *run, orx_group_task fn, void *arg);
/* The same for tasks that hold up no other device: they only enqueue (device memory in and
 * out), or wait for work already enqueued. Shared: the calling thread and the group's threads
 * that come in time (spinning after a call) claim devices as they come, so that the calling
 * thread alone covers them while the threads sleep, which starts the second device sooner than
 * waking its thread would (on two H100s a wake cost more than a launch); sleeping threads are
 * woken for the next call (group_workers.c). */
ocl_reduce_status orx_group_each_enqueue(const ocl_reduce_group *group, const char *function,
                                         const unsigned char *run, orx_group_task fn, void *arg);
/* Whether the group's threads are all spinning for the next call: orx_group_each then starts
 * every device at once, where waking sleeping threads would cost a device some 30 us. */
int orx_group_threads_awake(const ocl_reduce_group *group);
/* Wakes the group's sleeping threads to spin for a call the caller is about to make. */
void orx_group_wake_threads(const ocl_reduce_group *group);

/* The operator on every device of the group (a user operator made ready on each), and the bytes
 * of an element and of a result (group_run.c). */
ocl_reduce_status orx_group_operator(const ocl_reduce_group *group, const char *function,
                                     ocl_reduce_op op, ocl_reduce_type type, size_t *elem,
                                     size_t *result_bytes);

/* Device d's name, for messages. */
static inline const char *orx_group_device_name(const ocl_reduce_group *group, size_t d) {
  orx_device_facts facts;
  orx_context_device(group->contexts[d], &facts);
  return facts.device_name;
}

#endif /* ORX_GROUP_H */
