#include <stdio.h>
#include "ocl_reduce.h"
int main(void) {
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s) { fprintf(stderr, "%s: %s\n", ocl_reduce_status_name(s), ocl_reduce_last_error(NULL)); return 1; }
  float x[1000]; for (int i = 0; i < 1000; i++) x[i] = (float)i;
  float sum = 0;
  s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, x, 1000, &sum);
  printf("%s sum=%g (%s)\n", ocl_reduce_status_name(s), sum, ocl_reduce_last_error(ctx));
  ocl_reduce_context_destroy(ctx);
  return 0;
}
