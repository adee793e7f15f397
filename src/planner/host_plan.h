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
/* MINMAX takes one element per load into one chain instead: the plain loop that the C compiler
 * vectorizes itself as two reductions (min and max), in the AVX2 clone where the CPU has it
 * (src/host/host_kernel.inc). Its lanes in 16-byte loads were vectorized or not by the unroll's
 * and chains' count and the element type (GCC 12, this f32 / i32: 8 chains 346-463 / 1292-1598 us,
 * 4 chains 614-624 / 988-1003, 2 chains 885-1409 / 222-293), and spilled where they were; the
 * plain loop 189-262 us both (OpenMP's simd loop 226-257 us for f32; f64 1166-1174 against
 * 984-1048). ARGMIN and ARGMAX keep the 16-byte loads, their lanes split in two arrays
 * (lib/orx_state_ops.cl): f32 / f64 2515-3323 / 1917-2004 us with an array of states, 1587-1707
 * / 1528-1818 split (OpenMP's loop 1000-1067 / 1505-1841); an element per load 2183-2294 /
 * 1670-1733. PoCL 3.1's 2 cores, 2^22 elements from host memory, ocl-reduce bench host/auto. */
#define ORX_HOST_PLAN_ONE_ELEMENT(op) ((op) == ORX_OP_MINMAX)
/* Each group's run is read as ORX_HOST_PLAN_UNROLL runs side by side, load u of a step from run u
 * into chain u (ORX_STREAM_RUNS), rather than 8 loads one after another along one run: one
 * thread then has 8 streams of memory in flight, where from memory a core's prefetchers follow
 * one stream too slowly to keep it busy; in the caches one run is as fast or faster. So only
 * runs of at least ORX_RUNS_MIN_VECTORS (64 KiB: arrays of 32 MiB and more, whose 64 groups
 * each read 512 KiB) go side by side. This 2-core machine (AMD EPYC, 32 MiB of L3), end to end
 * from host memory, of the OpenMP loop in the same run, the previous main against this in turns
 * (docs/perf/cpu-host-plan-runs.txt): f32 / i32 sum of 2^23 0.91-1.09x -> 1.30-3.33x on PoCL
 * 3.1 and 0.93-1.12x -> 1.69-1.88x on Intel's runtime; of 2^24 0.88-1.19x -> 1.23-1.84x on both;
 * f32 and i32 max alike; f64 sum of 2^24 from a buffer 0.97-1.14x -> 1.24-1.92x. PoCL 5 on the
 * H100 machine's 16 cores (a 300 MiB L3, which holds 2^24): level within the noise. Runs of 32 KiB
 * (2^22) were mixed (f32 sum 0.86-1.36x -> 1.23-1.53x, i32 sum and max 0.87-1.13x ->
 * 0.75-1.07x), of 8 KiB slower (PoCL 3.1's i32 sum of 2^17 0.88-0.95x -> 0.45-0.63x). MINMAX's
 * one-element loop keeps one run, which GCC vectorizes itself; state operators keep one too
 * (f32 argmin of 2^22, runs of 32 KiB, four rounds: 1.39-1.58x -> 1.10-1.64x on Intel's
 * runtime, 0.90-1.31x -> 0.82-1.69x on PoCL 3.1: no clear gain), and so do pair operators,
 * whose two inputs would make 16 streams (f32 dot of 2^24 from buffers, two rounds on each:
 * 1.53-2.34x -> 0.97-1.69x). */
#define ORX_HOST_PLAN_RUNS(op, pair_op)                                                            \
  (!ORX_HOST_PLAN_ONE_ELEMENT(op) && !(ORX_OP_FLAGS_OF(op) & ORX_OPF_STATE) &&                     \
   (pair_op) == ORX_PAIR_NONE)
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
 * follow. At most 64 groups rather than one per core of a 16-core machine: a thread that starts
 * late or runs slower then leaves a smaller share to the others. PoCL 5, 16 cores, 16 against 64
 * groups, three rounds in turns, end to end, us (docs/perf/pocl5-host-buffers.txt): f32 sum of a
 * buffer of 2^20 15.2-17.9 against 14.0-15.0, 2^22 49-66 against 41-46; f32 max 2^22 65-72
 * against 43-46; from host memory, f32 max 2^24 352-387 against 269-339 (2^18: 16 groups both). */
#define ORX_HOST_PLAN_GROUP_BYTES ((size_t)64 << 10)
#define ORX_HOST_PLAN_MAX_GROUPS 64
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
 * to the crossovers below: the device's own plan copies nothing there, so it wins sooner.
 *
 * Its result into host memory: the grid reads the buffer in place, up to ORX_HOST_PLAN_MAX_READ_
 * (STATE_)BYTES. End to end from a buffer, medians of two runs (ocl-reduce bench, the grid forced
 * by host_kib against the device's own plan; docs/perf/pocl5-host-buffers.txt):
 *   PoCL 5, 16 cores (H200 host), us, grid against the device's plan: f32 sum 16 MiB 38-46
 *   against 79-83, 32 MiB 75-98 against 110-111, 64 MiB 275-296 against 238-245; f64 sum 16 MiB
 *   37-38 against 81-84, 32 MiB 75-76 against 106-108, 64 MiB 292-304 against 248-299; f32 max
 *   16 MiB 39-42 against 84-85, 64 MiB 325-341 against 289-293; f64 max 16 MiB 52-62 against
 *   82-83, 32 MiB 116-148 against 119-133, 64 MiB 433-460 against 281-324; f32 argmin 2 MiB 40-41
 *   against 73-75, 4 MiB 73-74 against 93-96, 8 MiB 140-271 against 140-148; minmax and the
 *   compensated sum: the grid to 16 MiB and beyond (f32 minmax 16 MiB 150-156 against 340-389).
 *   Intel's CPU runtime, 2 cores: f32 sum 16 MiB 295 against 750, 64 MiB 1474 against 3074; f32
 *   max 16 MiB 350 against 806; f32 argmin 1 MiB 117 against 121, 4 MiB 486 against 239.
 *   PoCL 3.1, 2 cores: f32 sum 1 MiB 11.6 against 41.5, 4 MiB 46.9 against 151, 16 MiB 294
 *   against 607, 64 MiB 1616 against 1304.
 * So 16 MiB (state operators 1 MiB: Intel's argmin), where the grid wins on every operator of
 * every implementation measured. Measured again once the process's contexts shared the grid's
 * threads and the benchmark's blocks settled (docs/perf/pocl5-host-buffers.txt, 2026-12-03),
 * PoCL 5, two runs, e2e us, the grid (host_kib) against the device's plan (OpenMP):
 *   f32 sum 64 MiB 310-311 against 363-404 (397-398), 128 MiB 626-681 against 760-776; i32 sum
 *   64 MiB 267-306 against 384-411 (375-391), 128 MiB 634-684 against 748-759; f32 max 64 MiB
 *   341-360 against 509-637 (414-423), 128 MiB 873-1016 against 1157-1204; i32 max 64 MiB
 *   316-322 against 426-429 (389-396), 128 MiB 745-772 against 896-900; f64 sum 128 MiB
 *   613-706 against 745-827, 256 MiB 2398-2550 against 2046-2340; 256 MiB of 4-byte elements
 *   1873-2603 against 1878-2553 (the device's plan level or ahead); f64 max 64 MiB 417-418
 *   against 389-428, 128 MiB 1170-1180 against 795-1003.
 *   PoCL 3.1 here, 2 cores, one run: f32 sum 64 MiB 1303 against 1295, 128 MiB 3863 against
 *   4505, 256 MiB 7695 against 9413; f32 max 128 MiB 4095 against 6667.
 * So 128 MiB (ORX_HOST_PLAN_MAX_READ_BYTES) for elements of 4 and 8 bytes, but 16 MiB for 8-byte
 * MIN and MAX, whose host kernel compares an element at a time (PoCL 5 above), and for 16-bit
 * elements (unmeasured above 16 MiB). Before the grid (the calling thread alone) these were 512 and
 * 128 KiB. Two exceptions (plan_host.c):
 *   f16 elements keep 512 KiB: the host widens them in integer code. Buffers of 2^20 / 2^22 f16,
 *   the grid against the device's plan: Intel's runtime sum 311 / 732 us against 67 / 291, PoCL
 *   3.1 191 / 744 against 87 / 270 (bf16, widened by a shift, gains: 2^22 197 against 455).
 *   Devices that vectorize across work-items (Intel's runtime; not work_items_in_turn) read at
 *   every size through the grid: there the device's own plans read at 0.27-0.45x an OpenMP loop
 *   at every size. Intel's runtime, 2^24 / 2^26: f32 sum 1876 / 7058 us against 3382 / 13564,
 *   i32 max 1640 / 7464 against 3382 / 12393, f64 sum 3741 / 14208 against 4164 / 20712, u64
 *   xor 4096 against 4768 (2^24). 8-byte MIN and MAX too since 2026-12-04 (before, they stopped
 *   at 16 MiB: i64 max 5053 / 17015 against 3874 / 20425, f64 min 6004 against 4100 at 2^24 in
 *   an earlier measurement); two rounds that day, 2^22 / 2^24, device us, grid against the
 *   device's plan (OpenMP): f64 max 1599-1838 / 6372-6789 against 4099-4124 / 18160-18316
 *   (1287-1569 / 5957-6674), f64 min 1780-2149 / 7871-9875 against 5394-6491 / 18359-19916,
 *   i64 max 1777-2097 / 7806-8570 against 2733-4145 / 16364-18105, i64 min 1700-1877 /
 *   7632-8176 against 3924-4526 / 15739-24696, u64 max 1768-2323 / 7365-13675 against
 *   4523-5249 / 19303-22712, u64 min 1434-1889 / 6830-7546 against 3699-5845 / 16481-19521
 *   (docs/perf/cpu-intel-8-byte-minmax.txt).
 * Its result into a buffer (ocl_reduce_into and the like, which do not wait): the device runs the
 * host plan, up to ORX_HOST_PLAN_MAX_RESIDENT_(STATE_)BYTES, and its own plan above. The device's
 * run of the host plan (then 16 work-groups of one work-item) falls behind its own plan: PoCL 5
 * (one run, the same machine busier), f32 max 4 MiB 217 us against 100, 16 MiB 796 against 160;
 * f32 sum 2 MiB 88 against 89, 8 MiB 126 against 101; f32 argmin 1 MiB 134 against 96; Intel's
 * runtime f32 max 1 MiB 94 against 48.
 * Between these crossovers (and the host-memory ones) float results of the same elements round
 * in different orders: the device's plan and the host plan's. */
#define ORX_HOST_PLAN_MAX_READ_BYTES ((size_t)128 << 20)
#define ORX_HOST_PLAN_MAX_READ_NARROW_BYTES ((size_t)16 << 20) /* 8-byte MIN, MAX; 16-bit */
/* State operators (1 MiB) but those that read like scalar ones (plan_host.c): since their host
 * kernels keep split lanes (lib/orx_state_ops.cl) and MINMAX loads an element at a time, the grid
 * reads ARGMIN, ARGMAX, MINMAX and SUM_WIDE faster than the device's plans at every size, and
 * MEAN_VAR on PoCL. Buffers of f32, 2^20 / 2^22 / 2^24 elements, e2e us, grid (host_kib) against
 * the device's plan, this 2-core machine: Intel's runtime argmin 513 / 1744 / 6900 against 1447 /
 * 4847 / 20960, minmax 82 / 337 / 2841 against 664 / 2034 / 10030, sum_wide 145 / - / 2378
 * against 285 / - / 4203, mean_var 621 / 2551 / 10446 against 1246 / 2628 / 10260 (f64 2^24
 * 10441 against 8245); PoCL 3.1 argmin 461 / 1666 / 6859 against 719 / 1896 / 7386, minmax 98 /
 * 244 / 2182 against 1252 / 3208 / 11641, mean_var 606 / 2493 / 10360 against 1236 / 6037 /
 * 20956. The reproducible and compensated sums' grids trail (Intel's runtime, 2^24: 17493 and
 * 14122 against 4466 and 4214): they keep 1 MiB. */
#define ORX_HOST_PLAN_MAX_READ_STATE_BYTES ((size_t)1 << 20)
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

/* One input's equal segments into host memory run there too where the input is host memory, the
 * operator scalar and a segment at least one unrolled step of the host plan's loads: the device's
 * segment plans first copy host memory into its buffer (on one thread), while each segment is a
 * call of the host kernel (a state operator's some 0.1 us, a sum's 1 ns). End to end from host
 * memory, us, the host against the device's segment plans (host/auto against host/auto@host=device;
 * docs/perf/pocl5-host-buffers.txt):
 *   PoCL 5, 16 cores, 2^24 f32 sums: segments of 1 20580-22132 against 33244-36553, of 4 7632
 *   against 15375, of 32 1077-1147 against 8563-9348, of 1000 539-640 against 8013-10264, of
 *   65536 588-598 against 9713-11211; i32 alike.
 *   Intel's CPU runtime, 2 cores, 2^22: f32 sums of 2 / 4 / 16 elements 7067 / 4023 / 1283
 *   against 6261 / 3696 / 1044, of 32 705 against 931, of 1000 284 against 889; f64 of 16 1122
 *   against 2139; f32 argmin of 32 8596 against 1630, of 1000 2593 against 1548.
 *   PoCL 3.1, 2 cores, 2^22: f32 sums of 2 7016 against 7441, of 32 712 against 1685; f32
 *   argmin of 32 8558 against 4452, of 1000 2570 against 4150.
 * State operators keep the device's segment plans (PoCL 5, argmin of 32 from a buffer 12379 us on
 * the host against 2555), and so do f16 elements, which the host widens in integer code (see the
 * buffers' crossover above). */
#define ORX_HOST_PLAN_MIN_SEGMENT_BYTES (ORX_HOST_PLAN_UNROLL * ORX_HOST_PLAN_LOAD_BYTES)

/* ... unless the device's plan reads the host memory where it lies (a view, and the vector runs of
 * a work-item per segment: exec/segment_views.c), which leads below 512 bytes. PoCL 5, 16 cores,
 * 2^24 elements from host memory, end to end us, two runs, the host plan against the device's
 * plan over a view (host/auto against host/auto@host=off; docs/perf/
 * pocl5-host-segments-in-place.txt): f32 sums of 32 1597 / 1047 against 1126 / 483, of 64 1130 /
 * 666 against 1059 / 506, of 128 652 / 431 against 755 / 490, of 256 412 / 346 against 498 /
 * 449; i32 sums of 32 986 / 1053 against 449 / 488, of 64 611 / 611 against 534 / 480, of 128
 * 411 / 419 against 479 / 453; f32 max of 32 1336 / 1339 against 503 / 482, of 64 907 / 795
 * against 589 / 548, of 128 607 / 540 against 602 / 532; i32 max of 64 733 / 620 against 605 /
 * 492, of 128 492 / 424 against 601 / 458.
 * A buffer's segments into host memory, which the device's plans read where they lie too, take
 * the host from the same 512 bytes. This 2-core machine, 2^24 elements from a buffer, end to end,
 * of an OpenMP loop, the previous main (the device's plans) against the host
 * (docs/perf/cpu-buffer-segments-host.txt): segments of 1000 0.44-0.96x -> 0.97-1.16x on PoCL 3.1
 * and Intel's runtime, of 128 0.19-0.62x -> 0.52-1.00x, of 65536 on Intel's runtime 0.15-0.27x
 * -> 1.02-1.16x; of 64 the host forced 2436 / 2427 us against the device's 2066 / 1928 (PoCL 3.1
 * / Intel's runtime). Not measured on PoCL 5 since: an earlier grid there (before the shared
 * threads and results written in place) ran buffers' segments of 65536 in 584-623 us against the
 * device's 522-567, and of 32 in 1066-1085 against 874-884. */
#define ORX_HOST_PLAN_MIN_IN_PLACE_SEGMENT_BYTES 512

#endif /* ORX_HOST_PLAN_H */
