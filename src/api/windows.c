/* =================================================================================================
 * windows.c: ocl_reduce_windows, every window of `window` consecutive elements reduced, with any
 * operator: the arguments checked before anything runs, then the run (core/run_windows.c).
 * ============================================================================================== */
#include <string.h>

#include "core/context.h"
#include "core/run.h"

ocl_reduce_status ocl_reduce_windows(ocl_reduce_context *ctx, ocl_reduce_op op,
                                     ocl_reduce_type type, ocl_reduce_input input, size_t count,
                                     size_t window, ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_windows";
  ORX_CHECK_CTX(ctx, function);
  orx_win_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  if (window == 0 || window > count)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_WINDOW,
                    "%s: window = %zu, count = %zu: a window is 1 to count elements long",
                    function, window, count);
  c.type = call.type;
  c.op = call.op;
  c.elem = call.elem;
  c.result_bytes = call.result_bytes;
  c.count = count;
  c.window = window;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", &results, c.result_bytes,
                                 count - window + 1, &c.out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, c.elem, count, &c.in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &c.in, count * c.elem, &c.out,
                                 (count - window + 1) * c.result_bytes, c.result_bytes, c.elem));
  return orx_run_windows(ctx, &c);
}
