/* =================================================================================================
 * bench_report.c: the benchmark's results as a table (stdout), CSV, JSON and an SVG plot of GB/s
 * (log scale) against the element count, one line per contender, two panels (device and
 * end-to-end) per operator and type. Every median comes with its spread (fastest call and 90th
 * percentile), and a noisy one is flagged.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tool_common.h"

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

static int noisy(const bench_spread *s) { return s->p90_s > BENCH_NOISY * s->median_s; }

void report_table(const bench_report *r) {
  printf("device      %s\n", r->device);
  if (r->copy_gbs > 0)
    printf("copy        %.1f GB/s measured (bytes read + written); %%copy = input GB/s / that\n",
           r->copy_gbs);
  printf("timing      medians, with the fastest call and the 90th percentile (min-p90); device ="
         " the work on the device (events), end-to-end = the call until the result is in host "
         "memory\n");
  int noisy_rows = 0;
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
    printf("  %-46s %10s %17s %9s %6s %10s %17s %9s\n", "contender", "device us", "min-p90",
           "GB/s", "%copy", "e2e us", "min-p90", "GB/s");
    for (int k = i; k < j; k++) {
      const bench_result *x = &r->results[k];
      const double b = bytes_of(x), g = gbs(b, x->device.median_s);
      char device_spread[32], e2e_spread[32];
      snprintf(device_spread, sizeof device_spread, "%.1f-%.1f", 1e6 * x->device.min_s,
               1e6 * x->device.p90_s);
      snprintf(e2e_spread, sizeof e2e_spread, "%.1f-%.1f", 1e6 * x->end_to_end.min_s,
               1e6 * x->end_to_end.p90_s);
      printf("  %-46s %10.1f %17s %9.2f %5.0f%% %10.1f %17s %9.2f%s\n",
             r->contenders[x->contender].name, 1e6 * x->device.median_s, device_spread, g,
             r->copy_gbs > 0 ? 100 * g / r->copy_gbs : 0, 1e6 * x->end_to_end.median_s,
             e2e_spread, gbs(b, x->end_to_end.median_s),
             noisy(&x->device) || noisy(&x->end_to_end) ? "  (noisy)" : "");
      noisy_rows += noisy(&x->device) || noisy(&x->end_to_end);
    }
    for (int k = i; k < j; k++) {
      const bench_result *ours = &r->results[k];
      if (!r->contenders[ours->contender].is_ocl_reduce)
        continue;
      for (int m = i; m < j; m++) {
        const bench_result *other = &r->results[m];
        if (r->contenders[other->contender].is_ocl_reduce)
          continue;
        /* Their time over ours: above 1 where ours is faster. */
        printf("  speed of %s relative to %s (their time / ours, > 1: ours faster): device "
               "%.3fx, end-to-end %.3fx\n",
               r->contenders[ours->contender].name, r->contenders[other->contender].name,
               other->device.median_s / ours->device.median_s,
               other->end_to_end.median_s / ours->end_to_end.median_s);
      }
    }
    i = j;
  }
  if (noisy_rows)
    fprintf(stderr, "ocl-reduce bench: warning: %d rows are noisy (90th percentile above %.2fx "
                    "the median): other work on the machine, or too few --reps; their ratios "
                    "are not to be trusted\n",
            noisy_rows, BENCH_NOISY);
}

int report_csv(const bench_report *r, FILE *f) {
  fprintf(f, "op,type,n,segment_length,bytes,contender,device_us,device_min_us,device_p90_us,"
             "device_gbs,copy_pct,end_to_end_us,end_to_end_min_us,end_to_end_p90_us,"
             "end_to_end_gbs\n");
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    const double b = bytes_of(x), g = gbs(b, x->device.median_s);
    fprintf(f, "%s,%s,%zu,%zu,%.0f,\"", ocl_reduce_op_name(x->bc->op),
            ocl_reduce_type_name(x->bc->type), x->bc->n, x->bc->segment_length, b);
    for (const char *c = r->contenders[x->contender].name; *c; c++) /* RFC 4180 quoting */
      fprintf(f, *c == '"' ? "\"\"" : "%c", *c);
    fprintf(f, "\",%.3f,%.3f,%.3f,%.3f,%.1f,%.3f,%.3f,%.3f,%.3f\n", 1e6 * x->device.median_s,
            1e6 * x->device.min_s, 1e6 * x->device.p90_s, g,
            r->copy_gbs > 0 ? 100 * g / r->copy_gbs : 0, 1e6 * x->end_to_end.median_s,
            1e6 * x->end_to_end.min_s, 1e6 * x->end_to_end.p90_s,
            gbs(b, x->end_to_end.median_s));
  }
  return fclose(f) == 0;
}

int report_json(const bench_report *r, FILE *f) {
  fprintf(f, "{\n  \"device\": ");
  tool_json_string(f, r->device);
  fprintf(f, ",\n  \"copy_gbs\": %.3f,\n  \"noisy_above\": %.2f,\n  \"results\": [\n",
          r->copy_gbs, BENCH_NOISY);
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    const double b = bytes_of(x);
    fprintf(f, "    {\"op\": \"%s\", \"type\": \"%s\", \"n\": %zu, \"segment_length\": %zu, "
               "\"contender\": ",
            ocl_reduce_op_name(x->bc->op), ocl_reduce_type_name(x->bc->type), x->bc->n,
            x->bc->segment_length);
    tool_json_string(f, r->contenders[x->contender].name);
    fprintf(f, ", \"device_us\": %.3f, \"device_min_us\": %.3f, \"device_p90_us\": %.3f, "
               "\"device_gbs\": %.3f, \"end_to_end_us\": %.3f, \"end_to_end_min_us\": %.3f, "
               "\"end_to_end_p90_us\": %.3f, \"end_to_end_gbs\": %.3f, \"noisy\": %s}%s\n",
            1e6 * x->device.median_s, 1e6 * x->device.min_s, 1e6 * x->device.p90_s,
            gbs(b, x->device.median_s), 1e6 * x->end_to_end.median_s,
            1e6 * x->end_to_end.min_s, 1e6 * x->end_to_end.p90_s,
            gbs(b, x->end_to_end.median_s),
            noisy(&x->device) || noisy(&x->end_to_end) ? "true" : "false",
            i + 1 < r->result_count ? "," : "");
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

/* The GB/s a panel plots: of the device time, or of the end-to-end time. */
static double y_of(const bench_result *x, int end_to_end) {
  return gbs(bytes_of(x), end_to_end ? x->end_to_end.median_s : x->device.median_s);
}

/* One panel: device (or end-to-end) GB/s, on a log scale, against log2(n) or log2(segment
 * length), for the results of one operator and type. Small sizes are 1000x slower than large
 * ones, so a linear axis would show them as a flat line at zero. */
static void svg_panel(FILE *f, const bench_report *r, ocl_reduce_op op, ocl_reduce_type type,
                      int end_to_end, double top) {
  const double left = 70, width = 560, height = 300;
  double min_x = 1e9, max_x = 0, min_y = 1e30, max_y = 0;
  size_t segmented_n = 0;
  for (int i = 0; i < r->result_count; i++) {
    const bench_result *x = &r->results[i];
    if (x->bc->op != op || x->bc->type != type)
      continue;
    if (x->bc->segment_length)
      segmented_n = x->bc->n;
    const double lx = x_of(x), g = y_of(x, end_to_end);
    min_x = lx < min_x ? lx : min_x;
    max_x = lx > max_x ? lx : max_x;
    if (g > 0) {
      min_y = g < min_y ? g : min_y;
      max_y = g > max_y ? g : max_y;
    }
  }
  if (!end_to_end && r->copy_gbs > max_y)
    max_y = r->copy_gbs;
  if (max_x <= min_x)
    max_x = min_x + 1;
  /* Whole decades around the data. */
  const double lo = floor(log10(min_y < max_y ? min_y : (max_y > 0 ? max_y / 10 : 0.1)));
  double hi = ceil(log10(max_y > 0 ? max_y : 1));
  if (hi <= lo)
    hi = lo + 1;
#define X(v) (left + ((v)-min_x) / (max_x - min_x) * width)
#define Y(v) (top + height - (log10(v) - lo) / (hi - lo) * height)
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\" font-weight=\"bold\">%s %s: %s GB/s "
             "against %s</text>\n",
          left, top - 12, ocl_reduce_op_name(op), ocl_reduce_type_name(type),
          end_to_end ? "end-to-end" : "device", segmented_n ? "segment length" : "element count");
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
             "stroke=\"#444\"/>\n",
          left, top, width, height);
  for (double decade = lo; decade <= hi; decade++) {
    const double v = pow(10, decade);
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
  if (!end_to_end && r->copy_gbs > 0)
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#888\" "
               "stroke-dasharray=\"6 4\"/><text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
               "fill=\"#666\">measured copy bandwidth</text>\n",
            left, Y(r->copy_gbs), left + width, Y(r->copy_gbs), left + 6, Y(r->copy_gbs) - 4);
  for (int c = 0; c < r->contender_count; c++) {
    const char *color = palette[c % (int)(sizeof palette / sizeof palette[0])];
    int points = 0;
    for (int i = 0; i < r->result_count; i++) {
      const bench_result *x = &r->results[i];
      if (x->contender != c || x->bc->op != op || x->bc->type != type || y_of(x, end_to_end) <= 0)
        continue;
      if (points++ == 0)
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
      fprintf(f, "%.1f,%.1f ", X(x_of(x)), Y(y_of(x, end_to_end)));
    }
    if (points)
      fprintf(f, "\"/>\n");
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"3\" fill=\"%s\"/>"
               "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
            left + width + 14, top + 10 + 18 * c, color, left + width + 30, top + 14 + 18 * c);
    tool_xml_text(f, r->contenders[c].name);
    fprintf(f, "</text>\n");
  }
#undef X
#undef Y
}

int report_svg(const bench_report *r, FILE *f) {
  /* The panels: distinct (op, type) pairs in order of appearance, each as device and as
   * end-to-end GB/s. */
  ocl_reduce_op ops[64];
  ocl_reduce_type types[64];
  int pairs = 0;
  for (int i = 0; i < r->result_count && pairs < 64; i++) {
    int seen = 0;
    for (int p = 0; p < pairs; p++)
      seen |= ops[p] == r->results[i].bc->op && types[p] == r->results[i].bc->type;
    if (!seen) {
      ops[pairs] = r->results[i].bc->op;
      types[pairs++] = r->results[i].bc->type;
    }
  }
  const double panel_height = 400;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"%.0f\" "
             "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" "
             "fill=\"white\"/>\n<text x=\"20\" y=\"24\" font-size=\"13\" fill=\"#444\">",
          40 + 2 * pairs * panel_height);
  tool_xml_text(f, r->device);
  fprintf(f, "</text>\n");
  for (int p = 0; p < pairs; p++)
    for (int end_to_end = 0; end_to_end < 2; end_to_end++)
      svg_panel(f, r, ops[p], types[p], end_to_end, 70 + (2 * p + end_to_end) * panel_height);
  fprintf(f, "</svg>\n");
  return fclose(f) == 0;
}
