/* cub_reduce_float.cu: the CUB contender's calls for f32 and f64 (cub_reduce.cuh says why apart).
 */
#include "cub_reduce.cuh"

template cudaError_t orx_cub::reduce<float>(const bench_case *, orx_cub::cub_state *);
template cudaError_t orx_cub::reduce<double>(const bench_case *, orx_cub::cub_state *);
