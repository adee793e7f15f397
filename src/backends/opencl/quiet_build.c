/* =================================================================================================
 * quiet_build.c: clBuildProgram without the implementation's chatter on stderr. Some compilers
 * print a summary there themselves (PoCL's clang: "1 warning generated.", "2 errors generated."),
 * besides the build log the library reads and reports; a library must not write to its
 * application's stderr unless asked (OCL_REDUCE_LOG=debug). So the build runs with file
 * descriptor 2 on a temporary file, and afterwards every line written there is passed on to the
 * real stderr except the compiler's summary lines, which only the debug log shows. Builds take
 * turns (the descriptor is the process's); other threads' writes to stderr meanwhile are passed
 * on after the build, in order.
 * ============================================================================================== */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/opencl/opencl.h"

/* "1 warning generated.", "3 warnings and 2 errors generated.": a compiler's closing count. */
static int is_summary(const char *line) {
  const char *end = strstr(line, " generated.");
  return end && (strstr(line, "warning") || strstr(line, "error")) && line[0] >= '0' &&
         line[0] <= '9' && strlen(end) <= strlen(" generated.\n");
}

/* Passes what the build wrote on to stderr, but for the compiler's summary lines. */
static void pass_on(FILE *captured) {
  char line[4096];
  rewind(captured);
  while (fgets(line, sizeof line, captured)) {
    if (!is_summary(line) || orx_log_debug())
      fputs(line, stderr);
  }
}

cl_int orx_cl_build_quietly(cl_program program, cl_device_id device, const char *options) {
  static pthread_mutex_t turns = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&turns);
  fflush(stderr);
  FILE *captured = tmpfile();
  const int saved = captured ? dup(STDERR_FILENO) : -1;
  const int redirected = saved >= 0 && dup2(fileno(captured), STDERR_FILENO) >= 0;
  const cl_int code = clBuildProgram(program, 1, &device, options, NULL, NULL);
  if (redirected) {
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    pass_on(captured);
  }
  if (saved >= 0)
    close(saved);
  if (captured)
    fclose(captured);
  pthread_mutex_unlock(&turns);
  return code;
}
