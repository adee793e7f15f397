/* =================================================================================================
 * cmd_cache.c: `ocl-reduce cache`: where the program cache is, what it holds against its limit,
 * `ocl-reduce cache clear` to empty it, and `cache warm` (cmd_cache_warm.c) to fill it. The
 * directory and limit are a context's: OCL_REDUCE_CACHE_DIR, OCL_REDUCE_CACHE_MAX (docs/API.md,
 * "Program cache").
 * ============================================================================================== */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

static void print_bytes(uint64_t bytes) {
  if (bytes >= ((uint64_t)1 << 20))
    printf("%.1f MiB", (double)bytes / (1 << 20));
  else
    printf("%.1f KiB", (double)bytes / 1024);
}

int cmd_cache(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "warm") == 0)
    return cmd_cache_warm(argc - 1, argv + 1);
  static const struct option longs[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":h", longs, NULL)) != -1;) {
    if (c == 'h') {
      printf("usage: ocl-reduce cache [clear]\n"
             "       ocl-reduce cache warm [-d DEV] [--ops LIST] [--types LIST]\n"
             "Shows the program cache's directory, its entries' size and its limit\n"
             "(OCL_REDUCE_CACHE_DIR, OCL_REDUCE_CACHE_MAX); 'clear' removes every entry;\n"
             "'warm' builds the programs common calls need (see 'cache warm --help').\n");
      return 0;
    }
    return tool_option_error("cache", argv, c);
  }
  const int clear = optind < argc && strcmp(argv[optind], "clear") == 0;
  if (optind + clear < argc)
    return tool_usage_error("cache", "unexpected argument '%s'", argv[optind + clear]);
  ocl_reduce_cache_info info = OCL_REDUCE_CACHE_INFO_INIT;
  ocl_reduce_status s = ocl_reduce_cache_query(NULL, &info);
  if (s != OCL_REDUCE_OK)
    return tool_fail("reading the program cache's settings", s, NULL);
  if (!info.dir[0]) {
    printf("program cache: off (OCL_REDUCE_CACHE_DIR=off, or no HOME)\n");
    return 0;
  }
  if (info.unused_because[0])
    printf("program cache: %s is not used: %s\n", info.dir, info.unused_because);
  if (clear) {
    uint64_t removed = 0;
    s = ocl_reduce_cache_clear(NULL, &removed);
    if (s != OCL_REDUCE_OK)
      return tool_fail("clearing the program cache", s, NULL);
    printf("program cache: %s: removed %" PRIu64 " files\n", info.dir, removed);
    return 0;
  }
  printf("directory  %s\nentries    %" PRIu64 "\nsize       ", info.dir, info.entries);
  print_bytes(info.bytes);
  printf("\nlimit      ");
  print_bytes(info.max_bytes);
  printf(" (least recently used entries go first)\n");
  return 0;
}
