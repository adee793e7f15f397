/* =================================================================================================
 * cmd_reduce.c: `ocl-reduce reduce`: the quickest way to try the library. Reads numbers from a
 * file or stdin, as text (separated by white space or commas) or as raw binary elements (--binary,
 * little-endian, of --type), reduces them on the device OCL_REDUCE_DEVICE names, prints the result;
 * or, with --shape and --axes, reads them as a dense row-major array and prints the results of
 * ocl_reduce_axes, one per line; or, for a pair operator (--op dot A B), reads two files of
 * as many numbers and prints ocl_reduce_pairs' result.
 * ============================================================================================== */
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

/* Every built-in operator, the pair operators last: OCL_REDUCE_BUILTIN_OP(i) for i below this. */
#define ALL_OPS (OCL_REDUCE_BUILTIN_OPS + OCL_REDUCE_BUILTIN_PAIR_OPS)

/* Whether op reduces two inputs (ocl_reduce_pairs). */
static int is_pair(ocl_reduce_op op) {
  const uintptr_t v = (uintptr_t)op;
  return v >= (uintptr_t)OCL_REDUCE_PAIR_OP(0) &&
         v < (uintptr_t)OCL_REDUCE_PAIR_OP(OCL_REDUCE_BUILTIN_PAIR_OPS);
}

/* The library's names of every built-in operator, or of every type, wrapped after `indent`. */
static void print_names(int operators, const char *indent) {
  const int count = operators ? ALL_OPS : OCL_REDUCE_TYPE_COUNT;
  size_t column = strlen(indent);
  printf("%s", indent);
  for (int i = 0; i < count; i++) {
    const char *name = operators ? ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(i))
                                 : ocl_reduce_type_name((ocl_reduce_type)i);
    if (i && column + strlen(name) + 2 > 92) {
      printf(",\n                      ");
      column = 22;
    } else if (i) {
      printf(", ");
      column += 2;
    }
    printf("%s", name);
    column += strlen(name);
  }
}

static void usage(void) {
  printf("usage: ocl-reduce reduce [options] [FILE]\n"
         "       ocl-reduce reduce --op PAIR_OP [options] A B\n"
         "       ocl-reduce reduce --by-key [--key-type T] [options] [FILE]\n"
         "Reads numbers from FILE (default, or '-': stdin) and prints their reduction; a pair\n"
         "operator (dot, squared_distance, abs_distance, count_equal) reads as many from A and\n"
         "B and prints its reduction of the pairs (count_equal: a u64).\n");
  print_names(1, "  -o, --op OP         ");
  printf("\n                      (default sum)\n");
  print_names(0, "  -t, --type TYPE     ");
  printf(" (default f64)\n");
  printf("  -b, --binary        raw little-endian elements of TYPE instead of text\n"
         "  --shape E0xE1x...   the numbers are a dense row-major array of these extents (at\n"
         "                      most 8, axis 0 outermost); one result per line for each\n"
         "                      position of the axes not in --axes, in row-major order\n"
         "  --axes A,B,...      the axes of --shape to reduce (default: all of them)\n"
         "  --by-key            the text is 'key value' pairs: each run of equal consecutive\n"
         "                      keys reduced, one 'key result' line per run\n"
         "  --key-type T        the keys' type: i32, u32, i64 (default) or u64\n"
         "  --determinism D     run_to_run (default) or cross_device: float sums give the same\n"
         "                      bits on every device\n"
         "  -d, --device DEV    the device, as OCL_REDUCE_DEVICE (P:D, cuda:N, pocl, intel,\n"
         "                      nvidia, cuda, cpu, gpu, or part of its name)\n"
         "  -v, --verbose       say on stderr what ran where\n"
         "  -h, --help          this text\n"
         "Text: numbers separated by spaces, newlines or commas; integers in decimal or 0x hex\n"
         "(010 is ten); floats as C writes them, inf and nan included. A number the type cannot\n"
         "hold is an error. Structured results print their fields: argmin/argmax 'value index',\n"
         "minmax 'min max', mean_var 'count mean m2'.\n");
}

/* An integer of the text: a sign, then decimal or 0x hex digits. Sets *valid (the syntax) and
 * *in_range (the type holds it), and the value's 64 bits. */
static void parse_integer(const char *word, ocl_reduce_type type, int *valid, int *in_range,
                          uint64_t *bits) {
  const int negative = word[0] == '-';
  unsigned long long magnitude = 0;
  const int parsed = tool_parse_count(word + (negative || word[0] == '+'), ULLONG_MAX, &magnitude);
  *valid = parsed != 0;
  const int is_signed = type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64;
  const int wide = type == OCL_REDUCE_I64 || type == OCL_REDUCE_U64;
  const unsigned long long largest = is_signed ? (wide ? INT64_MAX : INT32_MAX)
                                               : (wide ? UINT64_MAX : UINT32_MAX);
  /* Below zero: signed types reach one further (-2^31, -2^63); unsigned ones only -0. */
  const unsigned long long most_negative = is_signed ? largest + 1 : 0;
  *in_range = parsed == 1 && magnitude <= (negative ? most_negative : largest);
  *bits = negative ? 0 - (uint64_t)magnitude : (uint64_t)magnitude;
}

/* The decimal `word` rounded once, to nearest even, to the 16-bit type: decimal to double and
 * double to float each round, and a value just above a 16-bit tie that lands on it would then
 * round to even, not up ("1.000488281250000000867..." as f16 gave 1, not 1.0009765625). So both
 * roundings are to odd (truncated, the last bit set where anything was cut), which keeps the
 * sticky information for the one rounding to nearest at the end: float's 24 bits are more than
 * the 16-bit types' 11 + 2. *overflow: the decimal is beyond double's range. */
static uint16_t parse_half(const char *word, ocl_reduce_type type, char **end, int *overflow) {
  const int mode = fegetround();
  fesetround(FE_UPWARD);
  const double up = strtod(word, NULL);
  fesetround(FE_DOWNWARD);
  const double down = strtod(word, NULL);
  fesetround(FE_TOWARDZERO);
  errno = 0;
  double d = strtod(word, end);
  *overflow = errno == ERANGE && (fabs(up) == HUGE_VAL || fabs(down) == HUGE_VAL);
  uint64_t dbits;
  memcpy(&dbits, &d, sizeof d);
  if (up != down && !isinf(d)) /* inexact: to odd */
    dbits |= 1;
  memcpy(&d, &dbits, sizeof d);
  float f = (float)d; /* toward zero, still */
  uint32_t fbits;
  memcpy(&fbits, &f, sizeof f);
  if ((double)f != d && !isnan(d))
    fbits |= 1;
  memcpy(&f, &fbits, sizeof f);
  fesetround(mode);
  return ocl_reduce_half_from_float(type, f);
}

/* Appends one element parsed from `word`; returns 0 with a message on bad input. */
static int append_text(const char *word, ocl_reduce_type type, unsigned char **data, size_t *count,
                       size_t *capacity, size_t line) {
  const size_t size = ocl_reduce_type_size(type);
  if ((*count + 1) * size > *capacity) {
    size_t grown = *capacity ? 2 * *capacity : 4096;
    unsigned char *p = realloc(*data, grown);
    if (!p)
      return fprintf(stderr, "ocl-reduce: out of host memory\n"), 0;
    *data = p;
    *capacity = grown;
  }
  unsigned char *at = *data + *count * size;
  int valid = 1, in_range = 1;
  const int half = type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
  if (half) {
    char *end = NULL;
    int overflow = 0;
    const uint16_t bits = parse_half(word, type, &end, &overflow);
    valid = end != word && *end == '\0';
    /* Overflow: an infinity from a finite decimal (not underflow, which rounds to a subnormal
     * or zero as any C parser does). */
    const int infinite = isinf(ocl_reduce_float_from_half(type, bits));
    in_range = !overflow && !(infinite && !isinf(strtod(word, NULL)));
    memcpy(at, &bits, 2);
  } else if (type == OCL_REDUCE_F32) { /* strtof: rounded once (through a double: twice) */
    char *end = NULL;
    errno = 0;
    const float f = strtof(word, &end);
    valid = end != word && *end == '\0';
    in_range = !(errno == ERANGE && isinf(f));
    memcpy(at, &f, size);
  } else if (type == OCL_REDUCE_F64) {
    char *end = NULL;
    errno = 0;
    const double v = strtod(word, &end);
    valid = end != word && *end == '\0';
    in_range = !(errno == ERANGE && fabs(v) == HUGE_VAL);
    memcpy(at, &v, size);
  } else {
    uint64_t bits = 0;
    parse_integer(word, type, &valid, &in_range, &bits);
    const uint32_t narrow = (uint32_t)bits; /* two's complement: the low half, signed or not */
    memcpy(at, size == 4 ? (const void *)&narrow : (const void *)&bits, size);
  }
  if (!valid || !in_range) {
    fprintf(stderr, "ocl-reduce reduce: line %zu: '%s' is %s %s\n", line, word,
            valid ? "out of range for" : "not a valid", ocl_reduce_type_name(type));
    return 0;
  }
  (*count)++;
  return 1;
}

/* The words of the text, word n into stream n % streams (its type, data and count): one stream of
 * numbers, or --by-key's keys and values in turn. */
static int read_text(FILE *in, const ocl_reduce_type *types, int streams, unsigned char **data,
                     size_t *count) {
  size_t capacity[2] = {0, 0}, line = 1, len = 0, words = 0;
  char word[256];
  int c;
  for (int k = 0; k < streams; k++)
    count[k] = 0;
  do {
    c = fgetc(in);
    if (c == '\0') {
      /* Binary data, or a number a NUL cuts: "1\0002" is no 1. */
      fprintf(stderr, "ocl-reduce reduce: line %zu: a NUL byte in the text (for binary input, "
                      "--binary)\n", line);
      return 0;
    }
    if (c == EOF || isspace(c) || c == ',') {
      if (len) {
        word[len] = '\0';
        const int k = (int)(words++ % (size_t)streams);
        if (!append_text(word, types[k], &data[k], &count[k], &capacity[k], line))
          return 0;
        len = 0;
      }
      line += c == '\n';
    } else if (len + 1 < sizeof word) {
      word[len++] = (char)c;
    } else {
      fprintf(stderr, "ocl-reduce reduce: line %zu: a number longer than %zu characters\n", line,
              sizeof word - 1);
      return 0;
    }
  } while (c != EOF);
  if (words % (size_t)streams) {
    fprintf(stderr, "ocl-reduce reduce: line %zu: a key without its value\n", line);
    return 0;
  }
  return 1;
}

static int read_binary(FILE *in, ocl_reduce_type type, unsigned char **data, size_t *count) {
  size_t bytes = 0, capacity = 0;
  for (;;) {
    if (bytes + 65536 > capacity) {
      capacity = capacity ? 2 * capacity : 1 << 20;
      unsigned char *p = realloc(*data, capacity);
      if (!p)
        return fprintf(stderr, "ocl-reduce: out of host memory\n"), 0;
      *data = p;
    }
    size_t got = fread(*data + bytes, 1, 65536, in);
    bytes += got;
    if (got < 65536)
      break;
  }
  const size_t size = ocl_reduce_type_size(type);
  if (bytes % size) {
    fprintf(stderr, "ocl-reduce reduce: %zu bytes are not a whole number of %s elements\n", bytes,
            ocl_reduce_type_name(type));
    return 0;
  }
  *count = bytes / size;
  return 1;
}

/* Opens FILE for reading, or takes stdin; a directory is refused here (fopen takes one and the
 * first read fails). NULL after a message. */
static FILE *open_input(const char *path, int binary) {
  if (!path || !strcmp(path, "-"))
    return stdin;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "ocl-reduce reduce: %s is a directory\n", path);
    return NULL;
  }
  FILE *in = fopen(path, binary ? "rb" : "r");
  if (!in)
    fprintf(stderr, "ocl-reduce reduce: cannot open %s: %s\n", path, strerror(errno));
  return in;
}

typedef struct reduce_args {
  ocl_reduce_op op;
  ocl_reduce_type type;
  ocl_reduce_determinism determinism;
  int binary, verbose;
  const char *path;
  const char *shape, *axes; /* --shape, --axes: NULL when not given */
  const char *second;       /* a pair operator's B */
  int by_key;               /* --by-key: "key value" pairs, runs of equal keys reduced */
  ocl_reduce_type key_type; /* --key-type */
} reduce_args;

static int parse_args(int argc, char **argv, reduce_args *r) {
  static const struct option longs[] = {{"op", required_argument, NULL, 'o'},
                                        {"type", required_argument, NULL, 't'},
                                        {"binary", no_argument, NULL, 'b'},
                                        {"device", required_argument, NULL, 'd'},
                                        {"verbose", no_argument, NULL, 'v'},
                                        {"help", no_argument, NULL, 'h'},
                                        {"determinism", required_argument, NULL, 'D'},
                                        {"shape", required_argument, NULL, 'S'},
                                        {"axes", required_argument, NULL, 'A'},
                                        {"by-key", no_argument, NULL, 'K'},
                                        {"key-type", required_argument, NULL, 'k'},
                                        {NULL, 0, NULL, 0}};
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":o:t:bd:vh", longs, NULL)) != -1;) {
    int found = 0;
    switch (c) {
    case 'o':
      for (int o = 0; o < ALL_OPS; o++)
        if (!strcmp(optarg, ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(o))))
          r->op = OCL_REDUCE_BUILTIN_OP(o), found = 1;
      if (!found)
        return tool_usage_error("reduce", "--op: unknown operator '%s' (see --help)", optarg);
      break;
    case 'D':
      if (!strcmp(optarg, "run_to_run"))
        r->determinism = OCL_REDUCE_RUN_TO_RUN;
      else if (!strcmp(optarg, "cross_device"))
        r->determinism = OCL_REDUCE_CROSS_DEVICE;
      else
        return tool_usage_error("reduce", "--determinism: '%s' is not run_to_run or cross_device",
                                optarg);
      break;
    case 't':
    case 'k':
      for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++)
        if (!strcmp(optarg, ocl_reduce_type_name((ocl_reduce_type)t)))
          *(c == 't' ? &r->type : &r->key_type) = (ocl_reduce_type)t, found = 1;
      if (!found)
        return tool_usage_error("reduce", "--%s: unknown type '%s' (i32, u32, i64, u64, f32, "
                                          "f64, f16, bf16)", c == 't' ? "type" : "key-type",
                                optarg);
      break;
    case 'K': r->by_key = 1; break;
    case 'b': r->binary = 1; break;
    case 'd': tool_select_device(optarg); break;
    case 'v': r->verbose = 1; break;
    case 'S': r->shape = optarg; break;
    case 'A': r->axes = optarg; break;
    case 'h': usage(); return 0;
    default: return tool_option_error("reduce", argv, c);
    }
  }
  if (is_pair(r->op)) {
    if (optind + 2 != argc)
      return tool_usage_error("reduce", "--op %s reduces two files, A and B: %d given",
                              ocl_reduce_op_name(r->op), argc - optind);
    if (r->shape)
      return tool_usage_error("reduce", "--op %s takes no --shape", ocl_reduce_op_name(r->op));
    r->second = argv[optind + 1];
  } else if (optind + 1 < argc) {
    return tool_usage_error("reduce", "one input file at most: '%s' is a second", argv[optind + 1]);
  }
  if (r->axes && !r->shape)
    return tool_usage_error("reduce", "--axes needs --shape");
  if (r->by_key && (r->shape || r->second || r->binary))
    return tool_usage_error("reduce", "--by-key reads text, and takes no --shape, --binary or "
                                      "pair operator");
  r->path = optind < argc ? argv[optind] : NULL;
  return -1;
}

/* One value of the type, as the tool prints it. */
static void print_value(const void *value, ocl_reduce_type type) {
  switch (type) {
  case OCL_REDUCE_I32: printf("%" PRId32, *(const int32_t *)value); break;
  case OCL_REDUCE_U32: printf("%" PRIu32, *(const uint32_t *)value); break;
  case OCL_REDUCE_I64: printf("%" PRId64, *(const int64_t *)value); break;
  case OCL_REDUCE_U64: printf("%" PRIu64, *(const uint64_t *)value); break;
  case OCL_REDUCE_F32: printf("%.9g", (double)*(const float *)value); break;
  case OCL_REDUCE_F64: printf("%.17g", *(const double *)value); break;
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16: {
    uint16_t bits;
    memcpy(&bits, value, 2);
    printf("%.9g", (double)ocl_reduce_float_from_half(type, bits));
    break;
  }
  }
}

/* The result's fields on one line: the structured operators' layouts (ocl_reduce.h). */
static void print_result(const void *result, ocl_reduce_op op, ocl_reduce_type type) {
  if (op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_ARGMAX) {
    const ocl_reduce_arg *arg = result;
    print_value(&arg->value, type);
    if (arg->index == UINT64_MAX)
      printf(" none\n");
    else
      printf(" %" PRIu64 "\n", arg->index);
  } else if (op == OCL_REDUCE_MINMAX) {
    print_value(result, type);
    printf(" ");
    print_value((const unsigned char *)result + ocl_reduce_type_size(type), type);
    printf("\n");
  } else if (op == OCL_REDUCE_MEAN_VAR) {
    const ocl_reduce_moments *m = result;
    printf("%" PRIu64 " %.17g %.17g\n", m->count, m->mean, m->m2);
  } else if (op == OCL_REDUCE_SUM_WIDE) {
    /* i32 -> int64_t, u32 -> uint64_t, f32 -> double */
    print_value(result, type == OCL_REDUCE_I32   ? OCL_REDUCE_I64
                        : type == OCL_REDUCE_U32 ? OCL_REDUCE_U64
                                                 : OCL_REDUCE_F64);
    printf("\n");
  } else if (op == OCL_REDUCE_COUNT_EQUAL) {
    print_value(result, OCL_REDUCE_U64);
    printf("\n");
  } else {
    /* 16-bit elements' sums are f32 (their MIN and MAX are elements). */
    const int f32 = ocl_reduce_result_size(op, type) == 4 && ocl_reduce_type_size(type) == 2;
    print_value(result, f32 ? OCL_REDUCE_F32 : type);
    printf("\n");
  }
}

/* The numbers as the --shape array, reduced along --axes: one result per line. */
static ocl_reduce_status reduce_shape(ocl_reduce_context *ctx, const reduce_args *r,
                                      const ocl_reduce_shape *shape, uint32_t axes,
                                      const unsigned char *data, size_t count) {
  const size_t rsize = ocl_reduce_result_size(r->op, r->type);
  uint64_t results = 1;
  for (unsigned k = 0; k < shape->rank; k++)
    if (!((axes >> k) & 1u))
      results *= shape->extents[k]; /* below count, checked by the caller */
  unsigned char *out = malloc(results ? (size_t)results * rsize : 1);
  if (!out)
    return OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  const ocl_reduce_status s = ocl_reduce_axes(
      ctx, r->op, r->type, ocl_reduce_host_input(data, count * ocl_reduce_type_size(r->type)),
      shape, axes, ocl_reduce_host_output(out, (size_t)results * rsize));
  for (uint64_t i = 0; s == OCL_REDUCE_OK && i < results; i++)
    print_result(out + i * rsize, r->op, r->type);
  free(out);
  return s;
}

/* --shape and --axes against the numbers read: -1 to go on, else the exit status. */
static int check_shape(const reduce_args *r, size_t count, ocl_reduce_shape *shape,
                       uint32_t *axes) {
  int done = tool_parse_shape("reduce", r->shape, shape);
  if (done >= 0)
    return done; /* no shape: its rank is not set */
  done = tool_parse_axes("reduce", r->axes, shape->rank, axes);
  uint64_t elements = 1;
  for (unsigned k = 0; done < 0 && k < shape->rank; k++)
    elements = shape->extents[k] && elements > UINT64_MAX / shape->extents[k]
                   ? UINT64_MAX
                   : elements * shape->extents[k];
  if (done < 0 && elements != count) {
    fprintf(stderr, "ocl-reduce reduce: --shape %s holds %" PRIu64 " elements, the input %zu\n",
            r->shape, elements, count);
    return 1;
  }
  return done;
}

/* The numbers of one file (NULL or "-": stdin), as the options say, into data[0] (--by-key: the
 * keys there, the values into data[1]); 0 after a message. */
static int read_numbers(const reduce_args *r, const char *path, unsigned char **data,
                        size_t *count) {
  FILE *in = open_input(path, r->binary);
  if (!in)
    return 0;
  const ocl_reduce_type types[2] = {r->key_type, r->type};
  const int keyed = r->by_key != 0;
  int ok = r->binary ? read_binary(in, r->type, data, count)
                     : read_text(in, types + !keyed, 1 + keyed, data, count);
  if (ok && ferror(in)) {
    fprintf(stderr, "ocl-reduce reduce: cannot read %s: %s\n",
            path && strcmp(path, "-") ? path : "stdin", strerror(errno));
    ok = 0;
  }
  if (in != stdin)
    fclose(in);
  return ok;
}

/* A pair operator over the numbers of A and of B, as many of each. */
static ocl_reduce_status reduce_pairs(ocl_reduce_context *ctx, const reduce_args *r,
                                      const unsigned char *a, const unsigned char *b,
                                      size_t count, unsigned char *result, size_t bytes) {
  const size_t size = ocl_reduce_type_size(r->type);
  return ocl_reduce_pairs(ctx, r->op, r->type, ocl_reduce_host_input(a, count * size),
                          ocl_reduce_host_input(b, count * size), count,
                          ocl_reduce_host_output(result, bytes));
}

/* The runs of equal keys: each run's key and result on a line. */
static ocl_reduce_status reduce_by_key(ocl_reduce_context *ctx, const reduce_args *r,
                                       unsigned char *const *data, size_t count) {
  const size_t ksize = ocl_reduce_type_size(r->key_type);
  const size_t rsize = ocl_reduce_result_size(r->op, r->type);
  unsigned char *keys = malloc(count ? count * ksize : 1), *out = malloc(count ? count * rsize : 1);
  uint64_t runs = 0;
  ocl_reduce_status s = OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  if (keys && out) /* room for count runs: always enough */
    s = ocl_reduce_by_key(ctx, r->op, r->type, r->key_type,
                          ocl_reduce_host_input(data[0], count * ksize),
                          ocl_reduce_host_input(data[1], count * ocl_reduce_type_size(r->type)),
                          count, ocl_reduce_host_output(keys, count * ksize),
                          ocl_reduce_host_output(out, count * rsize), &runs);
  for (uint64_t i = 0; s == OCL_REDUCE_OK && i < runs; i++) {
    print_value(keys + i * ksize, r->key_type);
    printf(" ");
    print_result(out + i * rsize, r->op, r->type);
  }
  free(keys);
  free(out);
  return s;
}

/* The numbers read and checked against the options: -1 to go on, else the exit status. */
static int read_inputs(reduce_args *r, unsigned char **data, size_t *count,
                       ocl_reduce_shape *shape, uint32_t *axes) {
  int ok = read_numbers(r, r->path, data, count);
  if (ok && r->second && !read_numbers(r, r->second, &data[1], &count[1]))
    ok = 0;
  if (ok && r->second && count[1] != count[0]) {
    fprintf(stderr, "ocl-reduce reduce: %s has %zu numbers and %s %zu: pairs need as many\n",
            r->path, count[0], r->second, count[1]);
    ok = 0;
  }
  if (!ok)
    return 1;
  return r->shape ? check_shape(r, count[0], shape, axes) : -1;
}

int cmd_reduce(int argc, char **argv) {
  reduce_args r = {OCL_REDUCE_SUM, OCL_REDUCE_F64, OCL_REDUCE_DETERMINISM_DEFAULT, 0, 0, NULL,
                   NULL, NULL, NULL, 0, OCL_REDUCE_I64};
  const int done = parse_args(argc, argv, &r);
  if (done >= 0)
    return done;
  unsigned char *data[2] = {NULL, NULL}; /* the numbers and a pair's B; --by-key: keys, values */
  size_t count[2] = {0, 0};
  ocl_reduce_shape shape;
  uint32_t axes = 0;
  const int read_done = read_inputs(&r, data, count, &shape, &axes);
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = OCL_REDUCE_OK;
  if (read_done < 0) {
    ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
    opts.determinism = r.determinism;
    s = ocl_reduce_context_create(&opts, &ctx);
  }
  if (read_done >= 0 || s != OCL_REDUCE_OK) {
    free(data[0]);
    free(data[1]);
    return read_done >= 0 ? read_done : tool_fail("creating a context", s, NULL);
  }
  unsigned char result[64] = {0};
  s = r.by_key   ? reduce_by_key(ctx, &r, data, count[0])
      : r.shape  ? reduce_shape(ctx, &r, &shape, axes, data[0], count[0])
      : r.second ? reduce_pairs(ctx, &r, data[0], data[1], count[0], result, sizeof result)
                 : ocl_reduce(ctx, r.op, r.type, data[0], count[0], result, sizeof result);
  if (s == OCL_REDUCE_OK && r.verbose) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(ctx, &info);
    fprintf(stderr, "%s of %zu %s on %s / %s (%s path)\n", ocl_reduce_op_name(r.op), count[0],
            ocl_reduce_type_name(r.type), info.platform_name, info.device_name,
            info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local");
  }
  int rc = 0;
  if (s != OCL_REDUCE_OK)
    rc = tool_fail("reducing", s, ctx);
  else if (!r.shape && !r.by_key)
    print_result(result, r.op, r.type);
  ocl_reduce_context_destroy(ctx);
  free(data[0]);
  free(data[1]);
  return rc;
}
