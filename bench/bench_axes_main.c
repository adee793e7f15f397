/* =================================================================================================
 * bench_axes_main.c: the bench_axes program (bench_axes.c): issue 55's table of reductions along
 * axes against CUB, cuBLAS and OpenMP.
 *   bench_axes [ROUNDS [FILTER [SHIFT]]]   (20 rounds; cases whose name holds FILTER; SHIFT
 *                                         halves the outermost extent SHIFT times, for CPUs)
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>

#include "bench_axes.h"

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 20;
  const int shift = argc > 3 ? atoi(argv[3]) : 0;
  if (rounds < 1 || shift < 0 || shift > 8) {
    fprintf(stderr, "usage: bench_axes [ROUNDS [FILTER [SHIFT]]]\n");
    return 2;
  }
  return bench_axes_table(rounds, argc > 2 ? argv[2] : "", (unsigned)shift);
}
