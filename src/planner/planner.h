/* =================================================================================================
 * planner.h: every decision about how to run a request, as pure functions of a device's
 * capabilities (orx_caps), the context's path and forced policy fields (orx_target), and the
 * request (orx_request): which kernel file, the values of its defines (the contract's
 * ORX_HOST_DEFINES), the launch policy and grid, and the scratch it needs. No device calls happen
 * here, so tests/test_planner.c runs the planner on synthetic devices; `ocl-reduce info` prints
 * its plans (ocl_reduce_describe_plan) and OCL_REDUCE_POLICY overrides its fields.
 *
 * planner.c: launch policies, whole-array and multi-operator plans, the defines; plan_path.c:
 * paths and subgroup implementations; plan_segments.c: how segments spread over work-items;
 * plan_windows.c: sliding windows; plan_describe.c: the plan in words; plan_group.c: how a
 * group of devices shares a request; plan_staging.c (plan_staging.h): how host memory crosses
 * the bus; plan_axes.c, plan_columns.c (plan_axes.h): the layout of an axes reduction, and its
 * columns read in place; plan_host.c (plan_host.h): which requests CPU devices' host plan takes;
 * policy_override.c: OCL_REDUCE_POLICY.
 * ============================================================================================== */
#ifndef ORX_PLANNER_H
#define ORX_PLANNER_H

#include <stddef.h>
#include <stdint.h>

#include "base/caps.h"
#include "base/ids.h"
#include "planner/plan_pairs.h"

/* ---- Kernel files, one per strategy (cl/kernels/) ---------------------------------------- */
/* X(ID, file, entry point) */
#define ORX_KERNELS(X)                                                                             \
  X(REDUCE_ALL, "kernels/reduce_all.cl", "orx_reduce_all")                                         \
  X(REDUCE_MULTI, "kernels/reduce_multi.cl", "orx_reduce_multi")                                   \
  X(SEGMENTS_LANE, "kernels/segments_lane.cl", "orx_segments_lane")                                \
  X(SEGMENTS_MR, "kernels/segments_mr.cl", "orx_segments_mr")                                      \
  X(SEGMENTS_GROUP, "kernels/segments_group.cl", "orx_segments_group")                             \
  X(SEGMENTS_STAGED, "kernels/segments_staged.cl", "orx_segments_staged")                          \
  X(CHECK_OFFSETS, "kernels/check_offsets.cl", "orx_check_offsets")                               \
  X(WINDOWS, "kernels/windows.cl", "orx_windows")                                                  \
  X(OPERATOR_PROBE, "kernels/operator_probe.cl", "orx_operator_probe")                             \
  X(GATHER, "kernels/gather.cl", "orx_gather")                                                     \
  X(AXES_COLUMNS, "kernels/axes_columns.cl", "orx_axes_columns")                                  \
  X(BY_KEY, "kernels/by_key.cl", "orx_by_key")

typedef enum orx_kernel {
#define ORX_KERNEL_ENUM(ID, file, entry) ORX_KERNEL_##ID,
  ORX_KERNELS(ORX_KERNEL_ENUM)
#undef ORX_KERNEL_ENUM
  ORX_KERNEL_COUNT
} orx_kernel;

const char *orx_kernel_file(orx_kernel kernel);
const char *orx_kernel_entry(orx_kernel kernel);

/* ---- Segment strategies ------------------------------------------------------------------ */
/* X(ID, name in OCL_REDUCE_POLICY, kernel). LAUNCH runs a whole-array reduction per segment. */
#define ORX_SEG_MODES(X)                                                                           \
  X(LANE, "lane", SEGMENTS_LANE)                                                                   \
  X(MR, "mr", SEGMENTS_MR)                                                                         \
  X(GROUP, "group", SEGMENTS_GROUP)                                                                \
  X(LAUNCH, "launch", REDUCE_ALL)                                                                  \
  X(STAGED, "staged", SEGMENTS_STAGED)

typedef enum orx_seg_mode {
#define ORX_SEG_MODE_ENUM(ID, name, kernel) ORX_SEG_##ID,
  ORX_SEG_MODES(ORX_SEG_MODE_ENUM)
#undef ORX_SEG_MODE_ENUM
  ORX_SEG_MODE_COUNT
} orx_seg_mode;

const char *orx_seg_mode_name(orx_seg_mode mode);

/* ---- Sliding windows --------------------------------------------------------------------- */
/* How a window call runs: the algorithm (an ORX_WIN_ id, kernels/windows.cl) and its shape. */
typedef struct orx_win_plan {
  int algo;
  unsigned run;   /* DIRECT: windows per work-item; BLOCKS, LONG: elements per work-item's run
                     (a power of two, at most 32) */
  unsigned lanes; /* SHUFFLE, MR: lanes per set of windows (the sets' size) */
} orx_win_plan;
typedef struct orx_win_shape { /* what a window call reduces, as the planner sees it */
  uint64_t count;       /* input elements */
  uint64_t window;      /* 1 <= window <= count */
  uint64_t first_index; /* the first element's index (a group's later devices: past 0) */
} orx_win_shape;

/* ---- Launch policy: how kernels are built and launched, as plain data --------------------- */
typedef struct orx_policy {
  ocl_reduce_path path;                   /* SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* NONE on the LOCAL path */
  int stream;                             /* an ORX_STREAM_ id */
  unsigned wg_size;       /* work-items per group, a power of two */
  unsigned vec;           /* elements per load */
  unsigned unroll;        /* loads in flight per work-item */
  unsigned chains;        /* independent accumulators per work-item, at most unroll (0: unroll) */
  int prefetch;           /* the next loads are issued before the last are absorbed */
  unsigned max_groups;    /* grid cap; also the size of the partials buffer */
  unsigned small_groups;  /* the cap of arrays of at most small_count elements (<= max_groups) */
  size_t small_count;     /* 0: none */
  size_t items_per_group; /* elements one group should get before another group is worth it */
  int finish_serial;      /* the last group combines the partials in one work-item (CPUs) */
  int finish_launch;      /* whole arrays: a second launch combines the partials
                             (ORX_FINISH_LAUNCH) */
  int sync;               /* otherwise the last group does, ordered by this (an ORX_SYNC_ id) */
  int unroll_slots;       /* the multireduction's loops over slots unrolled (GPUs, see planner.c) */
} orx_policy;

/* How a segmented reduction spreads segments over work-items. */
typedef struct orx_seg_plan {
  orx_seg_mode mode;
  unsigned width; /* MR: lanes per group, a power of two */
  unsigned slots; /* MR: segments a group takes per set, a power of two <= width */
  int load;       /* MR: an ORX_SEG_ load id */
  unsigned stage; /* STAGED: elements the local-memory stage holds, at least one segment */
  int vector_runs; /* LANE: a work-item reduces runs of ORX_VEC segments (ORX_SEG_VECTOR_RUNS) */
} orx_seg_plan;

/* What a segmented call reduces, as the planner sees it. */
typedef struct orx_seg_shape {
  size_t count;
  uint64_t elements; /* elements the segments span */
  uint64_t length;   /* equal lengths; 0 with offsets */
  uint64_t pitch;    /* equal lengths: elements from one segment's start to the next's; 0: length
                        (back to back) */
  int offsets;       /* segments given by offsets */
  size_t elem;       /* bytes per element */
  uint64_t start;    /* the input's first element lies `start` elements past a 256-byte boundary
                        (host input: 0, it is staged at the start of an allocation) */
} orx_seg_shape;

enum { ORX_AXES_FORCE_GATHER, ORX_AXES_FORCE_IN_PLACE, ORX_AXES_FORCE_SPLIT };
/* Policy fields forced through OCL_REDUCE_POLICY ("wg=64,vec=4,unroll=2,chains=1,prefetch=1,
 * groups=32,stream=strided,finish=group,seg=mr,slots=8"), for tests and tuning; 0 / -1 leave a
 * field to the planner. */
typedef struct orx_policy_override {
  unsigned wg_size, vec, unroll, chains, max_groups;
  int prefetch;       /* -1, 0 or 1 */
  int stream;         /* -1, or an ORX_STREAM_ id */
  int finish_serial;  /* -1, 0 or 1 */
  int finish_launch;  /* -1, 0 or 1 */
  int seg_mode;       /* -1, or an orx_seg_mode */
  unsigned seg_slots; /* multireduction segments per lane group, at most its width */
  unsigned seg_width; /* multireduction lanes per lane group (a power of two, at most a warp) */
  int win_algo;       /* -1, or an ORX_WIN_ id */
  int wait_polls;     /* -1, 0 (block in the native wait) or 1 (poll the event) */
  int binaries;       /* -1, 0 or 1: the program cache keeps the device's binaries (plan_path.c) */
  int float_keys;     /* -1, or 0, 1 or 2: float MIN and MAX as integer keys (ORX_FLOAT_KEYS) */
  unsigned min_groups; /* whole-array kernels through CUDA: groups per SM that must fit at once */
  unsigned part_kib;   /* groups of devices: the least part worth a device, in KiB */
  unsigned seam_kib;   /* groups: windows' seams staged up to this many KiB (plan_group.c) */
  int host;            /* -1 (ORX_HOST_THREAD) or an ORX_HOST_ value: who runs host plans */
  unsigned host_kib;   /* host plans up to this many KiB, every operator alike (0: the planner's) */
  int staging;         /* -1 (the planner's), 0 (off: blocking copies) or 1 (pinned, any size) */
  int host_views;      /* -1, 0 or 1: host memory viewed where it lies (plan_staging.h) */
  unsigned copy_threads; /* staging: threads that copy between caller and pinned memory */
  unsigned stage_kib;    /* staging: bytes of one pinned piece, in KiB */
  long spin_us;          /* -1 (the planner's), or how long threads spin for the next call */
  int axes_route;        /* -1, or an ORX_AXES_FORCE_ way for axes views (plan_columns.c) */
  unsigned col_run;      /* axes columns: a work-item's kept positions, at most this many */
  unsigned col_steps;    /* axes columns: runs a work-item loads before it absorbs them */
  int col_flat;          /* -1, 0 (the general walk) or 1 (the straight loop, parts or not) */
  int col_tall;          /* -1, 0 or 1: tall columns (a group's rows combined) where they apply */
  int col_finish;        /* -1, 0 or 1: parts finished in their launch (plan_columns.c) */
  int by_key_pass;       /* -1, 0 (runs found on the host) or 1 (the one-pass kernel) */
  int key_chunks;        /* -1, 0 (tiles a work-group scans) or 1 (chunks a work-item walks) */
  int key_direct;        /* -1, 0 (tiles through local memory) or 1 (straight into registers) */
  int key_warp_join, key_in_order, key_counted, key_warp_scan; /* -1, 0, 1 (plan_by_key.c) */
  int win_words, win_pass; /* -1, 0, 1: BLOCKS in 16-byte words, LONG in one launch (windows) */
  int key_stage;         /* -1, 0 or 1: the runs through scratch (plan_by_key.h) */
  int narrow_split;      /* -1, 0 or 1: how vectors of 16-bit elements load (plan_narrow.h) */
  unsigned key_run;      /* the one-pass kernel's elements per work-item or chunk */
} orx_policy_override;
ocl_reduce_status orx_parse_policy_override(const char *text, orx_policy_override *out);
/* OCL_REDUCE_POLICY's host=thread|device|off: host plans (plan_host.c) run on the calling thread
 * (the default), on the device (the same bits), or are not made (the device's own plans at every
 * size: what the test suites of the device's kernels take). */
#define ORX_HOST_THREAD 1
#define ORX_HOST_DEVICE 0
#define ORX_HOST_OFF 2

/* ---- Requests and plans ------------------------------------------------------------------ */

/* Where the planner plans: the device, the context's resolved path, and forced fields. */
typedef struct orx_target {
  const orx_caps *caps;
  ocl_reduce_path path;                   /* SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* NONE on the LOCAL path */
  orx_policy_override forced;
} orx_target;

typedef enum orx_entry {
  ORX_ENTRY_REDUCE,       /* one reduction over an array */
  ORX_ENTRY_SEGMENTS,     /* one per segment */
  ORX_ENTRY_MULTI,        /* several operators over one array */
  ORX_ENTRY_CHECK_OFFSETS, /* the device-side check of segment offsets */
  ORX_ENTRY_PROBE,         /* a user operator's sizes as the device compiler sees them */
  ORX_ENTRY_WINDOWS,       /* one per sliding window */
  ORX_ENTRY_GATHER,        /* a strided view copied into dense order (run_axes.c) */
  ORX_ENTRY_COLUMNS,       /* an axes reduction read in place (plan_axes.h, COLUMNS) */
  ORX_ENTRY_BY_KEY         /* runs of equal keys in one pass (plan_by_key.c) */
} orx_entry;

/* An operator as a plan carries it: a scalar operator by id; a structured one (ORX_OPF_STATE) by
 * id, with its state and result sizes; or (ORX_OP_CUSTOM, the operators-as-data issue) given as
 * OpenCL C source, identified in the program cache by its whole text, with a state of up to
 * ORX_STATE_MAX_BYTES bytes and its own alignment. */
#define ORX_STATE_MAX_BYTES 64
typedef struct orx_operator {
  int id;                /* an orx_op_id, or ORX_OP_CUSTOM */
  const char *source;    /* NULL for a built-in operator */
  const char *names;     /* ORX_OP_CUSTOM: `#define`s of the ORX_HOST_NAMES, one per line */
  uint64_t source_hash;  /* of source and names, for quick rejects only; 0 for a built-in */
  unsigned element_bytes; /* ORX_OP_CUSTOM: one element; 0: one element of the request's type */
  int element_type;       /* ORX_OP_CUSTOM: ORX_CUSTOM, or the scalar type the elements are */
  unsigned state_bytes;  /* 0: one element of the compute type */
  unsigned state_align;  /* 0: state_bytes */
  unsigned result_bytes; /* one result; 0: one element of the compute type */
  int ordered;           /* not commutative: combined in index order only (ORX_ORDERED) */
} orx_operator;
orx_operator orx_builtin_operator(orx_op_id op, ocl_reduce_type type);
/* Whether the kernels run it in state mode (ORX_STATE): structured and user operators. */
int orx_operator_is_state(const orx_operator *op);

/* What a whole-array launch reads and writes (state operators; scalar operators plan the same
 * kernel for all four): elements to results; elements to states, partials that a later launch
 * reduces; such states to results; such states to one state (ocl_reduce_states_merge, and the
 * pieces of host states too large for one upload). */
typedef enum orx_stage {
  ORX_STAGE_WHOLE,
  ORX_STAGE_PARTIAL,
  ORX_STAGE_FINAL,
  ORX_STAGE_MERGE
} orx_stage;
/* Whether a stage's launch reads states (FINAL, MERGE), whether it writes them (PARTIAL, MERGE). */
int orx_stage_reads_states(orx_stage stage);
int orx_stage_writes_states(orx_stage stage);

typedef struct orx_request {
  orx_entry entry;
  ocl_reduce_type type;     /* the element type of the input */
  orx_operator op;          /* REDUCE, SEGMENTS */
  const orx_op_id *ops;     /* MULTI: op_count operators */
  unsigned op_count;
  orx_seg_shape shape;      /* SEGMENTS; COLUMNS: length, the reduced positions per result, and
                               count, the results */
  orx_win_shape windows;    /* WINDOWS */
  orx_stage stage;          /* REDUCE, COLUMNS */
  uint64_t kept_run;        /* COLUMNS: kept positions that lie one after another */
  int columns_flat;         /* COLUMNS: at most one kept axis and one reduced axis, not cut into
                               parts (ORX_COL_FLAT: plan_columns.c), or tall (ORX_COL_TALL) */
  int host;                 /* REDUCE: the host plan (orx_plan_takes_host) */
  orx_pair_request pair;    /* REDUCE (WHOLE stage), SEGMENTS */
  unsigned key_bytes;       /* BY_KEY: 4 or 8 */
  int key_positions;        /* BY_KEY: each run's start its result (orx_by_key_starts_request) */
  int key_pass, key_tile_wg, key_tile_run; /* BY_KEY counted: pass 1, 2, 4 (1, 2: tiles' shape) */
} orx_request;
/* The request of a whole-array reduction with a built-in operator (the other entries start from
 * it), and with a user operator (type: its elements, ORX_CUSTOM or a scalar type). */
orx_request orx_reduce_request(orx_op_id op, ocl_reduce_type type);
orx_request orx_custom_request(const orx_operator *op);
/* Bytes of one element of a request's input (its type's, or a user operator's). */
size_t orx_request_element_bytes(const orx_request *request);

/* ORX_DEFINE_<NAME> indexes a plan's value of the contract's ORX_<NAME>. */
typedef enum orx_define {
#define ORX_DEFINE_ENUM(c, NAME) ORX_DEFINE_##NAME,
  ORX_HOST_DEFINES(ORX_DEFINE_ENUM, )
#undef ORX_DEFINE_ENUM
  ORX_DEFINE_COUNT
} orx_define;
#define ORX_DEFINE_UNSET INT64_MIN /* not emitted: the kernel takes the contract's default */
const char *orx_define_name(orx_define define); /* "ORX_VEC" */

typedef struct orx_plan {
  orx_kernel kernel;
  ocl_reduce_type type; /* the type the kernel computes in */
  orx_operator op;      /* REDUCE, SEGMENTS; state_bytes and state_align filled in */
  orx_policy policy;
  orx_seg_plan seg;     /* SEGMENTS */
  orx_win_plan win;     /* WINDOWS */
  unsigned key_run;     /* BY_KEY: elements per work-item of a tile (plan_by_key.h) */
  unsigned slots;       /* results per launch: MULTI's operators, else 1 */
  unsigned element_bytes; /* what the kernel reads per element (FINAL stages: states) */
  size_t partials_bytes; /* scratch: one state per group and slot */
  int64_t defines[ORX_DEFINE_COUNT]; /* the generated block (program.c writes it) */
  int host;                          /* the host plan (planner/host_plan.h) */
} orx_plan;

/* How the host waits for a result (context creation): 1 to flush and poll the native event, 0 to
 * block in the implementation's own wait (plan_path.c says why for each device). */
int orx_plan_wait_polls(const orx_caps *caps, const orx_policy_override *forced);
/* Whether the library's program cache keeps the device's program binaries (forced: binaries). */
int orx_plan_caches_binaries(const orx_caps *caps, const orx_policy_override *forced);
/* How long the library's threads (groups, staging, the CPU host grid) spin for the next call
 * before they sleep, in nanoseconds (forced: spin_us; plan_path.c). */
unsigned long orx_plan_spin_ns(const orx_policy_override *forced);

/* The path and subgroup implementation a context takes (context creation). A forced path or
 * named implementation the device cannot take is PATH_UNSUPPORTED with *why the requirement. */
ocl_reduce_status orx_plan_path(const orx_caps *caps, ocl_reduce_path path,
                                ocl_reduce_subgroup_impl impl, ocl_reduce_path *path_out,
                                ocl_reduce_subgroup_impl *impl_out, const char **why);
/* The plan for a request. */
void orx_plan_make(const orx_target *target, const orx_request *request, orx_plan *plan);
/* Bytes per element the plan's kernel reads. */
#define orx_plan_element_bytes(plan) ((size_t)(plan)->element_bytes)
/* Work-groups to launch for `count` elements (REDUCE, MULTI), segments of `length` (SEGMENTS;
 * not LAUNCH) or offsets (CHECK_OFFSETS). */
size_t orx_plan_groups(const orx_plan *plan, size_t count, uint64_t length);
/* plan_minmax.c: ORX_FLOAT_KEYS for a plan of one scalar operator or of the multi-operator
 * kernel (0, 1 or 2), and, for a whole-array plan (of 16-bit elements if narrow), the register
 * cap (ORX_MIN_GROUPS_PER_CU) and the groups that CUDA's MIN and MAX need. */
int orx_plan_float_keys(const orx_target *target, const orx_plan *plan);
void orx_plan_minmax_occupancy(const orx_target *target, int narrow, orx_plan *plan);
/* Whether a whole-array launch of `groups` groups leaves its partials to a second launch of one
 * group (reduce_all.cl, step 3) instead of its last group. */
int orx_plan_finish_launch(const orx_plan *plan, size_t groups);
/* SEGMENTS: segments a work-group takes per round, the kernels' per_round argument (STAGED: a
 * tile; the other strategies fix theirs at compile time: 0). */
uint64_t orx_plan_per_round(const orx_plan *plan, uint64_t length);
/* Host input goes to the device through a staging buffer of at most this many bytes; a piece is
 * whole vectors of the plan, within the device's largest allocation. The pieces, hence the
 * results' bits, depend only on the count. */
#define ORX_STAGING_BYTES ((size_t)64 << 20)
size_t orx_plan_staging_piece(const orx_caps *caps, const orx_plan *plan);

/* The plan in words: its kernel file, its policy in OCL_REDUCE_POLICY syntax, and what follows
 * from it for `count` elements in segments of `length` (0: one reduction). */
void orx_plan_describe(const orx_plan *plan, size_t count, uint64_t length, char *text,
                       size_t size);

/* ---- The decisions, one by one (planner.c, plan_segments.c), for tests ------------------- */
/* The launch policy depends on the element size only (`elem` bytes). */
void orx_select_policy(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                       size_t elem, orx_policy *out);
void orx_apply_policy_override(const orx_caps *caps, const orx_policy_override *o, size_t elem,
                               orx_policy *p);
/* The selector's policy with the forced fields applied. */
void orx_target_policy(const orx_target *target, size_t elem, orx_policy *out);
/* The multi-operator kernel's policy on GPUs (plan_multi.c): fewer loads in flight than the
 * scalar policy's, unless forced. */
void orx_fit_multi(const orx_target *target, unsigned slots, ocl_reduce_type type, orx_policy *p);
/* Its slots' defines, the multireduction's q (the operators rounded up to a power of two), float
 * keys and the register cap (plan_minmax.c), once the common defines are set. */
void orx_multi_defines(const orx_target *target, const orx_request *request, unsigned q,
                       orx_plan *plan);
size_t orx_policy_groups(const orx_policy *policy, size_t count);
/* The independent accumulators a work-item keeps (the ORX_CHAINS define). */
unsigned orx_policy_chains(const orx_policy *policy);
/* The segment plan of an operator (forced: an orx_seg_mode, or -1; a forced STAGED that cannot
 * hold the segments, or has offsets, becomes MR). */
void orx_plan_segments(const orx_caps *caps, const orx_policy *policy, int forced, unsigned op_id,
                       const orx_seg_shape *shape, orx_seg_plan *out);
/* Once the mode is chosen: forced multireduction shapes, a work-group's size per segment. */
void orx_seg_fit_shapes(const orx_target *target, unsigned op_id, orx_plan *plan);
/* The kernel file of a strategy, and the defines of its plan (plan->seg set, LANE's vector_runs
 * too: orx_seg_lane_runs below). */
orx_kernel orx_seg_mode_kernel(orx_seg_mode mode);
void orx_seg_defines(const orx_caps *caps, const orx_request *request, orx_plan *plan);
/* Equal lengths back to back: what a stage or a run of segments takes as one contiguous span. */
int orx_seg_back_to_back(const orx_seg_shape *shape);
/* Equal lengths of whole vectors from a vector boundary: every segment is whole vectors. */
int orx_seg_whole_vectors(const orx_policy *policy, const orx_seg_shape *shape);
/* Whether a LANE plan's work-items reduce runs of ORX_VEC segments at once (plan_lane_runs.c),
 * once the operator's defines are set (other modes: 0); on CPUs it narrows the plan's vectors
 * (ORX_VEC) to what the runs take, or sizes a walk's work-groups and vectors to its segments. */
int orx_seg_lane_runs(const orx_target *target, const orx_request *request, orx_plan *plan);
/* MR: sets of `slots` segments a lane group takes at once, so that each lane has 8 vector or 16
 * element loads in flight (8 for one-element segments); 1 for other modes. */
unsigned orx_seg_batch(const orx_seg_plan *plan);
/* STAGED: segments a work-group takes per tile, for segments of `length` elements. */
uint64_t orx_stage_segments(const orx_policy *policy, const orx_seg_plan *plan, uint64_t length);
/* Work-groups for `count` segments of `length` (equal lengths) with a plan (not LAUNCH). */
size_t orx_segment_groups(const orx_policy *policy, const orx_seg_plan *plan, size_t count,
                          uint64_t length);
/* The strategy of a segment request (its policy set), its kernel and fitted shapes. */
void orx_plan_segment_strategy(const orx_target *target, const orx_request *request,
                               orx_plan *plan);
/* ---- Applications' programs (plan_program.c) --------------------------------------------- */
/* The defines of a program that uses the collectives (cl/ocl_reduce_collectives.h), built for
 * work-groups of wg_size work-items: the target's subgroup implementation and warp size, and
 * whether the multireduction unrolls; every other entry ORX_DEFINE_UNSET. */
void orx_plan_program(const orx_target *target, unsigned wg_size,
                      int64_t defines[ORX_DEFINE_COUNT]);
/* The work-groups such a program accepts: a power of two, within the device's limit, and a
 * multiple of the warp where warps are fixed (NVIDIA); NULL when wg_size is one, else why not. */
const char *orx_program_wg_problem(const orx_target *target, unsigned wg_size);

#endif /* ORX_PLANNER_H */
