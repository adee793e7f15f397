/* =================================================================================================
 * fuzz_axes.c: the axes form's cases (fuzz.h; ocl_reduce_axes.h): a random view of rank 1-8
 * (extents with 0 and 1; strides dense, permuted, padded, repeating with 0 or overlapping), random
 * axes, host memory or a buffer at a random offset, results to host memory or a buffer; all-host
 * calls go to the group now and then (ocl_reduce_group_axes). Each result is checked against the
 * host: its elements gathered in row-major order of the reduced axes (the fold's order and
 * ARGMIN's index), then the subject's reference. Also the refusal of a view that reaches one
 * element past its input.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "ocl_reduce_axes.h"

/* Positions (results x elements per result) a case checks at most: the host gathers each. */
enum { MOST_POSITIONS = 1 << 18, MOST_REACH = 1 << 20 };

/* The largest position + 1 of a view (0 when it has no element). */
static uint64_t reach_of(const ocl_reduce_shape *v) {
  uint64_t reach = 1;
  for (unsigned k = 0; k < v->rank; k++) {
    if (v->extents[k] == 0)
      return 0;
    reach += (v->extents[k] - 1) * v->strides[k];
  }
  return reach;
}

static void random_extents(ocl_reduce_shape *v) {
  const ocl_reduce_shape init = OCL_REDUCE_SHAPE_INIT;
  *v = init;
  v->rank = 1 + (unsigned)test_rng_below(OCL_REDUCE_MAX_RANK);
  /* Positions spread over the axes: a few long ones, or many short ones. */
  const uint64_t budget = 1 + test_rng_below(test_rng_below(4) ? 4096 : MOST_POSITIONS);
  uint64_t product = 1;
  for (unsigned k = 0; k < v->rank; k++) {
    const uint64_t pick = test_rng_below(16);
    uint64_t e = pick == 0 ? 0 : pick < 4 ? 1 : 2 + test_rng_below(pick < 12 ? 6 : 300);
    while (e > 1 && product * e > budget)
      e = e / 2 + (e > 3);
    v->extents[k] = e;
    product *= e ? e : 1;
  }
}

/* Strides of one kind per case; the reach capped (an axis's stride shrinks until it fits). */
static void random_strides(ocl_reduce_shape *v) {
  ocl_reduce_shape dense;
  uint64_t extents[OCL_REDUCE_MAX_RANK];
  for (unsigned k = 0; k < v->rank; k++)
    extents[k] = v->extents[k] ? v->extents[k] : 1;
  if (ocl_reduce_shape_dense(v->rank, extents, &dense) != OCL_REDUCE_OK)
    abort();
  const uint64_t kind = test_rng_below(5);
  for (unsigned k = 0; k < v->rank; k++) {
    const uint64_t d = dense.strides[k];
    v->strides[k] = kind == 0   ? d
                    : kind == 1 ? dense.strides[test_rng_below(v->rank)] /* permuted, repeated */
                    : kind == 2 ? d * (1 + test_rng_below(3)) + test_rng_below(2) /* padded */
                    : kind == 3 ? test_rng_below(4) /* 0 repeats, small ones overlap */
                                : (test_rng_below(3) ? d : 0);
  }
  for (unsigned k = 0; k < v->rank; k++)
    while (reach_of(v) > MOST_REACH && v->strides[k] > 1)
      v->strides[k] /= 2;
}

/* Element offsets of the positions of the axes in `mask`, row-major over them, one at a time. */
typedef struct walk {
  const ocl_reduce_shape *v;
  uint32_t mask;
  uint64_t index[OCL_REDUCE_MAX_RANK], at;
} walk;

/* 0 once the walk has wrapped past its last position. */
static int walk_next(walk *w) {
  for (unsigned k = w->v->rank; k-- > 0;) {
    if (!((w->mask >> k) & 1u))
      continue;
    w->at += w->v->strides[k];
    if (++w->index[k] < w->v->extents[k])
      return 1;
    w->at -= w->v->strides[k] * w->v->extents[k];
    w->index[k] = 0;
  }
  return 0;
}

static uint64_t positions_of(const ocl_reduce_shape *v, uint32_t mask) {
  uint64_t n = 1;
  for (unsigned k = 0; k < v->rank; k++)
    if ((mask >> k) & 1u)
      n *= v->extents[k];
  return n;
}

static void check_view(fuzz_run *run, const fuzz_subject *s, const ocl_reduce_shape *v,
                       uint32_t axes, const unsigned char *data, const unsigned char *got) {
  const uint32_t all = (uint32_t)((1u << v->rank) - 1);
  const size_t results = (size_t)positions_of(v, all & ~axes);
  const size_t length = (size_t)positions_of(v, axes), es = s->element_size;
  unsigned char *run_of = malloc(length * es + 1);
  if (!run_of)
    abort();
  walk kept = {v, all & ~axes, {0}, 0};
  for (size_t r = 0; r < results && run->mismatches < 50; r++) {
    walk reduced = {v, axes, {0}, kept.at};
    for (size_t j = 0; j < length; j++) {
      memcpy(run_of + j * es, data + reduced.at * es, es);
      walk_next(&reduced);
    }
    fuzz_check_result(run, s, got + r * s->result_size, run_of, 0, length, 0, "result", r);
    walk_next(&kept);
  }
  free(run_of);
}

void fuzz_axes_case(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  ocl_reduce_shape v;
  random_extents(&v);
  random_strides(&v);
  const uint32_t axes = 1 + (uint32_t)test_rng_below((1u << v.rank) - 1);
  const uint64_t reach = reach_of(&v);
  const size_t results = (size_t)positions_of(&v, (uint32_t)((1u << v.rank) - 1) & ~axes);
  char name[128];
  fuzz_subject_name(&s, name, sizeof name);
  int used = snprintf(run->what, sizeof run->what, "axes 0x%x of [", axes);
  for (unsigned k = 0; k < v.rank && used < (int)sizeof run->what; k++)
    used += snprintf(run->what + used, sizeof run->what - (size_t)used, "%s%llu:%llu",
                     k ? ", " : "", (unsigned long long)v.extents[k],
                     (unsigned long long)v.strides[k]);
  if (used < (int)sizeof run->what)
    snprintf(run->what + used, sizeof run->what - (size_t)used, "] (extent:stride) of %s", name);
  unsigned char *data = fuzz_data_for(&s, (size_t)reach);
  /* A view one element past its input is refused (a buffer's: it has one element more). */
  const int short_input = test_rng_below(16) == 0 && reach > 1;
  fuzz_input in;
  fuzz_output out;
  fuzz_input_place(run, &in, data, (size_t)(reach - short_input) * s.element_size,
                   s.element_size, short_input);
  fuzz_output_place(run, &out, results * s.result_size, s.result_size, 0);
  unsigned char *got = malloc(results * s.result_size + 1);
  if (!got)
    abort();
  const int grouped = fuzz_on_group(run, !in.buffer && !out.buffer);
  const ocl_reduce_status status =
      grouped ? ocl_reduce_group_axes(run->group, s.op, s.type, in.in, &v, axes, out.out)
              : ocl_reduce_axes(run->ctx, s.op, s.type, in.in, &v, axes, out.out);
  const char *call = grouped ? "ocl_reduce_group_axes" : "ocl_reduce_axes";
  if (short_input) {
    run->refusals++;
    if (status != OCL_REDUCE_ERROR_INVALID_ARGUMENT)
      fuzz_fail(run, "%s: a view one element past its input returned %s", call,
                ocl_reduce_status_name(status));
    fuzz_output_take(run, &out, NULL, 1);
  } else if (fuzz_call_ok(run, status, call) && fuzz_output_take(run, &out, got, 0)) {
    check_view(run, &s, &v, axes, data, got);
  }
  free(got);
  fuzz_output_free(&out);
  fuzz_input_free(&in);
  free(data);
}
