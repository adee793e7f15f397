/* A user's first program against an installed ocl_reduce (scripts/check_install.sh): the header
 * alone (no OpenCL header), the library's version against the header's, and one reduction. */
#include <ocl_reduce.h>
#include <stdio.h>

int main(void) {
  if (ocl_reduce_version() != OCL_REDUCE_VERSION) {
    fprintf(stderr, "consumer: library version %d, header %d\n", ocl_reduce_version(),
            OCL_REDUCE_VERSION);
    return 1;
  }
  int data[1000];
  for (int i = 0; i < 1000; i++)
    data[i] = i + 1;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s != OCL_REDUCE_OK) {
    fprintf(stderr, "consumer: %s: %s\n", ocl_reduce_status_name(s), ocl_reduce_last_error(NULL));
    return 1;
  }
  int sum = 0;
  s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, 1000, &sum, sizeof sum);
  if (s != OCL_REDUCE_OK || sum != 500500) {
    fprintf(stderr, "consumer: %s, sum %d: %s\n", ocl_reduce_status_name(s), sum,
            ocl_reduce_last_error(ctx));
    ocl_reduce_context_destroy(ctx);
    return 1;
  }
  ocl_reduce_context_destroy(ctx);
  printf("consumer: ocl_reduce %d, sum 500500\n", ocl_reduce_version());
  return 0;
}
