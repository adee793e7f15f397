/* =================================================================================================
 * programs.c: the OpenCL backend's programs: built from source or from a device binary (the disk
 * cache's), their build logs and subgroup sizes, and their binaries.
 * ============================================================================================== */
#include <stdlib.h>

#include "backends/opencl/opencl.h"

void orx_cl_release_program(orx_program *program) {
  if (!program)
    return;
  if (program->kernel)
    clReleaseKernel(program->kernel);
  if (program->program)
    clReleaseProgram(program->program);
  free(program);
}

void orx_cl_program_native(orx_program *program, void **native_program,
                           void **native_kernel) {
  *native_program = program->program;
  *native_kernel = program->kernel;
}

/* The build log (warnings or errors), or NULL when there is none. Free with free(). */
static char *build_log(orx_backend *be, cl_program program) {
  size_t bytes = 0;
  if (clGetProgramBuildInfo(program, be->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &bytes) !=
          CL_SUCCESS ||
      bytes <= 1)
    return NULL;
  char *log = orx_calloc(bytes + 1, 1);
  if (log &&
      clGetProgramBuildInfo(program, be->device, CL_PROGRAM_BUILD_LOG, bytes, log, NULL) !=
          CL_SUCCESS) {
    free(log);
    return NULL;
  }
  return log;
}

static unsigned kernel_subgroup_size(orx_backend *be, cl_kernel kernel, unsigned wg_size) {
  if (!be->can_query_subgroups)
    return 0;
  size_t local = wg_size, size = 0;
  if (clGetKernelSubGroupInfo(kernel, be->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                              sizeof local, &local, sizeof size, &size, NULL) != CL_SUCCESS)
    return 0;
  return (unsigned)size;
}

/* Builds p->program (from source or from a binary), looks up its kernel and reads the subgroup
 * size; releases p on failure. */
static ocl_reduce_status build_program(ocl_reduce_context *ctx, orx_backend *be, orx_program *p,
                                       const char *options, const char *kernel_name,
                                       unsigned wg_size, orx_program **out,
                                       unsigned *subgroup_size) {
  cl_int code = orx_cl_build_quietly(p->program, be->device, options);
  if (code != CL_SUCCESS) {
    ocl_reduce_status status = orx_fail(
        ctx, code == CL_BUILD_PROGRAM_FAILURE ? OCL_REDUCE_ERROR_BUILD : OCL_REDUCE_ERROR_BACKEND,
        "%s: clBuildProgram returned %s (%d)", orx_call_name(), orx_cl_error_name(code), (int)code);
    char *log = build_log(be, p->program);
    if (log) {
      orx_error_append(ctx, "\nbuild log:\n");
      orx_error_append(ctx, log);
      free(log);
    }
    orx_cl_release_program(p);
    return status;
  }
  if (orx_log_debug()) { /* warnings of a successful build */
    char *log = build_log(be, p->program);
    if (log)
      orx_log("build log of %s:\n%s", kernel_name, log);
    free(log);
  }
  p->kernel = clCreateKernel(p->program, kernel_name, &code);
  if (code != CL_SUCCESS) {
    p->kernel = NULL;
    orx_cl_release_program(p);
    return orx_cl_fail(ctx, "clCreateKernel", code);
  }
  *subgroup_size = kernel_subgroup_size(be, p->kernel, wg_size);
  *out = p;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cl_build(ocl_reduce_context *ctx, orx_backend *be,
                               const orx_source *sources, size_t count, const char *options,
                               const char *kernel_name, unsigned wg_size, orx_program **out,
                               unsigned *subgroup_size) {
  const char *texts[16];
  size_t lengths[16];
  if (count > ORX_ARRAY_SIZE(texts))
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "too many kernel sources (%zu)", count);
  for (size_t i = 0; i < count; i++) {
    texts[i] = sources[i].text;
    lengths[i] = sources[i].length;
  }
  orx_program *p = orx_calloc(1, sizeof *p);
  if (!p)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  cl_int code = CL_SUCCESS;
  p->program = clCreateProgramWithSource(be->context, (cl_uint)count, texts, lengths, &code);
  if (code != CL_SUCCESS) {
    p->program = NULL;
    orx_cl_release_program(p);
    return orx_cl_fail(ctx, "clCreateProgramWithSource", code);
  }
  return build_program(ctx, be, p, options, kernel_name, wg_size, out, subgroup_size);
}

/* A program from the device binary cl_program_binary gave (the disk cache). The implementation
 * checks that it is its own: another device's or a damaged binary is CL_INVALID_BINARY. */
ocl_reduce_status orx_cl_build_binary(ocl_reduce_context *ctx, orx_backend *be,
                                      const void *binary, size_t size, const char *kernel_name,
                                      unsigned wg_size, orx_program **out,
                                      unsigned *subgroup_size) {
  orx_program *p = orx_calloc(1, sizeof *p);
  if (!p)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  const unsigned char *bytes = binary;
  cl_int code = CL_SUCCESS, binary_status = CL_SUCCESS;
  p->program = clCreateProgramWithBinary(be->context, 1, &be->device, &size, &bytes,
                                         &binary_status, &code);
  if (code == CL_SUCCESS && binary_status != CL_SUCCESS)
    code = binary_status;
  if (code != CL_SUCCESS) {
    if (p->program)
      clReleaseProgram(p->program);
    p->program = NULL;
    orx_cl_release_program(p);
    return orx_cl_fail(ctx, "clCreateProgramWithBinary", code);
  }
  /* The binary is compiled already; the options only chose the language it was compiled from. */
  return build_program(ctx, be, p, "", kernel_name, wg_size, out, subgroup_size);
}

ocl_reduce_status orx_cl_program_binary(ocl_reduce_context *ctx, orx_backend *be,
                                        orx_program *p, void **binary, size_t *size) {
  (void)be;
  *binary = NULL;
  *size = 0;
  size_t bytes = 0;
  CL_CHECK(ctx, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)",
           clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, NULL));
  unsigned char *copy = bytes ? orx_malloc(bytes) : NULL;
  if (!copy)
    return bytes ? orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory")
                 : OCL_REDUCE_OK;
  const cl_int code = clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof copy, &copy, NULL);
  if (code != CL_SUCCESS) {
    free(copy);
    return orx_cl_fail(ctx, "clGetProgramInfo(CL_PROGRAM_BINARIES)", code);
  }
  *binary = copy;
  *size = bytes;
  return OCL_REDUCE_OK;
}
