/* =================================================================================================
 * native_events.h: the application's side of ocl_reduce_enqueue_marker's events (native_events.c):
 * waiting for one and releasing it with the backend's own calls, as a program that mixes the
 * library's work with its own does (OpenCL: clWaitForEvents, clReleaseEvent; CUDA, reached at run
 * time as the library reaches it: cuEventSynchronize, cuEventDestroy).
 * ============================================================================================== */
#ifndef ORX_TEST_NATIVE_EVENTS_H
#define ORX_TEST_NATIVE_EVENTS_H

#include "ocl_reduce.h"

/* Waits for `event` (a marker of ctx) to complete, then releases it. 1 when both succeeded. */
int test_event_wait_and_release(ocl_reduce_context *ctx, void *event);
/* Releases `event` without waiting. */
void test_event_release(ocl_reduce_context *ctx, void *event);

#endif /* ORX_TEST_NATIVE_EVENTS_H */
