/* =================================================================================================
 * policy_override.c: OCL_REDUCE_POLICY, the planner's fields forced by name for tests and tuning
 * ("wg=64,vec=4,unroll=2,chains=1,prefetch=1,groups=32,stream=strided,finish=group,seg=mr,
 * slots=8,width=4,win=blocks,wait=poll,keys=1,min_groups=8,part_kib=64,host=off,host_kib=4096,
 * staging=pinned,copy_threads=4,stage_kib=1024"). The names of streams, segment strategies and
 * window algorithms are the contract's and the planner's own lists.
 * ============================================================================================== */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "planner/planner.h"

static int is_pow2(unsigned long x) { return x != 0 && (x & (x - 1)) == 0; }

static int seg_mode_named(const char *name, int *mode) {
  for (int m = 0; m < ORX_SEG_MODE_COUNT; m++)
    if (strcmp(orx_seg_mode_name((orx_seg_mode)m), name) == 0) {
      *mode = m;
      return 1;
    }
  return 0;
}

/* Keys whose value is a whole number in [1, max], a power of two where pow2 says so: the
 * unsigned field at offset. */
typedef struct numeric_key {
  const char *key;
  size_t offset;
  unsigned long max;
  int pow2;
} numeric_key;
#define ORX_FIELD(name) offsetof(orx_policy_override, name)
static const numeric_key numeric_keys[] = {
    {"wg", ORX_FIELD(wg_size), 65536, 1},          {"vec", ORX_FIELD(vec), 16, 1},
    {"unroll", ORX_FIELD(unroll), 16, 0},          {"chains", ORX_FIELD(chains), 16, 0},
    {"groups", ORX_FIELD(max_groups), 65536, 0},   {"slots", ORX_FIELD(seg_slots), 32, 1},
    {"width", ORX_FIELD(seg_width), 32, 1},        {"min_groups", ORX_FIELD(min_groups), 32, 0},
    {"part_kib", ORX_FIELD(part_kib), 65536, 0},   {"seam_kib", ORX_FIELD(seam_kib), 65536, 0},
    {"host_kib", ORX_FIELD(host_kib), 1u << 24, 0},
    {"copy_threads", ORX_FIELD(copy_threads), 64, 0},
    {"stage_kib", ORX_FIELD(stage_kib), 65536, 0}, {"col_run", ORX_FIELD(col_run), 1024, 1},
    {"col_steps", ORX_FIELD(col_steps), 32, 1},    {"key_run", ORX_FIELD(key_run), 65536, 1},
};
/* Keys whose value is 0 or 1 (an int field). */
static const struct {
  const char *key;
  size_t offset;
} flag_keys[] = {
    {"prefetch", ORX_FIELD(prefetch)},     {"binaries", ORX_FIELD(binaries)},
    {"key_chunks", ORX_FIELD(key_chunks)}, {"win_words", ORX_FIELD(win_words)},
    {"key_direct", ORX_FIELD(key_direct)}, {"key_stage", ORX_FIELD(key_stage)},
    {"col_flat", ORX_FIELD(col_flat)},     {"col_tall", ORX_FIELD(col_tall)},
    {"col_finish", ORX_FIELD(col_finish)}, {"host_views", ORX_FIELD(host_views)},
    {"key_warp_join", ORX_FIELD(key_warp_join)}, {"key_in_order", ORX_FIELD(key_in_order)},
    {"key_counted", ORX_FIELD(key_counted)}, {"key_warp_scan", ORX_FIELD(key_warp_scan)},
    {"win_pass", ORX_FIELD(win_pass)},
};
#undef ORX_FIELD

/* Sets a numeric key's field; 0 when key is none of them or value is out of its range. */
static int numeric_entry(const char *key, const char *value, orx_policy_override *o) {
  char *end = NULL;
  const unsigned long number = strtoul(value, &end, 10);
  if (end == value || *end != '\0' || number == 0)
    return 0;
  for (size_t k = 0; k < sizeof numeric_keys / sizeof numeric_keys[0]; k++) {
    const numeric_key *n = &numeric_keys[k];
    if (strcmp(key, n->key) == 0 && number <= n->max && (!n->pow2 || is_pow2(number))) {
      memcpy((char *)o + n->offset, &(unsigned){(unsigned)number}, sizeof(unsigned));
      return 1;
    }
  }
  return 0;
}

/* finish=serial|group|launch; launch: the planner's own finish stays for the kernels without a
 * second launch. */
static int finish_entry(const char *value, orx_policy_override *o) {
  if (strcmp(value, "serial") && strcmp(value, "group") && strcmp(value, "launch"))
    return 0;
  o->finish_launch = strcmp(value, "launch") == 0;
  o->finish_serial = o->finish_launch ? -1 : strcmp(value, "serial") == 0;
  return 1;
}

/* host=thread|device|off */
static int host_entry(const char *value, orx_policy_override *o) {
  static const struct {
    const char *word;
    int host;
  } hosts[] = {{"thread", ORX_HOST_THREAD}, {"device", ORX_HOST_DEVICE}, {"off", ORX_HOST_OFF}};
  for (size_t h = 0; h < sizeof hosts / sizeof hosts[0]; h++)
    if (strcmp(value, hosts[h].word) == 0) {
      o->host = hosts[h].host;
      return 1;
    }
  return 0;
}

/* Either of two words: the field becomes 1 for `one`, 0 for `zero`. */
static int either(const char *value, const char *zero, const char *one, int *field) {
  if (strcmp(value, zero) && strcmp(value, one))
    return 0;
  *field = strcmp(value, one) == 0;
  return 1;
}

/* Sets a key whose value is 0 or 1; 0 when key is none of them or value is neither. */
static int flag_entry(const char *key, const char *value, orx_policy_override *o) {
  for (size_t f = 0; f < sizeof flag_keys / sizeof flag_keys[0]; f++) {
    int flag = 0;
    if (strcmp(key, flag_keys[f].key) == 0 && either(value, "0", "1", &flag)) {
      memcpy((char *)o + flag_keys[f].offset, &flag, sizeof flag);
      return 1;
    }
  }
  return 0;
}

/* Sets a key whose value is a word; 0 when key is none of them or value is not one of its
 * choices. */
static int word_entry(const char *key, const char *value, orx_policy_override *o) {
  if (strcmp(key, "stream") == 0)
    return orx_stream_named(value, &o->stream);
  if (strcmp(key, "finish") == 0)
    return finish_entry(value, o);
  if (strcmp(key, "seg") == 0)
    return seg_mode_named(value, &o->seg_mode);
  if (strcmp(key, "win") == 0)
    return orx_win_algo_named(value, &o->win_algo);
  if (strcmp(key, "wait") == 0)
    return either(value, "block", "poll", &o->wait_polls);
  if (strcmp(key, "keys") == 0 && strlen(value) == 1 && value[0] >= '0' && value[0] <= '2') {
    o->float_keys = value[0] - '0';
    return 1;
  }
  if (strcmp(key, "host") == 0)
    return host_entry(value, o);
  if (strcmp(key, "staging") == 0)
    return either(value, "off", "pinned", &o->staging);
  if (strcmp(key, "by_key") == 0)
    return either(value, "runs", "pass", &o->by_key_pass);
  if (strcmp(key, "narrow") == 0)
    return either(value, "lanes", "split", &o->narrow_split);
  if (strcmp(key, "axes") == 0) {
    static const char *const ways[] = {"gather", "columns", "split"}; /* ORX_AXES_FORCE_ */
    for (int w = 0; w < 3; w++)
      if (strcmp(value, ways[w]) == 0) {
        o->axes_route = w;
        return 1;
      }
    return 0;
  }
  if (strcmp(key, "spin_us") == 0) { /* 0 too */
    char *end = NULL;
    const unsigned long number = strtoul(value, &end, 10);
    if (end == value || *end != '\0' || number > 65536)
      return 0;
    o->spin_us = (long)number;
    return 1;
  }
  return 0;
}

static const char keys_help[] =
    "wg=<power of two>, vec=<1..16, power of two>, unroll=<1..16>, chains=<1..16>, "
    "prefetch=0|1, groups=<n>, stream=strided|chunk|tiled|runs, finish=serial|group|launch, "
    "seg=lane|mr|group|launch|staged, slots=<1..32, power of two>, "
    "width=<1..32, power of two>, win=direct|shuffle|mr|blocks|long, win_words=0|1, "
    "win_pass=0|1, "
    "wait=block|poll, binaries=0|1, "
    "keys=0|1|2, min_groups=<1..32>, part_kib=<1..65536>, seam_kib=<n>, "
    "host=thread|device|off, host_kib=<n>, staging=pinned|off, host_views=0|1, "
    "copy_threads=<1..64>, "
    "stage_kib=<1..65536>, spin_us=<0..65536>, axes=columns|gather|split, "
    "col_run=<1..1024, power of two>, col_steps=<1..32, power of two>, col_flat=0|1, "
    "col_tall=0|1, col_finish=0|1, by_key=pass|runs, key_chunks=0|1, key_direct=0|1, "
    "key_stage=0|1, key_run=<1..65536, power of two>, key_warp_join=0|1, key_in_order=0|1, "
    "key_counted=0|1, key_warp_scan=0|1, narrow=lanes|split";

ocl_reduce_status orx_parse_policy_override(const char *text, orx_policy_override *out) {
  /* Zero and -1: the planner's own choice. */
  orx_policy_override o = {.prefetch = -1,
                           .stream = -1,
                           .finish_serial = -1,
                           .finish_launch = -1,
                           .seg_mode = -1,
                           .win_algo = -1,
                           .wait_polls = -1,
                           .binaries = -1,
                           .float_keys = -1,
                           .host = -1,
                           .staging = -1,
                           .host_views = -1,
                           .axes_route = -1,
                           .col_flat = -1,
                           .col_tall = -1,
                           .col_finish = -1,
                           .by_key_pass = -1,
                           .key_chunks = -1,
                           .key_direct = -1,
                           .key_warp_join = -1,
                           .key_in_order = -1,
                           .key_counted = -1,
                           .key_warp_scan = -1,
                           .win_words = -1,
                           .win_pass = -1,
                           .key_stage = -1,
                           .narrow_split = -1,
                           .spin_us = -1};
  char list[256];
  orx_strlcpy(list, text ? text : "", sizeof list);
  for (char *save = NULL, *item = strtok_r(list, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq)
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_POLICY: '%s' is not key=value", item);
    *eq = '\0';
    const char *key = item, *value = eq + 1;
    if (!numeric_entry(key, value, &o) && !flag_entry(key, value, &o) &&
        !word_entry(key, value, &o))
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_POLICY: bad entry '%s=%s' (keys: %s)", key, value, keys_help);
  }
  *out = o;
  return OCL_REDUCE_OK;
}
