/* =================================================================================================
 * bench_report.c: the benchmark's results as a table (stdout), CSV, JSON and an SVG plot of GB/s
 * against the element count, one line per contender and one panel per operator and type.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static double bytes_of(const bench_result *r) {
  return (double)r->bc->n * (double)ocl_reduce_type_size(r->bc->type);
}

static double gbs(double bytes, double seconds) { return seconds > 0 ? bytes / seconds * 1e-9 : 0; }

static int same_case(const bench_result *a, const bench_result *b) {
  return a->bc->op == b->bc->op && a->bc->type == b->bc->type && a->bc->n == b->bc->n &&
         a->bc->segment_length == b->bc->segment_length;
}

static void print_n(size_t n, char *buf, size_t size) {
  if (n && (n & (n - 1)) == 0)
    snprintf(buf, size, "2^%d", (int)log2((double)n));
  else
    snprintf(buf, size, "%zu", n);
}

void report_table(const bench_report *r) {
  printf("device      %s\n", r->device);
  if (r->copy_gbs > 0)
    printf("copy        %.1f GB/s measured (bytes read + written); %%copy = input GB/s / that\n",
           r->copy_gbs);
  printf("timing      medians; device = the work on the device (events), end-to-end = the call "
         "until the result is in host memory\n");
  for (int i = 0; i < r->result_count;) {
    int j = i;
    while (j < r->result_count && same_case(&r->results[i], &r->results[j]))
      j++;
    const bench_result *first = &r->results[i];
    char n[32];
    print_n(first->bc->n, n, sizeof n);
    printf("\n%s %s, n = %s (%.1f MiB)", ocl_reduce_op_name(first->bc->op),
           ocl_reduce_type_name(first->bc->type), n, bytes_of(first) / 1048576.0);
    if (first->bc->segment_length)
      printf(" in %zu segments of %zu", first->bc->segment_count, first->bc->segment_length);
    printf("\n");
    printf("  %-46s %10s %9s %6s %10s %9s\n", "contender", "device us", "GB/s", "%copy",
           "e2e us", "GB/s");
    for (int k = i; k < j; k++) {
      const bench_result *x = &r->results[k];
      double b = bytes_of(x), g = gbs(b, x->device_s);
      printf("  %-46s %10.1f %9.2f %5.0f%% %10.1f %9.2f\n", r->contenders[x->contender].name,
             1e6 * x->device_s, g, r->copy_gbs > 0 ? 100 * g / r->copy_gbs : 0,
             1e6 * x->end_to_end_s, gbs(b, x->end_to_end_s));
    }
    for (int k = i; k < j; k++) {
      const bench_result *ours = &r->results[k];
      if (!r->contenders[ours->contender].is_ocl_reduce)
        continue;
      for (int m = i; m < j; m++) {
        const bench_result *other = &r->results[m];
        if (r->contenders[other->contender].is_ocl_reduce)
          continue;
        printf("  ratio %s / %s: device %.3fx, end-to-end %.3fx\n",
               r->contenders[ours->contender].name, r->contenders[other->contender].name,
               other->device_s / ours->device_s, other->end_to_end_s / ours->end_to_end_s);
      }
    }
    i = j;
  }
}

int report_csv(const bench_report *r, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return 0;
  fprintf(f, "op,type,n,segment_length,bytes,contender,device_us,device_gbs,copy_pct,"
             "end_to_end_us,end_to_end_gbs\n");
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    double b = bytes_of(x), g = gbs(b, x->device_s);
    fprintf(f, "%s,%s,%zu,%zu,%.0f,\"%s\",%.3f,%.3f,%.1f,%.3f,%.3f\n",
            ocl_reduce_op_name(x->bc->op), ocl_reduce_type_name(x->bc->type), x->bc->n,
            x->bc->segment_length, b, r->contenders[x->contender].name,
            1e6 * x->device_s, g, r->copy_gbs > 0 ? 100 * g / r->copy_gbs : 0,
            1e6 * x->end_to_end_s, gbs(b, x->end_to_end_s));
  }
  return fclose(f) == 0;
}

int report_json(const bench_report *r, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return 0;
  fprintf(f, "{\n  \"device\": \"%s\",\n  \"copy_gbs\": %.3f,\n  \"results\": [\n", r->device,
          r->copy_gbs);
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    double b = bytes_of(x);
    fprintf(f,
            "    {\"op\": \"%s\", \"type\": \"%s\", \"n\": %zu, \"segment_length\": %zu, "
            "\"contender\": \"%s\", \"device_us\": %.3f, \"device_gbs\": %.3f, "
            "\"end_to_end_us\": %.3f, \"end_to_end_gbs\": %.3f}%s\n",
            ocl_reduce_op_name(x->bc->op), ocl_reduce_type_name(x->bc->type), x->bc->n,
            x->bc->segment_length,
            r->contenders[x->contender].name, 1e6 * x->device_s, gbs(b, x->device_s),
            1e6 * x->end_to_end_s, gbs(b, x->end_to_end_s), i + 1 < r->result_count ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  return fclose(f) == 0;
}

/* ---- SVG ------------------------------------------------------------------------------------- */

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#17becf"};

/* The x coordinate of a result: log2 of the segment length in a segment sweep, else of n. */
static double x_of(const bench_result *x) {
  return log2((double)(x->bc->segment_length ? x->bc->segment_length : x->bc->n));
}

/* One panel: device GB/s against log2(n), or log2(segment length), for the results of one
 * operator and type. */
static void svg_panel(FILE *f, const bench_report *r, ocl_reduce_op op, ocl_reduce_type type,
                      double top) {
  const double left = 70, width = 560, height = 300;
  double min_x = 1e9, max_x = 0, max_y = 0;
  size_t segmented_n = 0;
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    if (x->bc->op != op || x->bc->type != type)
      continue;
    if (x->bc->segment_length)
      segmented_n = x->bc->n;
    double lx = x_of(x), g = gbs(bytes_of(x), x->device_s);
    min_x = lx < min_x ? lx : min_x;
    max_x = lx > max_x ? lx : max_x;
    max_y = g > max_y ? g : max_y;
  }
  if (r->copy_gbs > max_y)
    max_y = r->copy_gbs;
  if (max_x <= min_x)
    max_x = min_x + 1;
  /* A round upper bound for the y axis. */
  double step = pow(10, floor(log10(max_y > 0 ? max_y : 1)));
  double y_top = ceil(max_y / step) * step;
  if (y_top <= 0)
    y_top = 1;
#define X(v) (left + ((v)-min_x) / (max_x - min_x) * width)
#define Y(v) (top + height - (v) / y_top * height)
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\" font-weight=\"bold\">%s %s: device "
             "GB/s against %s</text>\n",
          left, top - 12, ocl_reduce_op_name(op), ocl_reduce_type_name(type),
          segmented_n ? "segment length" : "element count");
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
             "stroke=\"#444\"/>\n",
          left, top, width, height);
  for (int k = 0; k <= 5; k++) {
    double v = y_top * k / 5;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
               "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
            left, Y(v), left + width, Y(v), left - 6, Y(v) + 4, v);
  }
  for (int e = (int)ceil(min_x); e <= (int)max_x; e += 2)
    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">2^%d</text>\n",
            X(e), top + height + 16, e);
  if (segmented_n)
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\">elements per "
               "segment (%zu elements in all)</text>\n",
            left + width / 2, top + height + 34, segmented_n);
  else
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\">elements"
               "</text>\n",
            left + width / 2, top + height + 34);
  if (r->copy_gbs > 0)
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#888\" "
               "stroke-dasharray=\"6 4\"/><text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
               "fill=\"#666\">measured copy bandwidth</text>\n",
            left, Y(r->copy_gbs), left + width, Y(r->copy_gbs), left + 6, Y(r->copy_gbs) - 4);
  for (int c = 0; c < r->contender_count; c++) {
    const char *color = palette[c % (int)(sizeof palette / sizeof palette[0])];
    int points = 0;
    for (int i = 0; i < r->result_count; i++) {
      const bench_result *x = &r->results[i];
      if (x->contender != c || x->bc->op != op || x->bc->type != type)
        continue;
      double px = X(x_of(x)), py = Y(gbs(bytes_of(x), x->device_s));
      if (points++ == 0)
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
      fprintf(f, "%.1f,%.1f ", px, py);
    }
    if (points)
      fprintf(f, "\"/>\n");
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"3\" fill=\"%s\"/>"
               "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">%s</text>\n",
            left + width + 14, top + 10 + 18 * c, color, left + width + 30, top + 14 + 18 * c,
            r->contenders[c].name);
  }
#undef X
#undef Y
}

int report_svg(const bench_report *r, const char *path) {
  /* The panels: distinct (op, type) pairs in order of appearance. */
  ocl_reduce_op ops[64];
  ocl_reduce_type types[64];
  int panels = 0;
  for (int i = 0; i < r->result_count && panels < 64; i++) {
    int seen = 0;
    for (int p = 0; p < panels; p++)
      seen |= ops[p] == r->results[i].bc->op && types[p] == r->results[i].bc->type;
    if (!seen) {
      ops[panels] = r->results[i].bc->op;
      types[panels++] = r->results[i].bc->type;
    }
  }
  FILE *f = fopen(path, "w");
  if (!f)
    return 0;
  const double panel_height = 400;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"%.0f\" "
             "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" "
             "fill=\"white\"/>\n<text x=\"20\" y=\"24\" font-size=\"13\" fill=\"#444\">%s</text>\n",
          40 + panels * panel_height, r->device);
  for (int p = 0; p < panels; p++)
    svg_panel(f, r, ops[p], types[p], 70 + p * panel_height);
  fprintf(f, "</svg>\n");
  return fclose(f) == 0;
}
