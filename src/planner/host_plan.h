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
 * the same text ran at 6-8 GB/s (GCC merges the chains' vectors with permutes). With each load
 * absorbed as it comes (ORX_LOADS_IN_PLACE, host_prelude.h), no longer stored first: 90 GB/s
 * (2.9 us a call end to end, against 4.9-5.7). */
#define ORX_HOST_PLAN_LOAD_BYTES 16
#define ORX_HOST_PLAN_UNROLL 8
/* A grid of work-groups of one work-item, each a contiguous share of at least
 * ORX_HOST_PLAN_GROUP_BYTES (fewer groups for smaller arrays), at most ORX_HOST_PLAN_MAX_GROUPS
 * of them: the calling thread and a few of the context's own threads run them at once
 * (host_run.c), the last to finish combining the partials in group order, as a CPU device does.
 * Fixed numbers, not the machine's cores: the host plan is the same on every device, and so are
 * its bits. Waking sleeping threads costs some 30 us: PoCL 5 on 16 cores (H100 host), f32 sum
 * from host memory, 2^18 (1 MiB) in 4 groups of 256 KiB 43-45 us against 34 on one thread (H200
 * host), 2^20 in 16 groups 47-50 us against 179. So threads spin for the next call a while after
 * one (base/threads.c), and the calling thread does not wait for them: it claims groups from the
 * start, they claim the rest as they come (a shared call), and a small grid whose threads sleep
 * runs on the calling thread alone (same grid, same bits) while they wake for the calls that
 * follow. */
#define ORX_HOST_PLAN_GROUP_BYTES ((size_t)64 << 10)
#define ORX_HOST_PLAN_MAX_GROUPS 16
/* Float MIN and MAX as a key per component (lib/orx_keys.cl): whole vectors of keys need OpenCL's
 * vector arithmetic, which the host's structs do not have. */
#define ORX_HOST_PLAN_FLOAT_KEYS 1

/* Host memory takes the host plan on CPU devices at every size: from host memory the device first
 * copies the array into its buffer, on one thread, and the grid's threads read it in place. End to
 * end from host memory, the host plan against the device's own plan (ocl-reduce bench, host/auto
 * against host/auto@host=off):
 *   PoCL 5, 16 cores (H100 host), with the grid: f32 sum 2^20 50 us against 104 (the device from
 *   a buffer), 2^22 120 against 2462, 2^24 422 against 10634; f32 max 2^24 620 against 10117;
 *   i32 sum 2^24 468 against 9794; f32 argmin 2^18 192 against 245, 2^20 213 against 690, 2^22
 *   826 against 2949.
 *   Before the grid, one thread: f32 sum 2^20 179 us against 756 (H200 host), f32 max 2^22 3351
 *   against 2262, f32 argmin 2^18 366 against 234; PoCL 3.1, 2 cores, f32 argmin 2^20 983
 *   against 829: the crossovers were 4 MiB (scalar operators) and 256 KiB (state operators). */

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
/* Pair operators' buffers take the host plan at every size, with its grid: the device's own
 * kernel over two inputs fell behind it. PoCL 5, 16 cores (H200 host), 2^26 pairs from two
 * buffers, medians of 10 calls to a host result, two runs each, host plan (host_kib=2^24) against
 * the device's own: f32 dot 4289-5151 us against 7032-7138 (an OpenMP loop: 4711-6023); f64 dot
 * 10529-11150 against 11555-11790; f32 squared distance 4548-5351 against 6695-6729. The f32 sum
 * of one buffer of 2^28 the same way: 9595-11093 against 8408-9685, so one input keeps its
 * crossovers. Their equal segments into host memory too (plan_host.c): each segment a whole array
 * of this plan, its grid on one thread, runs of segments shared by the threads. The same machine,
 * against OpenMP in the same run (the device's own segment plans before: 0.64-0.70x at 32, 0.66-
 * 0.90x at 1000, none of its strategies above 0.8x): segments of 32 0.87-0.93x, of 1000
 * 1.04-1.18x (docs/perf/h200-pairs-pocl.txt). */

#endif /* ORX_HOST_PLAN_H */
