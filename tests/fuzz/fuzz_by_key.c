/* =================================================================================================
 * fuzz_by_key.c: reduce-by-key cases (fuzz.h): a random subject (built-in or user operator), keys
 * of a random width whose runs have a random mean length (1 to a few thousand), drawn from a
 * small set of keys now and then so that equal keys recur apart; keys, values and both outputs
 * each in host memory or a buffer at its own random offset. The outputs hold exactly the runs,
 * more, or (a case in five, host memory) one fewer, which must be refused with
 * OUTPUT_TOO_SMALL, the count given and nothing written. Each run's key and result against the
 * host: the runs found by comparing neighbours, each reduced by the subject's reference (indices
 * from the run's start). Cases whose memory is all host memory go to the group now and then
 * (fuzz_on_group).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"

/* Elements in one case at most, as the other forms'. */
enum { MOST_PAIRS = 1 << 20 };

static const ocl_reduce_type key_types[] = {OCL_REDUCE_I32, OCL_REDUCE_U32, OCL_REDUCE_I64,
                                            OCL_REDUCE_U64};

/* n keys of kb bytes: a new run after each key with probability 1 / mean; a new run's key from a
 * set of three now and then (the same key again, apart), else random (8-byte keys differ from
 * their neighbours in the high half alone now and then). */
static unsigned char *random_keys(size_t n, size_t kb, uint64_t mean) {
  unsigned char *keys = malloc(n * kb + 1);
  if (!keys)
    abort();
  const int few = test_rng_below(3) == 0;
  uint64_t key = test_rng_next();
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && test_rng_below(mean) == 0) {
      uint64_t next = few ? test_rng_below(3) : test_rng_next();
      if (kb == 8 && test_rng_below(4) == 0)
        next = key ^ ((uint64_t)(1 + test_rng_below(255)) << 40);
      key = next; /* may equal the last: then the run goes on */
    }
    if (kb == 4) {
      const uint32_t k32 = (uint32_t)key;
      memcpy(keys + i * 4, &k32, 4);
    } else {
      memcpy(keys + i * 8, &key, 8);
    }
  }
  return keys;
}

/* Checks a call that ran: the count, each run's key and result. */
static void check_runs(fuzz_run *run, const fuzz_subject *s, const unsigned char *keys, size_t kb,
                       const unsigned char *data, const size_t *heads, size_t runs,
                       uint64_t run_count, const unsigned char *keys_got,
                       const unsigned char *got) {
  if (run_count != runs) {
    fuzz_fail(run, "%llu runs, not %zu", (unsigned long long)run_count, runs);
    return;
  }
  for (size_t r = 0; r < runs && run->mismatches < 50; r++) {
    if (memcmp(keys_got + r * kb, keys + heads[r] * kb, kb) != 0)
      fuzz_fail(run, "run %zu's key differs", r);
    fuzz_check_result(run, s, got + r * s->result_size, data, heads[r], heads[r + 1] - heads[r],
                      0, "run", r);
  }
}

void fuzz_by_key_case(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const ocl_reduce_type key_type = key_types[test_rng_below(4)];
  const size_t kb = ocl_reduce_type_size(key_type), n = fuzz_size(MOST_PAIRS);
  static const uint64_t means[] = {1, 2, 8, 32, 256, 1000, 5000};
  const uint64_t mean = means[test_rng_below(sizeof means / sizeof means[0])];
  unsigned char *keys = random_keys(n, kb, mean), *data = fuzz_data_for(&s, n);
  size_t *heads = malloc((n + 1) * sizeof *heads);
  if (!heads)
    abort();
  const size_t runs = test_key_runs(keys, kb, n, heads);
  const int short_by_one = runs > 0 && test_rng_below(5) == 0;
  /* Room for a run per element, half the time: what the one-pass kernel takes
   * (run_by_key_pass.c). */
  const size_t room = short_by_one          ? runs - 1
                      : test_rng_below(2) ? n + (size_t)test_rng_below(3)
                                          : runs + (size_t)test_rng_below(3);
  char name[128];
  fuzz_subject_name(&s, name, sizeof name);
  snprintf(run->what, sizeof run->what, "by key: %zu %s keys in %zu runs (mean %llu), room %zu, %s",
           n, ocl_reduce_type_name(key_type), runs, (unsigned long long)mean, room, name);
  unsigned char *keys_got = malloc(room * kb + 1), *got = malloc(room * s.result_size + 1);
  if (!keys_got || !got)
    abort();
  fuzz_input in_keys, in_values;
  fuzz_output out_keys, out_results;
  fuzz_input_place(run, &in_keys, keys, n * kb, kb, 0);
  fuzz_input_place(run, &in_values, data, n * s.element_size, s.element_size, 0);
  /* A buffer output holds what lies from its offset to the buffer's end, which takes the
   * fuzzer's guard bytes in: outputs one run short are host memory of exactly their bytes. */
  fuzz_output_place(run, &out_keys, room * kb, kb, short_by_one);
  fuzz_output_place(run, &out_results, room * s.result_size, s.result_size, short_by_one);
  uint64_t run_count = UINT64_MAX;
  const int grouped = fuzz_on_group(run, !in_keys.buffer && !in_values.buffer &&
                                             !out_keys.buffer && !out_results.buffer);
  const ocl_reduce_status status =
      grouped ? ocl_reduce_group_by_key(run->group, s.op, s.type, key_type, in_keys.in,
                                        in_values.in, n, out_keys.out, out_results.out, &run_count)
              : ocl_reduce_by_key(run->ctx, s.op, s.type, key_type, in_keys.in, in_values.in, n,
                                  out_keys.out, out_results.out, &run_count);
  if (short_by_one) {
    run->refusals++;
    if (status != OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL || run_count != runs)
      fuzz_fail(run, "one run short: %s and %llu runs, not OUTPUT_TOO_SMALL and %zu",
                ocl_reduce_status_name(status), (unsigned long long)run_count, runs);
    fuzz_output_take(run, &out_keys, keys_got, 1);
    fuzz_output_take(run, &out_results, got, 1);
  } else if (fuzz_call_ok(run, status,
                          grouped ? "ocl_reduce_group_by_key" : "ocl_reduce_by_key") &&
             fuzz_output_take(run, &out_keys, keys_got, 0) &&
             fuzz_output_take(run, &out_results, got, 0)) {
    check_runs(run, &s, keys, kb, data, heads, runs, run_count, keys_got, got);
  }
  fuzz_output_free(&out_results);
  fuzz_output_free(&out_keys);
  fuzz_input_free(&in_values);
  fuzz_input_free(&in_keys);
  free(got);
  free(keys_got);
  free(heads);
  free(data);
  free(keys);
}
