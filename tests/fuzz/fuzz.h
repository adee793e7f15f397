/* =================================================================================================
 * fuzz.h: the differential fuzzer (test_fuzz): random cases over every form of one context, each
 * compared with the host references of tests/support, invalid calls mixed in; a third of the
 * calls whose memory is all host memory go to a group of two more contexts on the same device
 * instead (ocl_reduce_group.h: its forms, cut in small parts); test_fuzz_mpi runs the MPI
 * component's forms across ranks. A case is a seed and a number; the generator is reseeded from
 * both before each case, so a failure prints the one command that replays it (fuzz.c). The
 * parts:
 *   fuzz_memory.c   inputs and outputs in host memory or buffers, with guard bytes around them
 *   fuzz_subject.c  what a case reduces (operator, type, data) and its comparison with the host
 *   fuzz_forms.c    the valid calls: whole arrays, segments, offsets, windows, multi, parts
 *   fuzz_axes.c     axes of random N-d views (and their refusal past the input's end)
 *   fuzz_pairs.c    pair operators (dot products, distances) over two inputs
 *   fuzz_by_key.c   the runs of equal keys, outputs of every size (one short: refused)
 *   fuzz_invalid.c  calls that must be refused with a named status, outputs untouched
 *   fuzz.c          what the drivers share; fuzz_main.c and fuzz_mpi.c, the drivers
 * ============================================================================================== */
#ifndef ORX_FUZZ_H
#define ORX_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"
#include "ocl_reduce_group.h"
#include "support/custom_ops.h"
#include "support/ordered_ops.h"
#include "support/reference.h"
#include "support/user_pairs.h"

enum { FUZZ_GROUP_SIZE = 2 };

typedef struct fuzz_run {
  ocl_reduce_context *ctx;
  ocl_reduce_context *members[FUZZ_GROUP_SIZE];
  ocl_reduce_group *group; /* of members */
  int has_fp64;
  ocl_reduce_operator *ordered[TEST_ORDERED_COUNT];
  ocl_reduce_operator *custom[TEST_CUSTOM_COUNT];
  ocl_reduce_operator *user_pairs[TEST_USER_PAIR_COUNT];
  uint64_t seed, case_number;
  char what[384]; /* the case being run, for messages */
  unsigned long long results, mismatches, refusals, unsupported, on_group;
} fuzz_run;

/* ---- Runs (fuzz.c) -----------------------------------------------------------------------------
 */

/* The context the environment selects, the user operators and (with_group) the group. 1 when all
 * were made, else 0 with the reason on stderr. */
int fuzz_run_open(fuzz_run *run, uint64_t seed, int with_group);
void fuzz_run_close(fuzz_run *run);
/* Reseeds the generator for case k of a run with `seed` (both mixed). */
void fuzz_seed_case(uint64_t seed, uint64_t k);
double fuzz_seconds_now(void);
/* How a failure's replay command starts: the launcher ("mpiexec -n 3 ", or "") and the program. */
extern const char *fuzz_program, *fuzz_launcher;

/* 1 when this case's call goes to the group: its memory is all host memory, and a coin of one in
 * three says so; notes it in run->what. */
int fuzz_on_group(fuzz_run *run, int all_host);

/* Reports a wrong result or a broken promise of the current case, with the replay command. */
void fuzz_fail(fuzz_run *run, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Checks a status that a valid call must return (OK); UNSUPPORTED_OPERATION is counted and
 * reported as unsupported, not failed. 1 when the call succeeded. */
int fuzz_call_ok(fuzz_run *run, ocl_reduce_status status, const char *call);

/* ---- Memory (fuzz_memory.c) ------------------------------------------------------------------ */

/* An input: host memory of exactly its bytes, or (unless host_only) a buffer holding it from a
 * random element offset on. */
typedef struct fuzz_input {
  ocl_reduce_input in;
  ocl_reduce_buffer *buffer;
} fuzz_input;
void fuzz_input_place(fuzz_run *run, fuzz_input *f, const void *data, size_t bytes, size_t unit,
                      int host_only);
void fuzz_input_free(fuzz_input *f);

/* An output of `bytes`: host memory, or (unless host_only) a buffer from a random offset in units
 * of `unit` bytes; either with guard bytes around it that the call must leave alone. */
typedef struct fuzz_output {
  ocl_reduce_output out;
  ocl_reduce_buffer *buffer;
  unsigned char *host; /* lead + bytes + tail bytes; the host output is at host + lead */
  size_t bytes, lead, tail;
} fuzz_output;
void fuzz_output_place(fuzz_run *run, fuzz_output *f, size_t bytes, size_t unit, int host_only);
/* Waits for the call's work, copies the output to `into` (bytes), and checks the guards (and,
 * when `untouched`, that the output itself still holds the fill). 1 when all is as it must be. */
int fuzz_output_take(fuzz_run *run, fuzz_output *f, void *into, int untouched);
void fuzz_output_free(fuzz_output *f);

/* ---- Subjects (fuzz_subject.c) --------------------------------------------------------------- */

/* What a case reduces: a built-in operator on a type, with data of a mode, or a user operator
 * (ordered or custom >= 0), whose type is OCL_REDUCE_OP_ELEMENT. */
typedef struct fuzz_subject {
  ocl_reduce_op op;
  ocl_reduce_type type;
  test_mode mode;
  int ordered, custom; /* test_ordered, test_custom; -1 for built-in operators */
  size_t element_size, result_size;
} fuzz_subject;

/* A random type the context can run (f64 only with double precision). */
ocl_reduce_type fuzz_pick_type(const fuzz_run *run);
/* A random subject that the context can run; user operators only where `users`, and none whose
 * map reads the index where `index_free` (windows: the index of an element there is not
 * specified by the window's start). */
fuzz_subject fuzz_subject_pick(fuzz_run *run, int users, int index_free);
/* A random scalar built-in subject of a given type, for the operators of one multi call. */
fuzz_subject fuzz_subject_builtin(fuzz_run *run, ocl_reduce_type type);
/* "sum f32 (random)", "matrix". */
void fuzz_subject_name(const fuzz_subject *s, char *text, size_t size);
/* n elements of data for the subject. */
void fuzz_subject_fill(const fuzz_subject *s, void *data, size_t n);
/* 1 when `got` is the subject's result over the n elements at data, whose first element has index
 * `first` in what the call was given (ARGMIN and ARGMAX of windows count from the input's start);
 * else 0 with why. Float sums of random reals are held to the rigorous bound of any order. */
int fuzz_subject_matches(const fuzz_subject *s, const void *got, const void *data, size_t n,
                         uint64_t first, char *why, size_t why_size);

/* ---- Cases (fuzz_forms.c, fuzz_invalid.c) ------------------------------------------------------
 */

/* A random size: mostly small, sometimes up to `large`, now and then a power of two +- 1. */
size_t fuzz_size(size_t large);
/* n elements of data for the subject (malloc'd). */
void *fuzz_data_for(const fuzz_subject *s, size_t n);
/* Compares one result with the subject over data[begin, begin + length), whose first element has
 * index `first` in the call's input; a mismatch is reported as `which` i. */
void fuzz_check_result(fuzz_run *run, const fuzz_subject *s, const unsigned char *got,
                       const unsigned char *data, size_t begin, size_t length, uint64_t first,
                       const char *which, size_t i);
void fuzz_valid_case(fuzz_run *run);
/* One call of a pair operator (fuzz_pairs.c): whole arrays or segments of two inputs, each host
 * memory or a buffer at its own random offset. */
void fuzz_pairs_case(fuzz_run *run);
/* One call of reduce by key (fuzz_by_key.c): keys, values and outputs each in host memory or a
 * buffer at its own offset; outputs one run short now and then, which must be refused. */
void fuzz_by_key_case(fuzz_run *run);
/* One call of the axes form (fuzz_axes.c), now and then one that must be refused. */
void fuzz_axes_case(fuzz_run *run);
void fuzz_invalid_case(fuzz_run *run);

#endif /* ORX_FUZZ_H */
