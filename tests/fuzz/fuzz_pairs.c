/* =================================================================================================
 * fuzz_pairs.c: the pair operators' cases (fuzz.h): a random operator and type, random (now and
 * then special) values, the whole arrays or equal segments of two inputs, each in host memory or
 * a buffer at its own random offset (so their vector boundaries lie apart as often as not), the
 * output in either too; every result against support/pair_reference.c. A quarter of the cases
 * take a user pair operator of support/user_pairs.c instead, against its host fold. Cases whose
 * memory is all host memory go to the group now and then (fuzz_on_group).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "support/pair_reference.h"

/* Pairs in one case at most, as the other forms' elements. */
enum { MOST_PAIRS = 1 << 20 };

/* The call of a case: whole (count 1) or segments of `length`; on the context, or where all its
 * memory is host memory now and then on the group. 1 when it succeeded. */
static int call_pairs(fuzz_run *run, ocl_reduce_op op, ocl_reduce_type type, const fuzz_input *a,
                      const fuzz_input *b, int segmented, size_t count, size_t length,
                      const fuzz_output *out) {
  const int grouped =
      fuzz_on_group(run, !a->in.buffer && !b->in.buffer && !out->out.buffer);
  ocl_reduce_status status;
  if (grouped)
    status = segmented ? ocl_reduce_group_pairs_segments(run->group, op, type, a->in, b->in,
                                                         count, length, out->out)
                       : ocl_reduce_group_pairs(run->group, op, type, a->in, b->in,
                                                count * length, out->out);
  else
    status = segmented ? ocl_reduce_pairs_segments(run->ctx, op, type, a->in, b->in, count,
                                                   length, out->out)
                       : ocl_reduce_pairs(run->ctx, op, type, a->in, b->in, count * length,
                                          out->out);
  static const char *const names[2][2] = {{"ocl_reduce_pairs", "ocl_reduce_pairs_segments"},
                                          {"ocl_reduce_group_pairs",
                                           "ocl_reduce_group_pairs_segments"}};
  return fuzz_call_ok(run, status, names[grouped][segmented]);
}

/* A user pair operator's case: its own elements, the same placements, its host fold. */
static void user_pairs_case(fuzz_run *run) {
  const test_user_pair w = (test_user_pair)test_rng_below(TEST_USER_PAIR_COUNT);
  const size_t elem = test_user_pair_descs[w].element_size;
  const size_t rsize = test_user_pair_descs[w].state_size, most = MOST_PAIRS / 8;
  const int segmented = test_rng_below(2) == 0;
  const size_t length = segmented ? fuzz_size(1 << 12) : fuzz_size(most);
  size_t count = segmented ? fuzz_size(1 << 10) : 1;
  if (length > 0 && count > most / length)
    count = most / length;
  const size_t n = count * length;
  snprintf(run->what, sizeof run->what, "user pair operator %s of %zu x %zu pairs",
           test_user_pair_names[w], count, length);
  unsigned char *a = malloc(n * elem + 1), *b = malloc(n * elem + 1);
  unsigned char *got = malloc(count * rsize + 1), want[64];
  if (!a || !b || !got)
    abort();
  test_user_pair_fill(w, a, b, n);
  fuzz_input in_a, in_b;
  fuzz_output out;
  fuzz_input_place(run, &in_a, a, n * elem, elem, 0);
  fuzz_input_place(run, &in_b, b, n * elem, elem, 0);
  fuzz_output_place(run, &out, count * rsize, rsize, 0);
  if (call_pairs(run, run->user_pairs[w], OCL_REDUCE_OP_ELEMENT, &in_a, &in_b, segmented, count,
                 length, &out) &&
      fuzz_output_take(run, &out, got, 0)) {
    for (size_t i = 0; i < count && run->mismatches < 50; i++) {
      run->results++;
      test_user_pair_reference(w, a + i * length * elem, b + i * length * elem,
                               segmented ? length : n, want);
      if (memcmp(got + i * rsize, want, rsize) != 0)
        fuzz_fail(run, "result %zu differs from the host's fold", i);
    }
  }
  fuzz_output_free(&out);
  fuzz_input_free(&in_b);
  fuzz_input_free(&in_a);
  free(got);
  free(b);
  free(a);
}

void fuzz_pairs_case(fuzz_run *run) {
  if (test_rng_below(4) == 0) {
    user_pairs_case(run);
    return;
  }
  const int op = (int)test_rng_below(OCL_REDUCE_BUILTIN_PAIR_OPS);
  const ocl_reduce_type type = fuzz_pick_type(run);
  const size_t elem = ocl_reduce_type_size(type);
  const size_t rsize = ocl_reduce_result_size(OCL_REDUCE_PAIR_OP(op), type);
  const int segmented = test_rng_below(2) == 0;
  size_t length = segmented ? fuzz_size(1 << 14) : fuzz_size(MOST_PAIRS);
  size_t count = segmented ? fuzz_size(1 << 12) : 1;
  if (length > 0 && count > MOST_PAIRS / length)
    count = MOST_PAIRS / length;
  const size_t n = count * length;
  const int special = test_pair_is_float(type) && test_rng_below(3) == 0;
  snprintf(run->what, sizeof run->what, "%s of %zu x %zu pairs of %s (%s)",
           ocl_reduce_op_name(OCL_REDUCE_PAIR_OP(op)), count, length,
           ocl_reduce_type_name(type), special ? "special values" : "random");
  unsigned char *a = malloc(n * elem + 1), *b = malloc(n * elem + 1);
  unsigned char *got = malloc(count * rsize + 1);
  if (!a || !b || !got)
    abort();
  test_pair_fill(a, b, n, type, special);
  fuzz_input in_a, in_b;
  fuzz_output out;
  fuzz_input_place(run, &in_a, a, n * elem, elem, 0);
  fuzz_input_place(run, &in_b, b, n * elem, elem, 0);
  fuzz_output_place(run, &out, count * rsize, rsize, 0);
  if (call_pairs(run, OCL_REDUCE_PAIR_OP(op), type, &in_a, &in_b, segmented, count, length,
                 &out) &&
      fuzz_output_take(run, &out, got, 0)) {
    char why[256];
    for (size_t i = 0; i < count && run->mismatches < 50; i++) {
      run->results++;
      if (!test_pair_matches(op, type, a + i * length * elem, b + i * length * elem,
                             segmented ? length : n, got + i * rsize, why, sizeof why))
        fuzz_fail(run, "result %zu: %s", i, why);
    }
  }
  fuzz_output_free(&out);
  fuzz_input_free(&in_b);
  fuzz_input_free(&in_a);
  free(got);
  free(b);
  free(a);
}
