/* =================================================================================================
 * program.h: plans become programs. A program's text is the generated block of `#define`s (the
 * plan's values of the contract's ORX_HOST_DEFINES), then the contract, the backend's prelude, an
 * operator given as source, and the plan's kernel file with its includes resolved (sources.h).
 * Programs are built on first use and kept in the context, keyed by what determines their text
 * (program.c).
 * ============================================================================================== */
#ifndef ORX_PROGRAM_H
#define ORX_PROGRAM_H

#include <stdint.h>

#include "backends/backend.h"
#include "planner/planner.h"
#include "base/sources.h"

/* What determines a program's text, besides the library's sources and the backend. */
typedef struct orx_program_key {
  orx_kernel kernel;
  int64_t defines[ORX_DEFINE_COUNT];
  unsigned state_bytes, state_align;
  /* An operator given as source: its names' block and its source, compared whole, so that two
   * different operators never share a program however their hashes fall (NULL for a built-in
   * operator). A lookup's point at the plan's operator; a cached key's at the entry's copy. */
  const char *op_names, *op_source;
  uint64_t op_hash; /* the operator's hash of both (user_operator.c), made once: buckets only */
} orx_program_key;
/* The key of a plan (padding zeroed), whether two keys are equal, and a hash of one (which only
 * spreads keys over buckets: equality is orx_program_key_equal's). */
void orx_program_key_of(const orx_plan *plan, orx_program_key *key);
int orx_program_key_equal(const orx_program_key *a, const orx_program_key *b);
uint64_t orx_program_key_hash(const orx_program_key *key);

/* A program's text: the define block and the expanded body, as two sources. */
typedef struct orx_program_text {
  char defines[2048];
  char *body;
  char *user_body; /* an application's source, expanded */
  orx_source sources[3];
  size_t count;
  const char *options; /* the compiler's: "" or caps.sync_build_option */
  const char *entry;   /* the kernel's name */
} orx_program_text;
/* `prelude`: a source name put after the contract (the backend's), or NULL. ctx may be NULL (a text
 * to look at, not to build: no compiler options). */
ocl_reduce_status orx_program_text_of(ocl_reduce_context *ctx, const orx_plan *plan,
                                      const char *prelude, orx_program_text *out);
/* An application's program (ocl_reduce_program_build): the defines, the contract, the prelude
 * and its source with its includes of the library's headers resolved, as three sources. */
ocl_reduce_status orx_user_program_text_of(ocl_reduce_context *ctx, const int64_t *defines,
                                           const char *prelude, const char *source,
                                           orx_program_text *out);
void orx_program_text_free(orx_program_text *text);
/* Appends the defines that are set to text: `#define NAME value` lines, or (as_options) compiler
 * options `-DNAME=value` separated by spaces. */
void orx_defines_text(const int64_t *defines, int as_options, char *text, size_t capacity);

/* A built program and what it was built from. */
typedef struct orx_built {
  orx_program *program;
  orx_program_key key;
  unsigned subgroup_size; /* 0 when the kernel does not use subgroups or the backend cannot say */
} orx_built;

/* Programs of a context, by key. */
#define ORX_PROGRAM_BUCKETS 64
typedef struct orx_program_cache {
  struct orx_program_entry *buckets[ORX_PROGRAM_BUCKETS];
} orx_program_cache;

/* The plan's program, built on first use. */
ocl_reduce_status orx_program_get(ocl_reduce_context *ctx, const orx_plan *plan,
                                  const orx_built **out);
void orx_program_cache_clear(ocl_reduce_context *ctx);

#endif /* ORX_PROGRAM_H */
