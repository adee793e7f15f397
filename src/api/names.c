/* =================================================================================================
 * names.c: the public names of statuses (base/errors.c), types (base/ids.c) and
 * ocl_reduce_last_error; operators' names and result sizes are operator.c's.
 * ============================================================================================== */
#include "base/errors.h"
#include "base/ids.h"

const char *ocl_reduce_status_name(ocl_reduce_status status) { return orx_status_name(status); }

const char *ocl_reduce_status_string(ocl_reduce_status status) { return orx_status_text(status); }

const char *ocl_reduce_last_error(const ocl_reduce_context *ctx) { return orx_error_text(ctx); }

size_t ocl_reduce_type_size(ocl_reduce_type type) { return orx_type_size(type); }

const char *ocl_reduce_type_name(ocl_reduce_type type) { return orx_type_name(type); }
