/* =================================================================================================
 * sources.c: kernel sources by name (embedded, or from OCL_REDUCE_KERNEL_DIR) and the host's
 * resolution of their `#include` lines (sources.h).
 * ============================================================================================== */
#include "base/sources.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"

static ocl_reduce_status read_file(ocl_reduce_context *ctx, const char *dir, const char *name,
                                   orx_source *out, char **holder) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return orx_fail(ctx, OCL_REDUCE_ERROR_KERNEL_SOURCE, "OCL_REDUCE_KERNEL_DIR is too long");
  FILE *f = fopen(path, "rb");
  if (!f)
    return orx_fail(ctx, OCL_REDUCE_ERROR_KERNEL_SOURCE,
                    "OCL_REDUCE_KERNEL_DIR: cannot open %s: %s", path, strerror(errno));
  char *text = NULL;
  size_t length = 0, capacity = 0;
  for (;;) {
    if (length + 4096 + 1 > capacity) {
      capacity = capacity ? 2 * capacity : 65536;
      char *grown = orx_realloc(text, capacity);
      if (!grown) {
        free(text);
        fclose(f);
        return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
      }
      text = grown;
    }
    size_t got = fread(text + length, 1, 4096, f);
    length += got;
    if (got < 4096)
      break;
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    free(text);
    return orx_fail(ctx, OCL_REDUCE_ERROR_KERNEL_SOURCE, "OCL_REDUCE_KERNEL_DIR: cannot read %s",
                    path);
  }
  text[length] = '\0';
  out->name = name;
  out->text = text;
  out->length = length;
  *holder = text;
  return OCL_REDUCE_OK;
}

int orx_sources_embedded(void) { return orx_env("OCL_REDUCE_KERNEL_DIR") == NULL; }

ocl_reduce_status orx_source_get(ocl_reduce_context *ctx, const char *name, orx_source *out,
                                 char **holder) {
  *holder = NULL;
  const char *dir = orx_env("OCL_REDUCE_KERNEL_DIR");
  if (dir)
    return read_file(ctx, dir, name, out, holder);
  for (size_t i = 0; i < orx_embedded_source_count; i++) {
    if (strcmp(orx_embedded_sources[i].name, name) == 0) {
      *out = orx_embedded_sources[i];
      return OCL_REDUCE_OK;
    }
  }
  return orx_fail(ctx, OCL_REDUCE_ERROR_KERNEL_SOURCE, "no embedded kernel source named %s",
                  name);
}

/* ---- Include resolution ------------------------------------------------------------------- */

#define ORX_MAX_INCLUDED 64

typedef struct expansion {
  ocl_reduce_context *ctx;
  const orx_source *raw;
  char *text;
  size_t length, capacity;
  char included[ORX_MAX_INCLUDED][128]; /* sources already expanded */
  size_t included_count;
} expansion;

static ocl_reduce_status put(expansion *e, const char *bytes, size_t n) {
  if (e->length + n + 1 > e->capacity) {
    size_t capacity = e->capacity ? e->capacity : 65536;
    while (e->length + n + 1 > capacity)
      capacity *= 2;
    char *grown = orx_realloc(e->text, capacity);
    if (!grown)
      return orx_fail(e->ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    e->text = grown;
    e->capacity = capacity;
  }
  memcpy(e->text + e->length, bytes, n);
  e->length += n;
  e->text[e->length] = '\0';
  return OCL_REDUCE_OK;
}

static ocl_reduce_status put_line_marker(expansion *e, size_t line, const char *name) {
  char marker[192];
  const int n = snprintf(marker, sizeof marker, "#line %zu \"%s\"\n", line, name);
  return put(e, marker, (size_t)n);
}

/* The name in a line `#include "name"` (leading blanks allowed), copied to name[size]; 0 when the
 * line is something else. */
static int include_of(const char *line, const char *end, char *name, size_t size) {
  while (line < end && (*line == ' ' || *line == '\t'))
    line++;
  static const char directive[] = "#include";
  if ((size_t)(end - line) < sizeof directive || strncmp(line, directive, sizeof directive - 1))
    return 0;
  line += sizeof directive - 1;
  while (line < end && (*line == ' ' || *line == '\t'))
    line++;
  if (line == end || *line != '"')
    return 0;
  const char *close = memchr(line + 1, '"', (size_t)(end - line - 1));
  if (!close || (size_t)(close - line - 1) >= size)
    return 0;
  memcpy(name, line + 1, (size_t)(close - line - 1));
  name[close - line - 1] = '\0';
  return 1;
}

static ocl_reduce_status expand(expansion *e, const char *name, const char *text, size_t length,
                                int depth, int conditional);

/* Whether a source is a template (".inc"), expanded at every include, as its parameters differ
 * each time; every other source is expanded once, as its include guard would have it. */
static int is_template(const char *name) {
  const size_t n = strlen(name);
  return n > 4 && strcmp(name + n - 4, ".inc") == 0;
}

/* `conditional`: the include sits inside a conditional (#if, #ifdef, #ifndef) of some file on the
 * way to it, besides include guards. The expander does not evaluate conditionals, so such an
 * include is expanded but not recorded: were it recorded, a file first included under a false
 * condition would be left out of every later include. Expanded again where included again, it
 * is kept once by its own guard (tests/test_kernels.c). */
static ocl_reduce_status include(expansion *e, const char *from, const char *name, int depth,
                                 int conditional) {
  const int once = !is_template(name);
  for (size_t i = 0; once && i < e->included_count; i++)
    if (strcmp(e->included[i], name) == 0)
      return OCL_REDUCE_OK;
  if ((once && e->included_count == ORX_MAX_INCLUDED) || depth > 16)
    return orx_fail(e->ctx, OCL_REDUCE_ERROR_KERNEL_SOURCE,
                    "%s: too many or too deeply nested includes at %s", from, name);
  if (once && !conditional)
    orx_strlcpy(e->included[e->included_count++], name, sizeof e->included[0]);
  if (e->raw && strcmp(name, e->raw->name) == 0) {
    ORX_FORWARD(put_line_marker(e, 1, name));
    ORX_FORWARD(put(e, e->raw->text, e->raw->length));
    return put(e, "\n", 1);
  }
  orx_source source;
  char *holder = NULL;
  ocl_reduce_status status = orx_source_get(e->ctx, name, &source, &holder);
  if (status != OCL_REDUCE_OK) {
    char where[300];
    snprintf(where, sizeof where, " (included from %s)", from);
    orx_error_append(e->ctx, where);
    return status;
  }
  status = expand(e, source.name, source.text, source.length, depth + 1, conditional);
  free(holder);
  return status;
}

/* The conditional directive a line opens (1), closes (-1), or neither (0); *guard_name the name
 * after #ifndef, for telling an include guard. */
static int conditional_of(const char *line, const char *end, char *guard_name, size_t size) {
  while (line < end && (*line == ' ' || *line == '\t'))
    line++;
  if (line == end || *line++ != '#')
    return 0;
  while (line < end && (*line == ' ' || *line == '\t'))
    line++;
  const size_t n = (size_t)(end - line);
  guard_name[0] = '\0';
  if (n >= 6 && strncmp(line, "ifndef", 6) == 0) {
    const char *at = line + 6;
    while (at < end && (*at == ' ' || *at == '\t'))
      at++;
    size_t k = 0;
    while (at + k < end && k + 1 < size && (isalnum((unsigned char)at[k]) || at[k] == '_'))
      k++;
    memcpy(guard_name, at, k);
    guard_name[k] = '\0';
    return 1;
  }
  if ((n >= 2 && strncmp(line, "if", 2) == 0 && (n == 2 || !isalpha((unsigned char)line[2]))) ||
      (n >= 5 && strncmp(line, "ifdef", 5) == 0))
    return 1;
  return n >= 5 && strncmp(line, "endif", 5) == 0 ? -1 : 0;
}

/* Whether a line is `#define name`, the second line of an include guard. */
static int defines(const char *line, const char *end, const char *name) {
  char directive[160];
  const int n = snprintf(directive, sizeof directive, "#define %s", name);
  const size_t length = (size_t)(end - line);
  return name[0] && n > 0 && (size_t)n <= length && strncmp(line, directive, (size_t)n) == 0 &&
         ((size_t)n == length || !(isalnum((unsigned char)line[n]) || line[n] == '_'));
}

static ocl_reduce_status expand(expansion *e, const char *name, const char *text, size_t length,
                                int depth, int conditional) {
  ORX_FORWARD(put_line_marker(e, 1, name));
  const char *at = text, *end = text + length;
  size_t line = 1;
  /* Conditionals open in this file, and whether the outermost is its include guard: a first
   * `#ifndef X` whose next line is `#define X`. */
  int open = 0, guard = 0, seen_conditional = 0;
  while (at < end) {
    const char *eol = memchr(at, '\n', (size_t)(end - at));
    const char *next = eol ? eol + 1 : end;
    const char *stop = eol ? eol : end;
    char included[128], opened[128];
    if (include_of(at, stop, included, sizeof included)) {
      ORX_FORWARD(include(e, name, included, depth, conditional || open > (guard ? 1 : 0)));
      ORX_FORWARD(put_line_marker(e, line + 1, name));
    } else {
      const int change = conditional_of(at, stop, opened, sizeof opened);
      if (change > 0 && !seen_conditional && opened[0]) {
        const char *after = next;
        const char *after_end = after < end ? memchr(after, '\n', (size_t)(end - after)) : NULL;
        if (after < end && defines(after, after_end ? after_end : end, opened))
          guard = 1;
      }
      seen_conditional |= change > 0;
      open += change;
      if (guard && open == 0)
        guard = 0; /* the guard closed: what follows is outside any conditional */
      ORX_FORWARD(put(e, at, (size_t)(next - at)));
      if (!eol)
        ORX_FORWARD(put(e, "\n", 1));
    }
    at = next;
    line++;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_source_expand(ocl_reduce_context *ctx, const char *name, const char *text,
                                    const orx_source *raw, char **out, size_t *length) {
  expansion *e = orx_calloc(1, sizeof *e);
  if (!e)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  e->ctx = ctx;
  e->raw = raw;
  ocl_reduce_status status = expand(e, name, text, strlen(text), 0, 0);
  if (status == OCL_REDUCE_OK) {
    *out = e->text;
    *length = e->length;
  } else {
    free(e->text);
  }
  free(e);
  return status;
}
