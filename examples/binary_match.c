/* =================================================================================================
 * binary_match.c: brute-force matching of 512-bit binary descriptors (ORB, BRISK, FREAK style)
 * with Lowe's ratio test, on a kernel of your own written on ocl_reduce's device-side collectives
 * (binary_match.cl): the use case of Parker & MacKinnon's §8. Each query's two nearest train
 * descriptors by Hamming distance come from one multireduction per work-group; a query matches
 * its nearest when that is clearly nearer than the second (distance < ratio * second distance).
 *
 * The program makes random train descriptors and queries, some of them planted (a train
 * descriptor with a few bits flipped, whose match is known), runs the kernel, and checks every
 * query's nearest, distance and second distance against a host loop (a sample of the queries
 * when there are more than --check comparisons to make on the host).
 *
 * Build: part of the project's CMake build (build/examples/binary_match), or on its own:
 *   cc binary_match.c -locl_reduce
 * Run: build/examples/binary_match [--queries N] [--train M] [--planted FRACTION] [--ratio R]
 *                                  [--seed S] [--bench ROUNDS] [--check COMPARISONS]
 *                                  [--kernel binary_match.cl]
 *   prints the matches and, with --bench, the kernel's comparisons per second (best of ROUNDS).
 *   Exits 1 when a result differs from the host's or a planted query is not matched to its
 *   descriptor (1 to 32 bits flipped, where other descriptors lie about 256 bits away).
 * ============================================================================================== */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ocl_reduce.h>
#include <ocl_reduce_program.h>

#ifndef BINARY_MATCH_KERNEL
#define BINARY_MATCH_KERNEL "binary_match.cl"
#endif

#define WORDS 16      /* 32-bit words per descriptor, as the kernel's KNN_WORDS */
#define QUERIES 32    /* queries per work-group, as KNN_QUERIES */
#define INDEX_BITS 22 /* as KNN_INDEX_BITS */

typedef struct options {
  unsigned queries, train, bench;
  double planted, ratio;
  uint64_t seed, check;
  const char *kernel;
} options;

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *text = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL && fread(text, 1, (size_t)size, f) == (size_t)size)
    text[size] = '\0';
  else {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

/* Query q's two nearest as the kernel computes them: nearest as distance << 22 | index (the
 * lower index wins a tie), and the second's distance. */
static void nearest_two(const uint32_t *query, const uint32_t *train, unsigned train_count,
                        uint32_t *best, uint32_t *second) {
  uint32_t b = 0xffffffffu, s = 1023u;
  for (unsigned t = 0; t < train_count; t++) {
    unsigned distance = 0;
    for (unsigned k = 0; k < WORDS; k++)
      distance += (unsigned)__builtin_popcount(query[k] ^ train[(size_t)t * WORDS + k]);
    const uint32_t candidate = (uint32_t)distance << INDEX_BITS | t;
    const uint32_t loser = b > candidate ? b : candidate;
    b = b < candidate ? b : candidate;
    s = s < (loser >> INDEX_BITS) ? s : loser >> INDEX_BITS;
  }
  *best = b;
  *second = s;
}

static int parse(int argc, char **argv, options *o) {
  *o = (options){4096, 4096, 0, 0.5, 0.8, 1, (uint64_t)1 << 27, BINARY_MATCH_KERNEL};
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!value)
      return 0;
    if (!strcmp(argv[i], "--queries"))
      o->queries = (unsigned)strtoul(value, NULL, 0);
    else if (!strcmp(argv[i], "--train"))
      o->train = (unsigned)strtoul(value, NULL, 0);
    else if (!strcmp(argv[i], "--planted"))
      o->planted = strtod(value, NULL);
    else if (!strcmp(argv[i], "--ratio"))
      o->ratio = strtod(value, NULL);
    else if (!strcmp(argv[i], "--seed"))
      o->seed = strtoull(value, NULL, 0);
    else if (!strcmp(argv[i], "--bench"))
      o->bench = (unsigned)strtoul(value, NULL, 0);
    else if (!strcmp(argv[i], "--check"))
      o->check = strtoull(value, NULL, 0);
    else if (!strcmp(argv[i], "--kernel"))
      o->kernel = value;
    else
      return 0;
    i++;
  }
  return o->queries > 0 && o->train > 0 && o->train < (1u << INDEX_BITS) && o->planted >= 0 &&
         o->planted <= 1 && o->ratio > 0;
}

/* Random train descriptors; queries random or planted: a train descriptor with 1 to 32 bits
 * flipped (planted[q] its index, else UINT32_MAX). */
static void make_data(const options *o, uint32_t *train, uint32_t *queries, uint32_t *planted) {
  uint64_t state = o->seed;
  for (size_t i = 0; i < (size_t)o->train * WORDS; i++)
    train[i] = (uint32_t)next_random(&state);
  for (unsigned q = 0; q < o->queries; q++) {
    uint32_t *d = queries + (size_t)q * WORDS;
    planted[q] = UINT32_MAX;
    if ((double)(next_random(&state) >> 11) * 0x1p-53 < o->planted) {
      planted[q] = (uint32_t)(next_random(&state) % o->train);
      memcpy(d, train + (size_t)planted[q] * WORDS, WORDS * sizeof *d);
      for (unsigned flips = 1 + (unsigned)(next_random(&state) % 32); flips; flips--) {
        const unsigned bit = (unsigned)(next_random(&state) % (32 * WORDS));
        d[bit / 32] ^= 1u << (bit % 32);
      }
    } else {
      for (unsigned k = 0; k < WORDS; k++)
        d[k] = (uint32_t)next_random(&state);
    }
  }
}

#define CHECK(call)                                                                                \
  do {                                                                                             \
    ocl_reduce_status s_ = (call);                                                                 \
    if (s_ != OCL_REDUCE_OK) {                                                                     \
      fprintf(stderr, "%s: %s\n%s\n", #call, ocl_reduce_status_name(s_),                         \
              ocl_reduce_last_error(ctx));                                                         \
      goto done;                                                                                   \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  options o;
  if (!parse(argc, argv, &o)) {
    fprintf(stderr, "usage: %s [--queries N] [--train M (< 2^22)] [--planted FRACTION] "
                    "[--ratio R] [--seed S] [--bench ROUNDS] [--check COMPARISONS] "
                    "[--kernel FILE]\n",
            argv[0]);
    return 2;
  }
  char *source = read_text(o.kernel);
  if (!source) {
    fprintf(stderr, "cannot read the kernel %s (--kernel names it)\n", o.kernel);
    return 2;
  }
  const size_t train_bytes = (size_t)o.train * WORDS * 4;
  const size_t query_bytes = (size_t)o.queries * WORDS * 4;
  uint32_t *train = malloc(train_bytes), *queries = malloc(query_bytes);
  uint32_t *planted = malloc((size_t)o.queries * 4), *out = malloc((size_t)o.queries * 8);
  int result = 1;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_buffer *train_buf = NULL, *query_buf = NULL, *out_buf = NULL;
  ocl_reduce_program *program = NULL;
  if (!train || !queries || !planted || !out) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }
  make_data(&o, train, queries, planted);

  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = o.bench > 0;
  CHECK(ocl_reduce_context_create(&opts, &ctx));
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  CHECK(ocl_reduce_context_query(ctx, &info));
  /* 256 work-items, or the most the device takes. */
  unsigned wg = 256;
  while (wg > 32 && ocl_reduce_program_build(ctx, source, "knn2_match", wg, &program) ==
                        OCL_REDUCE_ERROR_INVALID_ARGUMENT)
    wg /= 2;
  if (!program)
    CHECK(ocl_reduce_program_build(ctx, source, "knn2_match", wg, &program));
  CHECK(ocl_reduce_buffer_create(ctx, train_bytes, &train_buf));
  CHECK(ocl_reduce_buffer_create(ctx, query_bytes, &query_buf));
  CHECK(ocl_reduce_buffer_create(ctx, (size_t)o.queries * 8, &out_buf));
  CHECK(ocl_reduce_buffer_write(train_buf, 0, train, train_bytes));
  CHECK(ocl_reduce_buffer_write(query_buf, 0, queries, query_bytes));
  const ocl_reduce_kernel_arg args[] = {
      ocl_reduce_kernel_arg_buffer(query_buf), ocl_reduce_kernel_arg_u32(o.queries),
      ocl_reduce_kernel_arg_buffer(train_buf), ocl_reduce_kernel_arg_u32(o.train),
      ocl_reduce_kernel_arg_buffer(out_buf)};
  const size_t groups = (o.queries + QUERIES - 1) / QUERIES;
  uint64_t best_ns = UINT64_MAX;
  for (unsigned round = 0; round < (o.bench ? o.bench : 1); round++) {
    CHECK(ocl_reduce_program_launch(ctx, program, groups, args, 5));
    uint64_t ns = 0;
    if (o.bench && ocl_reduce_last_kernel_ns(ctx, &ns) == OCL_REDUCE_OK && ns < best_ns)
      best_ns = ns;
  }
  CHECK(ocl_reduce_buffer_read(out_buf, 0, out, (size_t)o.queries * 8));

  /* Every query, or an even sample of them, against the host. */
  unsigned step = 1;
  while ((uint64_t)o.queries / step * o.train > o.check && step < o.queries)
    step *= 2;
  unsigned checked = 0, wrong = 0, matches = 0, planted_found = 0, planted_count = 0;
  for (unsigned q = 0; q < o.queries; q++) {
    const uint32_t best = out[2 * q], second = out[2 * q + 1];
    const int match = (double)(best >> INDEX_BITS) < o.ratio * (double)second;
    matches += match;
    if (planted[q] != UINT32_MAX) {
      planted_count++;
      planted_found += match && (best & ((1u << INDEX_BITS) - 1)) == planted[q];
    }
    if (q % step)
      continue;
    uint32_t want_best, want_second;
    nearest_two(queries + (size_t)q * WORDS, train, o.train, &want_best, &want_second);
    checked++;
    if (best != want_best || second != want_second) {
      if (wrong++ < 5)
        fprintf(stderr, "query %u: device nearest %u (distance %u), second distance %u; host %u "
                        "(%u), %u\n",
                q, best & ((1u << INDEX_BITS) - 1), best >> INDEX_BITS, second,
                want_best & ((1u << INDEX_BITS) - 1), want_best >> INDEX_BITS, want_second);
    }
  }
  printf("%s (%s, %s subgroups, work-groups of %u): %u queries x %u train descriptors\n",
         info.device_name, info.backend_name, info.subgroup_impl_name, wg, o.queries, o.train);
  printf("matches (ratio %.2f): %u; planted queries matched to their descriptor: %u of %u\n",
         o.ratio, matches, planted_found, planted_count);
  printf("checked against the host: %u queries, %u differ\n", checked, wrong);
  if (o.bench && best_ns != UINT64_MAX)
    printf("kernel: %.3f ms, %.3g comparisons/s (best of %u)\n", (double)best_ns * 1e-6,
           (double)o.queries * o.train / ((double)best_ns * 1e-9), o.bench);
  if (planted_found != planted_count)
    fprintf(stderr, "%u planted queries were not matched to their descriptor\n",
            planted_count - planted_found);
  result = wrong || planted_found != planted_count ? 1 : 0;
done:
  ocl_reduce_program_destroy(program);
  ocl_reduce_buffer_destroy(out_buf);
  ocl_reduce_buffer_destroy(query_buf);
  ocl_reduce_buffer_destroy(train_buf);
  ocl_reduce_context_destroy(ctx);
  free(out);
  free(planted);
  free(queries);
  free(train);
  free(source);
  return result;
}
