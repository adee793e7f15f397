/* =================================================================================================
 * tool_args.c: what every subcommand's argument parsing shares (tool_common.h): getopt_long's
 * errors that name the argument, strict numbers, shapes and axes, the device option, and the text
 * escapes of the machine-readable outputs.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* setenv */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"

int tool_usage_error(const char *command, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fprintf(stderr, "ocl-reduce %s: ", command);
  vfprintf(stderr, fmt, args);
  fprintf(stderr, "\n(ocl-reduce %s --help lists the options)\n", command);
  va_end(args);
  return 2;
}

int tool_option_error(const char *command, char **argv, int code) {
  /* getopt_long leaves the argument it stopped at just before optind; optopt is the short
   * option's letter, or 0 for a long option. */
  const char *arg = argv[optind - 1];
  if (code == ':')
    return optopt && arg[1] != '-'
               ? tool_usage_error(command, "option '-%c' needs a value", optopt)
               : tool_usage_error(command, "option '%s' needs a value", arg);
  if (optopt && arg[1] != '-')
    return tool_usage_error(command, "unknown option '-%c'", optopt);
  return tool_usage_error(command, "unknown option '%s'", arg);
}

int tool_parse_count(const char *text, unsigned long long max, unsigned long long *out) {
  /* Decimal, or hexadecimal after 0x: never octal, so 010 is ten. No sign, no exponent, no
   * trailing characters: "1e3", "12abc" and "-1" are errors, not 1, 12 and a huge number. */
  const int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char *digits = hex ? text + 2 : text;
  if (!((*digits >= '0' && *digits <= '9') ||
        (hex && ((*digits >= 'a' && *digits <= 'f') || (*digits >= 'A' && *digits <= 'F')))))
    return 0;
  char *end = NULL;
  errno = 0;
  const unsigned long long value = strtoull(digits, &end, hex ? 16 : 10);
  if (*end != '\0')
    return 0;
  if (errno != 0 || value > max)
    return -1;
  *out = value;
  return 1;
}

/* An option's text into copy[256], for strtok_r: -1, or 2 (said) when it is longer. */
static int copy_option(const char *command, const char *option, const char *text, char *copy) {
  if (strlen(text) >= 256)
    return tool_usage_error(command, "%s '%.32s...': too long", option, text);
  strcpy(copy, text);
  return -1;
}

int tool_parse_shape(const char *command, const char *text, ocl_reduce_shape *shape) {
  uint64_t extents[OCL_REDUCE_MAX_RANK];
  unsigned rank = 0;
  char copy[256];
  if (copy_option(command, "--shape", text, copy) >= 0)
    return 2;
  for (char *save = NULL, *e = strtok_r(copy, "x", &save); e; e = strtok_r(NULL, "x", &save)) {
    unsigned long long v;
    if (rank == OCL_REDUCE_MAX_RANK)
      return tool_usage_error(command, "--shape '%s': more than %d extents", text,
                              OCL_REDUCE_MAX_RANK);
    if (tool_parse_count(e, UINT64_MAX, &v) != 1)
      return tool_usage_error(command, "--shape '%s': '%s' is not an extent", text, e);
    extents[rank++] = v;
  }
  if (rank == 0 || text[0] == 'x' || text[strlen(text) - 1] == 'x' || strstr(text, "xx"))
    return tool_usage_error(command, "--shape '%s': extents separated by x, as 5000x300", text);
  if (ocl_reduce_shape_dense(rank, extents, shape) != OCL_REDUCE_OK)
    return tool_usage_error(command, "--shape '%s': %s", text, ocl_reduce_last_error(NULL));
  return -1;
}

int tool_parse_axes(const char *command, const char *text, unsigned rank, uint32_t *axes) {
  if (!text) {
    *axes = (1u << rank) - 1;
    return -1;
  }
  char copy[256];
  if (copy_option(command, "--axes", text, copy) >= 0)
    return 2;
  *axes = 0;
  for (char *save = NULL, *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    unsigned long long k;
    if (tool_parse_count(a, rank ? rank - 1 : 0, &k) != 1 || rank == 0)
      return tool_usage_error(command, "--axes '%s': '%s' is not an axis of the shape (0 .. %u)",
                              text, a, rank ? rank - 1 : 0);
    if (*axes & (1u << k))
      return tool_usage_error(command, "--axes '%s': axis %llu twice", text, k);
    *axes |= 1u << k;
  }
  if (*axes == 0)
    return tool_usage_error(command, "--axes '%s': axis numbers separated by commas, as 0,2",
                            text);
  return -1;
}

int tool_parse_int(const char *text, int min, int max, int *out) {
  const int negative = text[0] == '-';
  unsigned long long magnitude = 0;
  if (tool_parse_count(text + negative, (unsigned long long)INT_MAX + 1, &magnitude) != 1)
    return 0;
  const long long value = negative ? -(long long)magnitude : (long long)magnitude;
  if (value < min || value > max)
    return 0;
  *out = (int)value;
  return 1;
}

void tool_select_device(const char *selector) {
  /* Every context the subcommand creates (the benchmark's contenders create their own) takes
   * the device from the environment: the option is the variable, for this process. */
  setenv("OCL_REDUCE_DEVICE", selector, 1);
}

void tool_json_string(FILE *out, const char *text) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

void tool_xml_text(FILE *out, const char *text) {
  for (const char *p = text; *p; p++) {
    switch (*p) {
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&apos;", out); break;
    default: fputc(*p, out);
    }
  }
}
