/* =================================================================================================
 * util.h: small helpers every layer may use: array sizes, strings, the environment, the 64-bit
 * hash the program cache keys on (util.c), and host memory (host_alloc.c).
 * ============================================================================================== */
#ifndef ORX_UTIL_H
#define ORX_UTIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define ORX_PRINTF(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define ORX_PRINTF(fmt_index, args_index)
#endif

#define ORX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ORX_STRINGIFY_(x) #x
#define ORX_STRINGIFY(x) ORX_STRINGIFY_(x)

/* Whether needle occurs in haystack, ignoring case. */
int orx_strcasestr(const char *haystack, const char *needle);
/* Copies at most size - 1 bytes of src and terminates dst (size > 0). */
void orx_strlcpy(char *dst, const char *src, size_t size);
/* Appends printf-formatted text to buf (size bytes, NUL-terminated), cutting it at the end. */
void orx_append(char *buf, size_t size, const char *fmt, ...) ORX_PRINTF(3, 4);
/* The environment variable's value; NULL when it is unset or empty. */
const char *orx_env(const char *name);
/* The least power of two >= x, at most 2^30. */
unsigned orx_ceil_pow2(uint64_t x);

/* Writes the library's `full` struct (struct_size first) into the caller's of `caller_size`
 * bytes: the fields that fit, and struct_size kept as the caller set it. Nothing past the fields
 * this version knows is written: a caller's larger struct keeps what it holds there. */
void orx_copy_sized(void *caller, size_t caller_size, const void *full, size_t full_size);

/* A 64-bit hash of bytes (FNV-1a's steps on 8-byte words), continuing from `hash` (start with
 * ORX_HASH_SEED). For keys that are also compared whole, not for anything adversarial. */
#define ORX_HASH_SEED 0xcbf29ce484222325u
uint64_t orx_hash(uint64_t hash, const void *bytes, size_t size);

/* The library's host memory: malloc, calloc, realloc, aligned_alloc and strdup, each of which a
 * test can make fail (host_alloc.c). Released with free. */
void *orx_malloc(size_t bytes);
void *orx_calloc(size_t count, size_t size);
void *orx_realloc(void *memory, size_t bytes);
void *orx_aligned_alloc(size_t alignment, size_t bytes);
char *orx_strdup(const char *text);
/* Tests: the n-th host allocation from now (n >= 1), in any thread, fails, once; n == 0 disarms.
 * Returns the number of allocations since the previous arming: a sweep over n has passed every
 * site of a call once the call makes fewer than n. */
uint64_t orx_host_fault_arm(uint64_t n);
/* Whether the armed allocation has failed since the arming. */
int orx_host_fault_struck(void);

#endif /* ORX_UTIL_H */
