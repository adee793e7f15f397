/* =================================================================================================
 * group_call.h: one call over a group, checked and cut into parts (group_run.c), which the forms
 * that cut by elements or by whole segments share: whole arrays (group_whole.c), segments
 * (group_run.c) and pairs of both (group_pairs.c).
 * ============================================================================================== */
#ifndef ORX_GROUP_CALL_H
#define ORX_GROUP_CALL_H

#include "group/group.h"

/* One group call, checked, with its parts. */
typedef struct group_call {
  const char *function;
  const ocl_reduce_group *group;
  ocl_reduce_op op;
  ocl_reduce_type type;
  ocl_reduce_input input;
  const orx_group_buffer *gbuf;                 /* input's, where it is a group's buffer */
  int pairs;                                    /* a pair operator's call: input and input_b */
  ocl_reduce_input input_b;
  const orx_group_buffer *gbuf_b;               /* input_b's, where it is a group's buffer */
  size_t elem;                                  /* bytes of an input element */
  size_t segment_length;                        /* segments; 0 for whole arrays */
  uint64_t index_base;                          /* whole arrays: the index of element 0 */
  int to_state;                                 /* whole arrays: one state, not the result */
  size_t out_bytes;                             /* a state (whole arrays) or a result (segments) */
  uint64_t first[OCL_REDUCE_GROUP_MAX_DEVICES]; /* each part's first element */
  uint64_t count[OCL_REDUCE_GROUP_MAX_DEVICES]; /* its elements, or its segments */
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t parts;                     /* devices that run */
  unsigned char *out;               /* the parts' states, or the results of all segments */
  const orx_group_buffer *out_gbuf; /* segments: the results' group buffer, or NULL (host) */
} group_call;

/* A call of `function` with its arguments, not yet checked. */
group_call orx_group_call_make(const char *function, const ocl_reduce_group *group,
                               ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
                               size_t segment_length);
/* Makes c a pair operator's call, with b its second input (checked as the first is). */
ocl_reduce_status orx_group_call_pairs(group_call *c, ocl_reduce_input b);
/* The operator on every device (a user operator made ready on each), and its sizes (a whole
 * array's pairs: the state of their sum, or of the user operator). */
ocl_reduce_status orx_group_call_operator(group_call *c);
/* Checks the input (both of pairs) for `units` (elements, or segments of segment_length) and
 * cuts it: by a group buffer's parts where one is (two must agree), else by the shares. */
ocl_reduce_status orx_group_call_cut(group_call *c, size_t units);
/* Device d's part of the input, and of a pair call's second. */
ocl_reduce_input orx_group_call_part_input(const group_call *c, size_t d);
ocl_reduce_input orx_group_call_part_input_b(const group_call *c, size_t d);
/* The device that takes a call alone: the one part's, or the first (no part: nothing to read). */
size_t orx_group_call_only_device(const group_call *c);

/* ocl_reduce_group_reduce and ocl_reduce_group_segments, their messages naming `function` (the
 * axes of a group take these forms: group_axes.c). */
ocl_reduce_status orx_group_reduce_named(const char *function, ocl_reduce_group *group,
                                         ocl_reduce_op op, ocl_reduce_type type,
                                         ocl_reduce_input input, size_t count,
                                         ocl_reduce_output result);
ocl_reduce_status orx_group_segments_named(const char *function, ocl_reduce_group *group,
                                           ocl_reduce_op op, ocl_reduce_type type,
                                           ocl_reduce_input input, size_t segment_count,
                                           size_t segment_length, ocl_reduce_output results);

#endif /* ORX_GROUP_CALL_H */
