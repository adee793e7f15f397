/* =================================================================================================
 * user_pairs.c: the tests' user pair operators (user_pairs.h).
 * ============================================================================================== */
#include "support/user_pairs.h"

#include <string.h>

#include "support/reference.h"

typedef struct best {
  int64_t value;
  uint64_t index;
} best;
static const char argmax_product_source[] =
    "typedef struct best { long value; ulong index; } best;\n"
    "best best_none(void) { best r = {-0x7fffffffffffffffL - 1, 0xffffffffffffffffUL}; "
    "return r; }\n"
    "best best_product(int a, int b, ulong index) { best r = {(long)a * b, index}; return r; }\n"
    "best best_of(best x, best y) {\n"
    "  return x.value > y.value || (x.value == y.value && x.index < y.index) ? x : y;\n"
    "}\n";

typedef struct hash {
  uint64_t h, p;
} hash;
#define HASH_BASE 1000003u
static const char hash_source[] =
    "typedef struct hash { ulong h, p; } hash;\n"
    "hash hash_none(void) { hash r = {0, 1}; return r; }\n"
    "hash hash_pair(uint a, uint b, ulong index) {\n"
    "  hash r = {(ulong)a * 3 + b, 1000003}; return r;\n"
    "}\n"
    "hash hash_then(hash x, hash y) { hash r = {x.h * y.p + y.h, x.p * y.p}; return r; }\n";

typedef struct point2 {
  int32_t x, y;
} point2;
static const char points_source[] =
    "typedef struct point2 { int x, y; } point2;\n"
    "ulong points_zero(void) { return 0; }\n"
    "ulong points_distance(point2 a, point2 b, ulong index) {\n"
    "  const ulong dx = (ulong)((long)a.x - b.x), dy = (ulong)((long)a.y - b.y);\n"
    "  return dx * dx + dy * dy; /* modulo 2^64 */\n"
    "}\n"
    "ulong points_add(ulong a, ulong b) { return a + b; }\n";

typedef struct row16 {
  uint32_t v[16];
} row16;
static const char rows_source[] =
    "typedef struct hash { ulong h, p; } hash;\n"
    "typedef struct row16 { uint v[16]; } row16;\n"
    "hash rows_none(void) { hash r = {0, 1}; return r; }\n"
    "hash rows_pair(row16 a, row16 b, ulong index) {\n"
    "  hash r = {0, 1000003};\n"
    "  for (int k = 0; k < 16; k++) r.h = r.h * 31 + (a.v[k] ^ b.v[k]);\n"
    "  return r;\n"
    "}\n"
    "hash rows_then(hash x, hash y) { hash r = {x.h * y.p + y.h, x.p * y.p}; return r; }\n";

const ocl_reduce_operator_desc test_user_pair_descs[TEST_USER_PAIR_COUNT] = {
    {.struct_size = sizeof(ocl_reduce_operator_desc), .source = argmax_product_source,
     .element_type = "int", .state_type = "best", .identity = "best_none",
     .pair_map = "best_product", .combine = "best_of", .element_size = sizeof(int32_t),
     .state_size = sizeof(best), .commutative = 1},
    {.struct_size = sizeof(ocl_reduce_operator_desc), .source = hash_source,
     .element_type = "uint", .state_type = "hash", .identity = "hash_none",
     .pair_map = "hash_pair", .combine = "hash_then", .element_size = sizeof(uint32_t),
     .state_size = sizeof(hash), .commutative = 0},
    {.struct_size = sizeof(ocl_reduce_operator_desc), .source = points_source,
     .element_type = "point2", .state_type = "ulong", .identity = "points_zero",
     .pair_map = "points_distance", .combine = "points_add", .element_size = sizeof(point2),
     .state_size = sizeof(uint64_t), .commutative = 1},
    {.struct_size = sizeof(ocl_reduce_operator_desc), .source = rows_source,
     .element_type = "row16", .state_type = "hash", .identity = "rows_none",
     .pair_map = "rows_pair", .combine = "rows_then", .element_size = sizeof(row16),
     .state_size = sizeof(hash), .commutative = 0},
};
const char *const test_user_pair_names[TEST_USER_PAIR_COUNT] = {"argmax_product", "hash",
                                                                 "points", "rows"};

/* Small values, so that equal products (ties for the first index) and equal pairs occur. */
static int32_t small_value(void) { return (int32_t)test_rng_below(2001) - 1000; }

void test_user_pair_fill(test_user_pair w, void *a, void *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const int equal = test_rng_below(5) == 0;
    switch (w) {
    case TEST_PAIR_ARGMAX_PRODUCT:
      ((int32_t *)a)[i] = small_value();
      ((int32_t *)b)[i] = equal ? ((int32_t *)a)[i] : small_value();
      break;
    case TEST_PAIR_HASH:
      ((uint32_t *)a)[i] = (uint32_t)test_rng_next();
      ((uint32_t *)b)[i] = equal ? ((uint32_t *)a)[i] : (uint32_t)test_rng_next();
      break;
    case TEST_PAIR_ROWS:
      for (int k = 0; k < 16; k++) {
        ((row16 *)a)[i].v[k] = (uint32_t)test_rng_next();
        ((row16 *)b)[i].v[k] = equal ? ((row16 *)a)[i].v[k] : (uint32_t)test_rng_next();
      }
      break;
    default: {
      point2 *pa = a, *pb = b;
      pa[i] = (point2){(int32_t)test_rng_next(), small_value()};
      pb[i] = equal ? pa[i] : (point2){(int32_t)test_rng_next(), small_value()};
      break;
    }
    }
  }
}

void test_user_pair_reference(test_user_pair w, const void *a, const void *b, size_t n,
                              void *out) {
  switch (w) {
  case TEST_PAIR_ARGMAX_PRODUCT: {
    best r = {INT64_MIN, UINT64_MAX};
    for (size_t i = 0; i < n; i++) {
      const int64_t v = (int64_t)((const int32_t *)a)[i] * ((const int32_t *)b)[i];
      if (v > r.value) /* in order: the first of equal products stays */
        r = (best){v, i};
    }
    memcpy(out, &r, sizeof r);
    break;
  }
  case TEST_PAIR_HASH: {
    hash r = {0, 1};
    for (size_t i = 0; i < n; i++) {
      r.h = r.h * HASH_BASE + ((uint64_t)((const uint32_t *)a)[i] * 3 + ((const uint32_t *)b)[i]);
      r.p *= HASH_BASE;
    }
    memcpy(out, &r, sizeof r);
    break;
  }
  case TEST_PAIR_ROWS: {
    hash r = {0, 1};
    for (size_t i = 0; i < n; i++) {
      uint64_t h = 0;
      for (int k = 0; k < 16; k++)
        h = h * 31 + (((const row16 *)a)[i].v[k] ^ ((const row16 *)b)[i].v[k]);
      r.h = r.h * HASH_BASE + h;
      r.p *= HASH_BASE;
    }
    memcpy(out, &r, sizeof r);
    break;
  }
  default: {
    uint64_t r = 0;
    const point2 *pa = a, *pb = b;
    for (size_t i = 0; i < n; i++) {
      const uint64_t dx = (uint64_t)((int64_t)pa[i].x - pb[i].x);
      const uint64_t dy = (uint64_t)((int64_t)pa[i].y - pb[i].y);
      r += dx * dx + dy * dy;
    }
    memcpy(out, &r, sizeof r);
    break;
  }
  }
}
