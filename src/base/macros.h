/* =================================================================================================
 * macros.h: the macro names a C or OpenCL C text defines or undefines (macros.c), found as its
 * preprocessor would find them: directives at the start of a logical line, comments, string and
 * character literals and backslash-newlines skipped. What a user operator's text may not touch,
 * and what it leaves defined, are found with it (exec/user_operator.c).
 * ============================================================================================== */
#ifndef ORX_MACROS_H
#define ORX_MACROS_H

#include <stddef.h>

/* One #define or #undef: the name (not terminated: `length` bytes at `name`) and its line. */
typedef struct orx_macro_use {
  const char *name;
  size_t length;
  unsigned line;
  int undefines; /* #undef, not #define */
} orx_macro_use;

/* Calls found(use, arg) for every #define and #undef of text in order; stops early, returning
 * found's nonzero value, when it returns one; else 0. */
int orx_macro_scan(const char *text, int (*found)(const orx_macro_use *use, void *arg), void *arg);

#endif /* ORX_MACROS_H */
