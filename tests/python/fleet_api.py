"""fleet_api.py SCHEDULER LIST WANT_CSV TRACE_DIR - traceglot.fleet's Python API on a running
scheduler: fleet.sql over a glob gives, trace by trace, the rows of WANT_CSV (what a loop of
`traceglot sql --format csv` printed for the traces of LIST), as rows and as pandas;
fleet.map runs a function of each trace set (its event count = the count in those rows);
fleet.paths reads globs, @FILE and a file listing paths.  "ok"/"FAIL" lines.
"""
import csv
import os
import sys

from distributed import Client

from traceglot import fleet

addr, listing, want_csv, tdir = sys.argv[1:5]
failed = 0


def check(name, ok, why=""):
    global failed
    print(("ok   %s" if ok else "FAIL %s") % name + ("" if ok or not why else ": " + why))
    failed += not ok


Q = open(os.path.join(os.path.dirname(want_csv), "query")).read()
with open(want_csv) as f:
    rows = list(csv.reader(f))
header, want = rows[0], rows[1:]
listed = [l.strip() for l in open(listing) if l.strip()]
ctf = [p for p in listed if p.startswith(tdir) and p.endswith(".ctf")]

check("paths: a glob, sorted", fleet.paths([os.path.join(tdir, "*.ctf")]) == sorted(ctf))
check("paths: @FILE", fleet.paths(["@" + listing]) == listed)
check("paths: a file listing paths", fleet.paths([listing]) == listed)

c = Client(addr)
res = fleet.sql([os.path.join(tdir, "*.ctf")], Q, client=c)
mine = [[str(v) if v is not None else "" for v in r] for r in res.rows]
theirs = [r for r in want if r[0] in set(ctf)]
key = lambda r: (r[0], r[1], r[2])
check("fleet.sql over a glob: %d rows = the CLI loop's, trace by trace" % len(mine),
      res.columns == header and sorted(mine, key=key) == sorted(theirs, key=key) and not res.errors,
      "%d != %d rows, errors %s" % (len(mine), len(theirs), res.errors[:1]))
df = res.to_pandas()
check("to_pandas: %d rows, columns %s" % (len(df), list(df.columns)),
      len(df) == len(mine) and list(df.columns) == header)
counts = {}
for r in want:
    if r[1] == "event":
        counts[r[0]] = counts.get(r[0], 0) + int(r[3])
m = fleet.map(ctf[:40], lambda ts: sum(1 for _ in ts.events()), client=c)
check("fleet.map: a function of each trace set (event counts = the CLI's)",
      dict(m.results) == {p: counts.get(p, 0) for p in ctf[:40]} and not m.errors)
bad = fleet.map([ctf[0], "/no/such/trace"], lambda ts: 1 / 0, client=c)
check("fleet.map: errors are rows, per trace (%s)" % (bad.errors[:1],),
      len(bad.errors) == 2 and "ZeroDivisionError" in bad.errors[0][1] and not bad.results)
c.close()
sys.exit(1 if failed else 0)
