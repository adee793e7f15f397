/* =================================================================================================
 * test_cuda_kernels.c: the CUDA translation of the kernels (cl/ behind lib/orx_cuda_prelude.cl)
 * compiles with NVRTC for an H200-like device (sm_90): every kernel file alone, with nothing but
 * the contract's defaults, and the plans the planner makes for every kernel kind, operator x type
 * and path: whole-array, segmented (every strategy, both forms, each kind of load) and
 * multi-operator kernels. Needs NVRTC only, no driver or GPU, so CI checks what the CUDA backend
 * will compile on the H200 machine; skipped, visibly, where NVRTC or the CUDA backend is absent.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/registry/registry.h"
#include "base/util.h"
#include "exec/program.h"
#include "exec/user_operator.h"
#include "planner/plan_by_key.h"
#include "support/capture.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"
#include "support/synthetic.h"
#include "support/user_pairs.h"

/* The CUDA backend of this build, or a skipped test. */
static const orx_backend_ops *cuda_backend(void) {
  const orx_backend_ops *cuda = orx_backend_row_of(OCL_REDUCE_BACKEND_CUDA)->ops;
  if (!cuda) {
    printf("# skipped: the library was built without the CUDA backend\n");
    skip();
  }
  return cuda;
}

/* Whether a program of this text was compiled before: plans that differ only where the program
 * text does not (a kernel that reads no subgroup define, exec/program.c) give one program, which
 * NVRTC compiles once (53 of 687 texts, about 10 s: CI's time). By the texts' 64-bit hash. */
static int compiled_before(const orx_program_text *text) {
  static uint64_t seen[4096];
  static size_t seen_count;
  uint64_t hash = ORX_HASH_SEED;
  for (size_t i = 0; i < text->count; i++)
    hash = orx_hash(hash, text->sources[i].text, text->sources[i].length);
  for (size_t i = 0; i < seen_count; i++)
    if (seen[i] == hash)
      return 1;
  assert_true(seen_count < sizeof seen / sizeof *seen);
  seen[seen_count++] = hash;
  return 0;
}

/* Compiles a plan for sm_90 unless its program was; skips the test where NVRTC cannot run.
 * Returns 1 if it compiled the plan's program, 0 if an earlier plan had the same. Quick: at
 * NVRTC's least optimization effort (105 -> 64 s, CI's time), and as far as PTX, static shared
 * memory checked there rather than by ptxas (110 -> 40 s on the 2-core machine, 2026-12-07);
 * the GPU scripts build and run these plans at full effort, through ptxas. */
static int compile(const orx_plan *plan) {
  const orx_backend_ops *cuda = cuda_backend();
  orx_program_text text;
  assert_int_equal(orx_program_text_of(NULL, plan, cuda->prelude, &text), OCL_REDUCE_OK);
  if (compiled_before(&text)) {
    orx_program_text_free(&text);
    return 0;
  }
  ocl_reduce_status s = cuda->compile_only(NULL, text.sources, text.count, "sm_90", 1);
  if (s == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
    orx_program_text_free(&text);
    printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
    skip();
  }
  if (s != OCL_REDUCE_OK)
    fail_msg("%s for %s: %s\n%s", orx_kernel_file(plan->kernel), orx_type_name(plan->type),
             ocl_reduce_last_error(NULL), text.defines);
  orx_program_text_free(&text);
  return 1;
}

static void test_every_kernel_file_compiles_alone_with_nvrtc(void **state) {
  (void)state;
  for (int k = 0; k < ORX_KERNEL_COUNT; k++) {
    const orx_plan alone = test_plan_alone((orx_kernel)k);
    compile(&alone);
  }
  printf("# %d kernel files compiled alone for sm_90\n", ORX_KERNEL_COUNT);
}

/* The plan of a segmented request with the strategy forced (-1: the planner's), and, for the
 * multireduction, a given lane-group shape (width 0: the planner's). */
static orx_plan segments_plan(orx_target t, orx_op_id op, ocl_reduce_type type, int mode,
                              int offsets, unsigned width, unsigned slots, int load) {
  orx_request r = orx_reduce_request(op, type);
  r.entry = ORX_ENTRY_SEGMENTS;
  r.shape.count = 1 << 16;
  r.shape.elements = (uint64_t)33 << 16;
  r.shape.length = offsets ? 0 : 33;
  r.shape.offsets = offsets;
  r.shape.elem = orx_type_size(type);
  t.forced.seg_mode = mode;
  orx_plan plan;
  orx_plan_make(&t, &r, &plan);
  if (mode == ORX_SEG_MR && width) {
    plan.seg.width = width;
    plan.seg.slots = slots;
    plan.seg.load = load;
    orx_seg_defines(t.caps, &r, &plan);
  }
  return plan;
}

/* The plan of columns read in place (kernels/axes_columns.cl) for a 2-D view of `kept`
 * positions a row, contiguous, and `length` rows: tall columns where the kept positions are few,
 * a launch that finishes itself where they are cut into a few parts (plan_columns.c); checked
 * to be what it is named for. */
static orx_plan columns_plan(const orx_target *t, orx_op_id op, ocl_reduce_type type, uint64_t kept,
                             uint64_t length, int tall, int finish) {
  orx_request r = orx_reduce_request(op, type);
  r.entry = ORX_ENTRY_COLUMNS;
  r.kept_run = kept;
  r.shape.count = (size_t)kept;
  r.shape.length = length;
  r.columns_flat = 1;
  orx_plan plan;
  orx_plan_make(t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_COL_TALL] == 1, tall);
  assert_int_equal(plan.defines[ORX_DEFINE_COL_FINISH] == 1, finish);
  return plan;
}

/* A whole-array reduction, and for sums and maxima segments by the multireduction at its widest
 * with each kind of load. Returns the kernels compiled. */
static int compile_op_type(const orx_target t, orx_op_id op, ocl_reduce_type type) {
  const orx_request r = orx_reduce_request(op, type);
  orx_plan plan;
  orx_plan_make(&t, &r, &plan);
  int compiled = compile(&plan);
  /* The multireduction's loads are the same code for every operator: sums and maxima. */
  if (op != ORX_OP_SUM && op != ORX_OP_MAX)
    return compiled;
  plan = segments_plan(t, op, type, ORX_SEG_MR, 0, 32, 16, ORX_SEG_ELEMENTS);
  compiled += compile(&plan);
  plan = segments_plan(t, op, type, ORX_SEG_MR, 0, 8, 8, ORX_SEG_VECTORS);
  compiled += compile(&plan);
  plan = segments_plan(t, op, type, ORX_SEG_MR, 0, 32, 8, ORX_SEG_MASKED);
  compiled += compile(&plan);
  /* Columns: tall ones (vector runs and a group's tree), and a work-item per column and part,
   * 64 parts that finish in the launch and one part. */
  plan = columns_plan(&t, op, type, 16, 1 << 20, 1, 0);
  compiled += compile(&plan);
  plan = columns_plan(&t, op, type, 4096, 1 << 12, 0, 1);
  compiled += compile(&plan);
  plan = columns_plan(&t, op, type, 1 << 20, 64, 0, 0);
  return compiled + compile(&plan);
}

/* A user operator's kernels for target t: its probe, every stage of a whole array (a pair
 * operator's: those that read pairs, whose states one-input stages then combine) and segments by a
 * work-item, by the multireduction and by work-groups. Returns how many compiled. */
static int compile_user_operator(const orx_target *t, const ocl_reduce_operator_desc *d,
                                 int pairs) {
  orx_operator op;
  char *op_text = NULL;
  orx_plan plan;
  int compiled = 0;
  assert_int_equal(orx_operator_of_desc(d, &op, &op_text), OCL_REDUCE_OK);
  orx_request r = orx_custom_request(&op);
  r.entry = ORX_ENTRY_PROBE;
  orx_plan_make(t, &r, &plan);
  compiled += compile(&plan);
  if (pairs) { /* as orx_resolve_pair reads the pairs */
    op.element_type = ORX_CUSTOM;
    r = orx_custom_request(&op);
    r.pair = (orx_pair_request){1, ORX_PAIR_USER, OCL_REDUCE_OP_ELEMENT, 0};
  }
  r.entry = ORX_ENTRY_REDUCE;
  for (int stage = ORX_STAGE_WHOLE; stage <= (pairs ? ORX_STAGE_PARTIAL : ORX_STAGE_MERGE);
       stage++) {
    r.stage = (orx_stage)stage;
    orx_plan_make(t, &r, &plan);
    assert_int_equal(plan.defines[ORX_DEFINE_PAIR_OP], pairs ? ORX_PAIR_USER : ORX_DEFINE_UNSET);
    compiled += compile(&plan);
  }
  r.stage = ORX_STAGE_WHOLE;
  r.entry = ORX_ENTRY_SEGMENTS;
  r.shape.count = 1 << 16;
  r.shape.elements = (uint64_t)33 << 16;
  r.shape.length = 33;
  r.shape.elem = d->element_size;
  for (int mode = ORX_SEG_LANE; mode <= ORX_SEG_GROUP; mode++) {
    orx_target forced = *t;
    forced.forced.seg_mode = mode;
    orx_plan_make(&forced, &r, &plan);
    compiled += compile(&plan);
  }
  free(op_text);
  return compiled;
}

static void test_every_plan_compiles_with_nvrtc(void **state) {
  (void)state;
  const orx_caps caps = test_h200_cuda();
  static const ocl_reduce_path paths[] = {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_PATH_LOCAL};
  int compiled = 0;
  for (int p = 0; p < 2; p++) {
    const orx_target t = test_target(&caps, paths[p]);
    orx_plan plan;
    orx_request r;
    /* Every operator and type the kernels compute in (signed integers sum as unsigned); light
     * runs (the sanitizer build) sums and maxima. */
#define ORX_COMPILE_OP_TYPE(OP, TYPE)                                                              \
  if (orx_compute_type(ORX_OP_##OP, OCL_REDUCE_##TYPE) == OCL_REDUCE_##TYPE &&                     \
      (!test_light() || ORX_OP_##OP == ORX_OP_SUM || ORX_OP_##OP == ORX_OP_MAX))                   \
    compiled += compile_op_type(t, ORX_OP_##OP, OCL_REDUCE_##TYPE);
    TEST_OP_TYPES(ORX_COMPILE_OP_TYPE)
#undef ORX_COMPILE_OP_TYPE
    /* The structured operators: state kernels whole and by the multireduction (masked vector
     * loads), and for f32 the partial and final stages of host input in pieces. */
#define ORX_COMPILE_STRUCTURED(OP, TYPE)                                                           \
  r = orx_reduce_request(ORX_OP_##OP, OCL_REDUCE_##TYPE);                                          \
  for (int stage = ORX_STAGE_WHOLE; stage <= ORX_STAGE_MERGE; stage++) {                           \
    r.stage = (orx_stage)stage;                                                                    \
    orx_plan_make(&t, &r, &plan);                                                                  \
    if (stage == ORX_STAGE_WHOLE || OCL_REDUCE_##TYPE == OCL_REDUCE_F32)                           \
      compiled += compile(&plan);                                                                  \
  }                                                                                                \
  plan = segments_plan(t, ORX_OP_##OP, OCL_REDUCE_##TYPE, ORX_SEG_MR, 0, 32, 8, ORX_SEG_MASKED);   \
  compiled += compile(&plan);
    TEST_STRUCTURED_OP_TYPES(ORX_COMPILE_STRUCTURED)
    /* Columns of states: tall ones (a position per row), and parts finished in the launch
     * (partial states read back through volatile words). */
    plan = columns_plan(&t, ORX_OP_ARGMIN, OCL_REDUCE_F32, 16, 1 << 20, 1, 0);
    compiled += compile(&plan);
    plan = columns_plan(&t, ORX_OP_MEAN_VAR, OCL_REDUCE_F64, 4096, 1 << 12, 0, 1);
    compiled += compile(&plan);
#undef ORX_COMPILE_STRUCTURED
    /* The tests' user operators, the same OpenCL C, commutative and order-preserving: the
     * probe, every stage, and segments by a work-item, by the multireduction and by
     * work-groups. */
    const ocl_reduce_operator_desc *descs[TEST_CUSTOM_COUNT + TEST_ORDERED_COUNT];
    for (int w = 0; w < TEST_CUSTOM_COUNT; w++)
      descs[w] = &test_custom_descs[w];
    for (int w = 0; w < TEST_ORDERED_COUNT; w++)
      descs[TEST_CUSTOM_COUNT + w] = &test_ordered_descs[w];
    for (int w = 0; w < TEST_CUSTOM_COUNT + TEST_ORDERED_COUNT; w++)
      compiled += compile_user_operator(&t, descs[w], 0);
    /* The other strategies and the offsets form, on two types; the multireduction's offsets
     * form with masked vector loads too. */
    static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_U64};
    for (int k = 0; k < 2; k++) {
      for (int mode = ORX_SEG_LANE; mode <= ORX_SEG_GROUP; mode++) {
        for (int offsets = 0; offsets < 2; offsets++) {
          plan = segments_plan(t, ORX_OP_MAX, types[k], mode, offsets, mode == ORX_SEG_MR ? 16 : 0,
                               4, offsets ? ORX_SEG_MASKED : ORX_SEG_ELEMENTS);
          compiled += compile(&plan);
        }
      }
      /* Equal lengths staged through shared memory (the 32 KiB stage the H200 gets). */
      plan = segments_plan(t, ORX_OP_MAX, types[k], ORX_SEG_STAGED, 0, 0, 0, 0);
      assert_int_equal(plan.kernel, ORX_KERNEL_SEGMENTS_STAGED);
      assert_int_equal(plan.seg.stage, 32768 / orx_type_size(types[k]));
      compiled += compile(&plan);
      /* Several operators at once: three (padded to four) and the most there may be. */
      static const orx_op_id three[] = {ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX};
      static const orx_op_id eight[] = {ORX_OP_SUM, ORX_OP_PROD, ORX_OP_MIN, ORX_OP_MAX,
                                        ORX_OP_SUM, ORX_OP_PROD, ORX_OP_MIN, ORX_OP_MAX};
      r = orx_reduce_request(ORX_OP_SUM, types[k]);
      r.entry = ORX_ENTRY_MULTI;
      r.ops = three;
      r.op_count = 3;
      orx_plan_make(&t, &r, &plan);
      compiled += compile(&plan);
      r.ops = eight;
      r.op_count = OCL_REDUCE_MULTI_MAX_OPS;
      orx_plan_make(&t, &r, &plan);
      compiled += compile(&plan);
      /* Sliding windows: every algorithm on f32, with a scalar and a state operator (not in
       * light runs: their code is the same for every operator). */
      static const orx_op_id window_ops[] = {ORX_OP_MIN, ORX_OP_ARGMAX};
      for (int o = 0; o < (test_light() || types[k] != OCL_REDUCE_F32 ? 0 : 2); o++)
        for (int algo = ORX_WIN_DIRECT; algo <= ORX_WIN_SPANS; algo++) {
          orx_target forced = t;
          forced.forced.win_algo = algo;
          r = orx_reduce_request(window_ops[o], types[k]);
          r.entry = ORX_ENTRY_WINDOWS;
          r.windows.count = 1 << 20;
          /* SPANS: longer than two runs; LONG: than a tile. */
          r.windows.window = algo == ORX_WIN_SPANS ? 100 : algo == ORX_WIN_LONG ? 5000 : 32;
          orx_plan_make(&forced, &r, &plan);
          assert_int_equal(plan.win.algo, algo);
          compiled += compile(&plan);
          if (algo == ORX_WIN_LONG) { /* also in two launches, the tiles' totals first */
            if (plan.defines[ORX_DEFINE_WIN_ONE_PASS] == 1) { /* subgroups that shuffle */
              forced.forced.win_pass = 0;
              orx_plan_make(&forced, &r, &plan);
              compiled += compile(&plan);
            }
            plan.defines[ORX_DEFINE_WIN_TOTALS] = 1;
            compiled += compile(&plan);
          }
        }
      /* ... tiles of 8192 in runs of 32, which long windows of 4-byte elements take ... */
      if (!test_light() && types[k] == OCL_REDUCE_F32) {
        r = orx_reduce_request(ORX_OP_SUM, types[k]);
        r.entry = ORX_ENTRY_WINDOWS;
        r.windows.count = 1 << 20;
        r.windows.window = 1000;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.win.algo, ORX_WIN_SPANS);
        assert_int_equal(plan.win.run, 32);
        compiled += compile(&plan);
        orx_target forced = t;
        forced.forced.win_algo = ORX_WIN_BLOCKS;
        orx_plan_make(&forced, &r, &plan);
        assert_int_equal(plan.win.algo, ORX_WIN_BLOCKS);
        assert_int_equal(plan.win.run, 32);
        compiled += compile(&plan);
        /* ... and LONG's one launch where only those tiles give one (subgroups that shuffle;
         * two groups per SM) ... */
        const int one_pass = paths[p] == OCL_REDUCE_PATH_SUBGROUP;
        r.windows.window = 200000;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.win.algo, ORX_WIN_LONG);
        assert_int_equal(plan.win.run, one_pass ? 32 : 16);
        assert_int_equal(plan.defines[ORX_DEFINE_WIN_ONE_PASS] == 1, one_pass);
        compiled += compile(&plan);
      }
      /* ... and the tiles' words of 8-byte elements read as themselves (MIN reads f32 keys). */
      if (!test_light() && types[k] == OCL_REDUCE_U64) {
        orx_target forced = t;
        forced.forced.win_algo = ORX_WIN_BLOCKS;
        r = orx_reduce_request(ORX_OP_SUM, types[k]);
        r.entry = ORX_ENTRY_WINDOWS;
        r.windows.count = 1 << 20;
        r.windows.window = 32;
        orx_plan_make(&forced, &r, &plan);
        assert_int_equal(plan.defines[ORX_DEFINE_WIN_WORDS], 1);
        compiled += compile(&plan);
      }
    }
    /* 16-bit elements through the multi-operator kernel: read into f32, every slot an f32. */
    static const orx_op_id narrow_ops[] = {ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX};
    for (ocl_reduce_type type = OCL_REDUCE_F16; type <= OCL_REDUCE_BF16; type++) {
      r = orx_reduce_request(ORX_OP_SUM, type);
      r.entry = ORX_ENTRY_MULTI;
      r.ops = narrow_ops;
      r.op_count = 3;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.type, OCL_REDUCE_F32);
      assert_int_equal(plan.defines[ORX_DEFINE_ELEM_TYPE_ID], type);
      compiled += compile(&plan);
    }
    /* Reduce by key in one pass: keys of 4 and 8 bytes, values of 4 and 8, and 16-bit ones;
     * states with an index (ARGMIN: the runs' starts carried) and without (MEAN_VAR); in tiles,
     * loaded straight into registers where they fill 16-byte words (CUDA's choice) or through
     * local memory (16-bit values), and in chunks (CPU devices' form: one text) every other case
     * with 8-byte keys; the tiles' look-back joined in local memory (CUDA's choice) or by the
     * warp's shuffles (NVIDIA's OpenCL's, forced here) in turns, and the tiles' scan by the warps'
     * shuffles (forced with 4-byte keys) or through local memory (with 8-byte keys, as CUDA's
     * own plans scan them). */
    static const ocl_reduce_type key_values[] = {OCL_REDUCE_F32, OCL_REDUCE_I64, OCL_REDUCE_F16,
                                                 OCL_REDUCE_F32, OCL_REDUCE_F64};
    static const orx_op_id key_ops[] = {ORX_OP_SUM, ORX_OP_MAX, ORX_OP_SUM, ORX_OP_ARGMIN,
                                        ORX_OP_MEAN_VAR};
    int direct = 0, warp_joins = 0, warp_scans = 0;
    for (int v = 0; v < 5; v++)
      for (unsigned kb = 4; kb <= 8; kb += 4) {
        r = orx_reduce_request(key_ops[v], key_values[v]);
        r.entry = ORX_ENTRY_BY_KEY;
        r.key_bytes = kb;
        orx_target form = t;
        const int chunks = kb == 8 && v % 2 == 0;
        form.forced.key_chunks = chunks;
        form.forced.key_counted = 0; /* the look-back's forms; the counted form's below */
        form.forced.key_warp_join = v % 2;
        form.forced.key_in_order = kb == 4;
        form.forced.key_warp_scan = kb == 4;
        orx_plan_make(&form, &r, &plan);
        assert_int_equal(plan.kernel, ORX_KERNEL_BY_KEY);
        assert_int_equal(plan.defines[ORX_DEFINE_KEY_CHUNKS], chunks);
        direct += plan.defines[ORX_DEFINE_KEY_DIRECT] == 1;
        warp_joins += plan.defines[ORX_DEFINE_KEY_WARP_JOIN] == 1;
        warp_scans += plan.defines[ORX_DEFINE_KEY_WARP_SCAN] == 1;
        compiled += compile(&plan);
      }
    /* Counted first (lib/orx_key_counted.cl): every value above in tiles, keys of 4 and 8 bytes
     * in turns, and each one's pass 4; the count and its scan (passes 1 and 2) of the first two,
     * which every operator and type of their tiles' shape shares. */
    for (int v = 0; v < 5; v++) {
      r = orx_reduce_request(key_ops[v], key_values[v]);
      r.entry = ORX_ENTRY_BY_KEY;
      r.key_bytes = v % 2 ? 8 : 4;
      orx_target form = t;
      form.forced.key_chunks = 0;
      form.forced.key_counted = 1;
      orx_plan_make(&form, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_COUNTED], 3);
      compiled += compile(&plan);
      for (int pass = 1; pass <= 4; pass += pass == 2 ? 2 : 1) {
        if (pass < 4 && v >= 2)
          continue;
        orx_request passed = pass < 4 ? orx_by_key_count_request(&plan, r.key_bytes, pass) : r;
        passed.key_pass = pass;
        orx_plan other;
        orx_plan_make(&form, &passed, &other);
        assert_int_equal(other.defines[ORX_DEFINE_KEY_COUNTED], pass);
        compiled += compile(&other);
      }
    }
    /* The runs' starts for user operators (ORX_KEY_POSITIONS): the keys alone, loaded straight
     * into registers, their starts staged in 4 bytes. */
    for (unsigned kb = 4; kb <= 8; kb += 4) {
      r = orx_by_key_starts_request(kb);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_POSITIONS], 1);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_DIRECT], 1);
      compiled += compile(&plan);
    }
    assert_true(direct >= 4);
    assert_int_equal(warp_joins, 4);
    assert_int_equal(warp_scans, 5); /* the 4-byte keys' (forced) */
  }
  printf("# %d CUDA kernels compiled for sm_90\n", compiled);
}

/* A pair operator's request (ocl_reduce_pairs): SUM of its values, reading two inputs whose
 * vector boundaries lie `skew` elements apart. */
static orx_request pair_request(int pair, ocl_reduce_type type, unsigned skew) {
  orx_request r = orx_reduce_request(ORX_OP_SUM, orx_pair_value_type(pair, type));
  r.pair.on = 1;
  r.pair.op = pair;
  r.pair.type = type;
  r.pair.skew = skew;
  return r;
}

/* Every pair operator on every type (light runs: one type of each load), whole arrays with both
 * inputs aligned alike and, on 16- and 64-bit elements, apart; segments by each strategy. */
static void test_every_pair_plan_compiles_with_nvrtc(void **state) {
  (void)state;
  const orx_caps caps = test_h200_cuda();
  const orx_target t = test_target(&caps, OCL_REDUCE_PATH_SUBGROUP);
  int compiled = 0;
  orx_plan plan;
  for (int pair = 0; pair < ORX_PAIR_COUNT; pair++)
    for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++) {
      if (test_light() && type != OCL_REDUCE_F32 && type != OCL_REDUCE_I64 &&
          type != OCL_REDUCE_F16)
        continue;
      orx_request r = pair_request(pair, (ocl_reduce_type)type, 0);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_PAIR_OP], pair);
      compiled += compile(&plan);
      if (type == OCL_REDUCE_F16 || type == OCL_REDUCE_F64) {
        r.pair.skew = 1;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.policy.vec, 1);
        compiled += compile(&plan);
      }
    }
  /* A stage holds the values computed on: 16-bit elements' f32 (8192 of them), a count's u64
   * (sized by the count's 2-byte elements, its stage took 64 KiB of shared memory, past the
   * 48 KiB a block may have: the COUNT_EQUAL bf16 plan below). */
  plan = segments_plan(t, ORX_OP_MAX, OCL_REDUCE_F16, ORX_SEG_STAGED, 0, 0, 0, 0);
  assert_int_equal(plan.seg.stage, 32768 / sizeof(float));
  compiled += compile(&plan);
  static const int pairs[] = {ORX_PAIR_DOT, ORX_PAIR_COUNT_EQUAL};
  static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_BF16};
  for (int k = 0; k < 2; k++)
    for (int mode = ORX_SEG_LANE; mode <= ORX_SEG_STAGED; mode++) {
      orx_request r = pair_request(pairs[k], types[k], 0);
      r.entry = ORX_ENTRY_SEGMENTS;
      r.shape.count = 1 << 16;
      r.shape.elements = (uint64_t)33 << 16;
      r.shape.length = 33;
      r.shape.elem = orx_type_size(types[k]);
      orx_target forced = t;
      forced.forced.seg_mode = mode;
      orx_plan_make(&forced, &r, &plan);
      compiled += compile(&plan);
    }
  /* The tests' user pair operators: the probe, whole arrays with their pieces' states, and
   * segments by each strategy that takes struct elements. */
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    compiled += compile_user_operator(&t, &test_user_pair_descs[w], 1);
  printf("# %d CUDA pair kernels compiled for sm_90\n", compiled);
}

/* With OCL_REDUCE_LOG=debug NVRTC's log carries ptxas's report of each kernel (registers and
 * spills), printed with the build: shown here for the plan of 512-element f32 segments, whose
 * register cap (plan_segments.c) was chosen where that kernel stopped spilling. */
static void test_debug_log_reports_registers_and_spills(void **state) {
  (void)state;
  const orx_backend_ops *cuda = cuda_backend();
  const orx_caps caps = test_h200_cuda();
  const orx_target t = test_target(&caps, OCL_REDUCE_PATH_AUTO);
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  r.entry = ORX_ENTRY_SEGMENTS;
  r.shape.count = 1 << 17;
  r.shape.length = 512;
  r.shape.elements = (uint64_t)512 << 17;
  r.shape.elem = sizeof(float);
  orx_plan plan;
  orx_plan_make(&t, &r, &plan);
  orx_program_text text;
  assert_int_equal(orx_program_text_of(NULL, &plan, cuda->prelude, &text), OCL_REDUCE_OK);
  const char *level = getenv("OCL_REDUCE_LOG");
  char *saved_level = level ? strdup(level) : NULL;
  setenv("OCL_REDUCE_LOG", "debug", 1);
  test_capture capture;
  test_capture_begin(&capture);
  const ocl_reduce_status s = cuda->compile_only(NULL, text.sources, text.count, "sm_90", 0);
  static char said[65536];
  test_capture_end(&capture, said, sizeof said);
  if (saved_level)
    setenv("OCL_REDUCE_LOG", saved_level, 1);
  else
    unsetenv("OCL_REDUCE_LOG");
  free(saved_level);
  orx_program_text_free(&text);
  if (s == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
    printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
    skip();
  }
  assert_int_equal(s, OCL_REDUCE_OK);
  if (!strstr(said, "registers") || !strstr(said, "spill stores"))
    fail_msg("no ptxas report in the debug log: '%s'", said);
  /* The report's lines, for whoever reads the test's output. */
  for (const char *line = strstr(said, "ptxas"); line; line = strstr(line + 1, "ptxas")) {
    const char *end = strchr(line, '\n');
    printf("# %.*s\n", (int)(end ? end - line : (long)strlen(line)), line);
  }
}

/* A kernel whose block takes `floats` f32 of static shared memory, and a scalar int of it
 * beside them where `scalar`. */
static ocl_reduce_status compile_shared(unsigned floats, int scalar, int quick) {
  /* Read after the barrier: a value the compiler cannot know keeps it in shared memory. */
  static const char scalar_text[] =
      "  __shared__ int count;\n  if (threadIdx.x == 0) count = (int)out[blockDim.x];\n";
  char text[640];
  snprintf(text, sizeof text,
           "extern \"C\" __global__ void shared_sized(float *out) {\n"
           "  __shared__ float stage[%u];\n"
           "%s"
           "  stage[threadIdx.x] = out[threadIdx.x];\n"
           "  __syncthreads();\n"
           "  out[threadIdx.x] = stage[(threadIdx.x + 1) %% %uu]%s;\n"
           "}\n",
           floats, scalar ? scalar_text : "", floats, scalar ? " + count" : "");
  const orx_source source = {"shared_sized.cu", text, strlen(text)};
  return cuda_backend()->compile_only(NULL, &source, 1, "sm_90", quick);
}

/* The quick check stops at PTX, before ptxas, which is what fails a kernel over CUDA's 48 KiB of
 * static shared memory: the check of the PTX fails it too, as ptxas does at full effort, and
 * passes what fits: arrays (declared in bytes) and scalars (declared by their type) alike, 48 KiB
 * of floats and an int's 4 bytes past them. */
static void test_quick_check_fails_static_shared_memory_past_the_limit(void **state) {
  (void)state;
  const ocl_reduce_status fits = compile_shared(12 * 1024, 0, 1);
  if (fits == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
    printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
    skip();
  }
  assert_int_equal(fits, OCL_REDUCE_OK);
  assert_int_equal(compile_shared(12 * 1024 - 1, 1, 1), OCL_REDUCE_OK);
  for (int quick = 0; quick <= 1; quick++) {
    if (!quick) /* quick's is `fits` */
      assert_int_equal(compile_shared(12 * 1024, 0, quick), OCL_REDUCE_OK);
    assert_int_equal(compile_shared(13 * 1024, 0, quick), OCL_REDUCE_ERROR_BUILD);
    if (!strstr(ocl_reduce_last_error(NULL), "static shared memory") && quick)
      fail_msg("the error does not say why: '%s'", ocl_reduce_last_error(NULL));
    assert_int_equal(compile_shared(12 * 1024, 1, quick), OCL_REDUCE_ERROR_BUILD);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_kernel_file_compiles_alone_with_nvrtc),
      cmocka_unit_test(test_every_plan_compiles_with_nvrtc),
      cmocka_unit_test(test_every_pair_plan_compiles_with_nvrtc),
      cmocka_unit_test(test_debug_log_reports_registers_and_spills),
      cmocka_unit_test(test_quick_check_fails_static_shared_memory_past_the_limit),
  };
  return TEST_RUN(tests, NULL, NULL);
}
