/* =================================================================================================
 * capture.c: stderr into a temporary file and back (capture.h).
 * ============================================================================================== */
#include "support/capture.h"

#include <unistd.h>

#include "support/fixture.h" /* cmocka */

void test_capture_begin(test_capture *capture) {
  fflush(stderr);
  capture->file = tmpfile();
  assert_non_null(capture->file);
  capture->saved = dup(fileno(stderr));
  assert_true(capture->saved >= 0 && dup2(fileno(capture->file), fileno(stderr)) >= 0);
}

void test_capture_end(test_capture *capture, char *text, size_t size) {
  fflush(stderr);
  dup2(capture->saved, fileno(stderr));
  close(capture->saved);
  rewind(capture->file);
  const size_t got = size ? fread(text, 1, size - 1, capture->file) : 0;
  if (size)
    text[got] = '\0';
  fclose(capture->file);
  capture->file = NULL;
}
