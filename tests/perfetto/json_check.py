#!/usr/bin/python3
"""Checks traceglot's Chrome JSON reader (the Trace Event Format) against Python's json module
on the JSON that real writers wrote: `uftrace dump --chrome` (uftrace, the peer) and
`traceglot convert --to chrome` of the uftrace fixtures.  Python decodes each file, and the
slices are computed here by the format's rules (B/E pairs per thread, X with its dur, i/I/n
instants of no duration; times in microseconds); traceglot's slice table must hold the same
(ts, dur, name) rows and its thread table the names of the M events.  Then damaged copies
(cut at 40 places): exit 0 or 1 (1 naming the offset), never more slices than the whole.
Usage: json_check.py TG FIXTURE_DIR..."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import csv
import io

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def async_key(ev, pid):
    """The async track of a b/e/n event, as trace_processor keys it; None without an id."""
    id2 = ev.get("id2") if isinstance(ev.get("id2"), dict) else {}
    if "id" in ev:
        return ("async", ev.get("name", ""), ev.get("cat", ""), str(ev["id"]))
    if "global" in id2:
        return ("async", ev.get("name", ""), ev.get("cat", ""), str(id2["global"]))
    if "local" in id2:
        return ("async", ev.get("name", ""), ev.get("cat", ""), str(id2["local"]), pid)
    return None


def expected(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r",(\s*,)+", ",", text)  # uftrace's empty elements for lost records
    doc = json.loads(text)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    open_, slices, names = {}, [], {}
    for ev in events:
        if not ev:
            continue
        ph = ev.get("ph")
        pid = int(ev.get("pid", 0))
        tid = int(ev.get("tid", pid))
        if ph == "M":
            n = ev.get("args", {}).get("name")
            if ev.get("name") == "thread_name" and n:
                names[tid] = n
            continue
        if "ts" not in ev:
            continue
        ts = round(float(ev["ts"]) * 1000)
        if ph == "B":
            row = [ts, -1, ev.get("name", "")]
            open_.setdefault(tid, []).append(row)
            slices.append(row)
        elif ph == "E" and open_.get(tid):
            row = open_[tid].pop()
            row[1] = ts - row[0]
        elif ph == "X":
            slices.append([ts, round(float(ev.get("dur", 0)) * 1000), ev.get("name", "")])
        elif ph in ("i", "I"):
            slices.append([ts, 0, ev.get("name", "")])
        elif ph in ("b", "e", "n") and async_key(ev, pid):
            # an async slice: on the track of (name, cat, id), not its thread's
            key = async_key(ev, pid)
            if ph == "b":
                row = [ts, -1, ev.get("name", "")]
                open_.setdefault(key, []).append(row)
                slices.append(row)
            elif ph == "e" and open_.get(key):
                row = open_[key].pop()
                row[1] = ts - row[0]
            elif ph == "n":
                slices.append([ts, 0, ev.get("name", "")])
    return sorted(tuple(s) for s in slices), names


def sql(tg, path, query):
    p = subprocess.run([tg, "sql", "--format", "csv", path, "-q", query], capture_output=True,
                       text=True)
    return p.returncode, list(csv.reader(io.StringIO(p.stdout)))[1:], p.stderr


def check(tg, path, what):
    slices, names = expected(path)
    rc, rows, err = sql(tg, path, "SELECT ts, dur, name FROM slice")
    if rc != 0:
        fail("%s: sql exits %d: %s" % (what, rc, err))
    got = sorted((int(r[0]), int(r[1]), r[2]) for r in rows)
    if got != slices:
        missing = [s for s in slices if s not in got][:3]
        extra = [s for s in got if s not in slices][:3]
        fail("%s: %d slices, Python finds %d (missing %s, extra %s)" % (what, len(got),
                                                                         len(slices), missing, extra))
    rc, rows, err = sql(tg, path, "SELECT tid, name FROM thread")
    have = {int(r[0]): r[1] for r in rows}
    for tid, name in names.items():
        if have.get(tid) != name:
            fail("%s: thread %d named %r, the M event says %r" % (what, tid, have.get(tid), name))
    with open(path, "rb") as f:
        raw = f.read()
    for k in range(1, 41):
        cut = len(raw) * k // 41
        with tempfile.NamedTemporaryFile(suffix=".json") as t:
            t.write(raw[:cut])
            t.flush()
            rc, rows, err = sql(tg, t.name, "SELECT ts FROM slice")
        if rc not in (0, 1) or (rc == 1 and "offset 0x" not in err and
                                "not a trace" not in err):
            fail("%s cut at %d: exit %d: %s" % (what, cut, rc, err.strip()[:200]))
        if len(rows) > len(slices):
            fail("%s cut at %d: %d slices, more than the whole's %d" % (what, cut, len(rows),
                                                                       len(slices)))
    print("%s: %d slices, %d thread names" % (what, len(slices), len(names)))


def main():
    tg = sys.argv[1]
    tmp = tempfile.mkdtemp()
    try:
        for d in sys.argv[2:]:
            name = os.path.basename(d)
            own = os.path.join(tmp, name + ".traceglot.json")
            subprocess.run([tg, "convert", "--to", "chrome", "-o", own, d], check=True,
                           capture_output=True)
            check(tg, own, name + " (traceglot convert --to chrome)")
            if shutil.which("uftrace"):
                peer = os.path.join(tmp, name + ".uftrace.json")
                with open(peer, "w") as f:
                    subprocess.run(["uftrace", "dump", "--chrome", "-d", d], stdout=f,
                                   stderr=subprocess.DEVNULL, check=True)
                check(tg, peer, name + " (uftrace dump --chrome)")
            else:
                print("%s: uftrace is not installed, its JSON not checked" % name)
    finally:
        shutil.rmtree(tmp)
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
