/* =================================================================================================
 * util.c: small string and environment helpers.
 * ============================================================================================== */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int orx_strcasestr(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  if (n == 0)
    return 1;
  for (const char *h = haystack; *h; h++) {
    size_t i = 0;
    while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return 1;
  }
  return 0;
}

void orx_strlcpy(char *dst, const char *src, size_t size) {
  if (size == 0)
    return;
  size_t n = strlen(src);
  if (n >= size)
    n = size - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

const char *orx_env(const char *name) {
  const char *value = getenv(name);
  return (value && *value) ? value : NULL;
}
