/* =================================================================================================
 * custom_ops.c: the tests' user operators (custom_ops.h).
 * ============================================================================================== */
#include "support/custom_ops.h"

#include <math.h>
#include <string.h>

#include "support/reference.h"

static const char squares_source[] = "ulong sq_zero(void) { return 0; }\n"
                                     "ulong sq_map(uint x, ulong index) { return (ulong)x * x; }\n"
                                     "ulong sq_add(ulong a, ulong b) { return a + b; }\n";

static const char box_source[] =
    "typedef struct point { float x, y, z; } point;\n"
    "typedef struct box { float lo[3], hi[3]; } box;\n"
    "box box_empty(void) {\n"
    "  box b;\n"
    "  for (int k = 0; k < 3; k++) { b.lo[k] = INFINITY; b.hi[k] = -INFINITY; }\n"
    "  return b;\n"
    "}\n"
    "box box_of(point p, ulong index) {\n"
    "  box b;\n"
    "  b.lo[0] = b.hi[0] = p.x; b.lo[1] = b.hi[1] = p.y; b.lo[2] = b.hi[2] = p.z;\n"
    "  return b;\n"
    "}\n"
    "box box_join(box a, box b) {\n"
    "  for (int k = 0; k < 3; k++) { a.lo[k] = fmin(a.lo[k], b.lo[k]);\n"
    "                                a.hi[k] = fmax(a.hi[k], b.hi[k]); }\n"
    "  return a;\n"
    "}\n";

typedef struct above {
  uint64_t count, index_sum;
} above;
static const char above_source[] = "typedef struct above { ulong count, index_sum; } above;\n"
                                   "above above_none(void) { above a = {0, 0}; return a; }\n"
                                   "above above_map(float x, ulong index) {\n"
                                   "  above a = {x > 0.5f, x > 0.5f ? index : 0};\n"
                                   "  return a;\n"
                                   "}\n"
                                   "above above_add(above a, above b) {\n"
                                   "  a.count += b.count; a.index_sum += b.index_sum; return a;\n"
                                   "}\n";

typedef struct histogram {
  uint32_t bins[16];
} histogram;
static const char histogram_source[] =
    "typedef struct histogram { uint bins[16]; } histogram;\n"
    "histogram hist_empty(void) {\n"
    "  histogram h; for (int k = 0; k < 16; k++) h.bins[k] = 0; return h;\n"
    "}\n"
    "histogram hist_one(uchar x, ulong index) {\n"
    "  histogram h = hist_empty(); h.bins[x & 15] = 1; return h;\n"
    "}\n"
    "histogram hist_add(histogram a, histogram b) {\n"
    "  for (int k = 0; k < 16; k++) a.bins[k] += b.bins[k]; return a;\n"
    "}\n";

const ocl_reduce_operator_desc test_custom_descs[TEST_CUSTOM_COUNT] = {
    {sizeof(ocl_reduce_operator_desc), squares_source, "uint", "ulong", "sq_zero", "sq_map",
     "sq_add", sizeof(uint32_t), sizeof(uint64_t), 1, NULL, NULL},
    {sizeof(ocl_reduce_operator_desc), box_source, "point", "box", "box_empty", "box_of",
     "box_join", sizeof(test_point), sizeof(test_box), 1, NULL, NULL},
    {sizeof(ocl_reduce_operator_desc), above_source, "float", "above", "above_none", "above_map",
     "above_add", sizeof(float), sizeof(above), 1, NULL, NULL},
    {sizeof(ocl_reduce_operator_desc), histogram_source, "uchar", "histogram", "hist_empty",
     "hist_one", "hist_add", 1, sizeof(histogram), 1, NULL, NULL},
};
const char *const test_custom_names[TEST_CUSTOM_COUNT] = {"squares", "box", "above", "histogram"};

void test_custom_fill(test_custom w, void *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (w) {
    case TEST_SQUARES:
      ((uint32_t *)data)[i] = (uint32_t)test_rng_next();
      break;
    case TEST_BOX: {
      test_point *p = (test_point *)data + i;
      p->x = (float)(test_rng_unit() * 2000.0 - 1000.0);
      p->y = (float)(test_rng_unit() * 2.0);
      p->z = (float)-test_rng_below(1000);
      break;
    }
    case TEST_ABOVE:
      ((float *)data)[i] = (float)test_rng_unit();
      break;
    default:
      ((unsigned char *)data)[i] = (unsigned char)test_rng_next();
      break;
    }
  }
}

void test_custom_reference(test_custom w, const void *data, size_t n, void *out) {
  switch (w) {
  case TEST_SQUARES: {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
      s += (uint64_t)((const uint32_t *)data)[i] * ((const uint32_t *)data)[i];
    memcpy(out, &s, sizeof s);
    break;
  }
  case TEST_BOX: {
    test_box b;
    for (int k = 0; k < 3; k++) {
      b.lo[k] = INFINITY;
      b.hi[k] = -INFINITY;
    }
    for (size_t i = 0; i < n; i++) {
      const test_point *p = (const test_point *)data + i;
      const float v[3] = {p->x, p->y, p->z};
      for (int k = 0; k < 3; k++) {
        b.lo[k] = fminf(b.lo[k], v[k]);
        b.hi[k] = fmaxf(b.hi[k], v[k]);
      }
    }
    memcpy(out, &b, sizeof b);
    break;
  }
  case TEST_ABOVE: {
    above a = {0, 0};
    for (size_t i = 0; i < n; i++)
      if (((const float *)data)[i] > 0.5f) {
        a.count++;
        a.index_sum += i;
      }
    memcpy(out, &a, sizeof a);
    break;
  }
  default: {
    histogram h;
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i < n; i++)
      h.bins[((const unsigned char *)data)[i] & 15]++;
    memcpy(out, &h, sizeof h);
    break;
  }
  }
}
