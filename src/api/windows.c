/* =================================================================================================
 * windows.c: ocl_reduce_windows, every window of `window` consecutive elements reduced, with any
 * operator: exec/run_windows.c checks the arguments, then runs.
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

ocl_reduce_status ocl_reduce_windows(ocl_reduce_context *ctx, ocl_reduce_op op,
                                     ocl_reduce_type type, ocl_reduce_input input, size_t count,
                                     size_t window, ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_windows";
  ORX_ENTER(ctx, function);
  return orx_windows_checked(ctx, function, op, type, &input, count, window, 0, &results);
}
