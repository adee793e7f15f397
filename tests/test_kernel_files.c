/* =================================================================================================
 * test_kernel_files.c: every kernel file compiles alone on the device under test: with no define
 * from the host, only the contract's defaults, its includes resolved, behind the backend's
 * prelude (PoCL's, Intel's and NVIDIA's OpenCL compilers, NVRTC through the CUDA backend). No
 * file's meaning depends on another being listed before it: each names what it needs.
 * ============================================================================================== */
#include <stdio.h>
#include <string.h>

#include "exec/context.h"
#include "support/fixture.h"
#include "support/synthetic.h"

static void test_every_kernel_file_compiles_alone(void **state) {
  (void)state;
  for (int k = 0; k < ORX_KERNEL_COUNT; k++) {
    const orx_plan alone = test_plan_alone((orx_kernel)k);
    orx_program_text text;
    assert_int_equal(orx_program_text_of(test_ctx, &alone, test_ctx->ops->prelude, &text),
                     OCL_REDUCE_OK);
    orx_program *program = NULL;
    unsigned subgroup_size = 0;
    const ocl_reduce_status s =
        test_ctx->ops->build(test_ctx, test_ctx->backend, text.sources, text.count,
                             text.options, text.entry, 256, &program, &subgroup_size);
    if (s != OCL_REDUCE_OK)
      fail_msg("%s alone: %s: %s", orx_kernel_file(alone.kernel), ocl_reduce_status_name(s),
               ocl_reduce_last_error(test_ctx));
    test_ctx->ops->release_program(program);
    orx_program_text_free(&text);
    printf("# %s compiled alone\n", orx_kernel_file(alone.kernel));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kernel_file_compiles_alone)};
  return TEST_RUN(tests, test_setup, test_teardown);
}
