/*
 * ocl_reduce_group.h: several devices reducing one request together (groups), with every
 * operator. A group call reports failures through ocl_reduce_last_error(NULL).
 */
#ifndef OCL_REDUCE_GROUP_H
#define OCL_REDUCE_GROUP_H

#include "ocl_reduce.h"
#include "ocl_reduce_axes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Several devices: groups
 *
 * A group is a list of contexts, one per device, that reduce one request together. The devices
 * may be of one backend or mixed (OpenCL and CUDA contexts side by side), and the same device may
 * be listed twice (two contexts on it; that is how CI stands in for two devices).
 *   - An array is cut into one contiguous part per device, in proportion to the group's shares.
 *     Each context reduces its part to a state (ocl_reduce_partial, "Reductions in parts") on its
 *     own host thread, all at once (from a group buffer: enqueued from the calling thread), and
 *     the states combine in device order: a scalar built-in's values on the calling thread, other
 *     states on the group's first context (ocl_reduce_final). So every operator works,
 *     order-preserving user operators
 *     included, and the reproducible sum (SUM_REPRODUCIBLE, or SUM in contexts created with
 *     OCL_REDUCE_CROSS_DEVICE) gives the same bits whatever the number of devices and the shares.
 *   - Segments are cut by whole segments; each device writes its own segments' results.
 *   - Device-resident data lives in a group's buffer (ocl_reduce_group_buffer_create): an
 *     ocl_reduce_buffer whose parts lie on the devices, one part per device. Write, read and
 *     destroy it as any buffer; one context's calls refuse it. Group calls take the same
 *     ocl_reduce_input / ocl_reduce_output as one context's: input in host memory or the group's
 *     buffer (whole, from offset 0), results in host memory (a buffer output is
 *     UNSUPPORTED_OPERATION: results are gathered on the host), except that segments and
 *     windows may leave their results on the devices, in a group buffer whose parts follow the
 *     input's (ocl_reduce_group_buffer_create_results, _create_window_results).
 *   - The split depends only on the element count and the shares, which stay as they are until
 *     ocl_reduce_group_set_shares: a group gives the same bits on every run. Other float operators
 *     round as the split groups them, as they do across parts.
 *   - Shares: equal when every device is the same model (same backend and device name). Otherwise
 *     measured when the group is created: each device's throughput reducing 32 MiB from host
 *     memory (host shares) and from one of its buffers (resident shares), a few milliseconds per
 *     device. Measured shares vary a little between processes, and with them float rounding: set
 *     the shares for the same bits in every process.
 *   - A part below the planner's minimum (64 MiB of input; OCL_REDUCE_POLICY="part_kib=N" forces
 *     N KiB) is not worth its device's thread and launch: fewer devices take the array then, those
 *     with the larger shares. Small arrays run on one device.
 * A group is used by one thread at a time, and its contexts must not be used meanwhile. Group
 * calls report failures through ocl_reduce_last_error(NULL), naming the argument or the device
 * (its index in the group and its name) and that device's own message. Results are written only
 * on success, but for segments, where devices that succeeded have written theirs.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_group ocl_reduce_group;
#define OCL_REDUCE_GROUP_MAX_DEVICES 64

/* A group over the devices that `devices` names: selectors as OCL_REDUCE_DEVICE takes them,
 * separated by commas ("cuda:0,cuda:1", "0:0,0:1", "pocl,pocl", "pocl,intel"). NULL takes
 * OCL_REDUCE_DEVICES, else every GPU and accelerator of the platform (OpenCL) or backend (CUDA)
 * of the device ocl_reduce_context_create picks, else that device alone. Each context is created
 * with opts (NULL: defaults), whose `device` field is ignored. *out is set only on success. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_create(const ocl_reduce_options *opts,
                                                         const char *devices,
                                                         ocl_reduce_group **out);
/* A group over contexts the application created (count 1 .. OCL_REDUCE_GROUP_MAX_DEVICES, each
 * at most once): the group borrows them; destroy the group first. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_create_from(ocl_reduce_context *const *contexts,
                                                              size_t count, ocl_reduce_group **out);
/* Frees the group and the contexts it created (NULL is ignored). Its buffers may be destroyed
 * before or after it: they keep what they need (the devices' threads) until they go. */
OCL_REDUCE_API void ocl_reduce_group_destroy(ocl_reduce_group *group);
/* The number of devices (0 for NULL), and the context of device `index` (NULL out of range). */
OCL_REDUCE_API size_t ocl_reduce_group_size(const ocl_reduce_group *group);
OCL_REDUCE_API ocl_reduce_context *ocl_reduce_group_context(const ocl_reduce_group *group,
                                                            size_t index);

/* Which shares: of host arrays, or of group buffers (fixed in each buffer when it is created). */
typedef enum ocl_reduce_shares {
  OCL_REDUCE_SHARES_HOST = 0,
  OCL_REDUCE_SHARES_RESIDENT = 1
} ocl_reduce_shares;
/* Writes ocl_reduce_group_size(group) shares, in device order, summing to 1. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_shares(const ocl_reduce_group *group,
                                                         ocl_reduce_shares which, double *shares);
/* Sets them from weights (finite, >= 0, not all 0; any scale; 0 leaves a device out). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_set_shares(ocl_reduce_group *group,
                                                             ocl_reduce_shares which,
                                                             const double *weights);

/* Data spread over a group: count elements of element_size bytes, one buffer per device, each
 * holding a contiguous part cut by the resident shares in whole units of `granule` elements (1:
 * anywhere; a segment length: whole segments). Parts below the planner's minimum are empty. It is
 * an ocl_reduce_buffer like any: ocl_reduce_buffer_write / _read copy to and from its parts, every
 * device at once (after ocl_reduce_group_destroy too), ocl_reduce_buffer_destroy frees it, and
 * group calls take it as ocl_reduce_buffer_input(buffer, 0); one-context calls refuse it. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_create(ocl_reduce_group *group,
                                                                size_t element_size, size_t count,
                                                                size_t granule,
                                                                ocl_reduce_buffer **out);
/* Device `index`'s part: its buffer (NULL where the part is empty), and which elements of the whole
 * it holds, [*first, *first + *count). Fill it with ocl_reduce_buffer_write, or with your own
 * kernels (ocl_reduce_program_launch on that device's context). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_part(const ocl_reduce_buffer *buffer,
                                                              size_t index,
                                                              ocl_reduce_buffer **part,
                                                              size_t *first, size_t *count);

/* A group buffer for the results of segments of segment_length over `input` (a group buffer
 * whose parts are whole segments): device d's part holds the results of the segments in input's
 * part d, result_size bytes each (ocl_reduce_result_size). ocl_reduce_group_segments writes it
 * with no copy between devices or to the host. */
OCL_REDUCE_API ocl_reduce_status
ocl_reduce_group_buffer_create_results(const ocl_reduce_buffer *input, size_t segment_length,
                                       size_t result_size, ocl_reduce_buffer **out);
/* A group buffer for the results of windows of `window` over `input` (a group buffer): device d's
 * part holds the results of the windows that start in input's part d, result_size bytes each,
 * count - window + 1 in all. ocl_reduce_group_windows writes it with no copy of results between
 * devices or to the host. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_create_window_results(
    const ocl_reduce_buffer *input, size_t window, size_t result_size, ocl_reduce_buffer **out);
/* The forms of ocl_reduce.h over the group, with any operator, memory described the same way: input
 * is host memory (ocl_reduce_host_input) or a group buffer taken whole
 * (ocl_reduce_buffer_input(buffer, 0)), results go to host memory (ocl_reduce_host_output) or,
 * for segments and windows, to a group buffer of results. */

/* ocl_reduce_into over the group. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_reduce(ocl_reduce_group *group, ocl_reduce_op op,
                                                         ocl_reduce_type type,
                                                         ocl_reduce_input input, size_t count,
                                                         ocl_reduce_output result);
/* ocl_reduce_segments over the group, cut by whole segments (a group buffer's parts must be: create
 * it with granule = segment_length). Results go to host memory, or stay on the devices in a group
 * buffer (ocl_reduce_buffer_output(results, 0)) of segment_count results: each device then
 * reduces the segments whose results its part holds (host input is cut so; a group buffer input
 * must agree, as ocl_reduce_group_buffer_create_results makes it). Then, as a context's call into
 * a buffer, it returns once the work is enqueued on every device: reading the results, or
 * ocl_reduce_finish on each device's context, waits for it. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_segments(
    ocl_reduce_group *group, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
    size_t segment_count, size_t segment_length, ocl_reduce_output results);
/* ocl_reduce_segments_offsets over the group, from host input and host offsets: each device takes a
 * contiguous run of whole segments, cut where the elements before reach its share. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_segments_offsets(
    ocl_reduce_group *group, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
    size_t segment_count, ocl_reduce_input offsets, ocl_reduce_output results);
/* ocl_reduce_by_key over the group, host memory throughout: the runs found on the host, each
 * device a contiguous run of whole runs (a run's result is one device's). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_by_key(
    ocl_reduce_group *group, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_type key_type,
    ocl_reduce_input keys, ocl_reduce_input values, size_t count, ocl_reduce_output keys_out,
    ocl_reduce_output results_out, uint64_t *run_count);
/* ocl_reduce_windows over the group; indices count from the input's start, so ARGMIN and user
 * operators see the whole input's. Order-independent operators and order-preserving user
 * operators give one device's bits; other float operators round as the device's kernel groups
 * each window.
 *   - From host input, each device takes a contiguous run of the count - window + 1 results and
 *     reads its windows' elements (window - 1 of them shared with the next device).
 *   - From a group buffer (taken whole: count is its element count), each device takes the
 *     windows that start in its part: those inside it in place, and the last window - 1, which
 *     reach into the next parts, from their elements read to host memory first (behind the work
 *     enqueued before on those devices). Results go to host memory, or stay on the devices in a
 *     group buffer made by ocl_reduce_group_buffer_create_window_results(input, window, ...);
 *     then, as a context's call into a buffer, the call returns once the seams are read and the
 *     work is enqueued on every device. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_windows(ocl_reduce_group *group, ocl_reduce_op op,
                                                          ocl_reduce_type type,
                                                          ocl_reduce_input input, size_t count,
                                                          size_t window, ocl_reduce_output results);
/* ocl_reduce_multi over the group: result k at k times the largest result size of the operators.
 * Scalar built-in operators share one pass over each device's part; others take one each. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_multi(ocl_reduce_group *group,
                                                        const ocl_reduce_op *ops, size_t op_count,
                                                        ocl_reduce_type type,
                                                        ocl_reduce_input input, size_t count,
                                                        ocl_reduce_output results);
/* ocl_reduce_axes over the group (ocl_reduce_axes.h), results to host memory. A view with several
 * results is split along its outermost kept axis (axes of extent 1 dropped, neighbours that are
 * one run merged): each device reduces the results of its run of that axis's indices, as its
 * own ocl_reduce_axes would, on its own thread. A view with one result is split along its
 * reduced positions and the devices' states combined, as ocl_reduce_group_reduce: over the view
 * in place where it is one contiguous run, else over its elements gathered on the calling thread
 * in row-major order (memory for them). Input is host memory, or a group buffer for the views
 * that are its whole array or its rows back to back (those take ocl_reduce_group_reduce's and
 * ocl_reduce_group_segments' ways, results in a group buffer included); other views of a group
 * buffer are UNSUPPORTED_OPERATION. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_axes(ocl_reduce_group *group, ocl_reduce_op op,
                                                       ocl_reduce_type type,
                                                       ocl_reduce_input input,
                                                       const ocl_reduce_shape *shape,
                                                       uint32_t axes, ocl_reduce_output results);
/* ocl_reduce_pairs over the group (ocl_reduce_pairs.h): a and b are each host memory or a group
 * buffer taken whole; two group buffers must be cut alike (made with the same count and granule
 * under the same shares), and a host input is cut as the other's buffer is, or both by the
 * shares. Each device reduces its part of the pairs to a state (a user operator's pair_map sees
 * the index of the pair in the whole), and the states combine in device order. One result to
 * host memory. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_pairs(ocl_reduce_group *group, ocl_reduce_op op,
                                                        ocl_reduce_type type, ocl_reduce_input a,
                                                        ocl_reduce_input b, size_t count,
                                                        ocl_reduce_output result);
/* ocl_reduce_pairs_segments over the group, the inputs cut by whole segments as above, results as
 * ocl_reduce_group_segments writes them (host memory, or a group buffer of results). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_pairs_segments(
    ocl_reduce_group *group, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input a,
    ocl_reduce_input b, size_t segment_count, size_t segment_length, ocl_reduce_output results);
/* ocl_reduce_partial over the group: count elements (their first at index_base of the whole) to
 * one state, the devices' states merged in device order. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_partial(ocl_reduce_group *group, ocl_reduce_op op,
                                                          ocl_reduce_type type,
                                                          ocl_reduce_input input, size_t count,
                                                          uint64_t index_base,
                                                          ocl_reduce_output state);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_GROUP_H */
