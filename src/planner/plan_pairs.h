/* =================================================================================================
 * plan_pairs.h: pair operators (ocl_reduce_pairs) in the plan of SUM over their values, reading
 * two inputs (plan_pairs.c; lib/orx_pairs.cl; docs/design/half-and-pairs.md, decision 3). The
 * planner's request carries an orx_pair_request (planner.h includes this).
 * ============================================================================================== */
#ifndef ORX_PLAN_PAIRS_H
#define ORX_PLAN_PAIRS_H

#include "ocl_reduce.h"

/* Two inputs read as one: the request's type and operator are SUM's over the pairs' values, or
 * a user pair operator's (op ORX_PAIR_USER; type OP_ELEMENT, its elements read as pairs); these
 * say what the kernel reads. */
#define ORX_PAIR_SKEW_SPAN 16 /* elements: a multiple of every vector width */
typedef struct orx_pair_request {
  int on;
  int op;               /* an ORX_PAIR_ id (ORX_PAIR_USER: a user operator's pair_map) */
  ocl_reduce_type type; /* both inputs' elements */
  unsigned skew;        /* (b's position - a's position) mod ORX_PAIR_SKEW_SPAN, positions counted
                           in elements from an allocation's (vector-aligned) start */
} orx_pair_request;

struct orx_target;
struct orx_request;
struct orx_policy;
struct orx_plan;
/* A pair request's policy: the vector width both inputs can be read at (the policy's, halved
 * until it divides the skew between their vector boundaries: a vector of one starts where one
 * of the other does), and on GPUs twice the loads in flight. */
void orx_fit_pairs(const struct orx_target *target, const struct orx_request *request,
                   struct orx_policy *p);
/* The work-group size a pair request's segments by the multireduction take instead of the
 * plan's (NVIDIA's OpenCL: 128), or 0 to keep it; plan_segments.c plans the shape again. */
unsigned orx_pair_segments_wg(const struct orx_target *target, const struct orx_request *request,
                              const struct orx_plan *plan);
/* Marks a made plan's launch as reading the request's two inputs, and caps the registers of
 * CUDA's segment multireduction less; one-input requests are left. */
void orx_plan_pairs(const struct orx_target *target, const struct orx_request *request,
                    struct orx_plan *plan);

#endif /* ORX_PLAN_PAIRS_H */
