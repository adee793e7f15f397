/* cub_reduce_int32.cu: the CUB contender's calls for i32 and u32 (cub_reduce.cuh says why apart).
 */
#include "cub_reduce.cuh"

template cudaError_t orx_cub::reduce<int32_t>(const bench_case *, orx_cub::cub_state *);
template cudaError_t orx_cub::reduce<uint32_t>(const bench_case *, orx_cub::cub_state *);
