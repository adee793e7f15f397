#!/usr/bin/env python3
"""Checks examples/csv_records against Python's csv module: the record count of generated CSV
files with quoted fields holding commas, line feeds and doubled quotes, empty fields and empty
lines, LF and CRLF line ends, a last record with and without its line end, sizes around the
example's 16-byte elements and 1 MiB chunks, and a file of 100 MB.

Usage: check_csv_records.py PATH_TO_csv_records [SCRATCH_DIR]"""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile


def random_field(rng):
    kind = rng.random()
    if kind < 0.15:
        return ""
    alphabet = "abcxyz019 ,\"\n;'"
    if kind < 0.5:
        alphabet = "abcxyz019 ;'"  # written unquoted
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))


def random_csv(rng, records, line_end):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=line_end)
    for _ in range(records):
        if rng.random() < 0.03:
            out.write(line_end)  # an empty line: an empty record
            continue
        writer.writerow([random_field(rng) for _ in range(rng.randint(1, 6))])
    return out.getvalue().encode()


def python_count(path):
    with open(path, newline="", encoding="utf-8") as f:
        return sum(1 for _ in csv.reader(f))


def example_count(example, path):
    out = subprocess.run([example, path], check=True, capture_output=True, text=True).stdout
    return int(out.split("records ")[1].split()[0])


def main():
    example = sys.argv[1]
    scratch = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(scratch, exist_ok=True)
    rng = random.Random(int(os.environ.get("OCL_REDUCE_TEST_SEED", "20261123")))
    cases = []
    for records in (0, 1, 2, 7, 100, 3000, 40000):
        for line_end in ("\n", "\r\n"):
            data = random_csv(rng, records, line_end)
            cases.append((f"{records} records {line_end!r}", data))
            if data.endswith(line_end.encode()):
                cases.append((f"{records} records {line_end!r}, no last line end",
                              data[: -len(line_end)]))
    # Around the 16-byte elements and the 1 MiB chunks: records cut at every alignment.
    base = random_csv(rng, 60000, "\n")
    for cut in (15, 16, 17, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (2 << 20) + 5):
        cases.append((f"{cut} bytes", base[:cut]))
    # 100 MB: a block of whole records, repeated.
    block = random_csv(rng, 20000, "\n")
    cases.append(("100 MB", block * (100_000_000 // len(block) + 1)))
    failures = 0
    for name, data in cases:
        path = os.path.join(scratch, "check.csv")
        with open(path, "wb") as f:
            f.write(data)
        want, got = python_count(path), example_count(example, path)
        status = "ok" if want == got else "MISMATCH"
        print(f"{status}: {name} ({len(data)} bytes): csv module {want}, csv_records {got}")
        failures += want != got
    os.remove(os.path.join(scratch, "check.csv"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
