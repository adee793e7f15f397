/* =================================================================================================
 * capture.h: what this process writes to stderr while a call runs, for tests of what the library
 * prints there (its debug log; a compiler's summary that must stay off the terminal).
 * ============================================================================================== */
#ifndef ORX_TEST_CAPTURE_H
#define ORX_TEST_CAPTURE_H

#include <stddef.h>
#include <stdio.h>

typedef struct test_capture {
  FILE *file; /* where stderr goes meanwhile */
  int saved;  /* stderr's own descriptor, to put back */
} test_capture;

/* From now on stderr goes to a temporary file (the test fails where it cannot). */
void test_capture_begin(test_capture *capture);
/* Puts stderr back; what it received meanwhile goes to text (at most size - 1 bytes and a NUL). */
void test_capture_end(test_capture *capture, char *text, size_t size);

#endif /* ORX_TEST_CAPTURE_H */
