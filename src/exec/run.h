/* =================================================================================================
 * run.h: the reducing calls, once the entry points (src/api/) have checked their arguments:
 * whole arrays and several operators over one array (run_array.c), segments (run_segments.c),
 * axes of N-d views (run_axes.c) and sliding windows (run_windows.c). Each plans its request,
 * prepares and launches (launch.h).
 * ============================================================================================== */
#ifndef ORX_RUN_H
#define ORX_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "exec/io.h"
#include "ocl_reduce_axes.h"
#include "planner/plan_axes.h"
#include "planner/planner.h"

/* Reduces the count elements of `in` as a whole-array request says (of any stage; the first
 * element has index `first`) into one result or state at `out` (host memory or a buffer). count
 * may be 0 (state operators: their identity comes from the kernel). */
ocl_reduce_status orx_run_reduce(ocl_reduce_context *ctx, const orx_request *request,
                                 const orx_io *in, size_t count, uint64_t first,
                                 const orx_io *out);

/* host_run.c: whether the calling thread can run a plan (a host plan with its host kernel), and
 * running it over count elements of host memory `in` (a pair operator's plan: the pairs of `in`
 * and `in_b`; NULL for one input; element 0 has index `first`) into the plan's result_bytes at
 * `out`. 0: it did not (a misaligned array), and the device must. */
int orx_host_can_run(const orx_plan *plan);
int orx_host_run(ocl_reduce_context *ctx, const orx_plan *plan, const void *in, const void *in_b,
                 size_t count, uint64_t first, void *out);
/* ... and count equal segments of `length` elements (pairs), back to back, each reduced as a whole
 * array of one work-group by the plan's host kernel, result s at out + s * result_bytes (host
 * memory); 0 where it did not (misaligned). */
int orx_host_run_segments(ocl_reduce_context *ctx, const orx_plan *plan, const void *in,
                          const void *in_b, size_t count, size_t length, void *out);
/* Where the host can read an input: host memory, or the host memory a CPU device's buffer lives
 * in (run_pairs.c; its queue must be finished before); NULL where it cannot. */
const void *orx_host_view(const ocl_reduce_context *ctx, const orx_io *io, size_t elem);
/* Stops the context's host-plan threads (context destruction). */
void orx_host_release(ocl_reduce_context *ctx);

/* A checked whole-array call of any stage: count == 0 gives a scalar built-in operator's identity
 * (the contract's bits); everything else runs (a state operator's kernel gives its identity). */
ocl_reduce_status orx_run_call(ocl_reduce_context *ctx, const orx_op_call *call, orx_stage stage,
                               const orx_io *in, size_t count, uint64_t first, const orx_io *out);

/* Reduces count > 0 elements of `in` with op_count operators into op_count results. */
ocl_reduce_status orx_run_multi(ocl_reduce_context *ctx, const orx_op_id *ops, size_t op_count,
                                ocl_reduce_type type, const orx_io *in, size_t count,
                                const orx_io *out);

/* A pair operator over count pairs of `a` and `b` (host memory or buffers), checked, the first
 * pair's index `first` (a user operator's pair_map sees it): one result at `out`, or (to_state)
 * one state of call->sum (count 0: the operator's identity). */
ocl_reduce_status orx_run_pairs(ocl_reduce_context *ctx, const orx_pair_call *call,
                                const orx_io *a, const orx_io *b, size_t count, uint64_t first,
                                int to_state, const orx_io *out);

/* The launches of orx_run_pairs into result slot out_index of `out` (no read back). */
ocl_reduce_status orx_pairs_into(ocl_reduce_context *ctx, const orx_pair_call *call,
                                 const orx_io *a, const orx_io *b, size_t count, uint64_t first,
                                 int to_state, orx_mem *out, size_t out_index);
/* The pair part of a request reading `a` and `b` (host inputs staged on vector boundaries). */
orx_pair_request orx_pair_request_of(const ocl_reduce_context *ctx, const orx_pair_call *call,
                                     const orx_io *a, const orx_io *b);

/* A segmented call, checked. */
typedef struct orx_seg_call {
  const char *function;
  orx_operator op;
  ocl_reduce_type type;
  size_t elem;                  /* bytes per input element */
  size_t result_bytes;          /* bytes per result */
  size_t count;                 /* segments, > 0 */
  size_t length;                /* equal lengths */
  size_t pitch;                 /* equal lengths in a buffer: elements from one segment's start
                                   to the next's; 0: length (back to back) */
  int by_offsets;
  const uint64_t *host_offsets; /* offsets in host memory (or read back for LAUNCH) */
  orx_io offsets;               /* offsets in device memory: offsets.mem set */
  int offsets_own;              /* ... which the library wrote (reduce by key's runs' starts:
                                   run_by_key_pass.c), with elements and reach: not checked */
  orx_io in, out;
  const orx_pair_call *pair;    /* a pair operator's (op and type are its values' SUM), or NULL */
  orx_io b;                     /* ... and its second input, laid out as `in` */
  uint64_t elements;            /* elements the segments span */
  uint64_t reach;               /* elements of the input up to the end of the last segment */
} orx_seg_call;

/* *c emptied for `function` and its operator resolved (orx_resolve_op): op, type and sizes. */
ocl_reduce_status orx_seg_call_init(ocl_reduce_context *ctx, orx_seg_call *c, const char *function,
                                   ocl_reduce_op op, ocl_reduce_type type);
/* The planner's request for it (in.mem NULL: host input). */
orx_request orx_seg_request(const ocl_reduce_context *ctx, const orx_seg_call *c);
/* Runs it: offsets in device memory are checked there first, then batches of whole segments.
 * orx_run_segments_within: the same as part of a call begun before (orx_call_begin), whose kernel
 * time it adds to. */
ocl_reduce_status orx_run_segments(ocl_reduce_context *ctx, orx_seg_call *call);
ocl_reduce_status orx_run_segments_within(ocl_reduce_context *ctx, orx_seg_call *call);
/* Results into host memory as a written view of views (segment_views.c), where the device takes
 * one: *c then points to *viewed, the call with its results there. */
struct orx_device_views;
ocl_reduce_status orx_seg_view_results(ocl_reduce_context *ctx, struct orx_device_views *views,
                                       orx_seg_call **c, orx_seg_call *viewed);
/* Whether the device's plan of a segments request (*plan) reads host memory where it lies, with
 * the bits of a staged copy (segment_views.c). */
int orx_seg_reads_in_place(const ocl_reduce_context *ctx, const orx_request *segments,
                           orx_plan *plan);
/* Its input in host memory as a view of views where the device's plan reads it in place
 * (segment_views.c): *c then points to *viewed. */
ocl_reduce_status orx_seg_view_input(ocl_reduce_context *ctx, struct orx_device_views *views,
                                     orx_seg_call **c, orx_seg_call *viewed);

/* Bytes of a key of key_type (run_by_key.c): 4 or 8, the integer types; floats are refused by
 * name (UNSUPPORTED_OPERATION), values not a type too (INVALID_ARGUMENT); ctx NULL: a group's. */
ocl_reduce_status orx_key_bytes(ocl_reduce_context *ctx, const char *function,
                                ocl_reduce_type key_type, size_t *bytes);
/* The runs of count keys of key_bytes each (maximal stretches of equal bits); with `heads`
 * non-NULL, each run's first position into it and count after the last (runs + 1 of them). */
uint64_t orx_key_runs(const unsigned char *keys, size_t key_bytes, size_t count,
                      uint64_t *heads);
/* OUTPUT_TOO_SMALL for `runs` where the outputs hold keys_room keys and results_room results. */
ocl_reduce_status orx_key_outputs_too_small(ocl_reduce_context *ctx, const char *function,
                                            uint64_t runs, size_t keys_room,
                                            size_t results_room);
/* Each run's key (the key at heads[r]) to to[r]; `to` may be the keys' own memory. */
void orx_key_gather(unsigned char *to, const unsigned char *keys, size_t key_bytes,
                    const uint64_t *heads, uint64_t runs);
/* A reduce-by-key call (ocl_reduce_by_key): its keys (4 or 8 bytes each) and keys_out, resolved
 * (keys_out for 0 keys: its capacity is checked once the runs are known). */
typedef struct orx_key_call {
  size_t key_bytes;
  orx_io keys, keys_out;
} orx_key_call;
/* Runs it (run_by_key.c): c holds the operator, the values (c->in, c->elements of them) and
 * results_out (c->out, resolved for 0 results). Outputs holding fewer runs than the keys form:
 * OUTPUT_TOO_SMALL, *run_count the runs, nothing written. */
ocl_reduce_status orx_run_by_key(ocl_reduce_context *ctx, const orx_key_call *k, orx_seg_call *c,
                                 uint64_t *run_count);
/* The runs of such a call counted on the device (run_by_key_count.c: COUNT_EQUAL of its keys,
 * `keys` as the device reads them, against themselves one apart), into *runs; OUTPUT_TOO_SMALL,
 * with *run_count the runs and nothing written, where either output cannot hold them. */
ocl_reduce_status orx_key_count_fitting(ocl_reduce_context *ctx, const orx_key_call *k,
                                        const orx_seg_call *c, const orx_io *keys,
                                        uint64_t *runs, uint64_t *run_count);
/* The one-pass plan (run_by_key_pass.c) of such a call, where the planner gives it the kernel and
 * its outputs are both buffers apart from what it reads, or both host memory: *taken 1 when it
 * ran (or failed), 0 when the call is left to orx_run_by_key's own plan. */
ocl_reduce_status orx_run_by_key_pass(ocl_reduce_context *ctx, const orx_key_call *k,
                                      const orx_seg_call *c, uint64_t *run_count, int *taken);

/* Whether an operator's axes reduction may go in two passes (run_axes.c; plan_axes.h's
 * orx_axes_split): pass two folds pass one's results as its elements. */
int orx_axes_splittable(const orx_op_call *call);

/* The layout of a shape and its axes (ocl_reduce_axes.h), or INVALID_ARGUMENT naming what is
 * wrong with them, as `function`'s (ctx NULL: the thread's last error). */
ocl_reduce_status orx_axes_layout_checked(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_shape *shape, uint32_t axes,
                                          orx_axes_layout *layout);

/* A view of host memory at `base` copied to `to` in the rows' order: results row-major over the
 * kept axes, each one's elements row-major over the reduced axes (results x length elements). */
void orx_axes_gather_host(const orx_axes_layout *l, const unsigned char *base, size_t elem,
                          unsigned char *to);

/* An axes call (ocl_reduce_axes), checked, by its layout's form (run_axes.c). */
ocl_reduce_status orx_run_axes(ocl_reduce_context *ctx, const char *function,
                               const orx_op_call *call, const orx_axes_layout *layout,
                               const orx_io *in, const orx_io *out);

/* A sliding-window call, checked: count >= window >= 1 elements of `in`, count - window + 1
 * results of result_bytes each to `out`; element 0 of `in` has index first_index (what ARGMIN,
 * ARGMAX and user operators' map see, and where the blocks of window elements are cut). */
typedef struct orx_win_call {
  const char *function;
  orx_operator op;
  ocl_reduce_type type;
  size_t elem, result_bytes;
  size_t count, window;
  uint64_t first_index;
  orx_io in, out;
} orx_win_call;

ocl_reduce_status orx_run_windows(ocl_reduce_context *ctx, const orx_win_call *call);

/* ocl_reduce_windows with an index base: checks every argument as the entry point does (naming
 * `function`), then runs. Groups run their devices' parts of the windows through it. */
ocl_reduce_status orx_windows_checked(ocl_reduce_context *ctx, const char *function,
                                      ocl_reduce_op op, ocl_reduce_type type,
                                      const ocl_reduce_input *input, size_t count, size_t window,
                                      uint64_t first_index, const ocl_reduce_output *results);

#endif /* ORX_RUN_H */
