/* =================================================================================================
 * bench_app_queue.c: the benchmark seen from an application that already uses OpenCL: its own
 * cl_context and in-order queues (one plain for the end-to-end time, one with profiling for the
 * device time, on the same context so the GPU never switches contexts between them) and its own
 * cl_mem holding the input. Two contenders run there: ocl_reduce created on those queues with the
 * cl_mem wrapped ("app/<path>" in --paths, bench_contenders.c), and the baseline it must beat, the
 * plain two-kernel reduction an application would write itself (--opencl-baseline): every
 * work-group folds a grid-stride share of the input in local memory into one partial, one
 * work-group folds the partials, and a blocking read brings the result to host memory.
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tool_common.h"

struct bench_app {
  int references;
  cl_context context;
  cl_device_id device;
  cl_command_queue queues[2]; /* plain, profiled */
};

static bench_app the_app; /* one per process: every app contender shares its queues */

void bench_app_close(bench_app *app) {
  if (!app || --app->references > 0)
    return;
  for (int q = 0; q < 2; q++)
    if (app->queues[q])
      clReleaseCommandQueue(app->queues[q]);
  if (app->context)
    clReleaseContext(app->context);
  memset(app, 0, sizeof *app);
}

/* The device ocl_reduce would pick on the OpenCL backend (OCL_REDUCE_DEVICE), its cl_context,
 * and two queues of the application's own on it. */
bench_app *bench_app_open(char *why, size_t why_size) {
  bench_app *app = &the_app;
  if (app->references++ > 0)
    return app;
  ocl_reduce_context *probe = NULL;
  ocl_reduce_context_info info;
  const ocl_reduce_status st = tool_opencl_context(&probe, &info);
  if (st != OCL_REDUCE_OK) {
    snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(NULL));
    bench_app_close(app);
    return NULL;
  }
  app->context = info.native_context;
  app->device = info.native_device;
  clRetainContext(app->context);
  ocl_reduce_context_destroy(probe);
  for (int q = 0; q < 2; q++) {
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                         q ? CL_QUEUE_PROFILING_ENABLE : 0, 0};
    cl_int code = CL_SUCCESS;
    app->queues[q] = clCreateCommandQueueWithProperties(app->context, app->device, props, &code);
    if (code != CL_SUCCESS) {
      app->queues[q] = NULL;
      snprintf(why, why_size, "clCreateCommandQueueWithProperties: %d", (int)code);
      bench_app_close(app);
      return NULL;
    }
  }
  return app;
}

void *bench_app_queue(const bench_app *app, int profiled) { return app->queues[profiled != 0]; }

/* The application's cl_mem with the input, wrapped into ctx (which then holds the only
 * reference). */
int bench_app_input(bench_app *app, ocl_reduce_context *ctx, const void *host, size_t bytes,
                    ocl_reduce_buffer **out, char *why, size_t why_size) {
  cl_int code = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(app->context, CL_MEM_READ_WRITE, bytes, NULL, &code);
  if (code == CL_SUCCESS)
    code = clEnqueueWriteBuffer(app->queues[0], mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
  if (code != CL_SUCCESS) {
    snprintf(why, why_size, "clCreateBuffer/clEnqueueWriteBuffer (%zu bytes): %d", bytes,
             (int)code);
    if (mem)
      clReleaseMemObject(mem);
    return 0;
  }
  const ocl_reduce_status st = ocl_reduce_buffer_wrap_opencl(ctx, mem, out);
  clReleaseMemObject(mem);
  if (st != OCL_REDUCE_OK)
    snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(ctx));
  return st == OCL_REDUCE_OK;
}

/* ---- The plain two-kernel reduction ----------------------------------------------------------
 */

static const char baseline_source[] =
    "#ifdef BASELINE_FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#endif\n"
    "#if OP_ID == 0\n"
    "#define OP(a, b) ((a) + (b))\n"
    "#elif OP_ID == 1 && IS_FLOAT\n"
    "#define OP(a, b) fmin(a, b)\n"
    "#elif OP_ID == 1\n"
    "#define OP(a, b) min(a, b)\n"
    "#elif IS_FLOAT\n"
    "#define OP(a, b) fmax(a, b)\n"
    "#else\n"
    "#define OP(a, b) max(a, b)\n"
    "#endif\n"
    "__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1)))\n"
    "void fold(__global const T *in, ulong n, __global T *out) {\n"
    "  __local T scratch[LOCAL];\n"
    "  T acc = IDENTITY;\n"
    "  for (ulong i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    acc = OP(acc, in[i]);\n"
    "  const uint lid = get_local_id(0);\n"
    "  scratch[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = LOCAL / 2; s > 0; s /= 2) {\n"
    "    if (lid < s)\n"
    "      scratch[lid] = OP(scratch[lid], scratch[lid + s]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0)\n"
    "    out[get_group_id(0)] = scratch[0];\n"
    "}\n";

typedef struct baseline_state {
  bench_app *app;
  cl_program program;
  cl_kernel kernel;
  cl_mem input, partials, result;
  size_t local, groups, result_bytes;
} baseline_state;

static void baseline_unprepare(contender *c) {
  baseline_state *s = c->state;
  cl_mem mems[] = {s->input, s->partials, s->result};
  for (int i = 0; i < 3; i++)
    if (mems[i])
      clReleaseMemObject(mems[i]);
  if (s->kernel)
    clReleaseKernel(s->kernel);
  if (s->program)
    clReleaseProgram(s->program);
  s->input = s->partials = s->result = NULL;
  s->kernel = NULL;
  s->program = NULL;
}

/* The build options for the case's type and operator; 0 when the baseline lacks the operator. */
static int baseline_options(const bench_case *bc, size_t local, char *options, size_t size) {
  static const char *const types[] = {"int", "uint", "long", "ulong", "float", "double"};
  static const char *const lowest[] = {"INT_MIN", "0", "LONG_MIN", "0", "-INFINITY", "-INFINITY"};
  static const char *const highest[] = {"INT_MAX", "UINT_MAX", "LONG_MAX", "ULONG_MAX",
                                        "INFINITY", "INFINITY"};
  const int t = (int)bc->type, is_float = bc->type == OCL_REDUCE_F32 || bc->type == OCL_REDUCE_F64;
  const char *identity = NULL;
  int op = 0;
  if (t < 0 || t > 5)
    return 0;
  if (bc->op == OCL_REDUCE_SUM) {
    identity = "0";
  } else if (bc->op == OCL_REDUCE_MIN) {
    identity = highest[t];
    op = 1;
  } else if (bc->op == OCL_REDUCE_MAX) {
    identity = lowest[t];
    op = 2;
  } else {
    return 0;
  }
  /* Plain -D name=value only: PoCL rejects quoted options (CL_INVALID_BUILD_OPTIONS). */
  snprintf(options, size, "-DT=%s -DIDENTITY=%s -DOP_ID=%d -DIS_FLOAT=%d -DLOCAL=%zu%s", types[t],
           identity, op, is_float, local, bc->type == OCL_REDUCE_F64 ? " -DBASELINE_FP64" : "");
  return 1;
}

static int baseline_prepare(contender *c, const bench_case *bc, char *why, size_t why_size) {
  baseline_state *s = c->state;
  char options[256];
  if (bc->segment_length || !baseline_options(bc, s->local, options, sizeof options)) {
    snprintf(why, why_size, "the baseline reduces whole arrays with sum, min and max");
    return 0;
  }
  cl_uint units = 1;
  clGetDeviceInfo(s->app->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  const size_t size = ocl_reduce_type_size(bc->type), bytes = bc->n * size;
  s->groups = (bc->n + s->local - 1) / s->local;
  if (s->groups > (size_t)units * 8) /* enough to fill the device, few partials to fold */
    s->groups = (size_t)units * 8;
  s->result_bytes = size;
  const char *text = baseline_source;
  cl_int code = CL_SUCCESS;
  s->program = clCreateProgramWithSource(s->app->context, 1, &text, NULL, &code);
  if (code == CL_SUCCESS)
    code = clBuildProgram(s->program, 1, &s->app->device, options, NULL, NULL);
  if (code == CL_SUCCESS)
    s->kernel = clCreateKernel(s->program, "fold", &code);
  if (code == CL_SUCCESS)
    s->input = clCreateBuffer(s->app->context, CL_MEM_READ_ONLY, bytes, NULL, &code);
  if (code == CL_SUCCESS)
    s->partials = clCreateBuffer(s->app->context, CL_MEM_READ_WRITE, s->groups * size, NULL, &code);
  if (code == CL_SUCCESS)
    s->result = clCreateBuffer(s->app->context, CL_MEM_READ_WRITE, size, NULL, &code);
  if (code == CL_SUCCESS)
    code = clEnqueueWriteBuffer(s->app->queues[0], s->input, CL_TRUE, 0, bytes, bc->host, 0, NULL,
                                NULL);
  if (code != CL_SUCCESS) {
    snprintf(why, why_size, "OpenCL error %d preparing the baseline (%s)", (int)code, options);
    baseline_unprepare(c);
    return 0;
  }
  return 1;
}

/* One launch of `fold`: `groups` work-groups fold the n elements of `in` into out[0, groups). */
static cl_int baseline_launch(baseline_state *s, cl_command_queue queue, cl_mem in, cl_ulong n,
                              cl_mem out, size_t groups, cl_event *event) {
  const size_t global = groups * s->local;
  cl_int code = clSetKernelArg(s->kernel, 0, sizeof(cl_mem), &in);
  if (code == CL_SUCCESS)
    code = clSetKernelArg(s->kernel, 1, sizeof n, &n);
  if (code == CL_SUCCESS)
    code = clSetKernelArg(s->kernel, 2, sizeof(cl_mem), &out);
  if (code == CL_SUCCESS)
    code = clEnqueueNDRangeKernel(queue, s->kernel, 1, NULL, &global, &s->local, 0, NULL, event);
  return code;
}

/* The two launches and the read on one queue; with `events`, the first launch's and the second's
 * events are returned (the caller releases them). */
static cl_int baseline_call(baseline_state *s, const bench_case *bc, cl_command_queue queue,
                            void *result, cl_event *events) {
  cl_int code = baseline_launch(s, queue, s->input, bc->n, s->partials, s->groups,
                                events ? &events[0] : NULL);
  if (code == CL_SUCCESS)
    code = baseline_launch(s, queue, s->partials, s->groups, s->result, 1,
                           events ? &events[1] : NULL);
  if (code == CL_SUCCESS)
    code = clEnqueueReadBuffer(queue, s->result, CL_TRUE, 0, s->result_bytes, result, 0, NULL,
                               NULL);
  return code;
}

static int baseline_run(contender *c, const bench_case *bc, bench_sample *sample, void *result) {
  baseline_state *s = c->state;
  const double t0 = tool_now();
  const cl_int code = baseline_call(s, bc, s->app->queues[0], result, NULL);
  sample->end_to_end_s = tool_now() - t0;
  sample->device_s = 0; /* baseline_run_device's */
  if (code != CL_SUCCESS)
    fprintf(stderr, "ocl-reduce: %s: OpenCL error %d\n", c->name, (int)code);
  return code == CL_SUCCESS;
}

/* From the first kernel's start to the second's end, on the profiling queue. */
static int baseline_run_device(contender *c, const bench_case *bc, double *device_s,
                               void *result) {
  baseline_state *s = c->state;
  cl_event events[2] = {NULL, NULL};
  cl_int code = baseline_call(s, bc, s->app->queues[1], result, events);
  cl_ulong start = 0, end = 0;
  if (code == CL_SUCCESS)
    code = clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_START, sizeof start, &start,
                                   NULL);
  if (code == CL_SUCCESS)
    code = clGetEventProfilingInfo(events[1], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  for (int i = 0; i < 2; i++)
    if (events[i])
      clReleaseEvent(events[i]);
  if (code != CL_SUCCESS) {
    fprintf(stderr, "ocl-reduce: %s: OpenCL error %d\n", c->name, (int)code);
    return 0;
  }
  *device_s = 1e-9 * (double)(end - start);
  return 1;
}

static void baseline_destroy(contender *c) {
  baseline_state *s = c->state;
  if (!s)
    return;
  baseline_unprepare(c);
  bench_app_close(s->app);
  free(s);
  c->state = NULL;
}

static const contender_ops baseline_ops = {baseline_prepare,   baseline_run,
                                           baseline_unprepare, baseline_destroy,
                                           baseline_run_device, NULL /* rest */};

int contender_opencl_baseline(contender *c, char *why, size_t why_size) {
  memset(c, 0, sizeof *c);
  baseline_state *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_size, "out of host memory");
    return 0;
  }
  if (!(s->app = bench_app_open(why, why_size))) {
    free(s);
    return 0;
  }
  size_t max_local = 256;
  clGetDeviceInfo(s->app->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_local, &max_local,
                  NULL);
  for (s->local = 256; s->local > max_local;)
    s->local /= 2;
  c->ops = &baseline_ops;
  c->state = s;
  snprintf(c->name, sizeof c->name, "plain OpenCL: 2 kernels + read (app's queue)");
  return 1;
}
