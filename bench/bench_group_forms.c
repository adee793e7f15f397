/* =================================================================================================
 * bench_group_forms.c: every form over a group against its first device alone, in the same run
 * (issue 35's windows, multi, states and offsets; the group of `ocl-reduce bench --devices` has
 * whole arrays and fixed segments). Each form is the same call through the group and through
 * the group's first context, alternating blocks of calls; the time is the call's wall time
 * (medians), with device-resident data where the form takes it:
 *   sum, multi (sum, min, max), argmin, mean_var, partial (argmin to a state): a group buffer
 *     against one buffer, the result in host memory;
 *   windows of 32 (sum): a group buffer into a group buffer of window results, against one
 *     buffer into one buffer, both waited for;
 *   offsets (segments of 1 to 2000 elements): from page-locked host memory
 *     (ocl_reduce_host_alloc), results to it, as the group takes offsets from host memory only.
 * The ratio is the one device's time over the group's (> 1: the group is faster). Beside it, each
 * device alone on its part of the group buffer, the same call: the slowest of them, and what the
 * group takes beyond it (its second launch, the states' copies and their combine). Not installed:
 *   bench_group_forms --devices cuda:0,cuda:1 [--n COUNT] [--reps N] [--forms a,b,...]
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "tool_common.h"

enum { SUM, MULTI, ARGMIN, MEAN_VAR, PARTIAL, WINDOWS, OFFSETS, FORMS };
static const char *const form_names[FORMS] = {"sum",     "multi",   "argmin", "mean_var",
                                              "partial", "windows", "offsets"};
#define WINDOW 32
#define MAX_RESULTS 64

typedef struct setup {
  ocl_reduce_group *group;
  ocl_reduce_context *one; /* the group's first context */
  size_t n, segments;
  float *pinned;     /* the input, page-locked */
  uint64_t *offsets; /* segments + 1 */
  ocl_reduce_buffer *group_in, *one_in, *group_windows, *one_windows;
  unsigned char *pinned_results[2]; /* offsets' results: one device's, the group's */
} setup;

static const ocl_reduce_op multi_ops[3] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};

static ocl_reduce_op op_of(int form) {
  return form == ARGMIN || form == PARTIAL ? OCL_REDUCE_ARGMIN
         : form == MEAN_VAR                ? OCL_REDUCE_MEAN_VAR
                                           : OCL_REDUCE_SUM;
}

/* Who makes a call: the first device on the whole array, the group, or device d alone on its
 * part of the group buffer (PART + d), which shows what the group adds to its slowest part. */
enum { ONE, GROUP, PART };

/* One call of `form` by `who`; results into `out`. */
static ocl_reduce_status call(const setup *s, int form, int who, unsigned char *out) {
  ocl_reduce_group *g = s->group;
  const int on = who == GROUP;
  const size_t d = who >= PART ? (size_t)(who - PART) : 0;
  ocl_reduce_context *c = ocl_reduce_group_context(g, d);
  ocl_reduce_buffer *part = NULL, *windows_part = NULL;
  size_t n = s->n;
  if (who >= PART) {
    ocl_reduce_group_buffer_part(s->group_in, d, &part, NULL, &n);
    ocl_reduce_group_buffer_part(s->group_windows, d, &windows_part, NULL, NULL);
  }
  const ocl_reduce_input in = ocl_reduce_buffer_input(on     ? s->group_in
                                                      : part ? part
                                                             : s->one_in,
                                                      0);
  const ocl_reduce_output host = ocl_reduce_host_output(out, 3 * MAX_RESULTS);
  const ocl_reduce_op op = op_of(form);
  switch (form) {
  case MULTI:
    return on ? ocl_reduce_group_multi(g, multi_ops, 3, OCL_REDUCE_F32, in, n, host)
              : ocl_reduce_multi(c, multi_ops, 3, OCL_REDUCE_F32, in, n, host);
  case PARTIAL:
    return on ? ocl_reduce_group_partial(g, op, OCL_REDUCE_F32, in, n, 0, host)
              : ocl_reduce_partial(c, op, OCL_REDUCE_F32, in, n, 0, host);
  case WINDOWS: {
    const ocl_reduce_output results = ocl_reduce_buffer_output(on             ? s->group_windows
                                                               : windows_part ? windows_part
                                                                              : s->one_windows,
                                                               0);
    ocl_reduce_status st =
        on ? ocl_reduce_group_windows(g, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, n, WINDOW, results)
           : ocl_reduce_windows(c, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, n, WINDOW, results);
    /* Results in device memory: the calls return once enqueued; wait for every device. */
    for (size_t e = 0; st == OCL_REDUCE_OK && e < (on ? ocl_reduce_group_size(g) : 1); e++)
      st = ocl_reduce_finish(on ? ocl_reduce_group_context(g, e) : c);
    return st;
  }
  case OFFSETS: {
    const ocl_reduce_input host_in = ocl_reduce_host_input(s->pinned, s->n * sizeof(float));
    const ocl_reduce_input offsets =
        ocl_reduce_host_input(s->offsets, (s->segments + 1) * sizeof *s->offsets);
    const ocl_reduce_output results =
        ocl_reduce_host_output(s->pinned_results[on], s->segments * sizeof(float));
    return on ? ocl_reduce_group_segments_offsets(g, op, OCL_REDUCE_F32, host_in, s->segments,
                                                  offsets, results)
              : ocl_reduce_segments_offsets(c, op, OCL_REDUCE_F32, host_in, s->segments, offsets,
                                            results);
  }
  default:
    return on ? ocl_reduce_group_reduce(g, op, OCL_REDUCE_F32, in, n, host)
              : ocl_reduce_into(c, op, OCL_REDUCE_F32, in, n, host);
  }
}

/* Whether the two answers agree: the same bits, but for float sums and MEAN_VAR, whose order of
 * combining differs (1e-5 relative), and windows and offsets, checked at a few places. */
static int agree(const setup *s, int form, const unsigned char *a, const unsigned char *b) {
  if (form == WINDOWS || form == OFFSETS) {
    const size_t count = form == WINDOWS ? s->n - WINDOW + 1 : s->segments;
    float x[3], y[3];
    for (int k = 0; k < 3; k++) {
      const size_t at = (count - 1) * (size_t)k / 2;
      if (form == WINDOWS) {
        if (ocl_reduce_buffer_read(s->one_windows, at * sizeof(float), &x[k], sizeof(float)) ||
            ocl_reduce_buffer_read(s->group_windows, at * sizeof(float), &y[k], sizeof(float)))
          return 0;
      } else {
        memcpy(&x[k], s->pinned_results[0] + at * sizeof(float), sizeof(float));
        memcpy(&y[k], s->pinned_results[1] + at * sizeof(float), sizeof(float));
      }
    }
    return memcmp(x, y, sizeof x) == 0;
  }
  if (form == SUM || form == MULTI || form == MEAN_VAR) {
    const int values = form == MULTI ? 3 : form == MEAN_VAR ? 0 : 1;
    for (int k = 0; k < values; k++) {
      float x, y;
      memcpy(&x, a + 4 * k, 4);
      memcpy(&y, b + 4 * k, 4);
      const double d = (double)x - (double)y, m = 1.0 + (x < 0 ? -x : x);
      if ((d < 0 ? -d : d) > 1e-5 * m)
        return 0;
    }
    if (form == MEAN_VAR) {
      ocl_reduce_moments x, y;
      memcpy(&x, a, sizeof x);
      memcpy(&y, b, sizeof y);
      return x.count == y.count;
    }
    return 1;
  }
  return memcmp(a, b, ocl_reduce_result_size(op_of(form), OCL_REDUCE_F32)) == 0;
}

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Alternating blocks of calls by each contender (the first device, the group, each device on its
 * part), the first call of each block untimed; prints the form's line. */
static int measure(const setup *s, int form, int reps) {
  enum { BLOCK = 5 };
  const int who_count = form == OFFSETS ? PART : PART + (int)ocl_reduce_group_size(s->group);
  double *t[PART + OCL_REDUCE_GROUP_MAX_DEVICES] = {NULL};
  int taken[PART + OCL_REDUCE_GROUP_MAX_DEVICES] = {0}, ok = 1;
  unsigned char answer[PART][3 * MAX_RESULTS], scratch[3 * MAX_RESULTS];
  for (int w = 0; w < who_count; w++) {
    ok &= (t[w] = calloc((size_t)reps, sizeof(double))) != NULL;
    size_t part = 0; /* a device without a part (or too short a one for a window) sits out */
    if (ok && w >= PART)
      ocl_reduce_group_buffer_part(s->group_in, (size_t)(w - PART), NULL, NULL, &part);
    if (w >= PART && part < (form == WINDOWS ? WINDOW : 1))
      taken[w] = reps;
  }
  for (int round = 0, busy = 1; ok && busy; round++) {
    busy = 0;
    for (int w = 0; ok && w < who_count; w++)
      for (int k = -1; ok && k < BLOCK && taken[w] < reps; k++) {
        const double t0 = tool_now();
        const ocl_reduce_status st = call(s, form, w, w < PART ? answer[w] : scratch);
        const double dt = tool_now() - t0;
        if (st != OCL_REDUCE_OK) {
          fprintf(stderr, "%s (%s %d): %s: %s\n", form_names[form], w == GROUP ? "group" : "device",
                  w >= PART ? w - PART : 0, ocl_reduce_status_name(st),
                  ocl_reduce_last_error(w == GROUP
                                            ? NULL
                                            : ocl_reduce_group_context(
                                                  s->group, w >= PART ? (size_t)(w - PART) : 0)));
          ok = 0;
        } else if (k >= 0 && round > 0) {
          t[w][taken[w]++] = dt;
        }
      }
    for (int w = 0; w < who_count; w++)
      busy |= taken[w] < reps;
  }
  if (ok && !agree(s, form, answer[ONE], answer[GROUP])) {
    fprintf(stderr, "%s: the group's results disagree with one device's\n", form_names[form]);
    ok = 0;
  }
  if (ok) {
    double median[PART + OCL_REDUCE_GROUP_MAX_DEVICES] = {0.0}, slowest = 0.0;
    for (int w = 0; w < who_count; w++) {
      qsort(t[w], (size_t)reps, sizeof(double), compare); /* zeros where it sat out */
      median[w] = t[w][reps / 2];
      if (w >= PART && median[w] > slowest)
        slowest = median[w];
    }
    printf("| %-8s | %10.1f | %10.1f | %6.3f |", form_names[form], 1e6 * median[ONE],
           1e6 * median[GROUP], median[ONE] / median[GROUP]);
    if (slowest > 0)
      printf(" %10.1f | %8.1f |\n", 1e6 * slowest, 1e6 * (median[GROUP] - slowest));
    else
      printf(" | |\n");
    fflush(stdout);
  }
  for (int w = 0; w < who_count; w++)
    free(t[w]);
  return ok;
}

static ocl_reduce_status prepare(setup *s) {
  const size_t bytes = s->n * sizeof(float);
  ocl_reduce_status st = ocl_reduce_host_alloc(s->one, bytes, (void **)&s->pinned);
  if (st != OCL_REDUCE_OK)
    return st;
  for (size_t i = 0; i < s->n; i++) /* small integers: windows and extremes agree exactly */
    s->pinned[i] = (float)((i * 2654435761u) % 17) - 8.0f;
  s->pinned[s->n / 3 * 2] = -9.0f;
  /* Offsets: segments of 1 to 2000 elements, a fixed pattern, up to n (counted, then made). */
  for (int pass = 0; pass < 2; pass++) {
    uint64_t at = 0;
    size_t k = 0;
    for (; at < s->n; k++) {
      if (pass)
        s->offsets[k] = at;
      at += 1 + (k * 2654435761u) % 2000;
      at = at < s->n ? at : s->n;
    }
    if (pass)
      s->offsets[k] = at;
    s->segments = k;
    if (!pass && !(s->offsets = malloc((k + 1) * sizeof *s->offsets)))
      return OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  }
  for (int on = 0; on < 2 && st == OCL_REDUCE_OK; on++)
    st =
        ocl_reduce_host_alloc(s->one, s->segments * sizeof(float), (void **)&s->pinned_results[on]);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_group_buffer_create(s->group, sizeof(float), s->n, 1, &s->group_in);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_write(s->group_in, 0, s->pinned, bytes);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_create(s->one, bytes, &s->one_in);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_write(s->one_in, 0, s->pinned, bytes);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_group_buffer_create_window_results(s->group_in, WINDOW, sizeof(float),
                                                       &s->group_windows);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_create(s->one, (s->n - WINDOW + 1) * sizeof(float), &s->one_windows);
  return st;
}

static void release(setup *s) {
  ocl_reduce_buffer_destroy(s->group_in);
  ocl_reduce_buffer_destroy(s->one_in);
  ocl_reduce_buffer_destroy(s->group_windows);
  ocl_reduce_buffer_destroy(s->one_windows);
  for (int on = 0; on < 2; on++)
    ocl_reduce_host_free(s->one, s->pinned_results[on]);
  ocl_reduce_host_free(s->one, s->pinned);
  free(s->offsets);
  ocl_reduce_group_destroy(s->group);
}

int main(int argc, char **argv) {
  const char *devices = NULL, *forms = "sum,multi,argmin,mean_var,partial,windows,offsets";
  unsigned long long n = 1ull << 28;
  int reps = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--devices"))
      devices = argv[i + 1];
    else if (!strcmp(argv[i], "--n"))
      n = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--forms"))
      forms = argv[i + 1];
  }
  if (!devices || reps < 1 || reps > 10000 || n < 2 * WINDOW) {
    fprintf(stderr,
            "usage: bench_group_forms --devices LIST [--n COUNT >= %d] [--reps 1..10000] "
            "[--forms sum,multi,argmin,mean_var,partial,windows,offsets]\n",
            2 * WINDOW);
    return 2;
  }
  setup s;
  memset(&s, 0, sizeof s);
  s.n = (size_t)n;
  ocl_reduce_status st = ocl_reduce_group_create(NULL, devices, &s.group);
  if (st == OCL_REDUCE_OK) {
    s.one = ocl_reduce_group_context(s.group, 0);
    st = prepare(&s);
  }
  if (st != OCL_REDUCE_OK) {
    fprintf(stderr, "bench_group_forms: %s: %s\n", ocl_reduce_status_name(st),
            ocl_reduce_last_error(s.one));
    release(&s);
    return 1;
  }
  printf("group [%s] against device 0 alone; n = %zu f32, %zu offsets segments, window %d, "
         "medians of %d calls (us)\n\n| form | one device | group | ratio | slowest part alone | "
         "group - that |\n|---|---|---|---|---|---|\n",
         devices, s.n, s.segments, WINDOW, reps);
  int ok = 1;
  for (int form = 0; form < FORMS; form++) {
    char list[256];
    snprintf(list, sizeof list, ",%s,", forms);
    char name[32];
    snprintf(name, sizeof name, ",%s,", form_names[form]);
    if (strstr(list, name))
      ok &= measure(&s, form, reps);
  }
  release(&s);
  return ok ? 0 : 1;
}
