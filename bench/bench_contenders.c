/* =================================================================================================
 * bench_contenders.c: the contenders that run on the host's OpenCL implementations and CPU:
 * ocl_reduce itself on one path, and the OpenMP loop (see bench.h).
 *
 * ocl_reduce keeps two contexts on the same device: one plain, timed from call to result in host
 * memory, and one with profiling events, which give the kernel's device time. They are separate
 * because on some implementations (PoCL) profiling itself slows the call down.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "omp_baseline.h"
#include "tool_common.h"

/* ---- ocl_reduce ---------------------------------------------------------------------------- */

typedef struct ocl_state {
  ocl_reduce_context *plain, *profiled;
  ocl_reduce_buffer *plain_buf, *profiled_buf;
  ocl_reduce_buffer *profiled_results; /* segmented cases on GPUs: results stay on the device */
  int cpu_device;       /* segmented device time into host memory, as end to end (below) */
  int as_user_operator; /* "+op": the case's operator as a user operator */
  ocl_reduce_operator *user_op; /* the case as a user operator, for both contexts */
  bench_app *app; /* "app/": contexts on the application's queues, the input in its cl_mem */
  int from_host;  /* "host/": the input from host memory (the case's array), not a buffer */
} ocl_state;

/* The case's operator written as a user operator would write it, for the cost of the
 * operators-as-data machinery against the built-in operator in the same run (the same results:
 * the input is small integers). Scalar sum, prod, min and max. */
static ocl_reduce_status user_operator_of(const bench_case *bc, ocl_reduce_operator **out) {
  static const char *const cl_types[] = {"int", "uint", "long", "ulong", "float", "double"};
  static const struct {
    ocl_reduce_op op;
    const char *identity, *combine;
  } ops[] = {{OCL_REDUCE_SUM, "0", "a + b"},
             {OCL_REDUCE_PROD, "1", "a * b"},
             {OCL_REDUCE_MIN, "INFINITY", "a < b ? a : b"},
             {OCL_REDUCE_MAX, "-INFINITY", "a > b ? a : b"}};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    if (ops[k].op != bc->op || (unsigned)bc->type >= 6 ||
        (!strchr("fd", cl_types[bc->type][0]) && bench_op_index(bc->op) >= B_MIN))
      continue;
    char source[512];
    snprintf(source, sizeof source,
             "typedef %s bench_t;\n"
             "bench_t bench_identity(void) { return %s; }\n"
             "bench_t bench_map(bench_t x, ulong index) { return x; }\n"
             "bench_t bench_combine(bench_t a, bench_t b) { return %s; }\n",
             cl_types[bc->type], ops[k].identity, ops[k].combine);
    const size_t size = ocl_reduce_type_size(bc->type);
    ocl_reduce_operator_desc desc = OCL_REDUCE_OPERATOR_DESC_INIT;
    desc.source = source;
    desc.element_type = desc.state_type = cl_types[bc->type];
    desc.identity = "bench_identity";
    desc.map = "bench_map";
    desc.combine = "bench_combine";
    desc.element_size = desc.state_size = size;
    desc.commutative = 1;
    return ocl_reduce_operator_create(&desc, out);
  }
  return OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION;
}

/* "subgroup:ptx" -> path and implementation. */
static int parse_path(const char *text, ocl_reduce_options *opts) {
  static const struct {
    const char *name;
    ocl_reduce_path path;
    ocl_reduce_subgroup_impl impl;
  } known[] = {
      {"auto", OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO},
      {"local", OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_AUTO},
      {"subgroup", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_AUTO},
      {"subgroup:khr", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR},
      {"subgroup:intel", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL},
      {"subgroup:ptx", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_NV_PTX},
      {"subgroup:builtin", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN},
      {"subgroup:cuda", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_CUDA},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(text, known[i].name) == 0) {
      opts->path = known[i].path;
      opts->subgroup_impl = known[i].impl;
      return 1;
    }
  return 0;
}

static void ocl_unprepare(contender *c) {
  ocl_state *s = c->state;
  ocl_reduce_buffer_destroy(s->plain_buf);
  ocl_reduce_buffer_destroy(s->profiled_buf);
  ocl_reduce_buffer_destroy(s->profiled_results);
  s->plain_buf = s->profiled_buf = s->profiled_results = NULL;
  ocl_reduce_operator_destroy(s->user_op);
  s->user_op = NULL;
}

static int ocl_prepare(contender *c, const bench_case *bc, char *why, size_t why_size) {
  ocl_state *s = c->state;
  const size_t bytes = bc->n * ocl_reduce_type_size(bc->type);
  if (s->app &&
      (!bench_app_input(s->app, s->plain, bc->host, bytes, &s->plain_buf, why, why_size) ||
       !bench_app_input(s->app, s->profiled, bc->host, bytes, &s->profiled_buf, why, why_size))) {
    ocl_unprepare(c);
    return 0;
  }
  ocl_reduce_status st = OCL_REDUCE_OK;
  /* "host/" reads the case's host array: no input buffers to fill. */
  if (!s->app && !s->from_host) {
    st = ocl_reduce_buffer_create(s->plain, bytes, &s->plain_buf);
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_buffer_write( s->plain_buf, 0, bc->host, bytes);
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_buffer_create(s->profiled, bytes, &s->profiled_buf);
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_buffer_write( s->profiled_buf, 0, bc->host, bytes);
  }
  if (st == OCL_REDUCE_OK && bc->segment_length && !s->cpu_device)
    st = ocl_reduce_buffer_create(s->profiled,
                                  bc->segment_count * ocl_reduce_result_size(bc->op, bc->type),
                                  &s->profiled_results);
  if (st == OCL_REDUCE_OK && s->as_user_operator)
    st = user_operator_of(bc, &s->user_op);
  if (st != OCL_REDUCE_OK) {
    snprintf(why, why_size, "%s", ocl_reduce_status_name(st));
    ocl_unprepare(c);
    return 0;
  }
  return 1;
}

/* One call on a context: a whole-array case into *result, a segmented one into `results`; with
 * the case's user operator when `user` is set; from the buffer, or from the case's host array. */
static ocl_reduce_status ocl_call(ocl_reduce_context *ctx, const bench_case *bc,
                                  const ocl_reduce_operator *user, ocl_reduce_buffer *buffer,
                                  int from_host, ocl_reduce_output results) {
  const ocl_reduce_op op = user ? user : bc->op;
  const ocl_reduce_type type = user ? OCL_REDUCE_OP_ELEMENT : bc->type;
  const ocl_reduce_input in =
      from_host ? ocl_reduce_host_input(bc->host, bc->n * ocl_reduce_type_size(bc->type))
                : ocl_reduce_buffer_input(buffer, 0);
  if (!bc->segment_length)
    return ocl_reduce_into(ctx, op, type, in, bc->n, results);
  return ocl_reduce_segments(ctx, op, type, in, bc->segment_count, bc->segment_length, results);
}

/* The bytes of the case's results in host memory: one per segment, or one. */
static size_t result_bytes(const bench_case *bc) {
  const size_t one = ocl_reduce_result_size(bc->op, bc->type);
  return bc->segment_length ? bc->segment_count * one : one;
}

static int ocl_run(contender *c, const bench_case *bc, bench_sample *sample, void *result) {
  ocl_state *s = c->state;
  double t0 = tool_now();
  ocl_reduce_status st = ocl_call(s->plain, bc, s->user_op, s->plain_buf, s->from_host,
                                  ocl_reduce_host_output(result, result_bytes(bc)));
  sample->end_to_end_s = tool_now() - t0;
  sample->device_s = 0; /* ocl_run_device's */
  if (st != OCL_REDUCE_OK)
    tool_fail(c->name, st, s->plain);
  return st == OCL_REDUCE_OK;
}

/* Device time: whole-array results to host memory (one small read); segment results into a
 * device buffer, but on CPU devices into host memory as the end-to-end call writes them: there
 * the host plan may take that call (planner/plan_host.c), and its timed work is then the call's
 * kernel time, where results into a buffer timed the device's own plan instead (a buffer's
 * segments of 1000 on Intel's runtime: "device" 1850 us, the call 2980, the host plan's work
 * itself about 3000). */
static int ocl_run_device(contender *c, const bench_case *bc, double *device_s, void *result) {
  ocl_state *s = c->state;
  uint64_t ns = 0;
  ocl_reduce_status st =
      ocl_call(s->profiled, bc, s->user_op, s->profiled_buf, s->from_host,
               bc->segment_length && !s->cpu_device
                   ? ocl_reduce_buffer_output(s->profiled_results, 0)
                   : ocl_reduce_host_output(result, result_bytes(bc)));
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_last_kernel_ns(s->profiled, &ns);
  if (st != OCL_REDUCE_OK) {
    tool_fail(c->name, st, s->profiled);
    return 0;
  }
  *device_s = 1e-9 * (double)ns;
  return 1;
}

static void ocl_destroy(contender *c) {
  ocl_state *s = c->state;
  if (!s)
    return;
  ocl_unprepare(c);
  ocl_reduce_context_destroy(s->plain);
  ocl_reduce_context_destroy(s->profiled);
  bench_app_close(s->app);
  free(s);
}

static const contender_ops ocl_ops = {ocl_prepare, ocl_run,        ocl_unprepare,
                                      ocl_destroy, ocl_run_device, NULL /* rest */};

ocl_reduce_status contender_ocl_reduce(contender *c, const char *spec, char *why,
                                       size_t why_size) {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  /* [opencl/|cuda/|app/][host/]path[+op][@policy] */
  char spec_copy[128], *policy = NULL, *as_op = NULL;
  snprintf(spec_copy, sizeof spec_copy, "%s", spec);
  if ((policy = strchr(spec_copy, '@')) != NULL)
    *policy++ = '\0';
  if ((as_op = strstr(spec_copy, "+op")) != NULL && as_op[3] == '\0')
    *as_op = '\0';
  else
    as_op = NULL;
  const char *path = spec_copy;
  if (strncmp(path, "opencl/", 7) == 0) {
    opts.backend = OCL_REDUCE_BACKEND_OPENCL;
    path += 7;
  } else if (strncmp(path, "cuda/", 5) == 0) {
    opts.backend = OCL_REDUCE_BACKEND_CUDA;
    path += 5;
  } else if (strncmp(path, "app/", 4) == 0) {
    opts.backend = OCL_REDUCE_BACKEND_OPENCL;
    path += 4;
  }
  const int from_host = strncmp(path, "host/", 5) == 0;
  if (from_host)
    path += 5;
  if (!parse_path(path, &opts)) {
    snprintf(why, why_size, "unknown path '%s' ([opencl/|cuda/|app/][host/] then auto, local, "
                            "subgroup, subgroup:khr|intel|ptx|builtin|cuda)", spec);
    return OCL_REDUCE_ERROR_INVALID_ARGUMENT;
  }
  ocl_state *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_size, "out of host memory");
    return OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  }
  memset(c, 0, sizeof *c);
  c->ops = &ocl_ops;
  c->state = s;
  /* As a user operator it is measured against the built-in operator, as a competitor is. */
  c->is_ocl_reduce = !as_op;
  s->as_user_operator = as_op != NULL;
  s->from_host = from_host;
  /* Forced policy fields reach the library the way tests and tuning use: OCL_REDUCE_POLICY,
   * read at context creation. */
  const char *old_policy = getenv("OCL_REDUCE_POLICY");
  char saved_policy[256];
  snprintf(saved_policy, sizeof saved_policy, "%s", old_policy ? old_policy : "");
  if (policy)
    setenv("OCL_REDUCE_POLICY", policy, 1);
  ocl_reduce_status st = OCL_REDUCE_OK;
  char app_why[256] = "";
  if (strncmp(spec_copy, "app/", 4) == 0) {
    s->app = bench_app_open(app_why, sizeof app_why);
    st = !s->app ? OCL_REDUCE_ERROR_NO_DEVICE
                 : ocl_reduce_context_create_opencl(&opts, bench_app_queue(s->app, 0), &s->plain);
    opts.profiling = 1;
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_context_create_opencl(&opts, bench_app_queue(s->app, 1), &s->profiled);
    else if (!s->app)
      snprintf(why, why_size, "%s", app_why);
  } else {
    st = ocl_reduce_context_create(&opts, &s->plain);
    opts.profiling = 1;
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_context_create(&opts, &s->profiled);
  }
  if (policy) {
    if (old_policy)
      setenv("OCL_REDUCE_POLICY", saved_policy, 1);
    else
      unsetenv("OCL_REDUCE_POLICY");
  }
  if (st != OCL_REDUCE_OK) {
    if (!app_why[0])
      snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(NULL));
    ocl_destroy(c);
    return st;
  }
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  st = ocl_reduce_context_query(s->plain, &info); /* compiles the f32 sum: its subgroup size */
  if (st != OCL_REDUCE_OK) {
    snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(s->plain));
    ocl_destroy(c);
    return st;
  }
  s->cpu_device = info.device_type == OCL_REDUCE_DEVICE_CPU;
  char path_name[64];
  if (info.path == OCL_REDUCE_PATH_SUBGROUP)
    snprintf(path_name, sizeof path_name, "subgroup/%s", info.subgroup_impl_name);
  else
    snprintf(path_name, sizeof path_name, "local");
  snprintf(c->name, sizeof c->name, "ocl_reduce %s %s%s%s%s%s%s", info.backend_name, path_name,
           as_op ? " user operator" : "", s->app ? " (app's queue)" : "",
           from_host ? " from host memory" : "", policy ? " " : "", policy ? policy : "");
  return OCL_REDUCE_OK;
}

/* ---- OpenMP ----------------------------------------------------------------------------------- */

static int omp_prepare(contender *c, const bench_case *bc, char *why, size_t why_size) {
  (void)c;
  uint64_t ignored[8]; /* one result of any operator */
  if (bc->segment_length ? !omp_reduce_segments(bc->op, bc->type, bc->host, 1, 1, ignored)
                         : !omp_reduce(bc->op, bc->type, bc->host, 1, ignored)) {
    snprintf(why, why_size, "no OpenMP reduction for %s on %s", ocl_reduce_op_name(bc->op),
             ocl_reduce_type_name(bc->type));
    return 0;
  }
  omp_rest();
  return 1;
}

static int omp_run(contender *c, const bench_case *bc, bench_sample *sample, void *result) {
  const void *data = c->state ? bc->host_huge : bc->host;
  double t0 = tool_now();
  if (bc->segment_length)
    omp_reduce_segments(bc->op, bc->type, data, bc->segment_count, bc->segment_length, result);
  else
    omp_reduce(bc->op, bc->type, data, bc->n, result);
  sample->device_s = sample->end_to_end_s = tool_now() - t0;
  return 1;
}

static void omp_nothing(contender *c) { (void)c; }

static void omp_rest_threads(contender *c) {
  (void)c;
  omp_rest();
}

static const contender_ops omp_ops = {omp_prepare, omp_run, omp_nothing,
                                      omp_nothing, NULL,    omp_rest_threads};

void contender_openmp(contender *c, int huge) {
  memset(c, 0, sizeof *c);
  c->ops = &omp_ops;
  c->state = huge ? (void *)1 : NULL; /* which input: a flag, nothing to free */
  snprintf(c->name, sizeof c->name, "OpenMP simd loop (%d threads, %s)%s", omp_threads(),
           omp_instruction_set(), huge ? ", huge pages" : "");
}
