// The public headers from C++ (scripts/check_install.sh): every header compiles, the operator and
// struct macros work as C++ values, and a user operator reduces next to a built-in one.
#include <ocl_reduce.h>
#include <ocl_reduce_group.h>
#include <ocl_reduce_program.h>

#include <cstdio>
#include <vector>

static const ocl_reduce_op kOps[] = {OCL_REDUCE_SUM, OCL_REDUCE_MAX};

int main() {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  ocl_reduce_context *ctx = nullptr;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK) {
    std::fprintf(stderr, "consumer_cxx: %s\n", ocl_reduce_last_error(nullptr));
    return 1;
  }
  std::vector<int> data(1000);
  for (int i = 0; i < 1000; i++)
    data[i] = i + 1;
  int results[2] = {0, 0};
  s = ocl_reduce_multi(ctx, kOps, 2, OCL_REDUCE_I32,
                       ocl_reduce_host_input(data.data(), data.size() * sizeof(int)), data.size(),
                       ocl_reduce_host_output(results, sizeof results));
  ocl_reduce_operator_desc desc = OCL_REDUCE_OPERATOR_DESC_INIT;
  desc.source = "int zero(void) { return 0; }\n"
                "int one(int x, ulong i) { return 1; }\n"
                "int add(int a, int b) { return a + b; }\n";
  desc.element_type = desc.state_type = "int";
  desc.identity = "zero";
  desc.map = "one";
  desc.combine = "add";
  desc.element_size = desc.state_size = sizeof(int);
  desc.commutative = 1;
  ocl_reduce_operator *count = nullptr;
  int counted = 0;
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_operator_create(&desc, &count);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce(ctx, count, OCL_REDUCE_OP_ELEMENT, data.data(), data.size(), &counted,
                   sizeof counted);
  const bool ok =
      s == OCL_REDUCE_OK && results[0] == 500500 && results[1] == 1000 && counted == 1000;
  if (!ok)
    std::fprintf(stderr, "consumer_cxx: %s, %d %d %d: %s\n", ocl_reduce_status_name(s), results[0],
                 results[1], counted, ocl_reduce_last_error(ctx));
  else
    std::printf("consumer_cxx: sum 500500, max 1000, a user operator counted 1000\n");
  ocl_reduce_operator_destroy(count);
  ocl_reduce_context_destroy(ctx);
  return ok ? 0 : 1;
}
