/* cub_reduce_int64.cu: the CUB contender's calls for i64 and u64 (cub_reduce.cuh says why apart).
 */
#include "cub_reduce.cuh"

template cudaError_t orx_cub::reduce<int64_t>(const bench_case *, orx_cub::cub_state *);
template cudaError_t orx_cub::reduce<uint64_t>(const bench_case *, orx_cub::cub_state *);
