#!/usr/bin/python3
"""compare_pairs.py EXPECTED ACTUAL [RUN_PATH RUN_OTHER] - two `report --diff -f total,self,call
--diff-policy full` tables of the same two runs of pair.c, uftrace's (EXPECTED, on the uftrace
recordings) and traceglot's (ACTUAL, on the XRay recordings, or across formats), must hold:
  - the same function rows (uftrace's linux:schedule rows aside: XRay records no context
    switches), the same rows present in one run only, the same calls on each side;
  - with RUN_PATH and RUN_OTHER (the runs as record-pairs.sh names them: a4, a8, b4), the
    same changes of total time to the recordings' timing.  Two recordings of a busy machine
    run at different speeds, so each recording's times are first divided by its own time per
    iteration of spin() (its self time over the iterations pair.c makes it run), then
    |change_actual - change_expected| <= 0.25 * max(|both|) + 0.05 * T, T the largest such
    total of the expected table (each tracer's cost per call differs)."""
import re
import sys

UNITS = {"us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}
T = r"(-|\d+\.\d{3} (?:us|ms| s| m| h))"
D = r"\s*(?:[+-]?\d+\.\d{3} (?:us|ms| s| m| h)|0 us)"
ROW = re.compile(r"^\s+" + T + r"\s+" + T + D + r"\s+" + T + r"\s+" + T + D +
                 r"\s+(\d+)\s+(\d+)\s+([+-]\d+)\s+(.+)$")


def ns(text):
    if text == "-":
        return None
    value, unit = text.strip().rsplit(" ", 1)
    return float(value) * UNITS[unit]


def table(path):
    rows = {}
    for line in open(path):
        m = ROW.match(line.rstrip("\n"))
        if not m or m.group(8).startswith("linux:schedule"):
            continue
        rows[m.group(8)] = {"total": (ns(m.group(1)), ns(m.group(2))),
                            "self": (ns(m.group(3)), ns(m.group(4))),
                            "calls": (int(m.group(5)), int(m.group(6))), "dcalls": int(m.group(7))}
    return rows


def iterations(run):
    """spin()'s iterations in a run of pair.c: build a or b, input n."""
    build, n = run[0], int(run[1:])
    leaf = 20000 if build == "b" else 10000
    total = sum(2 * leaf + i % 7 + (i + 1) % 7 for i in range(10 * n))
    return total + (300000 * n if build == "b" else 100000 * n)


def normalised(rows, runs):
    spin = rows["spin"]["self"]
    unit = [spin[k] / iterations(runs[k]) for k in (0, 1)]
    return {name: [(r["total"][k] or 0) / unit[k] for k in (0, 1)] for name, r in rows.items()}


def main():
    exp, act = table(sys.argv[1]), table(sys.argv[2])
    runs = sys.argv[3:5]
    bad = []
    if sorted(exp) != sorted(act):
        bad.append("function rows differ: %s against %s" % (sorted(exp), sorted(act)))
    for name in sorted(set(exp) & set(act)):
        e, a = exp[name], act[name]
        if e["calls"] != a["calls"] or e["dcalls"] != a["dcalls"]:
            bad.append("%s: calls %s %+d against %s %+d" % (name, e["calls"], e["dcalls"], a["calls"], a["dcalls"]))
        if [v is None for v in e["total"]] != [v is None for v in a["total"]]:
            bad.append("%s: present in other runs" % name)
    if runs and not bad:
        ne, na = normalised(exp, runs), normalised(act, runs)
        big = max(v for t in ne.values() for v in t)
        for name in sorted(ne):
            de, da = ne[name][1] - ne[name][0], na[name][1] - na[name][0]
            if abs(da - de) > 0.25 * max(abs(da), abs(de)) + 0.05 * big:
                bad.append("%s: change of total time %.0f against %.0f iterations of spin (largest total %.0f)"
                           % (name, de, da, big))
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


sys.exit(main())
