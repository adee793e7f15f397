/* =================================================================================================
 * orx_contract.h: the contract between the host and the kernels, written once. It holds only
 * preprocessor definitions and is valid C11, OpenCL C and CUDA C++ (behind
 * lib/orx_cuda_prelude.cl):
 *
 *   1. every id the host passes to kernels: element types, operators, subgroup implementations,
 *      stream layouts and segment loads. Types, operators and subgroup implementations are
 *      numbered as the public enums (src/base/ids.c checks that when it compiles);
 *   2. the facts both sides need about types and operators, as X-macro lists: sizes, which
 *      operators floats take, identities (the host's count == 0 answer and the kernels' padding
 *      come from the same ORX_IDENTITY_BITS_OF);
 *   3. every define the host may emit (ORX_HOST_DEFINES), each with its default, so that every
 *      kernel file compiles without the host.
 *
 * The library includes this file in C. A program the host builds is the generated block of
 * `#define NAME value` lines, then this file, then the backend's prelude, then the kernel file
 * with its includes (src/exec/program.c). The host must never define an ORX_ name listed in
 * ORX_HOST_DEFINES itself: in C each one stands for its default.
 *
 * An X-macro list takes the macro X and a context argument c, passed to every entry as
 * X(c, ID, ...), where ID is the id's name without its prefix (I32 for ORX_I32 and
 * OCL_REDUCE_I32); the *_OF accessors use c for the id they look up.
 * ============================================================================================== */
#ifndef ORX_CONTRACT_H
#define ORX_CONTRACT_H

/* ---- Element types (ocl_reduce_type) ------------------------------------------------------ */
#define ORX_I32 0
#define ORX_U32 1
#define ORX_I64 2
#define ORX_U64 3
#define ORX_F32 4
#define ORX_F64 5
#define ORX_F16 6  /* IEEE binary16 */
#define ORX_BF16 7 /* bfloat16: an f32's top half */

/* X(c, ID, name, bytes, is_float, is_signed, one, highest, lowest), for ORX_<ID>: the last three
 * are the bit patterns of 1, the largest value and the smallest (for floats +inf and -inf). */
#define ORX_TYPES(X, c)                                                                            \
  X(c, I32, "i32", 4, 0, 1, 0x1, 0x7fffffff, 0x80000000)                                           \
  X(c, U32, "u32", 4, 0, 0, 0x1, 0xffffffff, 0x0)                                                  \
  X(c, I64, "i64", 8, 0, 1, 0x1, 0x7fffffffffffffff, 0x8000000000000000)                           \
  X(c, U64, "u64", 8, 0, 0, 0x1, 0xffffffffffffffff, 0x0)                                          \
  X(c, F32, "f32", 4, 1, 1, 0x3f800000, 0x7f800000, 0xff800000)                                    \
  X(c, F64, "f64", 8, 1, 1, 0x3ff0000000000000, 0x7ff0000000000000, 0xfff0000000000000)          \
  X(c, F16, "f16", 2, 1, 1, 0x3c00, 0x7c00, 0xfc00)                                                \
  X(c, BF16, "bf16", 2, 1, 1, 0x3f80, 0x7f80, 0xff80)

/* The element type of a user operator (ORX_ELEMENT_T, ORX_ELEMENT_BYTES bytes): not a public
 * type, so not in ORX_TYPES. */
#define ORX_CUSTOM 256
/* No type: ORX_ELEM_TYPE_ID's default. */
#define ORX_NO_TYPE 255

/* One case of an accessor: `c` is the type looked up. */
#define ORX_TYPE_CASE_BYTES(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? bytes :
#define ORX_TYPE_CASE_FLOAT(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? flt :
#define ORX_TYPE_CASE_SIGNED(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? sgn :
#define ORX_TYPE_CASE_ONE(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? one :
#define ORX_TYPE_CASE_HIGHEST(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? hi :
#define ORX_TYPE_CASE_LOWEST(c, ID, name, bytes, flt, sgn, one, hi, lo) ((c) == ORX_##ID) ? lo :
/* Facts of type t, as constant expressions (also in #if). */
#define ORX_TYPE_BYTES_OF(t) (ORX_TYPES(ORX_TYPE_CASE_BYTES, t) 0)
#define ORX_TYPE_IS_FLOAT_OF(t) (ORX_TYPES(ORX_TYPE_CASE_FLOAT, t) 0)
#define ORX_TYPE_IS_SIGNED_OF(t) (ORX_TYPES(ORX_TYPE_CASE_SIGNED, t) 0)

/* ---- Operators (ocl_reduce_op) ------------------------------------------------------------ */
#define ORX_OP_SUM 0
#define ORX_OP_PROD 1
#define ORX_OP_MIN 2
#define ORX_OP_MAX 3
#define ORX_OP_AND 4
#define ORX_OP_OR 5
#define ORX_OP_XOR 6
#define ORX_OP_ARGMIN 7
#define ORX_OP_ARGMAX 8
#define ORX_OP_MINMAX 9
#define ORX_OP_SUM_WIDE 10
#define ORX_OP_SUM_COMPENSATED 11
#define ORX_OP_MEAN_VAR 12
#define ORX_OP_SUM_REPRODUCIBLE 13
/* A user operator (ocl_reduce_operator_create): not a public ocl_reduce_op. */
#define ORX_OP_CUSTOM 255

/* ---- Pair operators (ocl_reduce_pairs: OCL_REDUCE_DOT, ...) -------------------------------- */
/* Each maps the pair (a[i], b[i]) to one value and sums those (lib/orx_pairs.cl): the kernels run
 * SUM of the pair's value type, reading both inputs where they read one (ORX_PAIR_OP). */
#define ORX_PAIR_DOT 0              /* a * b */
#define ORX_PAIR_SQUARED_DISTANCE 1 /* (a - b)^2 */
#define ORX_PAIR_ABS_DISTANCE 2     /* |a - b| */
#define ORX_PAIR_COUNT_EQUAL 3      /* a == b, counted in u64 */
/* A user operator's pair_map (ORX_STATE_PAIR_MAP) maps each pair to a state, which its combine
 * reduces (ORX_OP_CUSTOM): the kernel's elements are the pairs, of two ORX_ELEMENT_T. */
#define ORX_PAIR_USER 254
#define ORX_PAIR_NONE 255 /* ORX_PAIR_OP's default: one input */
/* X(c, ID, name, counts): counts, 1 where the value is a u64 count whatever the elements. */
#define ORX_PAIR_OPERATORS(X, c)                                                                   \
  X(c, DOT, "dot", 0) X(c, SQUARED_DISTANCE, "squared_distance", 0)                                \
  X(c, ABS_DISTANCE, "abs_distance", 0) X(c, COUNT_EQUAL, "count_equal", 1)

/* Operator flags. */
#define ORX_OPF_INTEGER_ONLY 1 /* defined on integer types only */
#define ORX_OPF_UNSIGNED 2     /* integers compute on their unsigned bits: wrapping arithmetic
                                  and bitwise operators give two's-complement results */
#define ORX_OPF_SG_BUILTIN 4   /* OpenCL's sub_group_reduce_<op> computes it exactly on integers */
#define ORX_OPF_SG_BUILTIN_FLOAT 8 /* ... and on floats (min and max are not: the built-ins
                                      follow fmin/fmax, which drop NaNs and do not order -0.0) */
#define ORX_OPF_STATE 16 /* structured: its state, identity, map and combine are operator text
                            (lib/orx_state_ops.cl), run in the kernels' state mode (ORX_STATE) */
#define ORX_OPF_FLOAT_ONLY 32 /* defined on float types only */
#define ORX_OPF_NARROW_ONLY 64 /* defined on 32-bit types only */

/* Identities, by kind. */
#define ORX_IDENTITY_ZERO 0
#define ORX_IDENTITY_ONE 1
#define ORX_IDENTITY_ALL_ONES 2
#define ORX_IDENTITY_HIGHEST 3
#define ORX_IDENTITY_LOWEST 4

/* X(c, ID, name, flags, identity), for ORX_OP_<ID> */
#define ORX_OPERATORS(X, c)                                                                        \
  X(c, SUM, "sum", ORX_OPF_UNSIGNED | ORX_OPF_SG_BUILTIN | ORX_OPF_SG_BUILTIN_FLOAT,               \
    ORX_IDENTITY_ZERO)                                                                             \
  X(c, PROD, "prod", ORX_OPF_UNSIGNED, ORX_IDENTITY_ONE)                                           \
  X(c, MIN, "min", ORX_OPF_SG_BUILTIN, ORX_IDENTITY_HIGHEST)                                       \
  X(c, MAX, "max", ORX_OPF_SG_BUILTIN, ORX_IDENTITY_LOWEST)                                        \
  X(c, AND, "and", ORX_OPF_INTEGER_ONLY | ORX_OPF_UNSIGNED, ORX_IDENTITY_ALL_ONES)                 \
  X(c, OR, "or", ORX_OPF_INTEGER_ONLY | ORX_OPF_UNSIGNED, ORX_IDENTITY_ZERO)                       \
  X(c, XOR, "xor", ORX_OPF_INTEGER_ONLY | ORX_OPF_UNSIGNED, ORX_IDENTITY_ZERO)                  \
  X(c, ARGMIN, "argmin", ORX_OPF_STATE, ORX_IDENTITY_HIGHEST)                                      \
  X(c, ARGMAX, "argmax", ORX_OPF_STATE, ORX_IDENTITY_LOWEST)                                       \
  X(c, MINMAX, "minmax", ORX_OPF_STATE, ORX_IDENTITY_ZERO)                                         \
  X(c, SUM_WIDE, "sum_wide", ORX_OPF_STATE | ORX_OPF_NARROW_ONLY, ORX_IDENTITY_ZERO)               \
  X(c, SUM_COMPENSATED, "sum_compensated", ORX_OPF_STATE | ORX_OPF_FLOAT_ONLY, ORX_IDENTITY_ZERO)  \
  X(c, MEAN_VAR, "mean_var", ORX_OPF_STATE, ORX_IDENTITY_ZERO)                                   \
  X(c, SUM_REPRODUCIBLE, "sum_reproducible", ORX_OPF_STATE | ORX_OPF_FLOAT_ONLY, ORX_IDENTITY_ZERO)

#define ORX_OP_CASE_FLAGS(c, ID, name, flags, identity) ((c) == ORX_OP_##ID) ? (flags) :
#define ORX_OP_CASE_IDENTITY(c, ID, name, flags, identity) ((c) == ORX_OP_##ID) ? (identity) :
#define ORX_OP_FLAGS_OF(op) (ORX_OPERATORS(ORX_OP_CASE_FLAGS, op) 0)
#define ORX_OP_IDENTITY_OF(op) (ORX_OPERATORS(ORX_OP_CASE_IDENTITY, op) 0)

/* The identity of operator op on type t, as t's bit pattern. */
#define ORX_IDENTITY_BITS_OF(op, t) ORX_IDENTITY_BITS_FOR(ORX_OP_IDENTITY_OF(op), t)
#define ORX_IDENTITY_BITS_FOR(kind, t)                                                             \
  ((kind) == ORX_IDENTITY_ONE        ? (ORX_TYPES(ORX_TYPE_CASE_ONE, t) 0)                         \
   : (kind) == ORX_IDENTITY_HIGHEST  ? (ORX_TYPES(ORX_TYPE_CASE_HIGHEST, t) 0)                     \
   : (kind) == ORX_IDENTITY_LOWEST   ? (ORX_TYPES(ORX_TYPE_CASE_LOWEST, t) 0)                      \
   : (kind) == ORX_IDENTITY_ALL_ONES ? (ORX_TYPE_BYTES_OF(t) == 8 ? 0xffffffffffffffff           \
                                                                  : 0xffffffff)                    \
                                     : 0)

/* ---- Subgroup implementations (ocl_reduce_subgroup_impl) ---------------------------------- */
#define ORX_SG_KHR 2     /* sub_group_shuffle_xor (cl_khr_subgroup_shuffle) */
#define ORX_SG_INTEL 3   /* intel_sub_group_shuffle_xor (cl_intel_subgroups) */
#define ORX_SG_BUILTIN 4 /* sub_group_reduce_* only (cl_khr_subgroups without shuffles) */
#define ORX_SG_NONE 5    /* no subgroups: local memory */
#define ORX_SG_NV_PTX 6  /* NVIDIA's OpenCL: inline PTX shfl.sync.bfly */
#define ORX_SG_CUDA 7    /* the CUDA backend: __shfl_xor_sync */
/* X(c, ID, name, warps, shuffles), for ORX_SG_<ID>. warps: 1 where the shuffles are written for
 * whole warps of the device's fixed width (ORX_SG_SIZE, caps.warp_size), so that a work-group
 * holds whole warps and warp-tiled layouts apply. shuffles: 1 where lanes exchange values by
 * shuffles (lib/orx_subgroup.cl's ORX_SG_HAS_SHUFFLE, which checks its value against this). */
#define ORX_SUBGROUP_IMPLS(X, c)                                                                   \
  X(c, KHR, "khr", 0, 1) X(c, INTEL, "intel", 0, 1) X(c, BUILTIN, "builtin", 0, 0)                 \
  X(c, NONE, "none", 0, 0) X(c, NV_PTX, "ptx", 1, 1) X(c, CUDA, "cuda", 1, 1)

/* ---- Ordering between work-groups (lib/orx_finish.cl) ------------------------------------ */
/* How the groups of one launch order their writes before the last one reads them: a device
 * fact (caps.device_sync), which the host passes as ORX_SYNC. */
#define ORX_SYNC_NONE 0       /* none the language defines (OpenCL 1.x): the host finishes by a
                                 second launch (ORX_FINISH_LAUNCH) */
#define ORX_SYNC_CL_ATOMICS 1 /* OpenCL C 2.0/3.0 atomics and fences at memory_scope_device
                                 (built with the device's -cl-std option) */
#define ORX_SYNC_PTX 2        /* NVIDIA's OpenCL: PTX fences (inline assembly) */
#define ORX_SYNC_CUDA 3       /* the CUDA backend: __threadfence */
#define ORX_SYNC_HOST 4       /* the host plan (src/host): C11 atomics, which host_prelude.h
                                 defines the count with */

/* ---- How a work-item streams its input (lib/orx_stream.cl) -------------------------------- */
#define ORX_STREAM_STRIDED 0 /* grid-stride: coalesced, one wave of groups (GPUs) */
#define ORX_STREAM_CHUNK 1   /* a contiguous run per work-item (CPUs) */
#define ORX_STREAM_TILED 2   /* a contiguous share per group, strided inside it (CUB's layout) */
#define ORX_STREAM_TRANSPOSED 3 /* a contiguous run per work-item, as CHUNK, read coalesced
                                   through local memory (GPUs, order-preserving operators) */
#define ORX_STREAM_WARP_TILES 4 /* a contiguous run per warp, read ORX_MR_Q coalesced tiles at a
                                   time and reduced by the multireduction (CUDA and NVIDIA's
                                   OpenCL, order-preserving operators) */
#define ORX_STREAM_RUNS 5       /* a contiguous run per work-item, as CHUNK, read as ORX_UNROLL
                                   runs side by side, load u of a step from run u (the host plan:
                                   a core keeps several streams of memory in flight) */
/* ORX_STREAM_RUNS: a work-item's run that would make runs of fewer vectors than this is read as
 * CHUNK reads it (64 KiB of the host plan's 16-byte vectors; planner/host_plan.h). */
#define ORX_RUNS_MIN_VECTORS 4096
/* Whether each work-item reads its own contiguous run, each chain in index order. */
#define ORX_STREAM_CONTIGUOUS (ORX_STREAM == ORX_STREAM_CHUNK || ORX_STREAM == ORX_STREAM_RUNS)
/* X(c, ID, name), for ORX_STREAM_<ID> */
#define ORX_STREAMS(X, c)                                                                          \
  X(c, STRIDED, "strided") X(c, CHUNK, "chunk") X(c, TILED, "tiled")                             \
  X(c, TRANSPOSED, "transposed") X(c, WARP_TILES, "warp_tiles") X(c, RUNS, "runs")

/* ORX_STREAM_TRANSPOSED's stage (lib/orx_stream.cl) for elements of `bytes` bytes: each round
 * takes a piece of ORX_PIECE_OF elements of every work-item's run (a power of two, at most 64
 * bytes of them), into a row of ORX_STAGE_ROW_OF elements per work-item (the piece and padding),
 * so the host sizes local memory with the kernels' numbers. */
#define ORX_PIECE_OF(bytes)                                                                        \
  ((bytes) <= 1 ? 64 : (bytes) <= 2 ? 32 : (bytes) <= 4 ? 16 : (bytes) <= 8 ? 8                    \
   : (bytes) <= 16 ? 4 : (bytes) <= 32 ? 2 : 1)
#define ORX_STAGE_ROW_OF(bytes) (ORX_PIECE_OF(bytes) + ((bytes) >= 4 ? 1 : 4 / (bytes)))

/* ---- What one load of a multireduction lane takes (kernels/segments_mr.cl) ---------------- */
#define ORX_SEG_ELEMENTS 0 /* one element */
#define ORX_SEG_VECTORS 1  /* a whole vector: every segment starts on a vector boundary and is a
                              whole number of vectors long */
#define ORX_SEG_MASKED 2   /* a vector of the aligned grid, elements outside the segment left out */
/* X(c, ID, name), for ORX_SEG_<ID> */
#define ORX_SEG_LOADS(X, c)                                                                        \
  X(c, ELEMENTS, "elements") X(c, VECTORS, "vectors") X(c, MASKED, "masked")

/* ---- Sliding windows (kernels/windows.cl): how each window's result is computed ----------- */
#define ORX_WIN_DIRECT 0  /* a work-item per window folds its elements: O(window) per result */
#define ORX_WIN_SHUFFLE 1 /* lane groups of ORX_MR_Q: each window's elements spread over the lanes,
                             then a butterfly per window (the standard reduction, the paper's §7
                             baseline) */
#define ORX_WIN_MR 2      /* the same loads, ORX_MR_Q windows reduced at once by the iterative
                             multireduction (§3): q - 1 merges per q windows */
#define ORX_WIN_BLOCKS 3  /* van Herk / Gil-Werman: suffix and prefix scans within blocks of
                             `window` elements, a result per element from two of them: O(1) per
                             result; a local-memory tile of ORX_WG_SIZE runs of ORX_WIN_RUN
                             elements per work-group holds whole windows */
#define ORX_WIN_LONG 4    /* windows longer than a tile, tiles counted from the call's first
                             element: a suffix within a tile, the totals of the whole tiles
                             between (a first launch, ORX_WIN_TOTALS) and a prefix within a tile */
#define ORX_WIN_SERIAL 5  /* the same formula, a work-item per block, scanning it sequentially
                             (CPUs: the suffixes wait in global scratch, in cache) */
#define ORX_WIN_SPANS 6   /* runs of ORX_WIN_RUN counted from the call's first element: a suffix
                             within a run, the whole runs between, a prefix within a run (windows
                             longer than two runs; lib/orx_window_spans.cl): four combines per
                             element, in local-memory tiles as BLOCKS */
/* X(c, ID, name), for ORX_WIN_<ID> */
#define ORX_WIN_ALGOS(X, c)                                                                        \
  X(c, DIRECT, "direct") X(c, SHUFFLE, "shuffle") X(c, MR, "mr") X(c, BLOCKS, "blocks")            \
  X(c, LONG, "long") X(c, SERIAL, "serial") X(c, SPANS, "spans")

/* ---- Axes of N-d views (ocl_reduce_axes; kernels/gather.cl, kernels/axes_columns.cl) ------ */
#define ORX_MAX_RANK 8 /* OCL_REDUCE_MAX_RANK: axes of a view, kept or reduced */

/* ---- The defines the host may emit, with their defaults ----------------------------------- */

/* The type the kernel computes in (an ORX_<type> id above). */
#ifndef ORX_TYPE_ID
#define ORX_TYPE_ID ORX_F32
#endif
/* The kernel's operator (an ORX_OP_ id). */
#ifndef ORX_OP_ID
#define ORX_OP_ID ORX_OP_SUM
#endif
/* Operators a multi-operator kernel applies (1 .. 8), and their ids, 8 bits per slot from bit 0;
 * slots from ORX_SLOTS on take slot 0's operator. */
#ifndef ORX_SLOTS
#define ORX_SLOTS 1
#endif
#ifndef ORX_SLOT_OPS
#define ORX_SLOT_OPS ORX_OP_ID
#endif
/* Elements per load: 1, 2, 4, 8 or 16. */
#ifndef ORX_VEC
#define ORX_VEC 1
#endif
/* Loads in flight per work-item. */
#ifndef ORX_UNROLL
#define ORX_UNROLL 1
#endif
/* Independent accumulators per work-item (at most ORX_UNROLL; load u feeds accumulator
 * u % ORX_CHAINS). */
#ifndef ORX_CHAINS
#define ORX_CHAINS ORX_UNROLL
#endif
/* 1: a work-item issues its next ORX_UNROLL loads before it absorbs the last ones. */
#ifndef ORX_PREFETCH
#define ORX_PREFETCH 0
#endif
/* Work-items per work-group (a power of two); kernels are launched with exactly this many. */
#ifndef ORX_WG_SIZE
#define ORX_WG_SIZE 256
#endif
/* How a work-item streams its input (an ORX_STREAM_ id). */
#ifndef ORX_STREAM
#define ORX_STREAM ORX_STREAM_STRIDED
#endif
/* The subgroup implementation (an ORX_SG_ id), and for NV_PTX and CUDA the warp size. */
#ifndef ORX_SG_IMPL
#define ORX_SG_IMPL ORX_SG_NONE
#endif
#ifndef ORX_SG_SIZE
#define ORX_SG_SIZE 32
#endif
/* 1: with ORX_SG_BUILTIN, subgroups reduce ORX_OP_ID with its sub_group_reduce built-in (the
 * host sets it only where ORX_OPF_SG_BUILTIN(_FLOAT) allows); 0: work-groups use local memory. */
#ifndef ORX_SG_BUILTIN_REDUCE
#define ORX_SG_BUILTIN_REDUCE 0
#endif
/* 1: the last work-group combines the partials in one work-item (CPUs). */
#ifndef ORX_FINISH_SERIAL
#define ORX_FINISH_SERIAL 0
#endif
/* 1: reduce_all.cl's and reduce_multi.cl's groups only write their partials, and the host
 * launches one group more over them (src/exec/launch.c); always where the device has no ordering
 * between work-groups (ORX_SYNC, below). */
#ifndef ORX_FINISH_LAUNCH
#define ORX_FINISH_LAUNCH (ORX_SYNC == ORX_SYNC_NONE)
#endif
/* 1: the program is a finish by launch's second launch: one group combines the first launch's `n`
 * partials (its `partials` argument) into out. A program of its own, not a branch at run time:
 * PoCL 3.1 lost the finish's write, or crashed, with the branch. */
#ifndef ORX_FINISH_ONLY
#define ORX_FINISH_ONLY 0
#endif
/* The device's ordering between work-groups (an ORX_SYNC_ id). */
#ifndef ORX_SYNC
#define ORX_SYNC ORX_SYNC_NONE
#endif
/* 1: the multireduction's loops over slots are unrolled (GPUs). */
#ifndef ORX_UNROLL_SLOTS
#define ORX_UNROLL_SLOTS 0
#endif
/* The multireduction: ORX_MR_Q reductions (a power of two) across groups of ORX_MR_LANES lanes
 * (a power of two, at least ORX_MR_Q). */
#ifndef ORX_MR_Q
#define ORX_MR_Q 1
#endif
#ifndef ORX_MR_LANES
#define ORX_MR_LANES ORX_MR_Q
#endif
/* Segments: 1 when given by offsets, 0 for equal lengths. */
#ifndef ORX_SEG_OFFSETS
#define ORX_SEG_OFFSETS 0
#endif
/* Segments of equal lengths: 1 when they start `pitch` elements apart (a buffer's rows apart or
 * overlapping), 0 when back to back (the pitch is the length: the kernels' code then is what it
 * was before pitches, one register fewer where CUDA caps them; lib/orx_segments.cl). */
#ifndef ORX_SEG_PITCH
#define ORX_SEG_PITCH 0
#endif
/* Segments, multireduction: what a lane's load takes (an ORX_SEG_ load id), and the sets of
 * ORX_MR_Q segments a lane group takes at a time. */
#ifndef ORX_SEG_LOAD
#define ORX_SEG_LOAD ORX_SEG_ELEMENTS
#endif
#ifndef ORX_SEG_BATCH
#define ORX_SEG_BATCH 1
#endif
/* Segments, a work-item per segment: 1 when a work-item reduces ORX_VEC segments of whole
 * vectors at a time (kernels/segments_lane.cl). */
#ifndef ORX_SEG_VECTOR_RUNS
#define ORX_SEG_VECTOR_RUNS 0
#endif
/* Segments, staged: elements the local-memory stage holds. */
#ifndef ORX_SEG_STAGE
#define ORX_SEG_STAGE 4096
#endif
/* Axes reductions read in place (kernels/axes_columns.cl): neighbouring kept positions a
 * work-item takes. */
#ifndef ORX_COL_RUN
#define ORX_COL_RUN 1
#endif
/* ... and 1 where the view has at most one kept axis and one reduced axis. */
#ifndef ORX_COL_FLAT
#define ORX_COL_FLAT 0
#endif
/* ... and the runs a work-item loads before it absorbs them (a batch in flight). */
#ifndef ORX_COL_STEPS
#define ORX_COL_STEPS 1
#endif
/* ... and 1 where a work-item absorbs a run straight from global memory, not from a copy. */
#ifndef ORX_COL_DIRECT
#define ORX_COL_DIRECT 0
#endif
/* ... and 1 where a work-group takes whole short rows of a 2-D view side by side, ORX_WG_SIZE /
 * runs of them, and combines them into one partial per part (tall columns). */
#ifndef ORX_COL_TALL
#define ORX_COL_TALL 0
#endif
/* ... and 1 where the last of a block's parts to arrive folds the block's partials into its
 * results (one launch where the partials would take a second). */
#ifndef ORX_COL_FINISH
#define ORX_COL_FINISH 0
#endif
/* ... and the bits of its `aligned` argument: every run it reads starts on a vector boundary;
 * every run of results it stores does. */
#define ORX_COL_ALIGNED_IN 1
#define ORX_COL_ALIGNED_OUT 2
/* Sliding windows: the algorithm (an ORX_WIN_ id) and, for BLOCKS and LONG, the elements of a
 * work-item's run (a power of two). */
#ifndef ORX_WIN_ALGO
#define ORX_WIN_ALGO ORX_WIN_DIRECT
#endif
#ifndef ORX_WIN_RUN
#define ORX_WIN_RUN 8
#endif
/* 1: BLOCKS tiles start on whole runs, and each work-item reads its run in 16-byte words where the
 * input lies on a 16-byte boundary; 0: through local memory, coalesced across the work-group. */
#ifndef ORX_WIN_WORDS
#define ORX_WIN_WORDS 0
#endif
/* 1: BLOCKS windows a whole number of runs long: tiles start on whole runs, so that blocks start
 * only where runs do throughout a launch that starts on one (its scans within runs then restart
 * nowhere). */
#ifndef ORX_WIN_WHOLE_RUNS
#define ORX_WIN_WHOLE_RUNS 0
#endif
/* 1: LONG's first launch, which writes the total of each of its tiles to scratch. */
#ifndef ORX_WIN_TOTALS
#define ORX_WIN_TOTALS 0
#endif
/* 1: LONG in one launch, its tiles taken by ticket and their totals published to each other
 * (lib/orx_window_long.cl; scratch of orx_win_scratch_states, the kernel's `epoch`). */
#ifndef ORX_WIN_ONE_PASS
#define ORX_WIN_ONE_PASS 0
#endif
/* Reduce by key (kernels/by_key.cl): bytes of a key (4 or 8), and elements per work-item of a
 * tile. */
#ifndef ORX_KEY_BYTES
#define ORX_KEY_BYTES 4
#endif
#ifndef ORX_KEY_RUN
#define ORX_KEY_RUN 8
#endif
/* 1: the summaries carry where their last run starts (operators whose states hold an index);
 * and the 8-byte words of a summary in the scratch, which the host sizes. */
#ifndef ORX_KEY_STARTS
#define ORX_KEY_STARTS 0
#endif
#ifndef ORX_KEY_WORDS
#define ORX_KEY_WORDS 4
#endif
/* 1: the look-back's window holds whole summaries, 0: an array per field. */
#ifndef ORX_KEY_WINDOW_PARTS
#define ORX_KEY_WINDOW_PARTS 0
#endif
/* 1: a tile is a chunk of ORX_KEY_RUN elements one work-item walks in order (CPU devices). */
#ifndef ORX_KEY_CHUNKS
#define ORX_KEY_CHUNKS 0
#endif
/* 1: a tile's work-items load their keys and elements straight into registers, 16 bytes at a
 * time, where they lie on 16-byte boundaries; 0: through local memory. */
#ifndef ORX_KEY_DIRECT
#define ORX_KEY_DIRECT 0
#endif
/* 1: a tile's work-items read their keys and elements again for the runs they close, rather than
 * holding them across the look-back's barriers (CPU devices). */
#ifndef ORX_KEY_RELOAD
#define ORX_KEY_RELOAD 0
#endif
/* 1: the look-back's window is 32 tiles a tile's first warp reads and joins by shuffles (NVIDIA's
 * warps); 0: 16 tiles joined by one work-item from local memory. */
#ifndef ORX_KEY_WARP_JOIN
#define ORX_KEY_WARP_JOIN 0
#endif
/* 1: a work-group's tile is its id (NVIDIA's GPUs, which start groups in id order); 0: an atomic
 * ticket taken as the group starts, whatever order the device starts them in. */
#ifndef ORX_KEY_IN_ORDER
#define ORX_KEY_IN_ORDER 0
#endif
/* 1: a tile's scan of its work-items' summaries runs by shuffles within each warp of 32 and joins
 * the warps' through local memory (NVIDIA's warps); 0: through local memory, a step per barrier. */
#ifndef ORX_KEY_WARP_SCAN
#define ORX_KEY_WARP_SCAN 0
#endif
/* 1: each run's result is where it starts, and the values are not read (user operators' plan:
 * the runs' starts, then their segments). */
#ifndef ORX_KEY_POSITIONS
#define ORX_KEY_POSITIONS 0
#endif
/* Reduce by key's counted form (docs/design/reduce-by-key.md, Decision 1, revised), a plan per
 * pass of the same kernel: 0 the one pass with its look-back; 1 the heads of each 32 tiles; 2
 * those groups' counts scanned; 3 the tiles, each with its place known; 4 the runs that cross
 * tiles. */
#ifndef ORX_KEY_COUNTED
#define ORX_KEY_COUNTED 0
#endif
/* SUM_REPRODUCIBLE: a work-group's states combined as two reductions, the top bin then the folds
 * (lib/orx_repro_group.cl), where subgroups shuffle; 0: as a tree (the planner: plan_state.c). */
#ifndef ORX_STATE_GROUP_SPLIT
#define ORX_STATE_GROUP_SPLIT 0
#endif
/* Work-groups that must fit on one compute unit at once, which caps registers (CUDA's
 * __launch_bounds__); 0: no cap. */
#ifndef ORX_MIN_GROUPS_PER_CU
#define ORX_MIN_GROUPS_PER_CU 0
#endif
/* A work-item streams float MIN or MAX as integer keys of the elements' bits (lib/orx_keys.cl):
 * 0 no, 1 one key per component, 2 whole vectors of keys (OpenCL C; 1 in CUDA). */
#ifndef ORX_FLOAT_KEYS
#define ORX_FLOAT_KEYS 0
#endif
/* 1: floating-point expressions round as written, no multiply-add fused (OpenCL C fuses by
 * default): the host plan, whose bits the calling thread computes from the same text (src/host/,
 * built without contraction). */
#ifndef ORX_NO_CONTRACT
#define ORX_NO_CONTRACT 0
#endif

/* The kernel's accumulator: 0, one value of the compute type, combined with ORX_OP_ID (or the
 * operator slots); 1, the state of a structured operator (ORX_OPF_STATE, or ORX_OP_CUSTOM from
 * the operator's source text): elements are mapped to states with their index and states
 * combined (lib/orx_state.cl). */
#ifndef ORX_STATE
#define ORX_STATE 0
#endif
/* State mode: 1 when the kernel writes states rather than results, partials that a later launch
 * reduces (results differ from states only for operators that project them: the compensated
 * sum's result is its sum); and 1 when the elements it reads are such states, combined without
 * a map. */
#ifndef ORX_PARTIAL_OUT
#define ORX_PARTIAL_OUT 0
#endif
#ifndef ORX_INPUT_STATES
#define ORX_INPUT_STATES 0
#endif
/* 1: the operator is not commutative (a user operator created with commutative == 0): every
 * combine keeps index order, its left operand covering lower indices. Work-items then take
 * contiguous runs in work-item order (ORX_STREAM_CHUNK or ORX_STREAM_TRANSPOSED, one element per
 * load, one chain) or warps in warp order (ORX_STREAM_WARP_TILES), segments' lanes contiguous
 * runs of loads, and work-groups contiguous shares whose partials combine in group order. */
#ifndef ORX_ORDERED
#define ORX_ORDERED 0
#endif
/* Elements stored narrower than the kernel computes (ORX_TYPE_ID is then F32): ORX_F16 or
 * ORX_BF16, each converted exactly as it is read (lib/orx_types.cl); ORX_NO_TYPE otherwise. */
#ifndef ORX_ELEM_TYPE_ID
#define ORX_ELEM_TYPE_ID ORX_NO_TYPE
#endif
/* ... and results stored as 16-bit elements (MIN and MAX of them, in the stage that writes
 * results: the stages that read states read f32's), else ORX_NO_TYPE. */
#ifndef ORX_RESULT_NARROW
#define ORX_RESULT_NARROW ORX_NO_TYPE
#endif
/* How vectors of 16-bit elements (ORX_ELEM_TYPE_ID, or ORX_PAIR_TYPE_ID's sides) are loaded in
 * OpenCL C: 0, one load of their 16-bit lanes; 1, f16 by vload_halfN and bf16 in 32-bit words
 * split in two (CPU devices; lib/orx_types.cl). */
#ifndef ORX_NARROW_SPLIT
#define ORX_NARROW_SPLIT 0
#endif
/* 1: the elements are floats of ORX_TYPE_ID's width read as the order keys of integer MIN or
 * MAX (ORX_TYPE_ID is then I32 or I64), and results are written back as floats
 * (lib/orx_order_keys.cl). */
#ifndef ORX_ELEM_KEYS
#define ORX_ELEM_KEYS 0
#endif
/* 1: the state of float ARGMIN, ARGMAX or MINMAX keeps its values as order keys, and results
 * are written as the operator's (lib/orx_state_keys.cl). */
#ifndef ORX_STATE_KEYS
#define ORX_STATE_KEYS 0
#endif
/* 1: the state of ARGMIN or ARGMAX of 4-byte elements is the value's key and a 32-bit index in 64
 * bits (lib/orx_state_packed.cl; the host keeps every index below 2^32 - 1). */
#ifndef ORX_STATE_PACKED
#define ORX_STATE_PACKED 0
#endif
/* A pair operator (ORX_PAIR_ id): the kernel reads two inputs of ORX_PAIR_TYPE_ID elements and
 * reduces their pairs' values, of ORX_TYPE_ID, with ORX_OP_ID (SUM); ORX_PAIR_USER: the pairs of
 * a user operator's elements (both types ORX_CUSTOM); ORX_PAIR_NONE: one input. */
#ifndef ORX_PAIR_OP
#define ORX_PAIR_OP ORX_PAIR_NONE
#endif
#ifndef ORX_PAIR_TYPE_ID
#define ORX_PAIR_TYPE_ID ORX_NO_TYPE
#endif
/* ORX_CUSTOM elements: their size in bytes (the host checked it against the compiler's). */
#ifndef ORX_ELEMENT_BYTES
#define ORX_ELEMENT_BYTES 4
#endif

/* Every define above, X(c, NAME) for ORX_NAME: the only names the host's generated block may
 * hold (tests/test_planner.c checks every block the planner can produce against this list). */
#define ORX_HOST_DEFINES(X, c)                                                                     \
  X(c, TYPE_ID) X(c, OP_ID) X(c, SLOTS) X(c, SLOT_OPS) X(c, VEC) X(c, UNROLL) X(c, CHAINS)         \
  X(c, PREFETCH) X(c, WG_SIZE) X(c, STREAM) X(c, SG_IMPL) X(c, SG_SIZE) X(c, SG_BUILTIN_REDUCE)    \
  X(c, FINISH_SERIAL) X(c, FINISH_LAUNCH) X(c, FINISH_ONLY) X(c, SYNC) X(c, UNROLL_SLOTS)          \
  X(c, MR_Q) X(c, MR_LANES) X(c, SEG_OFFSETS) X(c, SEG_LOAD) X(c, SEG_BATCH)                       \
  X(c, SEG_VECTOR_RUNS) X(c, SEG_STAGE) X(c, MIN_GROUPS_PER_CU) X(c, STATE) X(c, PARTIAL_OUT)      \
  X(c, INPUT_STATES) X(c, ORDERED) X(c, ELEMENT_BYTES) X(c, WIN_ALGO) X(c, WIN_RUN)                \
  X(c, FLOAT_KEYS) X(c, NO_CONTRACT) X(c, COL_RUN) X(c, SEG_PITCH)                                 \
  X(c, COL_FLAT) X(c, COL_STEPS) X(c, COL_DIRECT) X(c, COL_TALL) X(c, COL_FINISH)                  \
  X(c, ELEM_TYPE_ID) X(c, RESULT_NARROW) X(c, NARROW_SPLIT) X(c, PAIR_OP) X(c, PAIR_TYPE_ID)       \
  X(c, KEY_BYTES) X(c, KEY_RUN) X(c, KEY_STARTS) X(c, KEY_WORDS) X(c, KEY_WINDOW_PARTS)          \
  X(c, KEY_CHUNKS) X(c, KEY_DIRECT) X(c, KEY_POSITIONS) X(c, ELEM_KEYS) X(c, WIN_WORDS)            \
  X(c, KEY_RELOAD) X(c, KEY_WARP_JOIN) X(c, KEY_IN_ORDER) X(c, KEY_COUNTED)                        \
  X(c, KEY_WARP_SCAN) X(c, WIN_WHOLE_RUNS) X(c, WIN_TOTALS) X(c, WIN_ONE_PASS)                     \
  X(c, STATE_KEYS) X(c, STATE_PACKED) X(c, STATE_GROUP_SPLIT)

/* Names the host may define ahead of a user operator's source (ORX_OP_CUSTOM), X(c, NAME) for
 * ORX_NAME: the element and state types and the three functions, as the source spells them; a
 * user pair operator (ORX_PAIR_USER) names its pair_map as STATE_PAIR_MAP in place of STATE_MAP.
 * The defaults name the built-in structured operator ORX_OP_ID of lib/orx_state_ops.cl. */
#define ORX_HOST_NAMES(X, c)                                                                       \
  X(c, ELEMENT_T) X(c, STATE_T) X(c, STATE_IDENTITY) X(c, STATE_MAP) X(c, STATE_COMBINE)           \
  X(c, STATE_PAIR_MAP)
#ifndef ORX_ELEMENT_T
#define ORX_ELEMENT_T float
#endif
#ifndef ORX_STATE_T
#define ORX_STATE_T orx_state
#endif
#ifndef ORX_STATE_IDENTITY
#define ORX_STATE_IDENTITY orx_state_identity
#endif
#ifndef ORX_STATE_MAP
#define ORX_STATE_MAP orx_state_map
#endif
#ifndef ORX_STATE_COMBINE
#define ORX_STATE_COMBINE orx_state_combine
#endif

#endif /* ORX_CONTRACT_H */
