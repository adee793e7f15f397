/* cub_reduce_half.cu: the CUB contender's calls for f16 and bf16 elements (cub_reduce.cuh says
 * why apart). SUM into f32, as issue 56's anchor measures CUB and as the library returns it: CUB
 * accumulates in its output's type. MIN and MAX into the element's type. Whole arrays only. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/functional>

#include "cub_reduce.cuh"

namespace orx_cub {

template <typename H> static cudaError_t reduce_half(const bench_case *bc, cub_state *s) {
  const H *in = static_cast<const H *>(s->d_in);
  H *out = static_cast<H *>(s->d_out);
  if (bc->segment_length)
    return cudaErrorNotSupported;
  switch (bench_op_index(bc->op)) {
  case B_SUM: /* Sum deduces no accumulator for a mix of types: f32's plus, from
                 0 */
    return cub::DeviceReduce::Reduce(s->d_temp, s->temp_bytes, in, static_cast<float *>(s->d_out),
                                     bc->n, ::cuda::std::plus<float>{}, 0.0f);
  case B_MIN:
    return cub::DeviceReduce::Min(s->d_temp, s->temp_bytes, in, out, bc->n);
  case B_MAX:
    return cub::DeviceReduce::Max(s->d_temp, s->temp_bytes, in, out, bc->n);
  default:
    return cudaErrorNotSupported;
  }
}

cudaError_t reduce_f16(const bench_case *bc, cub_state *s) { return reduce_half<__half>(bc, s); }
cudaError_t reduce_bf16(const bench_case *bc, cub_state *s) {
  return reduce_half<__nv_bfloat16>(bc, s);
}

} // namespace orx_cub
