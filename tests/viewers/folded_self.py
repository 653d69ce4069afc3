#!/usr/bin/env python3
"""folded_self.py FOLDED REPORT - checks that the folded stacks' weights, added up per
function (the last frame of each line), print exactly as the "Self time" column of
`uftrace report` (REPORT, recorded by uftrace itself) shows them, for every function of the
report.  One exception, listed in the output: a row whose Self time exceeds its own Total
time is not a time but uftrace's unsigned arithmetic wrapping around a negative sum (after
lost records, uftrace 0.13 prints a self time of hours for calls of microseconds); folded
weights are positive integers and cannot carry it, so such a row is listed, not compared.
Exit 0 when every function matches, 1 with the differences listed."""
import sys


def uftrace_time(ns):
    """A time as uftrace report prints it: us, ms or s with three truncated decimals."""
    for div, unit in ((1000, "us"), (1000000, "ms"), (1000000000, " s")):
        if ns // div < 1000 or unit == " s":
            return "%3d.%03d %s" % (ns // div, ns // (div // 1000) % 1000, unit)


def parse_time(text):
    """A time as uftrace report prints it, in ns (upper bound of its truncated digits)."""
    value, unit = text.split()
    scale = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000, "m": 60000000000,
             "h": 3600000000000}[unit]
    return int(float(value) * scale)


def main():
    folded, report = sys.argv[1], sys.argv[2]
    self_ns = {}
    with open(folded) as f:
        for line in f:
            stack, weight = line.rstrip("\n").rsplit(" ", 1)
            func = stack.split(";")[-1]
            self_ns[func] = self_ns.get(func, 0) + int(weight)
    bad = checked = wrapped = 0
    with open(report) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6 or not parts[-2].isdigit() or parts[0].startswith("="):
                continue
            # "  Total  unit   Self  unit  Calls  Function name with spaces"
            total_text = line[:12].strip()
            self_text = line[13:25].strip()
            func = line[38:].strip() if len(line) > 38 else parts[-1]
            got = uftrace_time(self_ns.get(func, 0)).strip()
            checked += 1
            if parse_time(self_text) > parse_time(total_text):
                wrapped += 1
                print("%s: uftrace report self %s exceeds its total %s (wrapped): not compared"
                      " (folded %d ns)" % (func, self_text, total_text, self_ns.get(func, 0)))
                continue
            if " ".join(got.split()) != " ".join(self_text.split()):
                bad += 1
                print("%s: uftrace report self %s, folded %s (%d ns)"
                      % (func, self_text, got, self_ns.get(func, 0)))
    if not checked:
        print("no function rows in", report)
        return 1
    print("%d functions checked, %d differ%s" % (checked, bad,
          ", %d with a wrapped self time not compared" % wrapped if wrapped else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
