/* =================================================================================================
 * custom_operator.c: a user-defined operator, the bounding box of 3-D points, with ocl_reduce.
 *
 * The operator is OpenCL C text: an element type (a point), a state type (a box), and three
 * functions: the empty box, the box of one point, and the union of two boxes. The library compiles
 * it for the device (OpenCL, or CUDA through NVRTC) and reduces any number of points to one box,
 * or one box per segment. The host declares the same structs; ocl_reduce_operator_create checks
 * that the device sees the same sizes.
 *
 * Build: part of the project's CMake build (build/examples/custom_operator), or on its own:
 *   cc custom_operator.c -locl_reduce -lm
 * Run: build/examples/custom_operator [point count]
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ocl_reduce.h>

typedef struct point {
  float x, y, z;
} point;
typedef struct box {
  float lo[3], hi[3];
} box;

static const char box_source[] =
    "typedef struct point { float x, y, z; } point;\n"
    "typedef struct box { float lo[3], hi[3]; } box;\n"
    "box box_empty(void) {\n"
    "  box b;\n"
    "  for (int k = 0; k < 3; k++) { b.lo[k] = INFINITY; b.hi[k] = -INFINITY; }\n"
    "  return b;\n"
    "}\n"
    "box box_of_point(point p, ulong index) {\n"
    "  box b = {{p.x, p.y, p.z}, {p.x, p.y, p.z}};\n"
    "  return b;\n"
    "}\n"
    "box box_union(box a, box b) {\n"
    "  for (int k = 0; k < 3; k++) {\n"
    "    a.lo[k] = fmin(a.lo[k], b.lo[k]);\n"
    "    a.hi[k] = fmax(a.hi[k], b.hi[k]);\n"
    "  }\n"
    "  return a;\n"
    "}\n";

static int failed(ocl_reduce_context *ctx, ocl_reduce_status s, const char *what) {
  if (s == OCL_REDUCE_OK)
    return 0;
  fprintf(stderr, "%s: %s: %s\n", what, ocl_reduce_status_name(s), ocl_reduce_last_error(ctx));
  return 1;
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
  point *points = malloc((n ? n : 1) * sizeof *points);
  if (!points)
    return 1;
  for (size_t i = 0; i < n; i++) {
    const float t = (float)i / (float)(n ? n : 1);
    points[i].x = 10.0f * cosf(40.0f * t) * t;
    points[i].y = 10.0f * sinf(40.0f * t) * t;
    points[i].z = -5.0f + 20.0f * t;
  }

  ocl_reduce_context *ctx = NULL;
  if (failed(NULL, ocl_reduce_context_create(NULL, &ctx), "ocl_reduce_context_create"))
    return 1;

  ocl_reduce_operator_desc desc = OCL_REDUCE_OPERATOR_DESC_INIT;
  desc.name = "bounding_box";
  desc.source = box_source;
  desc.element_type = "point";
  desc.state_type = "box";
  desc.identity = "box_empty";
  desc.map = "box_of_point";
  desc.combine = "box_union";
  desc.element_size = sizeof(point);
  desc.state_size = sizeof(box);
  desc.commutative = 1;
  ocl_reduce_operator *bbox = NULL;
  int status = failed(ctx, ocl_reduce_operator_create(&desc, &bbox), "operator");

  /* The box of all points. */
  box all;
  if (!status)
    status = failed(ctx,
                    ocl_reduce_into(ctx, bbox, OCL_REDUCE_OP_ELEMENT,
                                    ocl_reduce_host_input(points, n * sizeof *points), n,
                                    ocl_reduce_host_output(&all, sizeof all)),
                    "ocl_reduce_into");
  if (!status)
    printf("%zu points: x [%g, %g], y [%g, %g], z [%g, %g]\n", n, all.lo[0], all.hi[0], all.lo[1],
           all.hi[1], all.lo[2], all.hi[2]);

  /* One box per quarter of the points (equal segments; the remainder is left out). */
  box quarters[4];
  if (!status && n >= 4)
    status = failed(ctx,
                    ocl_reduce_segments(ctx, bbox, OCL_REDUCE_OP_ELEMENT,
                                        ocl_reduce_host_input(points, n * sizeof *points), 4, n / 4,
                                        ocl_reduce_host_output(quarters, sizeof quarters)),
                    "ocl_reduce_segments");
  for (int q = 0; !status && n >= 4 && q < 4; q++)
    printf("quarter %d: z [%g, %g]\n", q, quarters[q].lo[2], quarters[q].hi[2]);

  ocl_reduce_operator_destroy(bbox);
  ocl_reduce_context_destroy(ctx);
  free(points);
  return status;
}
