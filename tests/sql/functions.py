#!/usr/bin/python3
"""STR_SPLIT, REGEXP and TRACE_DUR (Perfetto's functions) against Python on the slice names
of a trace: STR_SPLIT(name, '_', i) must be Python's name.split('_')[i] (NULL past the last
part), `name REGEXP p` must be re.search(p, name) for patterns that mean the same in POSIX
extended and Python syntax, TRACE_DUR() must be trace_bounds' end_ts - start_ts.
Usage: functions.py TG TRACE"""
import csv
import io
import re
import subprocess
import sys


def sql(tg, trace, q):
    p = subprocess.run([tg, "sql", "--format", "csv", trace, "-q", q], capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def main():
    tg, trace = sys.argv[1], sys.argv[2]
    failures, checks = 0, 0
    names = sorted({r[0] for r in sql(tg, trace, "SELECT DISTINCT name FROM slice")})
    for i in range(4):
        for name, part, isnull in sql(tg, trace, "SELECT DISTINCT name, STR_SPLIT(name, '_', %d),"
                                      " STR_SPLIT(name, '_', %d) IS NULL FROM slice" % (i, i)):
            parts = name.split("_")
            want = parts[i] if i < len(parts) else None
            got = None if isnull == "1" else part
            checks += 1
            if got != want:
                failures += 1
                print("FAIL: STR_SPLIT(%r, '_', %d) = %r, Python %r" % (name, i, got, want))
    for pattern in ("^is_", "(even|odd)$", "[a-c]+", "^f.b$", "x{2,}", "^[^_]*$"):
        got = {r[0] for r in sql(tg, trace, "SELECT DISTINCT name FROM slice WHERE name "
                                 "REGEXP '%s'" % pattern)}
        want = {n for n in names if re.search(pattern, n)}
        checks += 1
        if got != want:
            failures += 1
            print("FAIL: REGEXP %r: %s, Python %s" % (pattern, sorted(got), sorted(want)))
    dur = sql(tg, trace, "SELECT TRACE_DUR(), (SELECT end_ts - start_ts FROM trace_bounds)")[0]
    checks += 1
    if dur[0] != dur[1]:
        failures += 1
        print("FAIL: TRACE_DUR() %s, trace_bounds %s" % (dur[0], dur[1]))
    print("%d checks, %d failed (%d slice names)" % (checks, failures, len(names)))
    return 1 if failures or not names else 0


if __name__ == "__main__":
    sys.exit(main())
