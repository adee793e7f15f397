/* =================================================================================================
 * macros.c: finding #define and #undef directives (macros.h).
 * ============================================================================================== */
#include "base/macros.h"

#include <ctype.h>
#include <string.h>

typedef struct scanner {
  const char *at;
  unsigned line;
} scanner;

/* Steps over backslash-newlines at s->at (a line joined to the next). */
static void join_lines(scanner *s) {
  while (s->at[0] == '\\' && (s->at[1] == '\n' || (s->at[1] == '\r' && s->at[2] == '\n'))) {
    s->at += s->at[1] == '\n' ? 2 : 3;
    s->line++;
  }
}

/* Steps over a comment at s->at, if one starts there: 1 when it did. */
static int skip_comment(scanner *s) {
  if (s->at[0] != '/' || (s->at[1] != '*' && s->at[1] != '/'))
    return 0;
  const int block = s->at[1] == '*';
  for (s->at += 2; *s->at; s->at++) {
    if (block && s->at[0] == '*' && s->at[1] == '/') {
      s->at += 2;
      return 1;
    }
    if (*s->at == '\n') {
      if (!block && s->at[-1] != '\\')
        return 1; /* the newline ends the line comment; the caller sees it */
      s->line++;
    }
  }
  return 1;
}

/* Steps over blanks, comments and backslash-newlines within one line. */
static void skip_blanks(scanner *s) {
  for (;;) {
    join_lines(s);
    if (*s->at == ' ' || *s->at == '\t' || *s->at == '\f' || *s->at == '\v' || *s->at == '\r')
      s->at++;
    else if (!(s->at[0] == '/' && s->at[1] == '*' && skip_comment(s)))
      return;
  }
}

static size_t identifier_length(const char *at) {
  size_t n = 0;
  if (isalpha((unsigned char)at[0]) || at[0] == '_')
    for (n = 1; isalnum((unsigned char)at[n]) || at[n] == '_'; n++)
      ;
  return n;
}

/* Steps to the end of the logical line (not past its newline), over comments and literals. */
static void skip_line(scanner *s) {
  while (*s->at && *s->at != '\n') {
    join_lines(s);
    if (!skip_comment(s) && *s->at && *s->at != '\n')
      s->at++;
  }
}

/* Steps over a string or character literal at s->at. */
static void skip_literal(scanner *s) {
  const char quote = *s->at++;
  while (*s->at && *s->at != quote && *s->at != '\n')
    s->at += s->at[0] == '\\' && s->at[1] ? 2 : 1;
  if (*s->at == quote)
    s->at++;
}

/* A directive after its '#': reports a #define or #undef, then steps to the line's end. */
static int directive(scanner *s, int (*found)(const orx_macro_use *, void *), void *arg) {
  skip_blanks(s);
  const size_t keyword = identifier_length(s->at);
  const int defines = keyword == 6 && strncmp(s->at, "define", 6) == 0;
  const int undefines = keyword == 5 && strncmp(s->at, "undef", 5) == 0;
  s->at += keyword;
  int stop = 0;
  if (defines || undefines) {
    skip_blanks(s);
    const orx_macro_use use = {s->at, identifier_length(s->at), s->line, undefines};
    if (use.length)
      stop = found(&use, arg);
  }
  skip_line(s);
  return stop;
}

int orx_macro_scan(const char *text, int (*found)(const orx_macro_use *use, void *arg), void *arg) {
  scanner s = {text, 1};
  int line_start = 1;
  while (*s.at) {
    join_lines(&s);
    if (skip_comment(&s))
      continue;
    const char c = *s.at;
    if (c == '\n') {
      s.line++;
      s.at++;
      line_start = 1;
    } else if (c == '#' && line_start) {
      s.at++;
      const int stop = directive(&s, found, arg);
      if (stop)
        return stop;
    } else if (c == '"' || c == '\'') {
      skip_literal(&s);
      line_start = 0;
    } else if (c) {
      line_start = line_start && isspace((unsigned char)c);
      s.at++;
    }
  }
  return 0;
}
