#!/usr/bin/python3
"""Round trip through the viewer formats: each trace given is converted with
`traceglot convert --to perfetto` and `--to chrome`, and the conversion read back must give
the original's slice rows (ts, dur, name, depth) and thread names.  The writers also draw
the trace's other events (uftrace's linux:task-name, a kernel event) as instants, which read
back as slices of no duration, as trace_processor reads them: those are left out by name.
The chrome writer names a thread "[tid] name" (as uftrace dump --chrome does).
Usage: round_trip.py TG TRACE..."""
import csv
import io
import os
import subprocess
import sys
import tempfile

failures = 0


def rows(tg, path, query):
    p = subprocess.run([tg, "sql", "--format", "csv", path, "-q", query], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (path, p.returncode, p.stderr.strip()[:300]))
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def main():
    global failures
    tg = sys.argv[1]
    tmp = tempfile.mkdtemp()
    slices_q = "SELECT ts, dur, name, depth FROM slice ORDER BY ts, depth, name"
    for trace in sys.argv[2:]:
        if not os.path.exists(trace):
            print("SKIP %s: absent" % trace)
            continue
        want = rows(tg, trace, slices_q)
        names = {r[2] for r in want}
        threads = {(r[0], r[1]) for r in rows(tg, trace, "SELECT tid, name FROM thread")
                   if r[1]}
        for fmt, ext in (("perfetto", "pftrace"), ("chrome", "json")):
            out = os.path.join(tmp, os.path.basename(trace.rstrip("/")) + "." + ext)
            subprocess.run([tg, "convert", "--to", fmt, "-o", out, trace], check=True,
                           capture_output=True)
            got = [r for r in rows(tg, out, slices_q) if r[2] in names or r[1] != "0"]
            if got != want:
                failures += 1
                extra = [r for r in got if r not in want][:3]
                missing = [r for r in want if r not in got][:3]
                print("FAIL: %s --to %s: %d slices read back, %d in the original (missing %s, "
                      "extra %s)" % (trace, fmt, len(got), len(want), missing, extra))
            back = {(r[0], r[1]) for r in rows(tg, out, "SELECT tid, name FROM thread") if r[1]}
            if fmt == "chrome":  # the writer names a thread "[tid] name", as uftrace does
                back = {(t, n) for t, n in threads if (t, "[%s] %s" % (t, n)) in back}
            if not threads <= back:
                failures += 1
                print("FAIL: %s --to %s: threads %s not read back" % (trace, fmt,
                                                                      sorted(threads - back)))
            print("%s --to %s: %d slices, %d named threads" % (trace, fmt, len(want),
                                                                len(threads)))
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
