/* =================================================================================================
 * ocl_reduce_tool.c: the ocl-reduce command: one program, one subcommand per concern.
 * ============================================================================================== */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"demo", cmd_demo, "reduce a generated array on the default device and check the results"},
    {"info", cmd_info, "list devices, what the paths need, the path each takes, a self-check"},
    {"reduce", cmd_reduce, "reduce numbers from a file or stdin (text or --binary), print it"},
    {"bench", cmd_bench, "benchmark against competitors in the same run (see bench --help)"},
    {"cache", cmd_cache, "the program cache: where, its size and limit; 'cache clear' empties it"},
};

static void usage(FILE *out) {
  fprintf(out, "usage: ocl-reduce <command> [options]\n       ocl-reduce --version\n\n"
               "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-6s %s\n", commands[i].name, commands[i].help);
  fprintf(out, "\n'ocl-reduce <command> --help' lists a command's options. Every command takes\n"
               "-d / --device DEV (P:D, cuda:N, pocl, intel, nvidia, cuda, cpu, gpu, or part of\n"
               "the device's name), else OCL_REDUCE_DEVICE; the path and subgroup implementation\n"
               "come from OCL_REDUCE_PATH and OCL_REDUCE_SUBGROUP (see include/ocl_reduce.h).\n");
}

/* The command's exit status, unless what it printed did not all reach stdout (a full disk, a
 * closed pipe): then a message and 1, never a silent 0 with a lost result. */
static int written(int status) {
  if (fflush(stdout) == 0 && !ferror(stdout))
    return status;
  fprintf(stderr, "ocl-reduce: cannot write the output: %s\n", strerror(errno));
  return status ? status : 1;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    /* The library's version, which may differ from the header this tool was built with. */
    const int v = ocl_reduce_version();
    printf("ocl-reduce %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
    return written(0);
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return written(commands[i].run(argc - 1, argv + 1));
  fprintf(stderr,
          "ocl-reduce: unknown command '%s' (demo, info, reduce, bench, cache; see "
          "ocl-reduce --help)\n",
          argv[1]);
  return 2;
}
