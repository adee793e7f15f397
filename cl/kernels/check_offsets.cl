/* =================================================================================================
 * check_offsets.cl: validates CSR-style segment offsets that live in device memory before a
 * segmented reduction reads through them. offsets[index .. index + count] must not decrease and
 * must not pass `limit` (the elements the input holds). Any violation sets report[0] to 1 (the
 * host zeroes it first); work-item 0 also copies the first and last offset to report[1] and
 * report[2], from which the host picks the kernel for the segments' average length.
 * ============================================================================================== */
__kernel void orx_check_offsets(__global const ulong *offsets, ulong index, ulong count,
                                ulong limit, __global ulong *report) {
  __global const ulong *o = offsets + index;
  for (ulong i = get_global_id(0); i <= count; i += get_global_size(0)) {
    const ulong here = o[i];
    if (here > limit || (i < count && here > o[i + 1]))
      report[0] = 1; /* every writer stores the same value */
  }
  if (get_global_id(0) == 0) {
    report[1] = o[0];
    report[2] = o[count];
  }
}
