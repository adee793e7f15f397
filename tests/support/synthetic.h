/* =================================================================================================
 * synthetic.h: for the tests that look inside the library (its planner and programs): synthetic
 * devices, the planner's target on one, and plans (synthetic.c).
 * ============================================================================================== */
#ifndef ORX_TEST_SYNTHETIC_H
#define ORX_TEST_SYNTHETIC_H

#include "planner/planner.h"

/* A GPU without subgroups (132 compute units, 48 KiB local memory), and a 2-core CPU device. */
orx_caps test_gpu(void);
orx_caps test_cpu(void);
/* An H200 as the CUDA backend describes it. */
orx_caps test_h200_cuda(void);

/* The planner's target on caps, on the path asked for (the implementation it resolves to),
 * nothing forced. */
orx_target test_target(const orx_caps *caps, ocl_reduce_path path);

/* A plan of `kernel` with no define set: the kernel file alone, with the contract's defaults. */
orx_plan test_plan_alone(orx_kernel kernel);

#endif /* ORX_TEST_SYNTHETIC_H */
