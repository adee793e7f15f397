/* =================================================================================================
 * fuzz_memory.c: where a case's inputs and outputs live (fuzz.h). Host inputs are allocations of
 * exactly their bytes, so that AddressSanitizer sees a read past them; buffers start the data at a
 * random offset. Outputs are filled with a pattern and have guard bytes before and after (a
 * buffer's before its offset), which the call must leave as they were.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "support/native_events.h"

enum { FILL = 0xa5, GUARD_BYTES = 32 };

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    abort();
  return p;
}

void fuzz_input_place(fuzz_run *run, fuzz_input *f, const void *data, size_t bytes, size_t unit,
                      int host_only) {
  memset(f, 0, sizeof *f);
  if (host_only || test_rng_below(2) == 0) {
    void *host = checked_malloc(bytes);
    memcpy(host, data, bytes);
    f->in = ocl_reduce_host_input(host, bytes);
    return;
  }
  const size_t lead = test_rng_below(3) == 0 ? 0 : (size_t)test_rng_below(70);
  const size_t total = lead * unit + bytes + unit; /* a unit after: never an empty buffer */
  if (!fuzz_call_ok(run, ocl_reduce_buffer_create(run->ctx, total, &f->buffer), "buffer_create") ||
      !fuzz_call_ok(run, ocl_reduce_buffer_write(f->buffer, lead * unit, data, bytes),
                    "buffer_write")) {
    /* Counted as failed; the case goes on with host memory. */
    ocl_reduce_buffer_destroy(f->buffer);
    f->buffer = NULL;
    fuzz_input_place(run, f, data, bytes, unit, 1);
    return;
  }
  f->in = ocl_reduce_buffer_input(f->buffer, lead);
}

void fuzz_input_free(fuzz_input *f) {
  ocl_reduce_buffer_destroy(f->buffer);
  if (!f->buffer)
    free((void *)f->in.host);
  memset(f, 0, sizeof *f);
}

void fuzz_output_place(fuzz_run *run, fuzz_output *f, size_t bytes, size_t unit, int host_only) {
  memset(f, 0, sizeof *f);
  f->bytes = bytes;
  if (host_only || test_rng_below(2) == 0) {
    f->lead = GUARD_BYTES;
    f->tail = GUARD_BYTES;
    f->host = checked_malloc(f->lead + bytes + f->tail);
    memset(f->host, FILL, f->lead + bytes + f->tail);
    f->out = ocl_reduce_host_output(f->host + f->lead, bytes);
    return;
  }
  const size_t lead_units = test_rng_below(3) == 0 ? 0 : (size_t)test_rng_below(40);
  f->lead = lead_units * unit;
  f->tail = GUARD_BYTES;
  f->host = checked_malloc(f->lead + bytes + f->tail);
  memset(f->host, FILL, f->lead + bytes + f->tail);
  if (!fuzz_call_ok(run, ocl_reduce_buffer_create(run->ctx, f->lead + bytes + f->tail, &f->buffer),
                    "buffer_create") ||
      !fuzz_call_ok(run, ocl_reduce_buffer_write(f->buffer, 0, f->host, f->lead + bytes + f->tail),
                    "buffer_write")) {
    ocl_reduce_buffer_destroy(f->buffer);
    free(f->host);
    fuzz_output_place(run, f, bytes, unit, 1);
    return;
  }
  f->out = ocl_reduce_buffer_output(f->buffer, lead_units);
}

static int all_fill(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != FILL)
      return 0;
  return 1;
}

/* A call with buffer outputs returns once enqueued. The blocking read waits for it, or first: a
 * finish; the application's own wait on a marker's event; or ocl_reduce_enqueue_wait on that
 * event, which holds the read back behind it (the events are the backend's: released here). */
static int wait_for_the_call(fuzz_run *run) {
  const uint64_t how = test_rng_below(8);
  if (how < 2)
    return fuzz_call_ok(run, ocl_reduce_finish(run->ctx), "ocl_reduce_finish");
  if (how >= 4)
    return 1;
  void *marker = NULL;
  if (!fuzz_call_ok(run, ocl_reduce_enqueue_marker(run->ctx, &marker), "ocl_reduce_enqueue_marker"))
    return 0;
  if (how == 2) {
    if (test_event_wait_and_release(run->ctx, marker))
      return 1;
    fuzz_fail(run, "waiting for the marker's event failed");
    return 0;
  }
  const int ok =
      fuzz_call_ok(run, ocl_reduce_enqueue_wait(run->ctx, &marker, 1), "ocl_reduce_enqueue_wait");
  test_event_release(run->ctx, marker);
  return ok;
}

int fuzz_output_take(fuzz_run *run, fuzz_output *f, void *into, int untouched) {
  const size_t total = f->lead + f->bytes + f->tail;
  if (f->buffer && !wait_for_the_call(run))
    return 0;
  if (f->buffer) {
    if (!fuzz_call_ok(run, ocl_reduce_buffer_read(f->buffer, 0, f->host, total), "buffer_read"))
      return 0;
  }
  if (into)
    memcpy(into, f->host + f->lead, f->bytes);
  if (!all_fill(f->host, f->lead) || !all_fill(f->host + f->lead + f->bytes, f->tail)) {
    fuzz_fail(run, "bytes around the %s output (%zu bytes) were written",
              f->buffer ? "buffer" : "host", f->bytes);
    return 0;
  }
  if (untouched && !all_fill(f->host + f->lead, f->bytes)) {
    fuzz_fail(run, "a refused call wrote its %s output", f->buffer ? "buffer" : "host");
    return 0;
  }
  return 1;
}

void fuzz_output_free(fuzz_output *f) {
  ocl_reduce_buffer_destroy(f->buffer);
  free(f->host);
  memset(f, 0, sizeof *f);
}
