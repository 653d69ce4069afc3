#!/usr/bin/python3
"""check_account_diff.py DIFF ACCOUNT_PATH ACCOUNT_OTHER - `report --style=xray --diff` against
llvm-xray account's own outputs for the two logs: each row of PATH is llvm-xray's line for
PATH, in llvm-xray's order; each row only OTHER has is llvm-xray's line for OTHER; every
change line holds count and seconds of PATH minus OTHER for the function of the row above
(llvm-xray prints 6 decimals, so the changes are checked to 2e-6)."""
import re
import sys

NUM = r"([+-]?\d+\.\d{6})"
ROW = re.compile(r"^\s*(-?\d+)\s+(\d+) \[" + ", ".join([r"\s*" + NUM] * 5) + r"\]\s+" + NUM + r"  (.*): (.*)$")
CHANGE = re.compile(r"^ {9} \s*([+-]\d+) \[" + ", ".join([r"\s*" + NUM] * 5) + r"\]\s+" + NUM + r"  \((.*)\)$")


def account(path):
    rows = {}
    lines = [l.rstrip("\n") for l in open(path)][2:]
    for line in lines:
        m = ROW.match(line)
        rows[m.group(10)] = (line, [float(m.group(2))] + [float(m.group(k)) for k in range(3, 9)])
    return lines, rows


def main():
    diff = [l.rstrip("\n") for l in open(sys.argv[1])][2:]
    path_lines, path_rows = account(sys.argv[2])
    other_lines, other_rows = account(sys.argv[3])
    bad = []
    rows, i = [], 0
    while i + 1 < len(diff):
        rows.append((diff[i], diff[i + 1]))
        i += 2
    if i != len(diff):
        bad.append("a row without its change line")
    got_path = [r for r, c in rows if not c.endswith("(only in OTHER)")]
    if got_path != path_lines:
        bad.append("PATH's rows differ from llvm-xray account's:\n%s\n--- against ---\n%s"
                   % ("\n".join(got_path), "\n".join(path_lines)))
    for row, change in rows:
        m, c = ROW.match(row), CHANGE.match(change)
        if not m or not c:
            bad.append("cannot read: %r / %r" % (row, change))
            continue
        name, what = m.group(10), c.group(8)
        if what == "only in OTHER":
            if row not in other_lines or name in path_rows:
                bad.append("%s: not a row of OTHER only" % name)
            p, o = [0.0] * 7, other_rows.get(name, (None, [0.0] * 7))[1]
        else:
            p = path_rows[name][1] if name in path_rows else [0.0] * 7
            o = other_rows[name][1] if name in other_rows else [0.0] * 7
            if (what == "only in PATH") != (name not in other_rows):
                bad.append("%s: marked %s" % (name, what))
        got = [float(c.group(1))] + [float(c.group(k)) for k in range(2, 8)]
        for k in range(7):
            if abs(got[k] - (p[k] - o[k])) > (0 if k == 0 else 2e-6):
                bad.append("%s: change %d is %s, not %s" % (name, k, got[k], p[k] - o[k]))
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


sys.exit(main())
