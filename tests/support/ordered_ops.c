/* =================================================================================================
 * ordered_ops.c: the tests' order-preserving operators (ordered_ops.h).
 * ============================================================================================== */
#include "support/ordered_ops.h"

#include <math.h>
#include <string.h>

#include "support/reference.h"

static const char matrix_source[] =
    "typedef struct mat2 { uint m[4]; } mat2;\n"
    "mat2 mat2_identity(void) { mat2 r = {{1u, 0u, 0u, 1u}}; return r; }\n"
    "mat2 mat2_of(mat2 x, ulong index) { return x; }\n"
    "mat2 mat2_product(mat2 a, mat2 b) {\n"
    "  mat2 r;\n"
    "  r.m[0] = a.m[0] * b.m[0] + a.m[1] * b.m[2];\n"
    "  r.m[1] = a.m[0] * b.m[1] + a.m[1] * b.m[3];\n"
    "  r.m[2] = a.m[2] * b.m[0] + a.m[3] * b.m[2];\n"
    "  r.m[3] = a.m[2] * b.m[1] + a.m[3] * b.m[3];\n"
    "  return r;\n"
    "}\n";

static const char affine_source[] =
    "typedef struct affine { double a, b; } affine;\n"
    "affine affine_identity(void) { affine r = {1.0, 0.0}; return r; }\n"
    "affine affine_of(affine x, ulong index) { return x; }\n"
    "/* f, then g: x -> g.a (f.a x + f.b) + g.b */\n"
    "affine affine_then(affine f, affine g) {\n"
    "  affine r = {g.a * f.a, g.a * f.b + g.b};\n"
    "  return r;\n"
    "}\n";

static const char fsm_source[] =
    "/* state s goes to nibble s of a table */\n"
    "ulong fsm_identity(void) { return 0xfedcba9876543210ul; }\n"
    "ulong fsm_of(ulong table, ulong index) { return table; }\n"
    "/* first, then second */\n"
    "ulong fsm_then(ulong first, ulong second) {\n"
    "  ulong r = 0;\n"
    "  for (uint s = 0; s < 16; s++)\n"
    "    r |= ((second >> (4 * ((first >> (4 * s)) & 15))) & 15) << (4 * s);\n"
    "  return r;\n"
    "}\n";

const ocl_reduce_operator_desc test_ordered_descs[TEST_ORDERED_COUNT] = {
    {sizeof(ocl_reduce_operator_desc), matrix_source, "mat2", "mat2", "mat2_identity", "mat2_of",
     "mat2_product", sizeof(test_matrix), sizeof(test_matrix), 0, NULL, NULL},
    {sizeof(ocl_reduce_operator_desc), affine_source, "affine", "affine", "affine_identity",
     "affine_of", "affine_then", sizeof(test_affine), sizeof(test_affine), 0, NULL, NULL},
    {sizeof(ocl_reduce_operator_desc), fsm_source, "ulong", "ulong", "fsm_identity", "fsm_of",
     "fsm_then", sizeof(uint64_t), sizeof(uint64_t), 0, NULL, NULL},
};
const char *const test_ordered_names[TEST_ORDERED_COUNT] = {"matrix", "affine", "fsm"};

static test_matrix matrix_product(test_matrix a, test_matrix b) {
  test_matrix r;
  r.m[0] = a.m[0] * b.m[0] + a.m[1] * b.m[2];
  r.m[1] = a.m[0] * b.m[1] + a.m[1] * b.m[3];
  r.m[2] = a.m[2] * b.m[0] + a.m[3] * b.m[2];
  r.m[3] = a.m[2] * b.m[1] + a.m[3] * b.m[3];
  return r;
}

static uint64_t fsm_then(uint64_t first, uint64_t second) {
  uint64_t r = 0;
  for (unsigned s = 0; s < 16; s++)
    r |= ((second >> (4 * ((first >> (4 * s)) & 15))) & 15) << (4 * s);
  return r;
}

/* A random permutation of the 16 states; one table in 64 sends two states to one. */
static uint64_t fsm_random(void) {
  unsigned to[16];
  for (unsigned s = 0; s < 16; s++)
    to[s] = s;
  for (unsigned s = 15; s > 0; s--) {
    const unsigned k = (unsigned)test_rng_below(s + 1), t = to[s];
    to[s] = to[k];
    to[k] = t;
  }
  if (test_rng_below(64) == 0)
    to[test_rng_below(16)] = to[test_rng_below(16)];
  uint64_t table = 0;
  for (unsigned s = 0; s < 16; s++)
    table |= (uint64_t)to[s] << (4 * s);
  return table;
}

void test_ordered_fill(test_ordered w, void *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (w) {
    case TEST_MATRIX: {
      /* a and d odd, c even: the determinant a d - b c is odd. */
      test_matrix *m = (test_matrix *)data + i;
      m->m[0] = (uint32_t)test_rng_next() | 1u;
      m->m[1] = (uint32_t)test_rng_next();
      m->m[2] = (uint32_t)test_rng_next() & ~1u;
      m->m[3] = (uint32_t)test_rng_next() | 1u;
      break;
    }
    case TEST_AFFINE: {
      /* |a| within 1/128 of 1, either sign: over millions of maps the composition neither
       * explodes nor fades, so every element still counts in the result (with |a| spread
       * over [0.5, 1.5) it fades by e^-0.045 per map, and a swap of early maps shows nowhere). */
      test_affine *f = (test_affine *)data + i;
      f->a = (1.0 + (test_rng_unit() - 0.5) / 64.0) * (test_rng_below(2) ? 1.0 : -1.0);
      f->b = test_rng_unit() * 2.0 - 1.0;
      break;
    }
    default:
      ((uint64_t *)data)[i] = fsm_random();
      break;
    }
  }
}

/* The affine fold in long double: of the elements as they are, or of their absolute values. */
static void affine_fold(const test_affine *f, size_t n, int absolute, long double *a,
                        long double *b) {
  long double ra = 1.0L, rb = 0.0L;
  for (size_t i = 0; i < n; i++) {
    const long double fa = absolute ? fabsl((long double)f[i].a) : (long double)f[i].a;
    const long double fb = absolute ? fabsl((long double)f[i].b) : (long double)f[i].b;
    ra = fa * ra;
    rb = fa * rb + fb;
  }
  *a = ra;
  *b = rb;
}

void test_ordered_reference(test_ordered w, const void *data, size_t n, void *out) {
  switch (w) {
  case TEST_MATRIX: {
    test_matrix r = {{1, 0, 0, 1}};
    for (size_t i = 0; i < n; i++)
      r = matrix_product(r, ((const test_matrix *)data)[i]);
    memcpy(out, &r, sizeof r);
    break;
  }
  case TEST_AFFINE: {
    long double a, b;
    affine_fold(data, n, 0, &a, &b);
    const test_affine r = {(double)a, (double)b};
    memcpy(out, &r, sizeof r);
    break;
  }
  default: {
    uint64_t r = 0xfedcba9876543210ull;
    for (size_t i = 0; i < n; i++)
      r = fsm_then(r, ((const uint64_t *)data)[i]);
    memcpy(out, &r, sizeof r);
    break;
  }
  }
}

int test_ordered_matches(test_ordered w, const void *data, size_t n, const void *got) {
  if (w != TEST_AFFINE) {
    unsigned char want[sizeof(test_matrix)];
    test_ordered_reference(w, data, n, want);
    return memcmp(got, want, test_ordered_descs[w].state_size) == 0;
  }
  /* Every order of combining computes each product and sum of the fold with relative errors of
   * at most about 2 n u in all (Higham, Accuracy and Stability, 3.1 and 3.5). */
  long double a, b, abs_a, abs_b;
  affine_fold(data, n, 0, &a, &b);
  affine_fold(data, n, 1, &abs_a, &abs_b);
  test_affine r;
  memcpy(&r, got, sizeof r);
  const long double bound = 2.0L * (long double)(n + 1) * 0x1p-53L;
  return fabsl((long double)r.a - a) <= bound * abs_a &&
         fabsl((long double)r.b - b) <= bound * abs_b;
}
