/* =================================================================================================
 * digest.h: SHA-256 and HMAC-SHA-256 for what must hold against an adversary: the program cache's
 * names and its entries' authentication (exec/disk_cache.c). They are OpenSSL's libcrypto's,
 * opened with dlopen on first use (digest.c) as the CUDA driver is, so the library still links
 * only the ICD loader and loads where libcrypto is missing; there, orx_digest_ready says why and
 * the disk cache stays off. Not for speed: the in-memory caches compare whole texts instead.
 * ============================================================================================== */
#ifndef ORX_DIGEST_H
#define ORX_DIGEST_H

#include <stddef.h>

#define ORX_DIGEST_BYTES 32

typedef struct orx_digest {
  unsigned char bytes[ORX_DIGEST_BYTES];
} orx_digest;

/* Whether libcrypto is loaded (the first call loads it, once per process); *why says what is
 * missing when not. */
int orx_digest_ready(const char **why);

/* A SHA-256 of several pieces fed in order: begin, feed any number of times, end (which frees
 * it). begin returns NULL when libcrypto is not ready or out of memory; feed and end take NULL
 * and end then returns 0. */
typedef struct orx_digest_stream orx_digest_stream;
orx_digest_stream *orx_digest_begin(void);
void orx_digest_feed(orx_digest_stream *stream, const void *bytes, size_t size);
int orx_digest_end(orx_digest_stream *stream, orx_digest *out);

/* HMAC-SHA-256 of bytes under key; 0 when libcrypto is not ready. */
int orx_digest_mac(const void *key, size_t key_size, const void *bytes, size_t size,
                   orx_digest *out);

/* Whether two digests are equal, in a time that does not depend on where they differ. */
int orx_digest_equal(const orx_digest *a, const orx_digest *b);

/* The digest as 64 lowercase hex digits and a NUL (text: at least 65 bytes). */
void orx_digest_hex(const orx_digest *d, char *text);

#endif /* ORX_DIGEST_H */
