/* =================================================================================================
 * policy_override.c: OCL_REDUCE_POLICY, the planner's fields forced by name for tests and tuning
 * ("wg=64,vec=4,unroll=2,chains=1,prefetch=1,groups=32,stream=strided,finish=group,seg=mr,
 * slots=8,width=4,win=blocks,wait=poll,keys=1,min_groups=8,part_kib=64,host=off,host_kib=4096,
 * staging=pinned,copy_threads=4,stage_kib=1024"). The names of streams, segment strategies and
 * window algorithms are the contract's and the planner's own lists.
 * ============================================================================================== */
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

ocl_reduce_status orx_parse_policy_override(const char *text, orx_policy_override *out) {
  /* Zero and -1: the planner's own choice. */
  orx_policy_override o = {.prefetch = -1,
                           .stream = -1,
                           .finish_serial = -1,
                           .finish_launch = -1,
                           .seg_mode = -1,
                           .win_algo = -1,
                           .wait_polls = -1,
                           .float_keys = -1,
                           .host = -1,
                           .staging = -1,
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
    char *end = NULL;
    const unsigned long number = strtoul(value, &end, 10);
    const int whole = end != value && *end == '\0' && number <= 65536; /* 0 too */
    const int numeric = whole && number > 0;
    if (strcmp(key, "wg") == 0 && numeric && is_pow2(number))
      o.wg_size = (unsigned)number;
    else if (strcmp(key, "vec") == 0 && numeric && is_pow2(number) && number <= 16)
      o.vec = (unsigned)number;
    else if (strcmp(key, "unroll") == 0 && numeric && number <= 16)
      o.unroll = (unsigned)number;
    else if (strcmp(key, "chains") == 0 && numeric && number <= 16)
      o.chains = (unsigned)number;
    else if (strcmp(key, "prefetch") == 0 && (!strcmp(value, "0") || !strcmp(value, "1")))
      o.prefetch = value[0] == '1';
    else if (strcmp(key, "groups") == 0 && numeric)
      o.max_groups = (unsigned)number;
    else if (strcmp(key, "stream") == 0 && orx_stream_named(value, &o.stream))
      ;
    else if (strcmp(key, "finish") == 0 && (!strcmp(value, "serial") || !strcmp(value, "group") ||
                                             !strcmp(value, "launch"))) {
      /* launch: the planner's own finish stays for the kernels without a second launch */
      o.finish_launch = strcmp(value, "launch") == 0;
      o.finish_serial = o.finish_launch ? -1 : strcmp(value, "serial") == 0;
    }
    else if (strcmp(key, "seg") == 0 && seg_mode_named(value, &o.seg_mode))
      ;
    else if (strcmp(key, "slots") == 0 && numeric && is_pow2(number) && number <= 32)
      o.seg_slots = (unsigned)number;
    else if (strcmp(key, "width") == 0 && numeric && is_pow2(number) && number <= 32)
      o.seg_width = (unsigned)number;
    else if (strcmp(key, "win") == 0 && orx_win_algo_named(value, &o.win_algo))
      ;
    else if (strcmp(key, "wait") == 0 && (!strcmp(value, "block") || !strcmp(value, "poll")))
      o.wait_polls = strcmp(value, "poll") == 0;
    else if (strcmp(key, "keys") == 0 && strlen(value) == 1 && value[0] >= '0' && value[0] <= '2')
      o.float_keys = value[0] - '0';
    else if (strcmp(key, "min_groups") == 0 && numeric && number <= 32)
      o.min_groups = (unsigned)number;
    else if (strcmp(key, "part_kib") == 0 && numeric)
      o.part_kib = (unsigned)number;
    else if (strcmp(key, "seam_kib") == 0 && numeric)
      o.seam_kib = (unsigned)number;
    else if (strcmp(key, "host_kib") == 0 && numeric)
      o.host_kib = (unsigned)number;
    else if (strcmp(key, "host") == 0 && !strcmp(value, "thread"))
      o.host = ORX_HOST_THREAD;
    else if (strcmp(key, "host") == 0 && !strcmp(value, "device"))
      o.host = ORX_HOST_DEVICE;
    else if (strcmp(key, "host") == 0 && !strcmp(value, "off"))
      o.host = ORX_HOST_OFF;
    else if (strcmp(key, "staging") == 0 && (!strcmp(value, "pinned") || !strcmp(value, "off")))
      o.staging = strcmp(value, "pinned") == 0;
    else if (strcmp(key, "copy_threads") == 0 && numeric && number <= 64)
      o.copy_threads = (unsigned)number;
    else if (strcmp(key, "stage_kib") == 0 && numeric)
      o.stage_kib = (unsigned)number;
    else if (strcmp(key, "spin_us") == 0 && whole)
      o.spin_us = (long)number;
    else
      return orx_fail(
          NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
          "OCL_REDUCE_POLICY: bad entry '%s=%s' (keys: wg=<power of two>, "
          "vec=<1..16, power of two>, unroll=<1..16>, chains=<1..16>, "
          "prefetch=0|1, groups=<n>, "
          "stream=strided|chunk|tiled, finish=serial|group|launch, "
          "seg=lane|mr|group|launch|staged, slots=<1..32, power of two>, "
          "width=<1..32, power of two>, "
          "win=direct|shuffle|mr|blocks|long, wait=block|poll, keys=0|1|2, "
          "min_groups=<1..32>, part_kib=<1..65536>, seam_kib=<n>, host=thread|device|off, "
          "host_kib=<n>, "
          "staging=pinned|off, copy_threads=<1..64>, stage_kib=<1..65536>, "
          "spin_us=<0..65536>)",
          key, value);
  }
  *out = o;
  return OCL_REDUCE_OK;
}
