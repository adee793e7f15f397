/* =================================================================================================
 * util.c: small string, environment and hashing helpers (util.h).
 * ============================================================================================== */
#include "base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void orx_append(char *buf, size_t size, const char *fmt, ...) {
  const size_t used = strlen(buf);
  if (used + 1 >= size)
    return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(buf + used, size - used, fmt, args);
  va_end(args);
}

const char *orx_env(const char *name) {
  const char *value = getenv(name);
  return (value && *value) ? value : NULL;
}

unsigned orx_ceil_pow2(uint64_t x) {
  unsigned p = 1;
  while (p < x && p < (1u << 30))
    p *= 2;
  return p;
}

uint64_t orx_hash(uint64_t hash, const void *bytes, size_t size) {
  /* Eight bytes at a time: program keys are hashed on every call, and byte by byte took 0.3 us
   * for a 184-byte key. */
  const unsigned char *p = bytes;
  for (; size >= 8; p += 8, size -= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    hash = (hash ^ word) * 0x100000001b3u;
    hash ^= hash >> 29;
  }
  for (; size > 0; p++, size--)
    hash = (hash ^ *p) * 0x100000001b3u;
  return hash;
}

void orx_copy_sized(void *caller, size_t caller_size, const void *full, size_t full_size) {
  memcpy(caller, full, caller_size < full_size ? caller_size : full_size);
  memcpy(caller, &caller_size, sizeof caller_size);
}
