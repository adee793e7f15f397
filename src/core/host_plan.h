/* =================================================================================================
 * host_plan.h: the host plan, the one plan that both the calling thread and a CPU device can run
 * (planner.c plans it, src/host/host_kernel.inc compiles it for the host). Small reductions of
 * host memory on CPU devices take it: the calling thread runs the kernel text of reduce_all.cl
 * as one work-group of one work-item (host_run.c), and a device that is asked to, as under
 * OCL_REDUCE_POLICY=host=device, runs the same text with the same defines: the same bits.
 * Plain constants, valid C for the library and for the host kernels.
 * ============================================================================================== */
#ifndef ORX_HOST_PLAN_H
#define ORX_HOST_PLAN_H

/* One contiguous run (ORX_STREAM_CHUNK) of 16-byte loads (4 f32, 2 f64: the vector structs of
 * host_prelude.h, SSE2's width) into 8 independent chains: 32 f32 accumulators, so that the adds'
 * latency does not bound the loop. f32 sum of 2^16 on one core of the PoCL 3.1 machine (EPYC,
 * GCC 12 -O3): 48 GB/s with 4 or 8 chains, 28-38 with 16; built for x86-64-v3 or v4 instead,
 * the same text ran at 6-8 GB/s (GCC merges the chains' vectors with permutes). */
#define ORX_HOST_PLAN_LOAD_BYTES 16
#define ORX_HOST_PLAN_UNROLL 8
/* Float MIN and MAX as a key per component (lib/orx_keys.cl): whole vectors of keys need OpenCL's
 * vector arithmetic, which the host's structs do not have. */
#define ORX_HOST_PLAN_FLOAT_KEYS 1

/* Host memory of at most this many bytes takes the host plan on CPU devices: scalar operators,
 * and state operators, whose host build is slower. From host memory the device first copies the
 * array into its buffer, on one thread. End to end from host memory, the calling thread against
 * the device's own plan (ocl-reduce bench, host/auto against host/auto@host=off):
 *   PoCL 5, 16 cores (H200 host): f32 sum 2^20 179 us against 756, 2^22 866 against 2339; f32
 *   max 2^20 478 against 681 but 2^22 3351 against 2262 (keys per component, 5-8 GB/s); f32
 *   argmin 2^16 94 us against 162 but 2^18 366 against 234; mean_var 2^16 84 against 189, 2^18
 *   353 against 304.
 *   PoCL 3.1, 2 cores: f32 sum 2^20 86 us against 255, 2^22 355 against 1209; f32 argmin 2^20
 *   983 against 829. */
#define ORX_HOST_PLAN_MAX_BYTES ((size_t)4 << 20)
#define ORX_HOST_PLAN_MAX_STATE_BYTES ((size_t)256 << 10)

/* A buffer of a CPU device that lives in host memory the library allocated takes the host plan up
 * to these, on the calling thread in place: the device's own plan copies nothing there, so it wins
 * sooner. End to end from such a buffer, the calling thread against the device's own plan
 * (ocl-reduce bench, auto against auto@host=off):
 *   PoCL 5, 16 cores (H100 host): f32 sum 2^16 14 us against 77, 2^18 52 against 94, 2^20 256
 *   against 115; f32 max 2^16 27 against 79, 2^18 129 against 95; f32 argmin 2^14 38 against
 *   113, 2^16 155 against 129.
 *   PoCL 3.1, 2 cores: f32 sum 2^18 23 us against 49, 2^20 86 against 76.
 * Between these and the host-memory crossovers, float results of a buffer and of the same host
 * array round in different orders (the device's plan and the host plan's). */
#define ORX_HOST_PLAN_MAX_RESIDENT_BYTES ((size_t)512 << 10)
#define ORX_HOST_PLAN_MAX_RESIDENT_STATE_BYTES ((size_t)128 << 10)

#endif /* ORX_HOST_PLAN_H */
