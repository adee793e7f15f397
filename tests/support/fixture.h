/* =================================================================================================
 * fixture.h: what every test program shares besides the references (reference.h): the context
 * under test, chosen by the environment that tests/discover_tests.cmake.in pins per
 * implementation and path; the check of a failing call; the one table of operators and types
 * the sweeps run; and main's running of a suite (fixture.c).
 * ============================================================================================== */
#ifndef ORX_TEST_FIXTURE_H
#define ORX_TEST_FIXTURE_H

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ocl_reduce.h"
#include "support/reference.h"

/* ---- The context under test --------------------------------------------------------------- */

/* Created by test_setup (with the random generator seeded), destroyed by test_teardown: a
 * suite's group fixture. */
extern ocl_reduce_context *test_ctx;
int test_setup(void **state);
int test_teardown(void **state);

/* A context on the environment's device and path (OCL_REDUCE_DEVICE, _PATH, _SUBGROUP, _POLICY),
 * with `policy` fields (OCL_REDUCE_POLICY syntax, may be "") added to the environment's, after
 * host=off: the suites test the device's kernels, not the calling thread's host plans (unless
 * `policy` names host=thread or host=device, as test_host_path does); prints
 * what it runs on, once per program. NULL, with the error printed, when creation fails. */
ocl_reduce_context *test_context_with_policy(const char *policy);
/* Puts `fields` (OCL_REDUCE_POLICY syntax) before the environment's policy for the rest of the
 * process and the processes it starts (the environment's own fields win where both set one). */
void test_policy_prepend(const char *fields);
ocl_reduce_context *test_context_create(void);
/* test_context_create's context under OCL_REDUCE_DETERMINISM=cross_device. */
ocl_reduce_context *test_context_cross_device(void);
/* The subgroup and work-group sizes of a context, for boundary sizes. */
test_shape test_context_shape(ocl_reduce_context *ctx);

/* OCL_REDUCE_TEST_LIGHT=1: the sweeps that cost the most run a representative part: every kernel
 * and every way of combining, on fewer operators and types and smaller inputs (each program
 * says which). The sanitizer build uses it, and so do the configurations that automatic
 * selection does not take (tests/discover_tests.cmake.in): the full sweeps run on each
 * implementation's automatic path, or with OCL_REDUCE_TEST_FULL=NAME (CI's time budget) on that
 * implementation's only. */
int test_light(void);
/* Whether test_ctx's device has double precision, which MEAN_VAR needs; without it, says so once
 * (the test leaves those cases out by name). */
int test_has_fp64(void);

/* Fails the test unless `got` is `expected` and the last error (of c, or of the thread when c is
 * NULL) contains `needle`. */
void expect_error(ocl_reduce_status got, ocl_reduce_status expected, const ocl_reduce_context *c,
                  const char *needle);

/* The bytes of an array, refused at compile time for a pointer (whose sizeof would be the
 * pointer's): the sizes the tests give the library are the memory's. */
#define TEST_BYTES(array)                                                                          \
  (sizeof(array) + 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(                           \
                                               __typeof__(array), __typeof__(&(array)[0]))]))

/* The text of a macro's value, so that messages naming the first unknown operator or type
 * follow OCL_REDUCE_BUILTIN_OPS and OCL_REDUCE_TYPE_COUNT as operators are added. */
#define TEST_TEXT_OF(value) TEST_TEXT_OF_(value)
#define TEST_TEXT_OF_(value) #value

/* ---- Operators and types ----------------------------------------------------------------- */

/* Every type, and every operator on every type it is defined on, X(OP, TYPE) for
 * OCL_REDUCE_<OP> and OCL_REDUCE_<TYPE>: the table every sweep runs. */
#define TEST_TYPES(X) X(I32) X(U32) X(I64) X(U64) X(F32) X(F64) X(F16) X(BF16)
#define TEST_FLOAT_OPS(X, TYPE) X(SUM, TYPE) X(PROD, TYPE) X(MIN, TYPE) X(MAX, TYPE)
#define TEST_INTEGER_OPS(X, TYPE) TEST_FLOAT_OPS(X, TYPE) X(AND, TYPE) X(OR, TYPE) X(XOR, TYPE)
#define TEST_OP_TYPES(X)                                                                           \
  TEST_INTEGER_OPS(X, I32)                                                                         \
  TEST_INTEGER_OPS(X, U32)                                                                         \
  TEST_INTEGER_OPS(X, I64)                                                                         \
  TEST_INTEGER_OPS(X, U64) TEST_FLOAT_OPS(X, F32) TEST_FLOAT_OPS(X, F64)                        \
  TEST_FLOAT_OPS(X, F16) TEST_FLOAT_OPS(X, BF16)

/* ---- Running a suite ---------------------------------------------------------------------- */

/* Runs `tests` (an array) with a group fixture; OCL_REDUCE_TEST_FILTER=<pattern> runs only the
 * tests whose names match (cmocka's filter, e.g. "test_MIN_*"). */
#define TEST_RUN(tests, setup, teardown)                                                           \
  test_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
int test_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                   CMFixtureFunction setup, CMFixtureFunction teardown);

#endif /* ORX_TEST_FIXTURE_H */
