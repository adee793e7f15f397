/* =================================================================================================
 * bench.h: the pieces of `ocl-reduce bench`. A case is one (operator, type, element count); a
 * contender is something that reduces a case (ocl_reduce on a backend and path, an OpenMP loop,
 * CUB) behind a table of functions; the report turns the medians into a table, CSV, JSON and SVG.
 * ============================================================================================== */
#ifndef ORX_BENCH_H
#define ORX_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ocl_reduce.h"

/* The built-in operators' indices, OCL_REDUCE_BUILTIN_OP(i)'s i, for switch statements (operators
 * are pointer values); bench_op_index gives -1 for a user operator. */
enum { B_SUM, B_PROD, B_MIN, B_MAX, B_AND, B_OR, B_XOR, B_ARGMIN, B_ARGMAX, B_MINMAX, B_SUM_WIDE,
       B_SUM_COMPENSATED, B_MEAN_VAR, B_SUM_REPRODUCIBLE };
static inline int bench_op_index(ocl_reduce_op op) {
  for (int i = 0; i < OCL_REDUCE_BUILTIN_OPS; i++)
    if (op == OCL_REDUCE_BUILTIN_OP(i))
      return i;
  return -1;
}

#ifdef __cplusplus
extern "C" {
#endif

/* `ocl-reduce bench` (cmd_bench.c): the tool's dispatch table calls it. */
int cmd_bench(int argc, char **argv);

/* One measured case. The input is the same small integers for every contender (so every order of
 * combining gives the same bits), in malloc'd memory and in memory on huge pages. A segmented
 * case reduces segment_count segments of segment_length elements each (n = their product) into
 * segment_count results; a whole-array case has segment_length 0 and one result. */
typedef struct bench_case {
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t n;
  size_t segment_length, segment_count;
  const void *host;      /* malloc'd */
  const void *host_huge; /* on transparent huge pages where the system grants them */
} bench_case;

/* One timed call: device-resident time (the work on the device, from events where the contender
 * has them) and end-to-end time (the call until the result is in host memory). */
typedef struct bench_sample {
  double device_s;
  double end_to_end_s;
} bench_sample;

typedef struct contender contender;
typedef struct contender_ops {
  /* Readies the case (uploads the input). Returns 1, or 0 with a reason when the contender does
   * not take this case (an operator it lacks, too little memory). */
  int (*prepare)(contender *c, const bench_case *bc, char *why, size_t why_size);
  /* One timed call, writing the case's results (one, or one per segment) to `result`; returns
   * 1, or 0 on failure (reason printed). */
  int (*run)(contender *c, const bench_case *bc, bench_sample *sample, void *result);
  /* Frees what prepare took. */
  void (*unprepare)(contender *c);
  void (*destroy)(contender *c);
  /* Optional: one call timed on the device only, for contenders that time the device in another
   * context than the end-to-end call (ocl_reduce's profiling context). Then `run` gives the
   * end-to-end time and this the device time, and the two are called in separate blocks: on
   * NVIDIA's OpenCL, alternating between two contexts made every call wait about 150 us for the
   * GPU to switch between them. */
  int (*run_device)(contender *c, const bench_case *bc, double *device_s, void *result);
  /* Optional: called after each block of the contender's calls, so that nothing of it keeps
   * running while the others are timed. OpenMP's idle threads spin for milliseconds after a
   * parallel loop: on the H200 machine's 16 cores, perf found them taking most of the CPU while
   * PoCL's work-items ran after them. */
  void (*rest)(contender *c);
} contender_ops;

struct contender {
  const contender_ops *ops;
  char name[128];
  int is_ocl_reduce; /* ours: compared against the others */
  void *state;
};

/* bench_contenders.c: ocl_reduce on a backend and path: "[opencl/|cuda/|app/]auto", "...local",
 * "...subgroup[:impl]", then "+op" to run the case's operator (sum, prod, min, max) as a user
 * operator that spells it (measured against the built-in operator like a competitor), and
 * optionally forced policy fields after '@' ("cuda/auto@seg=mr", see OCL_REDUCE_POLICY). "app/"
 * is the OpenCL backend on the application's own queues with its cl_mem wrapped (bench_app_open).
 * The status of the context's creation, with the reason in `why`.
 */
ocl_reduce_status contender_ocl_reduce(contender *c, const char *spec, char *why,
                                       size_t why_size);
/* bench_app_queue.c: an application's own cl_context and queues on the device ocl_reduce picks
 * on the OpenCL backend, shared by every contender of the process that asks for it (counted
 * references); NULL with a reason when there is no such device. Queue 0 is plain, queue 1 has
 * profiling. bench_app_input puts `bytes` of `host` into a cl_mem of the application's and wraps
 * it into ctx. */
typedef struct bench_app bench_app;
bench_app *bench_app_open(char *why, size_t why_size);
void bench_app_close(bench_app *app);
void *bench_app_queue(const bench_app *app, int profiled);
int bench_app_input(bench_app *app, ocl_reduce_context *ctx, const void *host, size_t bytes,
                    ocl_reduce_buffer **out, char *why, size_t why_size);
/* bench_app_queue.c: the plain two-kernel OpenCL reduction on the application's queues (sum, min
 * and max of whole arrays); 0 with a reason when there is no OpenCL device to run it. */
int contender_opencl_baseline(contender *c, char *why, size_t why_size);
/* bench_group.c: a group of devices (ocl_reduce_group_create's list) reducing the case from a
 * group buffer (from_host 0), from host memory (1), or from page-locked host memory of the first
 * device's context (2: ocl_reduce_host_alloc; CUDA's other devices copy it directly too); 0 with
 * a reason when the group cannot be made. */
int contender_group(contender *c, const char *devices, int from_host, char *why, size_t why_size);
/* bench_contenders.c: the OpenMP loop over malloc'd (huge = 0) or huge-page memory; for
 * segmented cases, the per-segment loop. */
void contender_openmp(contender *c, int huge);
/* cub_contender.cu or cub_stub.c: cub::DeviceReduce, and cub::DeviceSegmentedReduce for
 * segmented cases; 0 with a reason when unavailable. */
int contender_cub(contender *c, char *why, size_t why_size);
/* cub_contender.cu or cub_stub.c: CUDA device 0's copy bandwidth (cudaMemcpy device to device,
 * events), GB/s of bytes read + written; 0 when unavailable. */
double cuda_copy_bandwidth(size_t bytes);

/* cub_contender.cu or cub_stub.c: `calls` back-to-back cub::DeviceReduce::Sum of the same n f32
 * device elements into `calls` outputs on one stream, then one wait: the median of `rounds` in
 * seconds, or negative with a reason (bench_enqueue.c compares it). */
double cub_enqueued_sums(size_t n, int calls, int rounds, char *why, size_t why_size);

/* Device copy bandwidth in GB/s (bytes read + written per second) of the device a context runs
 * on, measured once (bench_copy.c); 0 when it cannot be measured. */
double bench_copy_bandwidth(ocl_reduce_context *ctx);

/* The spread of one contender's timed calls: median, fastest, and the 90th percentile. */
typedef struct bench_spread {
  double median_s, min_s, p90_s;
} bench_spread;

/* bench_report.c */
typedef struct bench_result {
  const bench_case *bc; /* op, type, n only */
  int contender;        /* index */
  bench_spread device, end_to_end;
} bench_result;

typedef struct bench_report {
  const char *device;
  double copy_gbs;
  contender *contenders;
  int contender_count;
  bench_result *results;
  int result_count;
} bench_report;

/* The table goes to stdout; the files are opened by the caller before the benchmark runs (so
 * that a path that cannot be written fails at once), written and closed here: 0 when writing
 * failed. A spread whose 90th percentile is more than BENCH_NOISY times the median is flagged. */
#define BENCH_NOISY 1.25
void report_table(const bench_report *r);
int report_csv(const bench_report *r, FILE *f);
int report_json(const bench_report *r, FILE *f);
int report_svg(const bench_report *r, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* ORX_BENCH_H */
