/* =================================================================================================
 * fuzz_forms.c: the valid cases (fuzz.h): one random call of a random form, its inputs and
 * outputs in host memory or buffers at random offsets (buffer outputs make it an enqueued call,
 * read back after a finish or by the blocking read), every result compared with the host. Calls
 * whose memory is all host memory go to the group now and then (fuzz_on_group).
 * ============================================================================================== */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"

/* Elements in one case at most: a few milliseconds on a CPU device. */
enum { MOST = 1 << 20 };

size_t fuzz_size(size_t large) {
  const uint64_t r = test_rng_below(10);
  if (r < 5)
    return (size_t)test_rng_below(large < 300 ? large + 1 : 300);
  if (r < 7) {
    unsigned bits = 0;
    while (((size_t)2 << bits) <= large)
      bits++;
    const size_t power = (size_t)1 << test_rng_below(bits + 1);
    const size_t size = power + (size_t)test_rng_below(3) - 1;
    return size > large ? large : size;
  }
  return (size_t)test_rng_below(r < 9 ? large / 16 + 1 : large + 1);
}

void *fuzz_data_for(const fuzz_subject *s, size_t n) {
  void *data = malloc(n * s->element_size + 1);
  if (!data)
    abort();
  fuzz_subject_fill(s, data, n);
  return data;
}

void fuzz_check_result(fuzz_run *run, const fuzz_subject *s, const unsigned char *got,
                       const unsigned char *data, size_t begin, size_t length, uint64_t first,
                       const char *which, size_t i) {
  char why[512];
  run->results++;
  if (!fuzz_subject_matches(s, got, data + begin * s->element_size, length, first, why, sizeof why))
    fuzz_fail(run, "%s %zu (elements %zu .. %zu): %s", which, i, begin, begin + length, why);
}

/* run->what: the shape (printf-style), then the subject. */
static void describe(fuzz_run *run, const fuzz_subject *s, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void describe(fuzz_run *run, const fuzz_subject *s, const char *format, ...) {
  char name[128], shape[160];
  fuzz_subject_name(s, name, sizeof name);
  va_list args;
  va_start(args, format);
  vsnprintf(shape, sizeof shape, format, args);
  va_end(args);
  snprintf(run->what, sizeof run->what, "%s of %s", shape, name);
}

static const char *place_name(const fuzz_input *in, const fuzz_output *out) {
  static const char *const names[] = {"host to host", "host to buffer", "buffer to host",
                                      "buffer to buffer"};
  return names[(in->buffer ? 2 : 0) + (out->buffer ? 1 : 0)];
}

static void append(fuzz_run *run, const char *text) {
  const size_t used = strlen(run->what);
  snprintf(run->what + used, sizeof run->what - used, ", %s", text);
}

/* A call's memory: its input (n elements of `element` bytes from data) and room for `results`
 * results of `unit` bytes, each in host memory or a buffer at random; after the call, got holds
 * the results. */
typedef struct placed {
  fuzz_input in;
  fuzz_output out;
  unsigned char *got;
} placed;

static void place(fuzz_run *run, placed *p, const void *data, size_t n, size_t element,
                  size_t results, size_t unit) {
  fuzz_input_place(run, &p->in, data, n * element, element, 0);
  fuzz_output_place(run, &p->out, results * unit, unit, 0);
  p->got = malloc(results * unit + 1);
  if (!p->got)
    abort();
  append(run, place_name(&p->in, &p->out));
}

/* 1 when the call succeeded and its results are in p->got, the guards around them intact. */
static int taken(fuzz_run *run, placed *p, ocl_reduce_status status, const char *call) {
  return fuzz_call_ok(run, status, call) && fuzz_output_take(run, &p->out, p->got, 0);
}

static int all_host(const placed *p) { return !p->in.buffer && !p->out.buffer; }

static void unplace(placed *p) {
  free(p->got);
  fuzz_output_free(&p->out);
  fuzz_input_free(&p->in);
}

static void whole_array(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const size_t n = fuzz_size(s.ordered >= 0 || s.custom >= 0 ? MOST / 4 : MOST);
  describe(run, &s, "whole array of %zu", n);
  unsigned char *data = fuzz_data_for(&s, n);
  placed p;
  place(run, &p, data, n, s.element_size, 1, s.result_size);
  ocl_reduce_status status;
  const char *call = "ocl_reduce_into";
  if (fuzz_on_group(run, all_host(&p))) {
    status = ocl_reduce_group_reduce(run->group, s.op, s.type, p.in.in, n, p.out.out);
    call = "ocl_reduce_group_reduce";
  } else if (all_host(&p) && test_rng_below(2) == 0) {
    status = ocl_reduce(run->ctx, s.op, s.type, p.in.in.host, n, p.out.out.host, s.result_size);
  } else {
    status = ocl_reduce_into(run->ctx, s.op, s.type, p.in.in, n, p.out.out);
  }
  if (taken(run, &p, status, call))
    fuzz_check_result(run, &s, p.got, data, 0, n, 0, "result", 0);
  unplace(&p);
  free(data);
}

static void segments(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  size_t length = fuzz_size(1 << 16), count = fuzz_size(1 << 14);
  if (length > 0 && count > MOST / length)
    count = MOST / length;
  const size_t n = count * length;
  describe(run, &s, "%zu segments of %zu", count, length);
  unsigned char *data = fuzz_data_for(&s, n);
  placed p;
  place(run, &p, data, n, s.element_size, count, s.result_size);
  const int grouped = fuzz_on_group(run, all_host(&p));
  if (taken(run, &p,
            grouped
                ? ocl_reduce_group_segments(run->group, s.op, s.type, p.in.in, count, length,
                                            p.out.out)
                : ocl_reduce_segments(run->ctx, s.op, s.type, p.in.in, count, length, p.out.out),
            grouped ? "ocl_reduce_group_segments" : "ocl_reduce_segments"))
    for (size_t i = 0; i < count && run->mismatches < 50; i++)
      fuzz_check_result(run, &s, p.got + i * s.result_size, data, i * length, length, 0, "segment",
                        i);
  unplace(&p);
  free(data);
}

static void segments_by_offsets(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const size_t count = fuzz_size(1 << 12);
  uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
  if (!offsets)
    abort();
  /* Lengths of one kind per case, or mixed: empty, short, long. */
  const uint64_t kind = test_rng_below(4);
  offsets[0] = test_rng_below(4) == 0 ? test_rng_below(100) : 0;
  for (size_t i = 0; i < count; i++) {
    const uint64_t k = kind == 3 ? test_rng_below(3) : kind;
    size_t length = k == 0 ? (test_rng_below(2) ? 0 : 1) : k == 1 ? fuzz_size(64) : fuzz_size(8192);
    if (offsets[i] + length > MOST)
      length = 0;
    offsets[i + 1] = offsets[i] + length;
  }
  const size_t n = (size_t)offsets[count] + (size_t)test_rng_below(3) * (size_t)test_rng_below(50);
  describe(run, &s, "%zu segments by offsets over %zu elements", count, n);
  unsigned char *data = fuzz_data_for(&s, n);
  placed p;
  place(run, &p, data, n, s.element_size, count, s.result_size);
  /* Offsets in a buffer take the input in a buffer too (the offsets stay on the device). */
  fuzz_input at;
  fuzz_input_place(run, &at, offsets, (count + 1) * sizeof *offsets, sizeof *offsets, !p.in.buffer);
  append(run, at.buffer ? "offsets in a buffer" : "offsets in host memory");
  const int grouped = fuzz_on_group(run, all_host(&p) && !at.buffer);
  if (taken(run, &p,
            grouped ? ocl_reduce_group_segments_offsets(run->group, s.op, s.type, p.in.in, count,
                                                        at.in, p.out.out)
                    : ocl_reduce_segments_offsets(run->ctx, s.op, s.type, p.in.in, count, at.in,
                                                  p.out.out),
            grouped ? "ocl_reduce_group_segments_offsets" : "ocl_reduce_segments_offsets"))
    for (size_t i = 0; i < count && run->mismatches < 50; i++)
      fuzz_check_result(run, &s, p.got + i * s.result_size, data, (size_t)offsets[i],
                        (size_t)(offsets[i + 1] - offsets[i]), 0, "segment", i);
  fuzz_input_free(&at);
  unplace(&p);
  free(data);
  free(offsets);
}

static void windows(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 1);
  const size_t count = 1 + fuzz_size(1 << 16);
  size_t window = 1 + (test_rng_below(2) ? fuzz_size(64) : fuzz_size(count - 1));
  if (window > count)
    window = count;
  /* The host's naive reference costs window per result: at most 2^22 element visits. */
  while (window > 1 && (count - window + 1) > (1u << 22) / window)
    window /= 2;
  const size_t results = count - window + 1;
  describe(run, &s, "windows of %zu over %zu", window, count);
  unsigned char *data = fuzz_data_for(&s, count);
  placed p;
  place(run, &p, data, count, s.element_size, results, s.result_size);
  const int grouped = fuzz_on_group(run, all_host(&p));
  if (taken(run, &p,
            grouped ? ocl_reduce_group_windows(run->group, s.op, s.type, p.in.in, count, window,
                                               p.out.out)
                    : ocl_reduce_windows(run->ctx, s.op, s.type, p.in.in, count, window, p.out.out),
            grouped ? "ocl_reduce_group_windows" : "ocl_reduce_windows"))
    for (size_t j = 0; j < results && run->mismatches < 50; j++)
      fuzz_check_result(run, &s, p.got + j * s.result_size, data, j, window, j, "window", j);
  unplace(&p);
  free(data);
}

static void multi(fuzz_run *run) {
  fuzz_subject subjects[OCL_REDUCE_MULTI_MAX_OPS];
  ocl_reduce_op ops[OCL_REDUCE_MULTI_MAX_OPS];
  const fuzz_subject first = fuzz_subject_pick(run, 0, 0);
  const size_t op_count = 1 + (size_t)test_rng_below(OCL_REDUCE_MULTI_MAX_OPS);
  size_t slot = 0;
  for (size_t k = 0; k < op_count; k++) {
    subjects[k] = fuzz_subject_builtin(run, first.type);
    ops[k] = subjects[k].op;
    if (subjects[k].result_size > slot)
      slot = subjects[k].result_size;
  }
  const size_t n = fuzz_size(MOST);
  snprintf(run->what, sizeof run->what, "multi of %zu operators on %zu %s:", op_count, n,
           ocl_reduce_type_name(first.type));
  for (size_t k = 0; k < op_count; k++)
    append(run, ocl_reduce_op_name(ops[k]));
  fuzz_subject sum = subjects[0];
  sum.op = OCL_REDUCE_SUM;
  unsigned char *data = fuzz_data_for(&sum, n);
  placed p;
  place(run, &p, data, n, first.element_size, op_count, slot);
  const int grouped = fuzz_on_group(run, all_host(&p));
  if (taken(run, &p,
            grouped ? ocl_reduce_group_multi(run->group, ops, op_count, first.type, p.in.in, n,
                                             p.out.out)
                    : ocl_reduce_multi(run->ctx, ops, op_count, first.type, p.in.in, n, p.out.out),
            grouped ? "ocl_reduce_group_multi" : "ocl_reduce_multi"))
    for (size_t k = 0; k < op_count; k++)
      fuzz_check_result(run, &subjects[k], p.got + k * slot, data, 0, n, 0, "operator", k);
  unplace(&p);
  free(data);
}

static int compare_sizes(const void *a, const void *b) {
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Runs one reducing call of the parts form into `into` (bytes): partial, merge or final. */
static int part_call(fuzz_run *run, int which, const fuzz_subject *s, const void *host,
                     size_t bytes, size_t unit, size_t count, uint64_t base, void *into,
                     size_t into_bytes) {
  static const char *const names[] = {"ocl_reduce_partial", "ocl_reduce_merge", "ocl_reduce_final",
                                      "ocl_reduce_group_partial"};
  fuzz_input in;
  fuzz_output out;
  fuzz_input_place(run, &in, host, bytes, unit, 0);
  fuzz_output_place(run, &out, into_bytes, into_bytes, 0);
  ocl_reduce_status status;
  if (which == 0 && fuzz_on_group(run, !in.buffer && !out.buffer)) {
    status = ocl_reduce_group_partial(run->group, s->op, s->type, in.in, count, base, out.out);
    which = 3;
  } else if (which == 0) {
    status = ocl_reduce_partial(run->ctx, s->op, s->type, in.in, count, base, out.out);
  } else if (which == 1) {
    status = ocl_reduce_merge(run->ctx, s->op, s->type, in.in, count, out.out);
  } else {
    status = ocl_reduce_final(run->ctx, s->op, s->type, in.in, count, out.out);
  }
  const int ok = fuzz_call_ok(run, status, names[which]) && fuzz_output_take(run, &out, into, 0);
  fuzz_output_free(&out);
  fuzz_input_free(&in);
  return ok;
}

/* An array in parts cut at random points: a state per part, some merged, then the final. */
static void in_parts(fuzz_run *run) {
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const size_t n = fuzz_size(MOST / 2), parts = 1 + (size_t)test_rng_below(6);
  const size_t state = ocl_reduce_state_size(run->ctx, s.op, s.type);
  describe(run, &s, "%zu elements in %zu parts", n, parts);
  size_t cuts[8];
  cuts[0] = 0;
  cuts[parts] = n;
  for (size_t p = 1; p < parts; p++)
    cuts[p] = (size_t)test_rng_below(n + 1);
  qsort(cuts + 1, parts - 1, sizeof cuts[0], compare_sizes);
  unsigned char *data = fuzz_data_for(&s, n);
  unsigned char *states = malloc(parts * state + 1), got[64];
  int ok = state > 0 && states != NULL;
  if (state == 0)
    fuzz_fail(run, "ocl_reduce_state_size is 0");
  for (size_t p = 0; ok && p < parts; p++)
    ok = part_call(run, 0, &s, data + cuts[p] * s.element_size,
                   (cuts[p + 1] - cuts[p]) * s.element_size, s.element_size, cuts[p + 1] - cuts[p],
                   cuts[p], states + p * state, state);
  /* Merge a run of the first states into one (a tree of merges gives the same result). */
  size_t first = 0;
  if (ok && parts > 1 && test_rng_below(2)) {
    const size_t merged = 2 + (size_t)test_rng_below(parts - 1);
    ok = part_call(run, 1, &s, states, merged * state, state, merged, 0,
                   states + (merged - 1) * state, state);
    first = merged - 1;
    append(run, "merged first");
  }
  if (ok && part_call(run, 2, &s, states + first * state, (parts - first) * state, state,
                      parts - first, 0, got, s.result_size)) {
    fuzz_check_result(run, &s, got, data, 0, n, 0, "result", 0);
    /* Where the headers promise the same bits whatever the split: the whole array's. */
    unsigned char whole[64];
    if (s.ordered < 0 && s.custom < 0 && test_split_keeps_bits(s.op, s.type, s.mode) &&
        fuzz_call_ok(run, ocl_reduce(run->ctx, s.op, s.type, data, n, whole, s.result_size),
                     "ocl_reduce") &&
        memcmp(whole, got, s.result_size) != 0)
      fuzz_fail(run, "the parts' result differs from the whole array's bits");
  }
  free(states);
  free(data);
}

void fuzz_valid_case(fuzz_run *run) {
  static void (*const forms[])(fuzz_run *) = {
      whole_array, whole_array, segments, segments_by_offsets, windows, multi, in_parts,
      fuzz_axes_case, fuzz_pairs_case, fuzz_by_key_case};
  forms[test_rng_below(sizeof forms / sizeof forms[0])](run);
}
