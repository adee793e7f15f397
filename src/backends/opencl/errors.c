/* =================================================================================================
 * errors.c: OpenCL error codes by name, and failed OpenCL calls as statuses (opencl.h).
 * ============================================================================================== */
#include "backends/opencl/opencl.h"

const char *orx_cl_error_name(cl_int code) {
  switch (code) {
#define ORX_CL_ERROR(name)                                                                         \
  case name:                                                                                       \
    return #name;
    ORX_CL_ERROR(CL_DEVICE_NOT_FOUND)
    ORX_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    ORX_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    ORX_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    ORX_CL_ERROR(CL_OUT_OF_RESOURCES)
    ORX_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    ORX_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    ORX_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    ORX_CL_ERROR(CL_INVALID_VALUE)
    ORX_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    ORX_CL_ERROR(CL_INVALID_PLATFORM)
    ORX_CL_ERROR(CL_INVALID_DEVICE)
    ORX_CL_ERROR(CL_INVALID_CONTEXT)
    ORX_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    ORX_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    ORX_CL_ERROR(CL_INVALID_MEM_OBJECT)
    ORX_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    ORX_CL_ERROR(CL_INVALID_PROGRAM)
    ORX_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    ORX_CL_ERROR(CL_INVALID_KERNEL_NAME)
    ORX_CL_ERROR(CL_INVALID_KERNEL)
    ORX_CL_ERROR(CL_INVALID_ARG_INDEX)
    ORX_CL_ERROR(CL_INVALID_ARG_VALUE)
    ORX_CL_ERROR(CL_INVALID_ARG_SIZE)
    ORX_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    ORX_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    ORX_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    ORX_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    ORX_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    ORX_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    ORX_CL_ERROR(CL_INVALID_EVENT)
    ORX_CL_ERROR(CL_INVALID_OPERATION)
    ORX_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    ORX_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    ORX_CL_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
#undef ORX_CL_ERROR
  default:
    return "unknown OpenCL error";
  }
}

/* Records a failed OpenCL call and maps its code to a status. */
ocl_reduce_status orx_cl_fail(ocl_reduce_context *ctx, const char *call, cl_int code) {
  ocl_reduce_status status = OCL_REDUCE_ERROR_BACKEND;
  if (code == CL_OUT_OF_HOST_MEMORY)
    status = OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  else if (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_INVALID_BUFFER_SIZE)
    status = OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY;
  return orx_fail(ctx, status, "%s returned %s (%d)", call, orx_cl_error_name(code), (int)code);
}
