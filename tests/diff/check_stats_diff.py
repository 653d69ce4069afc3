#!/usr/bin/python3
"""check_stats_diff.py STATS_DIFF REPORT_OTHER REPORT_PATH - each row of `stats --diff` (but
"lost", the dropped events trace-cmd reports apart) holds the count of its event in each run as
`trace-cmd report` printed them (REPORT_*: its lines counted by event name), the change and
"new"/"gone" for events of one run only; and every event trace-cmd printed has its row."""
import re
import sys

LINE = re.compile(r"^\s*.+?-\d+\s+\[\d+\]\s+[\d.]+: ([^:\s]+):")


def counts(path):
    c = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            c[m.group(1)] = c.get(m.group(1), 0) + 1
    return c


def main():
    other, path = counts(sys.argv[2]), counts(sys.argv[3])
    rows = {}
    lines = open(sys.argv[1]).read().splitlines()[3:]
    for line in lines:
        f = line.split()
        rows[f[0]] = f[1:]
    rows.pop("lost", None)
    bad = []
    if sorted(rows) != sorted(set(other) | set(path)):
        bad.append("events %s, trace-cmd printed %s" % (sorted(rows), sorted(set(other) | set(path))))
    for name, f in rows.items():
        o, p = other.get(name), path.get(name)
        want = [str(o) if o else "-", str(p) if p else "-", "%+d" % ((p or 0) - (o or 0))]
        if want[2] == "+0":
            want[2] = "0"
        if f[:3] != want:
            bad.append("%s: %s, trace-cmd: %s" % (name, f[:3], want))
        if (f[3] == "new") != (o is None) or (f[3] == "gone") != (p is None):
            bad.append("%s: marked %s" % (name, f[3]))
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


sys.exit(main())
