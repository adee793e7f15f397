/* =================================================================================================
 * operator_macros.c: a user operator's macros checked and ended (operator_macros.h).
 * ============================================================================================== */
#include "exec/operator_macros.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/macros.h"
#include "base/sources.h"

/* The names every kernel source of the library defines (the embedded copies: what a program is
 * built from unless a developer points OCL_REDUCE_KERNEL_DIR elsewhere), sorted. */
static char **reserved;
static size_t reserved_count;
static pthread_mutex_t reserved_lock = PTHREAD_MUTEX_INITIALIZER;

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct name_list {
  char **names;
  size_t count, capacity;
  int failed;
} name_list;

/* Adds a #define's name to the list (orx_macro_scan's callback); duplicates are kept. */
static int add_defined(const orx_macro_use *use, void *arg) {
  name_list *list = arg;
  if (use->undefines || list->failed)
    return 0;
  if (list->count == list->capacity) {
    const size_t capacity = list->capacity ? 2 * list->capacity : 256;
    char **grown = orx_realloc(list->names, capacity * sizeof *grown);
    if (!grown) {
      list->failed = 1;
      return 0;
    }
    list->names = grown;
    list->capacity = capacity;
  }
  char *name = orx_malloc(use->length + 1);
  if (!name) {
    list->failed = 1;
    return 0;
  }
  memcpy(name, use->name, use->length);
  name[use->length] = '\0';
  list->names[list->count++] = name;
  return 0;
}

static void free_names(name_list *list) {
  for (size_t i = 0; i < list->count; i++)
    free(list->names[i]);
  free(list->names);
}

/* Once per process, and kept: a few hundred names. 0 when out of host memory (tried again on
 * the next call). */
static int find_reserved(void) {
  pthread_mutex_lock(&reserved_lock);
  if (!reserved) {
    name_list list = {0};
    for (size_t i = 0; i < orx_embedded_source_count; i++)
      orx_macro_scan(orx_embedded_sources[i].text, add_defined, &list);
    if (list.failed) {
      free_names(&list);
    } else {
      qsort(list.names, list.count, sizeof *list.names, by_name);
      reserved_count = list.count;
      reserved = list.names;
    }
  }
  const int found = reserved != NULL;
  pthread_mutex_unlock(&reserved_lock);
  return found;
}

/* Why `name` (length bytes) is the library's, or NULL. */
static const char *library_name(const char *name, size_t length) {
  static const char *const prefixes[] = {"ORX_", "orx_", "OCL_REDUCE_"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (length >= strlen(prefixes[i]) && strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
      return "a name in the library's namespace";
  char key[128];
  if (length >= sizeof key)
    return NULL;
  memcpy(key, name, length);
  key[length] = '\0';
  const char *probe = key;
  return bsearch(&probe, reserved, reserved_count, sizeof *reserved, by_name)
             ? "a macro the library's kernels define"
             : NULL;
}

typedef struct check {
  const char *function;
  ocl_reduce_status status;
  name_list defined;
} check;

static int check_use(const orx_macro_use *use, void *arg) {
  check *c = arg;
  const char *why = library_name(use->name, use->length);
  if (why) {
    c->status = orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                         "%s: desc->source, line %u: #%s %.*s: %s may not be redefined or "
                         "undefined by an operator (its own macros are its own, and end where "
                         "its text ends)",
                         c->function, use->line, use->undefines ? "undef" : "define",
                         (int)use->length, use->name, why);
    return 1;
  }
  return add_defined(use, &c->defined);
}

ocl_reduce_status orx_operator_macros(const char *function, const char *source, char **trailer) {
  check c = {function, OCL_REDUCE_OK, {0}};
  *trailer = NULL;
  if (!find_reserved())
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory",
                    function);
  orx_macro_scan(source, check_use, &c);
  size_t bytes = 1;
  for (size_t i = 0; i < c.defined.count; i++)
    bytes += strlen(c.defined.names[i]) + 8; /* "#undef " and a newline */
  if (c.status == OCL_REDUCE_OK && !c.defined.failed && (*trailer = orx_malloc(bytes))) {
    char *at = *trailer;
    for (size_t i = 0; i < c.defined.count; i++)
      at += sprintf(at, "#undef %s\n", c.defined.names[i]);
    *at = '\0';
  } else if (c.status == OCL_REDUCE_OK) {
    c.status = orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory",
                        function);
  }
  free_names(&c.defined);
  return c.status;
}
