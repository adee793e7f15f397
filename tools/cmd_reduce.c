/* =================================================================================================
 * cmd_reduce.c: `ocl-reduce reduce`: the quickest way to try the library. Reads numbers from a
 * file or stdin, as text (separated by white space or commas) or as raw binary elements (--binary,
 * little-endian, of --type), reduces them on the device OCL_REDUCE_DEVICE names, prints the result.
 * ============================================================================================== */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int usage(void) {
  fprintf(stderr, "usage: ocl-reduce reduce [--op sum|prod|min|max|and|or|xor] "
                  "[--type i32|u32|i64|u64|f32|f64] [--binary] [-v] [FILE]\n"
                  "Reads FILE (default: stdin). Text: numbers separated by spaces, newlines or "
                  "commas.\n--binary: raw little-endian elements of --type. Defaults: --op sum "
                  "--type f64.\n");
  return 2;
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
  char *end = NULL;
  errno = 0;
  int ok = 1;
  if (type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64) {
    double v = strtod(word, &end);
    if (type == OCL_REDUCE_F32) {
      float f = (float)v;
      memcpy(at, &f, 4);
    } else {
      memcpy(at, &v, 8);
    }
  } else if (type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64) {
    long long v = strtoll(word, &end, 0);
    ok = errno == 0 && (type == OCL_REDUCE_I64 || (v >= INT32_MIN && v <= INT32_MAX));
    int32_t narrow = (int32_t)v;
    int64_t wide = (int64_t)v;
    memcpy(at, type == OCL_REDUCE_I32 ? (void *)&narrow : (void *)&wide, size);
  } else {
    ok = word[0] != '-';
    unsigned long long v = strtoull(word, &end, 0);
    ok = ok && errno == 0 && (type == OCL_REDUCE_U64 || v <= UINT32_MAX);
    uint32_t narrow = (uint32_t)v;
    uint64_t wide = (uint64_t)v;
    memcpy(at, type == OCL_REDUCE_U32 ? (void *)&narrow : (void *)&wide, size);
  }
  if (!ok || end == word || *end != '\0') {
    fprintf(stderr, "ocl-reduce: line %zu: '%s' is %s %s\n", line, word,
            ok ? "not a valid" : "out of range for", ocl_reduce_type_name(type));
    return 0;
  }
  (*count)++;
  return 1;
}

static int read_text(FILE *in, ocl_reduce_type type, unsigned char **data, size_t *count) {
  size_t capacity = 0, line = 1, len = 0;
  char word[256];
  int c;
  *count = 0;
  do {
    c = fgetc(in);
    if (c == EOF || isspace(c) || c == ',') {
      if (len) {
        word[len] = '\0';
        if (!append_text(word, type, data, count, &capacity, line))
          return 0;
        len = 0;
      }
      line += c == '\n';
    } else if (len + 1 < sizeof word) {
      word[len++] = (char)c;
    } else {
      fprintf(stderr, "ocl-reduce: line %zu: a number longer than %zu characters\n", line,
              sizeof word - 1);
      return 0;
    }
  } while (c != EOF);
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
    fprintf(stderr, "ocl-reduce: %zu bytes are not a whole number of %s elements\n", bytes,
            ocl_reduce_type_name(type));
    return 0;
  }
  *count = bytes / size;
  return 1;
}

int cmd_reduce(int argc, char **argv) {
  ocl_reduce_op op = OCL_REDUCE_SUM;
  ocl_reduce_type type = OCL_REDUCE_F64;
  int binary = 0, verbose = 0;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    int found = 0;
    if (!strcmp(argv[i], "--binary")) {
      binary = 1;
    } else if (!strcmp(argv[i], "-v")) {
      verbose = 1;
    } else if (!strcmp(argv[i], "--op") && i + 1 < argc) {
      for (int o = 0; o <= OCL_REDUCE_XOR; o++) /* scalar operators: one element printed */
        if (!strcmp(argv[i + 1], ocl_reduce_op_name((ocl_reduce_op)o)))
          op = (ocl_reduce_op)o, found = 1;
      if (!found)
        return usage();
      i++;
    } else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
      for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++)
        if (!strcmp(argv[i + 1], ocl_reduce_type_name((ocl_reduce_type)t)))
          type = (ocl_reduce_type)t, found = 1;
      if (!found)
        return usage();
      i++;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return usage();
    } else if (!path) {
      path = argv[i];
    } else {
      return usage();
    }
  }
  FILE *in = (!path || !strcmp(path, "-")) ? stdin : fopen(path, binary ? "rb" : "r");
  if (!in) {
    fprintf(stderr, "ocl-reduce: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  unsigned char *data = NULL;
  size_t count = 0;
  int ok = binary ? read_binary(in, type, &data, &count) : read_text(in, type, &data, &count);
  if (in != stdin)
    fclose(in);
  if (!ok) {
    free(data);
    return 1;
  }
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s != OCL_REDUCE_OK) {
    free(data);
    return tool_fail("creating a context", s, NULL);
  }
  unsigned char result[8] = {0};
  s = ocl_reduce(ctx, op, type, data, count, result);
  if (s == OCL_REDUCE_OK && verbose) {
    ocl_reduce_context_info info = {.struct_size = sizeof info};
    ocl_reduce_context_query(ctx, &info);
    fprintf(stderr, "%s of %zu %s on %s / %s (%s path)\n", ocl_reduce_op_name(op), count,
            ocl_reduce_type_name(type), info.platform_name, info.device_name,
            info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local");
  }
  int rc = 0;
  if (s != OCL_REDUCE_OK) {
    rc = tool_fail("reducing", s, ctx);
  } else {
    switch (type) {
    case OCL_REDUCE_I32: printf("%" PRId32 "\n", *(int32_t *)result); break;
    case OCL_REDUCE_U32: printf("%" PRIu32 "\n", *(uint32_t *)result); break;
    case OCL_REDUCE_I64: printf("%" PRId64 "\n", *(int64_t *)result); break;
    case OCL_REDUCE_U64: printf("%" PRIu64 "\n", *(uint64_t *)result); break;
    case OCL_REDUCE_F32: printf("%.9g\n", (double)*(float *)result); break;
    case OCL_REDUCE_F64: printf("%.17g\n", *(double *)result); break;
    }
  }
  ocl_reduce_context_destroy(ctx);
  free(data);
  return rc;
}
