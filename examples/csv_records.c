/* =================================================================================================
 * csv_records.c: counts the records of a CSV file in parallel, quoted fields with commas and line
 * breaks in them included, with an order-preserving reduction.
 *
 * A record ends at a line feed outside quotes, and whether a byte is inside quotes depends on
 * every byte before it, so the file cannot simply be cut into pieces. But a byte is a function
 * from the parser's state before it to the state after it, a table of 4 states here, and tables
 * compose: the table of a whole piece of the file is the composition of its bytes' tables, in
 * order. Composition is associative but not commutative, so ocl_reduce combines the pieces in
 * file order (an operator created with commutative = 0). Each state of the table carries the
 * records that end in the piece when it starts in that state.
 *
 * The file is reduced in 1 MiB chunks, one segment each (ocl_reduce_custom_segments_offsets),
 * which gives the records per chunk: the host walks the chunks from the first state, each
 * chunk's table giving the state the next one starts in.
 *
 * The parser follows Python's csv module with its defaults: fields separated by commas, quoted
 * with '"', a quote in a quoted field doubled, a quote elsewhere in a field taken as it is; a
 * line feed (after a carriage return or not) ends a record, an empty line is an empty record, and
 * a last record needs no line feed.
 *
 * Build: part of the project's CMake build (build/examples/csv_records), or on its own:
 *   cc csv_records.c -locl_reduce
 * Run: build/examples/csv_records FILE [--chunks] [--bench ROUNDS]
 *   prints the record count; --chunks also the records that end in each chunk; --bench times the
 *   device's reduction of the file already in device memory and a single-threaded C loop.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ocl_reduce.h>

/* The parser, once for both sides: CSV_SHARED expands to its code here and to the same code as
 * OpenCL C text for the device (it is written in the subset of C both speak; the preprocessor
 * removes the comments before it makes the text). */
#define CSV_SHARED(...)                                                                            \
  __VA_ARGS__                                                                                      \
  static const char csv_source[] = #__VA_ARGS__;

CSV_SHARED(
    /* 16 bytes of the file: one element. */
    typedef struct __attribute__((aligned(16))) csv_bytes { unsigned int w[4]; } csv_bytes;
    /* What a piece of the file does to each of the 4 states it may start in (0: at the start of
     * a field, 1: in an unquoted field, 2: in a quoted field, 3: after a quote in a quoted
     * field): the state it ends in, 2 bits per start state in `ends`, and the records it ends. */
    typedef struct csv_table {
      unsigned int records[4];
      unsigned int ends;
    } csv_table;

    /* The state after byte x from state s: one 8-bit table (2 bits per state) per class of
     * byte, other (0x65: 0 1 2 3 -> 1 1 2 1), quote (0xb6: -> 2 1 3 2), comma and line feed
     * (0x20: -> 0 0 2 0). */
    static unsigned int csv_next(unsigned int s, unsigned int x) {
      const unsigned int byte_class = x == 0x22u ? 1u : x == 0x2cu ? 2u : x == 0x0au ? 3u : 0u;
      return (0x2020b665u >> (8u * byte_class + 2u * s)) & 3u;
    }
    /* Whether byte x from state s ends a record: a line feed outside quotes. */
    static unsigned int csv_ends_record(unsigned int s, unsigned int x) {
      return x == 0x0au && s != 2u;
    }

    csv_table csv_identity(void) {
      csv_table t = {{0u, 0u, 0u, 0u}, 0xe4u}; /* each state to itself */
      return t;
    }
    /* Byte x applied to the 4 start states at once: `tracks` holds the state each has reached
     * (2 bits per start state), `records` the records each has ended (8 bits per start state,
     * enough for 16 bytes). Shifts only, no arrays: they would live in slow memory on GPUs. */
    static void csv_step(unsigned int x, unsigned int *tracks, unsigned int *records) {
      const unsigned int byte_class = x == 0x22u ? 1u : x == 0x2cu ? 2u : x == 0x0au ? 3u : 0u;
      const unsigned int table = (0x2020b665u >> (8u * byte_class)) & 0xffu;
      unsigned int next = 0u, ended = 0u;
      for (unsigned int k = 0u; k < 4u; k++) {
        const unsigned int s = (*tracks >> (2u * k)) & 3u;
        next |= ((table >> (2u * s)) & 3u) << (2u * k);
        ended |= csv_ends_record(s, x) << (8u * k);
      }
      *tracks = next;
      *records += ended;
    }
    static void csv_word(unsigned int word, unsigned int *tracks, unsigned int *records) {
      for (unsigned int j = 0u; j < 4u; j++)
        csv_step((word >> (8u * j)) & 0xffu, tracks, records);
    }
    /* The table of 16 bytes. */
    csv_table csv_table_of(csv_bytes b, unsigned long index) {
      (void)index;
      unsigned int tracks = 0xe4u, records = 0u;
      csv_word(b.w[0], &tracks, &records);
      csv_word(b.w[1], &tracks, &records);
      csv_word(b.w[2], &tracks, &records);
      csv_word(b.w[3], &tracks, &records);
      csv_table t = {{records & 0xffu, (records >> 8u) & 0xffu, (records >> 16u) & 0xffu,
                      records >> 24u},
                     tracks};
      return t;
    }
    /* `first`, then `second`: the composition of the two pieces. */
    csv_table csv_then(csv_table first, csv_table second) {
      csv_table t;
      t.ends = 0u;
      for (unsigned int start = 0u; start < 4u; start++) {
        const unsigned int middle = (first.ends >> (2u * start)) & 3u;
        t.records[start] = first.records[start] + second.records[middle];
        t.ends |= ((second.ends >> (2u * middle)) & 3u) << (2u * start);
      }
      return t;
    })

#define CHUNK_BYTES ((size_t)1 << 20)

static int failed(const char *what, ocl_reduce_status s, const ocl_reduce_context *ctx) {
  fprintf(stderr, "csv_records: %s: %s (%s)\n", what, ocl_reduce_status_name(s),
          ctx ? ocl_reduce_last_error(ctx) : "");
  return 1;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The single-threaded count, one byte after another (also the reference for the tail). */
static unsigned long long count_sequential(const unsigned char *p, size_t n, unsigned int *state) {
  unsigned long long records = 0;
  unsigned int s = *state;
  for (size_t i = 0; i < n; i++) {
    records += csv_ends_record(s, p[i]);
    s = csv_next(s, p[i]);
  }
  *state = s;
  return records;
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t capacity = 1 << 20, n = 0;
  unsigned char *data = malloc(capacity);
  for (size_t got; data && (got = fread(data + n, 1, capacity - n, f)) > 0;) {
    n += got;
    if (n == capacity) {
      unsigned char *grown = realloc(data, capacity *= 2);
      if (!grown)
        free(data);
      data = grown;
    }
  }
  if (ferror(f)) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = n;
  return data;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int chunks = 0, rounds = 0, usage = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--chunks") == 0)
      chunks = 1;
    else if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      rounds = atoi(argv[++i]);
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else
      usage = 1;
  }
  if (!path || usage) {
    fprintf(stderr, "usage: csv_records FILE [--chunks] [--bench ROUNDS]\n");
    return 2;
  }
  size_t size = 0;
  unsigned char *file = read_file(path, &size);
  if (!file) {
    fprintf(stderr, "csv_records: cannot read %s\n", path);
    return 1;
  }
  /* Whole 16-byte elements go to the device, a last partial one is the host's. */
  const size_t elements = size / sizeof(csv_bytes), per_chunk = CHUNK_BYTES / sizeof(csv_bytes);
  const size_t chunk_count = (elements + per_chunk - 1) / per_chunk;
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = rounds > 0;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK)
    return failed("context", s, NULL);
  ocl_reduce_operator_desc desc = OCL_REDUCE_OPERATOR_DESC_INIT;
  desc.name = "csv_records";
  desc.source = csv_source;
  desc.element_type = "csv_bytes";
  desc.state_type = "csv_table";
  desc.identity = "csv_identity";
  desc.map = "csv_table_of";
  desc.combine = "csv_then";
  desc.element_size = sizeof(csv_bytes);
  desc.state_size = sizeof(csv_table);
  desc.commutative = 0; /* order-preserving */
  ocl_reduce_operator *op = NULL;
  s = ocl_reduce_operator_create(&desc, &op);
  if (s != OCL_REDUCE_OK)
    return failed("operator", s, ctx);

  /* The file and the chunks' offsets in device memory, one table per chunk back. */
  uint64_t *offsets = malloc((chunk_count + 1) * sizeof *offsets);
  csv_table *tables = malloc((chunk_count ? chunk_count : 1) * sizeof *tables);
  ocl_reduce_buffer *in = NULL, *offsets_buffer = NULL;
  if (!offsets || !tables)
    return failed("out of host memory", OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, NULL);
  for (size_t c = 0; c <= chunk_count; c++)
    offsets[c] = c < chunk_count ? c * per_chunk : elements;
  s = ocl_reduce_buffer_create(ctx, elements ? elements * sizeof(csv_bytes) : 1, &in);
  if (s == OCL_REDUCE_OK && elements)
    s = ocl_reduce_buffer_write(in, 0, file, elements * sizeof(csv_bytes));
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, (chunk_count + 1) * sizeof *offsets, &offsets_buffer);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(offsets_buffer, 0, offsets, (chunk_count + 1) * sizeof *offsets);
  double *times = rounds ? malloc((size_t)rounds * sizeof *times) : NULL;
  for (int r = -1; r < rounds && s == OCL_REDUCE_OK; r++) { /* one untimed call first */
    uint64_t ns = 0;
    if (chunk_count)
      s = ocl_reduce_segments_offsets(ctx, op, OCL_REDUCE_OP_ELEMENT,
                                      ocl_reduce_buffer_input(in, 0), chunk_count,
                                      ocl_reduce_buffer_input(offsets_buffer, 0),
                                      ocl_reduce_host_output(tables, chunk_count * sizeof *tables));
    if (s == OCL_REDUCE_OK && r >= 0 && chunk_count)
      s = ocl_reduce_last_kernel_ns(ctx, &ns);
    if (r >= 0)
      times[r] = 1e-9 * (double)ns;
  }
  if (s != OCL_REDUCE_OK)
    return failed("reduce", s, ctx);

  /* Walk the chunks from the first state; the partial element at the end on the host. */
  unsigned long long records = 0;
  unsigned int state = 0;
  for (size_t c = 0; c < chunk_count; c++) {
    if (chunks)
      printf("chunk %zu: %u records end in it\n", c, tables[c].records[state]);
    records += tables[c].records[state];
    state = (tables[c].ends >> (2 * state)) & 3;
  }
  const size_t tail = elements * sizeof(csv_bytes);
  records += count_sequential(file + tail, size - tail, &state);
  if (size > 0 && file[size - 1] != '\n')
    records++; /* the last record has no line feed */
  printf("records %llu\n", records);

  if (rounds) {
    /* The same count by one thread, for the ratio. */
    double best = 1e30;
    unsigned long long check = 0;
    for (int r = 0; r < 3; r++) {
      unsigned int s0 = 0;
      const double t0 = now();
      check = count_sequential(file, size, &s0) + (size > 0 && file[size - 1] != '\n');
      const double t = now() - t0;
      best = t < best ? t : best;
    }
    qsort(times, (size_t)rounds, sizeof *times, compare_doubles);
    const double device = times[rounds / 2];
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(ctx, &info);
    printf("device %s (%s): %.1f GB/s (%.3f ms, median of %d); one C thread: %.2f GB/s (%.3f "
           "ms, %s); ratio %.1f\n",
           info.device_name, info.backend_name, 1e-9 * (double)size / device, 1e3 * device,
           rounds, 1e-9 * (double)size / best, 1e3 * best,
           check == records ? "same count" : "DIFFERENT COUNT", best / device);
    if (check != records)
      return 1;
  }
  free(times);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(offsets_buffer);
  ocl_reduce_operator_destroy(op);
  ocl_reduce_context_destroy(ctx);
  free(offsets);
  free(tables);
  free(file);
  return 0;
}
