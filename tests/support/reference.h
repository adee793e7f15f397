/* =================================================================================================
 * reference.h: what the tests compare with: a seeded random generator, input data by mode, host
 * references computed independently of the library (exact integers, long double for floats) with
 * the comparison rules each operator allows, and boundary sizes.
 * ============================================================================================== */
#ifndef ORX_TEST_REFERENCE_H
#define ORX_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

/* ---- Random numbers --------------------------------------------------------------------------- */

/* The seed comes from OCL_REDUCE_TEST_SEED when set, else from the clock; it is printed so a
 * failure can be repeated. */
void test_rng_init(void);
void test_rng_seed(uint64_t seed); /* a generator of one's own: the fuzzer's cases */
uint64_t test_rng_next(void);
uint64_t test_rng_below(uint64_t bound); /* uniform in [0, bound), bound > 0 */
double test_rng_unit(void);              /* uniform in [0, 1) */

/* ---- Data ---------------------------------------------------------------------------------- */

typedef enum test_mode {
  MODE_RANDOM,   /* random values suited to the operator (see support.c) */
  MODE_EXACT,    /* floats: values whose sums/products are exact in any order */
  MODE_CONSTANT, /* every element the same */
  MODE_NAN,      /* floats: random values and NaNs */
  MODE_INF,      /* floats: random values and +inf */
  MODE_INFS,     /* floats: +inf and -inf together (sum is NaN) */
  MODE_ZEROS,    /* floats: +0.0 and -0.0 only */
  MODE_HUGE,     /* floats: +max values (sums overflow to +inf in any order) */
  MODE_EXTREMES, /* integers: the type's extremes, 0, 1 and -1 */
  MODE_COUNT
} test_mode;

/* The built-in operators' indices, OCL_REDUCE_BUILTIN_OP(i)'s i, for switch statements (operators
 * are pointer values, which C cannot switch on); test_op_index gives -1 for a user operator. */
enum {
  T_SUM,
  T_PROD,
  T_MIN,
  T_MAX,
  T_AND,
  T_OR,
  T_XOR,
  T_ARGMIN,
  T_ARGMAX,
  T_MINMAX,
  T_SUM_WIDE,
  T_SUM_COMPENSATED,
  T_MEAN_VAR,
  T_SUM_REPRODUCIBLE,
  T_OPERATORS /* every built-in operator has its reference (reference.c checks the count) */
};
int test_op_index(ocl_reduce_op op);
/* Whether a built-in operator is structured (its result is not one element of the type: ARGMIN,
 * MINMAX, MEAN_VAR, ...), checked by structured.c's references, rather than scalar, checked by
 * test_reduce_host. A new built-in operator is listed here as its reference is written. */
int test_op_structured(ocl_reduce_op op);
/* Whether the headers promise one array's bits whatever its split into parts, devices or ranks
 * (for MIN and MAX not which NaN, where several NaNs differ): the order-independent operators
 * and integers; other float operators round as the split groups them. */
int test_split_keeps_bits(ocl_reduce_op op, ocl_reduce_type type, test_mode mode);

const char *test_mode_name(test_mode mode);
/* Whether the mode applies to this type (float-only and integer-only modes). */
int test_mode_applies(test_mode mode, ocl_reduce_type type);
/* An f16 or bf16 element's value (bits h), converted independently of the library. */
float test_narrow_value(ocl_reduce_type type, uint16_t h);
/* Fills n elements of type for reducing with op. */
void test_fill(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type, test_mode mode);

/* ---- References -------------------------------------------------------------------------- */

/* One element of any type. */
typedef union test_value {
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f32;
  double f64;
  unsigned char bytes[8];
} test_value;

typedef struct test_reference {
  test_value value; /* exact for integers and min/max; rounded to the type for float sum/prod */
  double tolerance; /* float sum/prod: allowed |result - value|; 0 means bit-exact */
} test_reference;

test_reference test_reduce_host(const void *data, size_t n, ocl_reduce_op op,
                                ocl_reduce_type type, test_mode mode);

/* Compares a result with the reference; on mismatch writes a description to why and returns 0. */
int test_matches(const test_value *got, const test_reference *ref, ocl_reduce_op op,
                 ocl_reduce_type type, char *why, size_t why_size);

/* Formats a value of the type ("-0x1.8p+3", "-12"). */
void test_format(const test_value *v, ocl_reduce_type type, char *buf, size_t size);

/* ---- Sizes ------------------------------------------------------------------------------------ */

/* The subgroup and work-group sizes of a context, for boundary sizes (fixture.c). */
typedef struct test_shape {
  unsigned subgroup; /* 0 on the local path */
  unsigned work_group;
} test_shape;

/* The boundary sizes for a context: 0, 1, 2, subgroup +- 1, work-group +- 1, powers of two +- 1,
 * primes, and sizes >= 2^22 when `large` is set. Sorted, without duplicates; returns the count. */
size_t test_sizes(test_shape shape, int large, size_t *sizes, size_t capacity);

/* ---- Runs of equal keys --------------------------------------------------------------------- */

/* The runs of n keys of key_bytes each (maximal stretches of equal bytes): each run's first
 * position into heads, n after the last (runs + 1 of them); returns the runs. The reference of
 * ocl_reduce_by_key's runs, written apart from the library's. */
size_t test_key_runs(const void *keys, size_t key_bytes, size_t n, size_t *heads);

#endif /* ORX_TEST_REFERENCE_H */
