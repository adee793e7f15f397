/* =================================================================================================
 * fuzz_invalid.c: calls that must be refused (fuzz.h): memory too small for the request, ranges
 * past a buffer's end, bad windows and offsets, operators on types they do not take, operator
 * counts out of range. Each must return its named status with a message, write nothing (guard
 * patterns on every output), and leave the context working (the next case uses it). Where the
 * memory is all host memory, the group's form of the call is refused alike now and then.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"

static void expect(fuzz_run *run, ocl_reduce_status got, ocl_reduce_status want, int grouped) {
  run->refusals++;
  if (got != want) {
    fuzz_fail(run, "returned %s, expected %s", ocl_reduce_status_name(got),
              ocl_reduce_status_name(want));
    return;
  }
  const char *message = ocl_reduce_last_error(grouped ? NULL : run->ctx); /* group calls' */
  if (!message || !message[0])
    fuzz_fail(run, "refused with %s but no message", ocl_reduce_status_name(got));
}

void fuzz_invalid_case(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const size_t n = 1 + fuzz_size(4096), es = s.element_size, rs = s.result_size;
  unsigned char *data = malloc(n * es);
  if (!data)
    abort();
  fuzz_subject_fill(&s, data, n);
  char name[128];
  fuzz_subject_name(&s, name, sizeof name);
  fuzz_input in;
  fuzz_output out;
  fuzz_input_place(run, &in, data, n * es, es, 0);
  const uint64_t kind = test_rng_below(8);
  /* Room for every result the call asks for, so that only the one mistake is there to find. */
  size_t out_bytes = rs;
  if (kind == 2 || kind == 4)
    out_bytes = (n + 2) * rs;
  else if (kind == 3)
    out_bytes = n * rs;
  else if (kind >= 6)
    out_bytes = rs * (1 + (OCL_REDUCE_MULTI_MAX_OPS + 1) * 8 / rs);
  fuzz_output_place(run, &out, out_bytes, rs, 0);
  ocl_reduce_status got = OCL_REDUCE_OK, want = OCL_REDUCE_OK;
  /* Not for the operator-type mismatch: a group's refusal there is its first device's. */
  const int grouped = kind != 6 && fuzz_on_group(run, !in.buffer && !out.buffer);
  ocl_reduce_group *g = run->group;
  switch (kind) {
  case 0: { /* host input shorter than count elements */
    const size_t short_bytes = n * es - 1 - (size_t)test_rng_below(n * es);
    snprintf(run->what, sizeof run->what, "refused: %zu elements of %s from %zu bytes", n, name,
             short_bytes);
    const ocl_reduce_input short_input = ocl_reduce_host_input(data, short_bytes);
    got = grouped ? ocl_reduce_group_reduce(g, s.op, s.type, short_input, n, out.out)
                  : ocl_reduce_into(run->ctx, s.op, s.type, short_input, n, out.out);
    want = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    break;
  }
  case 1: { /* a result smaller than the operator's */
    snprintf(run->what, sizeof run->what, "refused: %s into %zu of %zu bytes", name, rs - 1, rs);
    ocl_reduce_output small = out.out;
    if (small.host)
      small.bytes = rs - 1 - (size_t)test_rng_below(rs);
    else
      small.offset = ocl_reduce_buffer_size(out.buffer) / rs; /* no room left */
    got = grouped ? ocl_reduce_group_reduce(g, s.op, s.type, in.in, n, small)
                  : ocl_reduce_into(run->ctx, s.op, s.type, in.in, n, small);
    want = small.host ? OCL_REDUCE_ERROR_INVALID_ARGUMENT : OCL_REDUCE_ERROR_OUT_OF_RANGE;
    break;
  }
  case 2: { /* past the input buffer's end (it has one element more), or the host input's */
    snprintf(run->what, sizeof run->what, "refused: %zu segments of 1 of %s from %zu elements",
             n + 2, name, n);
    got = grouped ? ocl_reduce_group_segments(g, s.op, s.type, in.in, n + 2, 1, out.out)
                  : ocl_reduce_segments(run->ctx, s.op, s.type, in.in, n + 2, 1, out.out);
    want = in.buffer ? OCL_REDUCE_ERROR_OUT_OF_RANGE : OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    break;
  }
  case 3: { /* segment results into too little memory */
    snprintf(run->what, sizeof run->what, "refused: %zu segment results of %s into too little", n,
             name);
    ocl_reduce_output small = out.out;
    if (small.host)
      small.bytes = n * rs - 1 - (size_t)test_rng_below(rs);
    else /* the last result would end past the buffer */
      small.offset = ocl_reduce_buffer_size(out.buffer) / rs + 1 - n;
    got = grouped ? ocl_reduce_group_segments(g, s.op, s.type, in.in, n, 1, small)
                  : ocl_reduce_segments(run->ctx, s.op, s.type, in.in, n, 1, small);
    want = small.host ? OCL_REDUCE_ERROR_INVALID_ARGUMENT : OCL_REDUCE_ERROR_OUT_OF_RANGE;
    break;
  }
  case 4: { /* an empty window, or one longer than the input */
    const size_t window = test_rng_below(2) ? 0 : n + 1 + (size_t)test_rng_below(5);
    snprintf(run->what, sizeof run->what, "refused: windows of %zu over %zu of %s", window, n,
             name);
    got = grouped ? ocl_reduce_group_windows(g, s.op, s.type, in.in, n, window, out.out)
                  : ocl_reduce_windows(run->ctx, s.op, s.type, in.in, n, window, out.out);
    want = OCL_REDUCE_ERROR_BAD_WINDOW;
    break;
  }
  case 5: { /* offsets that decrease or reach past the input */
    /* Past the input: n + 2 at least, as an input buffer holds one element more (fuzz_memory.c),
     * which offsets may cover (they are checked against the memory, having no count). */
    uint64_t offsets[2] = {1, (uint64_t)n + 2 + test_rng_below(100)};
    if (test_rng_below(2) && n > 1)
      offsets[0] = (uint64_t)n, offsets[1] = 1;
    snprintf(run->what, sizeof run->what, "refused: offsets %llu %llu over %zu elements of %s",
             (unsigned long long)offsets[0], (unsigned long long)offsets[1], n, name);
    const ocl_reduce_input at = ocl_reduce_host_input(offsets, sizeof offsets);
    got = grouped ? ocl_reduce_group_segments_offsets(g, s.op, s.type, in.in, 1, at, out.out)
                  : ocl_reduce_segments_offsets(run->ctx, s.op, s.type, in.in, 1, at, out.out);
    want = OCL_REDUCE_ERROR_BAD_OFFSETS;
    break;
  }
  case 6: { /* an operator on a type it does not take */
    static const ocl_reduce_type floats[] = {OCL_REDUCE_F32, OCL_REDUCE_F16, OCL_REDUCE_BF16,
                                             OCL_REDUCE_F64}; /* F64 last: not without fp64 */
    const ocl_reduce_op op = OCL_REDUCE_BUILTIN_OP(4 + test_rng_below(3)); /* AND, OR, XOR */
    const ocl_reduce_type type = floats[test_rng_below(run->has_fp64 ? 4 : 3)];
    snprintf(run->what, sizeof run->what, "refused: %s on %s", ocl_reduce_op_name(op),
             ocl_reduce_type_name(type));
    got = ocl_reduce_into(run->ctx, op, type, in.in, n * es / ocl_reduce_type_size(type), out.out);
    want = OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION;
    break;
  }
  default: { /* no operators, or more than a multi call takes */
    ocl_reduce_op ops[OCL_REDUCE_MULTI_MAX_OPS + 1];
    for (size_t k = 0; k <= OCL_REDUCE_MULTI_MAX_OPS; k++)
      ops[k] = OCL_REDUCE_SUM;
    const size_t count = test_rng_below(2) ? 0 : OCL_REDUCE_MULTI_MAX_OPS + 1;
    snprintf(run->what, sizeof run->what, "refused: multi of %zu operators", count);
    got = grouped
              ? ocl_reduce_group_multi(g, ops, count, OCL_REDUCE_I32, in.in, n * es / 4, out.out)
              : ocl_reduce_multi(run->ctx, ops, count, OCL_REDUCE_I32, in.in, n * es / 4, out.out);
    want = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    break;
  }
  }
  expect(run, got, want, grouped);
  fuzz_output_take(run, &out, NULL, 1);
  fuzz_output_free(&out);
  fuzz_input_free(&in);
  free(data);
}
