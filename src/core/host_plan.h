/* =================================================================================================
 * host_plan.h: the host plan, the one plan that both the calling thread and a CPU device can run
 * (planner.c plans it, src/host/host_kernel.inc compiles it for the host). Small reductions of
 * host memory on CPU devices take it: the calling thread runs the kernel text of reduce_all.cl
 * as one work-group of one work-item (host_run.c), and a device that is asked to, as under
 * OCL_REDUCE_POLICY=host=0, runs the same text with the same defines, so both give the same bits.
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

/* Host memory of at most this many bytes takes the host plan on CPU devices. From host memory
 * the device first copies the array into its buffer on one thread, at about the speed at which
 * one thread reduces it with a scalar operator. PoCL 3.1, 2 cores, f32 sum from host memory,
 * end to end (ocl-reduce bench, host/auto): 2^20 86 us on the calling thread against 255 us on
 * the device, 2^22 355 against 1209. Scalar operators take it up to a staging piece; state
 * operators, whose host build is slower (argmin 4.3 GB/s against the device's 7.6 on two cores;
 * 2^20 983 us against 829), up to 1 MiB, where both take about 240 us. */
#define ORX_HOST_PLAN_MAX_BYTES ((size_t)64 << 20)
#define ORX_HOST_PLAN_MAX_STATE_BYTES ((size_t)1 << 20)

#endif /* ORX_HOST_PLAN_H */
