/* =================================================================================================
 * test_collectives.c: the device-side collectives (cl/ocl_reduce_collectives.h) in programs built
 * with ocl_reduce_program_build, against sequential host folds in lane order: subgroup reduce,
 * reduce over groups of `lanes` work-items, the multireduction of q values, and work-group reduce,
 * for every scalar type (sums: exact for integers, and for floats on small integers) and for
 * two order-preserving struct combines (compositions of affine maps over u32, of 8 and 12 bytes)
 * that give a different result for any change of order. Each program holds a second instance of
 * the template (u32 sums), which also reports the subgroup's size. Also the API's errors.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_program.h"
#include "support/fixture.h"

/* ---- The cases: a type, its combine on the device and on the host ------------------------- */

typedef struct collective_case {
  const char *name;
  size_t size;
  const char *definitions; /* OpenCL C: the type (if not a scalar) and coll_combine, coll_zero */
  const char *type;
  void (*combine)(void *a, const void *b); /* a = combine(a, b) */
  void (*random)(void *x);
  int fp64;
  int light; /* run in the light form too (OCL_REDUCE_TEST_LIGHT) */
} collective_case;

#define SUM_CASE(NAME, CTYPE, CLTYPE, RANDOM)                                                      \
  static void combine_##NAME(void *a, const void *b) {                                             \
    CTYPE x, y;                                                                                    \
    memcpy(&x, a, sizeof x);                                                                       \
    memcpy(&y, b, sizeof y);                                                                       \
    x = (CTYPE)(x + y);                                                                            \
    memcpy(a, &x, sizeof x);                                                                       \
  }                                                                                                \
  static void random_##NAME(void *p) {                                                             \
    CTYPE x = (CTYPE)(RANDOM);                                                                     \
    memcpy(p, &x, sizeof x);                                                                       \
  }
/* Integers wrap (unsigned arithmetic on the host); floats are integers below 2^10 in magnitude,
 * so that every sum here is exact. */
SUM_CASE(i32, uint32_t, int, test_rng_next())
SUM_CASE(u32, uint32_t, uint, test_rng_next())
SUM_CASE(i64, uint64_t, long, test_rng_next())
SUM_CASE(u64, uint64_t, ulong, test_rng_next())
SUM_CASE(f32, float, float, (double)test_rng_below(2048) - 1024.0)
SUM_CASE(f64, double, double, (double)test_rng_below(2048) - 1024.0)

/* x -> a x + b over u32; combine(f, g) = g after f, which no other order gives. */
typedef struct affine {
  uint32_t a, b;
} affine;
typedef struct affine_count {
  uint32_t a, b, n;
} affine_count;
static void combine_affine(void *p, const void *q) {
  affine f, g;
  memcpy(&f, p, sizeof f);
  memcpy(&g, q, sizeof g);
  const affine r = {g.a * f.a, g.a * f.b + g.b};
  memcpy(p, &r, sizeof r);
}
static void random_affine(void *p) {
  const affine f = {(uint32_t)test_rng_next() | 1u, (uint32_t)test_rng_next()};
  memcpy(p, &f, sizeof f);
}
static void combine_affine_count(void *p, const void *q) {
  affine_count f, g;
  memcpy(&f, p, sizeof f);
  memcpy(&g, q, sizeof g);
  const affine_count r = {g.a * f.a, g.a * f.b + g.b, f.n + g.n};
  memcpy(p, &r, sizeof r);
}
static void random_affine_count(void *p) {
  const affine_count f = {(uint32_t)test_rng_next() | 1u, (uint32_t)test_rng_next(),
                          (uint32_t)test_rng_below(1000)};
  memcpy(p, &f, sizeof f);
}

#define SCALAR_SUM(T)                                                                              \
  "ORX_INLINE " T " coll_combine(" T " a, " T " b) { return a + b; }\n"                            \
  "ORX_INLINE " T " coll_zero(void) { return (" T ")0; }\n"
static const collective_case cases[] = {
    {"i32", 4, SCALAR_SUM("int"), "int", combine_i32, random_i32, 0, 0},
    {"u32", 4, SCALAR_SUM("uint"), "uint", combine_u32, random_u32, 0, 1},
    {"i64", 8, SCALAR_SUM("long"), "long", combine_i64, random_i64, 0, 0},
    {"u64", 8, SCALAR_SUM("ulong"), "ulong", combine_u64, random_u64, 0, 0},
    {"f32", 4, SCALAR_SUM("float"), "float", combine_f32, random_f32, 0, 0},
    {"f64", 8,
     "#if ORX_NATIVE_VECTORS\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
     SCALAR_SUM("double"),
     "double", combine_f64, random_f64, 1, 1},
    {"affine", 8,
     "typedef struct affine { uint a, b; } affine;\n"
     "ORX_INLINE affine coll_combine(affine f, affine g) {\n"
     "  affine r; r.a = g.a * f.a; r.b = g.a * f.b + g.b; return r; }\n"
     "ORX_INLINE affine coll_zero(void) { affine r; r.a = 1; r.b = 0; return r; }\n",
     "affine", combine_affine, random_affine, 0, 0},
    {"affine_count", 12,
     "typedef struct affine_count { uint a, b, n; } affine_count;\n"
     "ORX_INLINE affine_count coll_combine(affine_count f, affine_count g) {\n"
     "  affine_count r; r.a = g.a * f.a; r.b = g.a * f.b + g.b; r.n = f.n + g.n; return r; }\n"
     "ORX_INLINE affine_count coll_zero(void) {\n"
     "  affine_count r; r.a = 1; r.b = 0; r.n = 0; return r; }\n",
     "affine_count", combine_affine_count, random_affine_count, 0, 1},
};

/* out[4g .. 4g+3]: subgroup reduce, reduce over `lanes`, the multireduction of q values
 * (many[32g + k], k < q), work-group reduce (work-item 0 only); shape[2g]: the subgroup's size
 * (a u32 sum of ones, through a second instance), shape[2g + 1]: the lane. */
static const char kernel_text[] =
    "#include \"ocl_reduce_collectives.h\"\n"
    "%s"
    "#define ORX_COLL_NAME(name) coll_##name\n"
    "#define ORX_COLL_T %s\n"
    "#define ORX_COLL_COMBINE(a, b) coll_combine(a, b)\n"
    "#define ORX_COLL_IDENTITY coll_zero()\n"
    "#include \"ocl_reduce_collectives.inc\"\n"
    "ORX_INLINE uint count_add(uint a, uint b) { return a + b; }\n"
    "#define ORX_COLL_NAME(name) count_##name\n"
    "#define ORX_COLL_T uint\n"
    "#define ORX_COLL_COMBINE(a, b) count_add(a, b)\n"
    "#define ORX_COLL_IDENTITY 0u\n"
    "#include \"ocl_reduce_collectives.inc\"\n"
    "__kernel ORX_KERNEL_ATTR void collectives(__global const %s *in, __global const %s *many,\n"
    "    __global %s *out, __global uint *shape, uint lanes, uint q) {\n"
    "  __local %s scratch[ORX_COLL_SCRATCH];\n"
    "  __local uint count_scratch[ORX_COLL_SCRATCH];\n"
    "  const uint g = (uint)get_global_id(0);\n"
    "  const %s x = in[g];\n"
    "  out[4 * g] = coll_subgroup_reduce(x, scratch);\n"
    "  out[4 * g + 1] = coll_reduce_lanes(x, lanes, scratch);\n"
    "  %s v[32];\n"
    "  for (uint k = 0; k < 32; k++)\n"
    "    v[k] = k < q ? many[32 * g + k] : coll_zero();\n"
    "  out[4 * g + 2] = coll_multireduce(v, q, lanes, scratch);\n"
    "  const %s all = coll_workgroup_reduce(x, scratch);\n"
    "  if (get_local_id(0) == 0)\n"
    "    out[4 * g + 3] = all;\n"
    "  shape[2 * g] = count_subgroup_reduce(1u, count_scratch);\n"
    "  shape[2 * g + 1] = orx_sg_lane();\n"
    "}\n";

static char *kernel_source(const collective_case *c) {
  const size_t size = sizeof kernel_text + strlen(c->definitions) + 8 * 32;
  char *text = malloc(size);
  assert_non_null(text);
  snprintf(text, size, kernel_text, c->definitions, c->type, c->type, c->type, c->type, c->type,
           c->type, c->type, c->type);
  return text;
}

/* ---- Host folds ------------------------------------------------------------------------- */

/* acc = the fold of n values at base, stride apart (bytes), in order. */
static void fold(const collective_case *c, const unsigned char *base, size_t stride, size_t n,
                 unsigned char *acc) {
  memcpy(acc, base, c->size);
  for (size_t i = 1; i < n; i++)
    c->combine(acc, base + i * stride);
}

static void check_value(const collective_case *c, const unsigned char *got,
                         const unsigned char *want, const char *what, unsigned item,
                         unsigned wg, unsigned lanes, unsigned q, int *failures) {
  if (memcmp(got, want, c->size) == 0)
    return;
  if ((*failures)++ < 5)
    print_error("%s %s: work-item %u differs (work-group %u, lanes %u, q %u)\n", c->name, what,
                item, wg, lanes, q);
}

/* One launch of `groups` work-groups of wg, checked. */
static void run_shape(const collective_case *c, ocl_reduce_program *program, unsigned wg,
                      unsigned lanes, unsigned q) {
  const unsigned groups = 3, n = groups * wg;
  const size_t size = c->size;
  unsigned char *in = malloc(n * size), *many = malloc((size_t)n * 32 * size);
  unsigned char *out = malloc((size_t)n * 4 * size), *want = malloc(size);
  uint32_t *shape = malloc((size_t)n * 2 * sizeof *shape);
  assert_true(in && many && out && want && shape);
  for (unsigned i = 0; i < n; i++)
    c->random(in + i * size);
  for (size_t i = 0; i < (size_t)n * 32; i++)
    c->random(many + i * size);
  ocl_reduce_buffer *in_buf, *many_buf, *out_buf, *shape_buf;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, n * size, &in_buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, (size_t)n * 32 * size, &many_buf),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, (size_t)n * 4 * size, &out_buf),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, (size_t)n * 8, &shape_buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(in_buf, 0, in, n * size), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(many_buf, 0, many, (size_t)n * 32 * size),
                   OCL_REDUCE_OK);
  const ocl_reduce_kernel_arg args[] = {
      ocl_reduce_kernel_arg_buffer(in_buf),  ocl_reduce_kernel_arg_buffer(many_buf),
      ocl_reduce_kernel_arg_buffer(out_buf), ocl_reduce_kernel_arg_buffer(shape_buf),
      ocl_reduce_kernel_arg_u32(lanes),      ocl_reduce_kernel_arg_u32(q)};
  ocl_reduce_status s = ocl_reduce_program_launch(test_ctx, program, groups, args, 6);
  if (s != OCL_REDUCE_OK)
    print_error("%s\n", ocl_reduce_last_error(test_ctx));
  assert_int_equal(s, OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_read(out_buf, 0, out, (size_t)n * 4 * size), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_read(shape_buf, 0, shape, (size_t)n * 8), OCL_REDUCE_OK);

  int failures = 0;
  for (unsigned g = 0; g < n; g++) {
    /* Subgroups: runs of consecutive work-items of a power-of-two size that divides wg. */
    const unsigned sg = shape[2 * g], lane = shape[2 * g + 1];
    assert_true(sg >= 1 && sg <= wg && (sg & (sg - 1)) == 0 && wg % sg == 0);
    assert_int_equal(lane, g % sg);
    const unsigned char *out_g = out + (size_t)g * 4 * size;
    fold(c, in + (size_t)(g - lane) * size, size, sg, want);
    check_value(c, out_g, want, "subgroup_reduce", g, wg, lanes, q, &failures);
    const unsigned first = g - g % lanes;
    fold(c, in + (size_t)first * size, size, lanes, want);
    check_value(c, out_g + size, want, "reduce_lanes", g, wg, lanes, q, &failures);
    fold(c, many + ((size_t)first * 32 + (g % lanes) % q) * size, 32 * size, lanes, want);
    check_value(c, out_g + 2 * size, want, "multireduce", g, wg, lanes, q, &failures);
    if (g % wg == 0) {
      fold(c, in + (size_t)g * size, size, wg, want);
      check_value(c, out_g + 3 * size, want, "workgroup_reduce", g, wg, lanes, q, &failures);
    }
  }
  assert_int_equal(failures, 0);
  ocl_reduce_buffer_destroy(shape_buf);
  ocl_reduce_buffer_destroy(out_buf);
  ocl_reduce_buffer_destroy(many_buf);
  ocl_reduce_buffer_destroy(in_buf);
  free(shape);
  free(want);
  free(out);
  free(many);
  free(in);
}

/* At 256 work-items, the shapes that 64 do not have: the work-group's subgroups and more. (CPU
 * devices run local-memory exchanges at a few barriers per value; every shape there takes long.) */
static int wide_shape(unsigned lanes, unsigned q, unsigned wg) {
  return (lanes == 32 || lanes == wg) && (q == 1 || q == 32);
}

/* Every case at work-groups of 64 and, on GPUs and not light, 256 (CPU devices build and run
 * these kernels slowly, and examples/binary_match runs 256 there), lanes from 1 to the
 * work-group, q from 1 to 32. The light form keeps a 4-byte and an 8-byte scalar and the 12-byte
 * order-keeping struct: each case is a program build, 20 s on PoCL 3.1. */
static void test_every_case(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  static const unsigned lane_counts[] = {1, 2, 4, 8, 32, 64, 256}, qs[] = {1, 2, 8, 32};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const collective_case *c = &cases[k];
    if ((c->fp64 && !info.has_fp64) || (test_light() && !c->light))
      continue;
    char *source = kernel_source(c);
    const unsigned widest = test_light() || info.device_type == OCL_REDUCE_DEVICE_CPU ? 64 : 256;
    for (unsigned wg = 64; wg <= widest; wg *= 4) {
      ocl_reduce_program *program = NULL;
      ocl_reduce_status s = ocl_reduce_program_build(test_ctx, source, "collectives", wg, &program);
      if (s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_last_error(test_ctx),
                                                           "largest work-group"))
        continue;
      if (s != OCL_REDUCE_OK)
        print_error("%s\n", ocl_reduce_last_error(test_ctx));
      assert_int_equal(s, OCL_REDUCE_OK);
      print_message("# %s, work-groups of %u\n", c->name, wg);
      for (size_t l = 0; l < sizeof lane_counts / sizeof lane_counts[0]; l++)
        for (size_t j = 0; j < sizeof qs / sizeof qs[0]; j++)
          if (lane_counts[l] <= wg && qs[j] <= lane_counts[l] &&
              (wg == 64 || wide_shape(lane_counts[l], qs[j], wg)))
            run_shape(c, program, wg, lane_counts[l], qs[j]);
      ocl_reduce_program_destroy(program);
    }
    free(source);
  }
}

/* ---- The API's errors ------------------------------------------------------------------- */

static const char tiny_kernel[] =
    "#include \"ocl_reduce_collectives.h\"\n"
    "__kernel ORX_KERNEL_ATTR void tiny(__global uint *out, uint v) {\n"
    "  out[get_global_id(0)] = v + orx_sg_lane() * 0u;\n"
    "}\n";

static void test_build_errors(void **state) {
  (void)state;
  ocl_reduce_program *program = (ocl_reduce_program *)&program; /* must stay untouched */
  ocl_reduce_program *const untouched = program;
  expect_error(ocl_reduce_program_build(NULL, tiny_kernel, "tiny", 64, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx");
  expect_error(ocl_reduce_program_build(test_ctx, NULL, "tiny", 64, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "source");
  expect_error(ocl_reduce_program_build(test_ctx, "", "tiny", 64, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "source");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "ti ny", 64, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "kernel_name");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "tin", 64, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "kernel_name");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "tiny", 48, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "work_group_size 48");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "tiny", 0, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "work_group_size");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "tiny", 1u << 30, &program),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "largest work-group");
  expect_error(ocl_reduce_program_build(test_ctx, tiny_kernel, "tiny", 64, NULL),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "out");
  expect_error(ocl_reduce_program_build(test_ctx, "#include \"no_such.h\"\nvoid tiny(void);\n",
                                        "tiny", 64, &program),
               OCL_REDUCE_ERROR_KERNEL_SOURCE, test_ctx, "no_such.h");
  expect_error(ocl_reduce_program_build(test_ctx, "__kernel void tiny(void) { syntax error }\n",
                                        "tiny", 64, &program),
               OCL_REDUCE_ERROR_BUILD, test_ctx, "");
  assert_ptr_equal(program, untouched);

  char text[256];
  assert_int_equal(ocl_reduce_program_defines(test_ctx, 64, text, sizeof text), OCL_REDUCE_OK);
  assert_non_null(strstr(text, "-DORX_WG_SIZE=64"));
  assert_non_null(strstr(text, "-DORX_SG_IMPL="));
  expect_error(ocl_reduce_program_defines(test_ctx, 3, text, sizeof text),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "work_group_size 3");
}

static void test_launch_errors(void **state) {
  (void)state;
  ocl_reduce_program *program = NULL;
  assert_int_equal(ocl_reduce_program_build(test_ctx, tiny_kernel, "tiny", 64, &program),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 64 * 4, &buf), OCL_REDUCE_OK);
  ocl_reduce_kernel_arg args[] = {ocl_reduce_kernel_arg_buffer(buf), ocl_reduce_kernel_arg_u32(7)};
  expect_error(ocl_reduce_program_launch(test_ctx, program, 0, args, 2),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "groups");
  expect_error(ocl_reduce_program_launch(test_ctx, NULL, 1, args, 2),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "program");
  expect_error(ocl_reduce_program_launch(test_ctx, program, 1, NULL, 2),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "args");
  expect_error(ocl_reduce_program_launch(test_ctx, program, 1, args, 17),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "nargs");
  args[1].bytes = 2;
  expect_error(ocl_reduce_program_launch(test_ctx, program, 1, args, 2),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "args[1]");
  args[1] = ocl_reduce_kernel_arg_u32(7);
  assert_int_equal(ocl_reduce_program_launch(test_ctx, program, 1, args, 2), OCL_REDUCE_OK);
  uint32_t got[64];
  assert_int_equal(ocl_reduce_buffer_read(buf, 0, got, sizeof got), OCL_REDUCE_OK);
  for (unsigned i = 0; i < 64; i++)
    assert_int_equal(got[i], 7);
  void *native_program = NULL, *native_kernel = NULL;
  assert_int_equal(ocl_reduce_program_native(program, &native_program, &native_kernel),
                   OCL_REDUCE_OK);
  assert_non_null(native_program);
  assert_non_null(native_kernel);
  expect_error(ocl_reduce_program_native(NULL, &native_program, &native_kernel),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "program");
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_program_destroy(program);
  ocl_reduce_program_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_build_errors),
      cmocka_unit_test(test_launch_errors),
      cmocka_unit_test(test_every_case),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
