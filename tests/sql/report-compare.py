#!/usr/bin/python3
"""report-compare.py REPORT.txt ROWS.csv - does the slice table count as `uftrace report`
printed?  ROWS.csv is `traceglot sql --format csv` of
  name, calls, total (recursion once, unfinished calls to their end_ts), self, plain (sum(dur)),
  special (1 when a call of the function is recursive or unfinished).
Calls must be equal; total and self must print as uftrace prints them (its unit rule, the
microsecond's thousandth truncated); plain must print as the total wherever special is 0.
Prints each difference and a summary line; exit 1 on any difference."""
import csv
import sys


def uftrace_time(ns):
    """uftrace's print_time_unit: three digits, a dot, three digits, a unit."""
    ns &= (1 << 64) - 1
    if ns >= 1 << 63:  # a negative duration prints as its absolute value
        ns = (1 << 64) - ns
    if ns == 0:
        return ""
    units = ["us", "ms", " s", " m", " h"]
    limit = [1000, 1000, 1000, 60, 24, 0x7fffffff]
    d, small, idx = ns, 0, 0
    while idx < 5:
        small = d % limit[idx]
        d //= limit[idx]
        if d < limit[idx + 1]:
            break
        idx += 1
    idx = min(idx, 4)
    return ("%3d.%03d %s" % (d, small, units[idx])).strip()


def report_rows(path):
    """Function -> (calls, total text, self text) from uftrace report's table."""
    rows = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines[2:]:
        if line.strip():
            rows[line[38:]] = (int(line[24:36]), line[0:12].strip(), line[12:24].strip())
    return rows


def main():
    want = report_rows(sys.argv[1])
    got, plain = {}, {}
    with open(sys.argv[2], newline="") as f:
        r = csv.reader(f)
        next(r)
        for name, calls, total, self_, psum, special in r:
            got[name] = (int(calls), uftrace_time(int(total)), uftrace_time(int(self_)))
            if special == "0":
                plain[name] = uftrace_time(int(psum))
    bad = 0
    for name in sorted(set(want) | set(got)):
        if want.get(name) != got.get(name):
            print("  %s: uftrace report %s, slice %s" % (name, want.get(name), got.get(name)))
            bad += 1
        elif name in plain and plain[name] != want[name][1]:
            print("  %s: sum(dur) %s, uftrace report's total %s" % (name, plain[name], want[name][1]))
            bad += 1
    print("%d functions, %d by the plain sum(dur), %d differences" % (len(want), len(plain), bad))
    sys.exit(1 if bad else 0)


main()
