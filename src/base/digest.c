/* =================================================================================================
 * digest.c: SHA-256 and HMAC-SHA-256 from libcrypto, opened at run time (digest.h). Only
 * functions whose signatures OpenSSL 1.1 and 3 share are used, declared here with opaque types,
 * so that no OpenSSL header is needed to build.
 * ============================================================================================== */
#include "base/digest.h"

#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct evp_md_ctx evp_md_ctx; /* EVP_MD_CTX */
typedef struct evp_md evp_md;         /* EVP_MD */

typedef struct crypto_api {
  const evp_md *(*sha256)(void);
  evp_md_ctx *(*ctx_new)(void);
  void (*ctx_free)(evp_md_ctx *);
  int (*init)(evp_md_ctx *, const evp_md *, void *engine);
  int (*update)(evp_md_ctx *, const void *, size_t);
  int (*final)(evp_md_ctx *, unsigned char *, unsigned *);
  unsigned char *(*hmac)(const evp_md *, const void *, int, const unsigned char *, size_t,
                         unsigned char *, unsigned *);
} crypto_api;
static crypto_api crypto;

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static char crypto_error[256] = "not loaded";

static void load_crypto(void) {
  static const char *const names[] = {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"};
  void *handle = NULL;
  for (size_t i = 0; i < ORX_ARRAY_SIZE(names) && !handle; i++)
    handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(crypto_error, sizeof crypto_error,
             "OpenSSL's libcrypto (libcrypto.so.3 or .so.1.1) not found");
    return;
  }
  static const struct {
    const char *name;
    size_t offset;
  } symbols[] = {
      {"EVP_sha256", offsetof(crypto_api, sha256)},
      {"EVP_MD_CTX_new", offsetof(crypto_api, ctx_new)},
      {"EVP_MD_CTX_free", offsetof(crypto_api, ctx_free)},
      {"EVP_DigestInit_ex", offsetof(crypto_api, init)},
      {"EVP_DigestUpdate", offsetof(crypto_api, update)},
      {"EVP_DigestFinal_ex", offsetof(crypto_api, final)},
      {"HMAC", offsetof(crypto_api, hmac)},
  };
  for (size_t i = 0; i < ORX_ARRAY_SIZE(symbols); i++) {
    void *f = dlsym(handle, symbols[i].name);
    if (!f) {
      snprintf(crypto_error, sizeof crypto_error, "libcrypto lacks %s", symbols[i].name);
      return;
    }
    memcpy((char *)&crypto + symbols[i].offset, &f, sizeof f);
  }
  crypto_error[0] = '\0';
}

int orx_digest_ready(const char **why) {
  pthread_once(&crypto_once, load_crypto);
  if (why)
    *why = crypto_error;
  return crypto_error[0] == '\0';
}

struct orx_digest_stream {
  evp_md_ctx *md;
  int failed;
};

orx_digest_stream *orx_digest_begin(void) {
  if (!orx_digest_ready(NULL))
    return NULL;
  orx_digest_stream *s = orx_calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->md = crypto.ctx_new();
  if (!s->md || crypto.init(s->md, crypto.sha256(), NULL) != 1) {
    crypto.ctx_free(s->md);
    free(s);
    return NULL;
  }
  return s;
}

void orx_digest_feed(orx_digest_stream *stream, const void *bytes, size_t size) {
  if (stream && !stream->failed && crypto.update(stream->md, bytes, size) != 1)
    stream->failed = 1;
}

int orx_digest_end(orx_digest_stream *stream, orx_digest *out) {
  if (!stream)
    return 0;
  unsigned size = 0;
  const int ok = !stream->failed && crypto.final(stream->md, out->bytes, &size) == 1 &&
                 size == ORX_DIGEST_BYTES;
  crypto.ctx_free(stream->md);
  free(stream);
  return ok;
}

int orx_digest_mac(const void *key, size_t key_size, const void *bytes, size_t size,
                   orx_digest *out) {
  unsigned length = 0;
  return orx_digest_ready(NULL) && key_size <= 1024 &&
         crypto.hmac(crypto.sha256(), key, (int)key_size, bytes, size, out->bytes, &length) &&
         length == ORX_DIGEST_BYTES;
}

int orx_digest_equal(const orx_digest *a, const orx_digest *b) {
  unsigned char difference = 0;
  for (size_t i = 0; i < ORX_DIGEST_BYTES; i++)
    difference |= (unsigned char)(a->bytes[i] ^ b->bytes[i]);
  return difference == 0;
}

void orx_digest_hex(const orx_digest *d, char *text) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < ORX_DIGEST_BYTES; i++) {
    text[2 * i] = digits[d->bytes[i] >> 4];
    text[2 * i + 1] = digits[d->bytes[i] & 15];
  }
  text[2 * ORX_DIGEST_BYTES] = '\0';
}
