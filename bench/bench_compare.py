#!/usr/bin/env python3
"""Compares benchmark CSVs of two builds (`ocl-reduce bench --csv`), row by row.

  bench/bench_compare.py OLD.csv[,OLD2.csv...] NEW.csv[,NEW2.csv...]

Each side may be several runs of the same table (rounds, comma-separated): a row's device GB/s is
the median over them. Prints, for every case of ours (op, type, n, segment length, contender), the
old and new device GB/s, their ratio, and the end-to-end times; then the rows outside +-2 %.
Contenders that are not ocl_reduce (CUB, OpenMP) are shown too: they did not change, so their
ratios show how much the machine itself moved between the runs.
"""
import csv
import statistics
import sys


def load(paths):
    rows = {}
    for path in paths.split(","):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["op"], r["type"], int(r["n"]), int(r["segment_length"]), r["contender"])
                rows.setdefault(key, []).append(
                    (float(r["device_gbs"]), float(r["end_to_end_us"])))
    return {k: (statistics.median(g for g, _ in v), statistics.median(e for _, e in v))
            for k, v in rows.items()}


def main():
    old, new = load(sys.argv[1]), load(sys.argv[2])
    print(f"{'op':4} {'type':4} {'n':>10} {'seg':>6}  {'contender':44} {'old GB/s':>9} "
          f"{'new GB/s':>9} {'new/old':>7} {'old e2e us':>10} {'new e2e us':>10}")
    outside = []
    for key in sorted(set(old) & set(new), key=lambda k: (k[4], k[0], k[1], k[3], k[2])):
        (og, oe), (ng, ne) = old[key], new[key]
        ratio = ng / og if og else float("nan")
        op, typ, n, seg, who = key
        print(f"{op:4} {typ:4} {n:>10} {seg:>6}  {who[:44]:44} {og:9.1f} {ng:9.1f} {ratio:7.3f} "
              f"{oe:10.1f} {ne:10.1f}")
        if who.startswith("ocl_reduce") and abs(ratio - 1) > 0.02:
            outside.append((key, ratio))
    print(f"\n{len(outside)} rows of ocl_reduce outside +-2 % of the old build:")
    for (op, typ, n, seg, who), ratio in outside:
        print(f"  {op} {typ} n={n} seg={seg} {who}: {ratio:.3f}")


if __name__ == "__main__":
    main()
