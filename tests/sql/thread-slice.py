#!/usr/bin/python3
"""thread_slice (Perfetto's standard-library view) and process_counter_track against what is
computed here.  thread_slice: the trace is exported with `convert --to sqlite` and the view's
rows are joined here from the exported slice, thread_track, thread and process tables (a slice
of a thread's track with its track's, thread's and process's names and ids; a thread without
a process keeps NULLs); its columns are the standard library's, less `type`.
process_counter_track (with --textproto FILE, the Perfetto trace's text): its rows are the
counter TrackDescriptors whose parent is a process's descriptor, with that process's pid, and
the counter rows on them are the TYPE_COUNTER events of those tracks, read from the text.
Usage: thread-slice.py TG TRACE [--textproto FILE]"""
import csv
import io
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

COLUMNS = ["id", "ts", "dur", "category", "name", "track_id", "track_name", "thread_name",
           "utid", "tid", "is_main_thread", "process_name", "upid", "pid", "depth", "parent_id",
           "arg_set_id", "thread_ts", "thread_dur"]


def sql(tg, trace, q):
    p = subprocess.run([tg, "sql", "--format", "csv", trace, "-q", q], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (q, p.stderr.strip()))
    rows = list(csv.reader(io.StringIO(p.stdout)))
    return rows[0] if rows else [], rows[1:]


def text(v):
    return "" if v is None else str(v)


def expected_thread_slices(db):
    q = lambda s: db.execute(s).fetchall()
    tracks = {i: (name, utid) for i, name, utid in q("SELECT id, name, utid FROM thread_track")}
    threads = {u: (name, tid, main, upid)
               for u, name, tid, main, upid in q("SELECT utid, name, tid, is_main_thread, upid "
                                                 "FROM thread")}
    procs = {u: (name, pid) for u, name, pid in q("SELECT upid, name, pid FROM process")}
    out = []
    for (sid, ts, dur, cat, name, track, depth, parent, args, tts, tdur) in q(
            "SELECT id, ts, dur, category, name, track_id, depth, parent_id, arg_set_id, "
            "thread_ts, thread_dur FROM slice"):
        if track not in tracks or tracks[track][1] not in threads:
            continue
        track_name, utid = tracks[track]
        thread_name, tid, main, upid = threads[utid]
        process_name, pid = procs.get(upid, (None, None))
        if upid not in procs:
            upid = None
        out.append([text(v) for v in (sid, ts, dur, cat, name, track, track_name, thread_name,
                                      utid, tid, main, process_name, upid, pid, depth, parent,
                                      args, tts, tdur)])
    return sorted(out, key=lambda r: int(r[0]))


def textproto_counters(path):
    """(name, pid) of each process counter track and (name, ts, value) of their events."""
    packets = re.split(r"\n(?=packet \{)", open(path).read())
    desc, events = {}, []
    for p in packets:
        ts = re.search(r"\btimestamp: (\d+)", p)
        m = re.search(r"track_descriptor \{(.*)\n  \}", p, re.S)
        if m:
            body = m.group(1)
            uuid = int(re.search(r"\buuid: (\d+)", body).group(1))
            parent = re.search(r"parent_uuid: (\d+)", body)
            name = re.search(r'\bname: "([^"]*)"', body)
            pid = re.search(r"process \{ pid: (\d+)", body)
            desc[uuid] = {"parent": int(parent.group(1)) if parent else None,
                          "name": name.group(1) if name else None,
                          "pid": int(pid.group(1)) if pid else None,
                          "counter": "counter {" in body}
        m = re.search(r"type: TYPE_COUNTER track_uuid: (\d+) counter_value: (-?\d+)", p)
        if m:
            events.append((int(m.group(1)), int(ts.group(1)), int(m.group(2))))
    procs = {u: d["pid"] for u, d in desc.items() if d["pid"] is not None and not d["counter"]}
    tracks = {u: (d["name"], procs[d["parent"]]) for u, d in desc.items()
              if d["counter"] and d["parent"] in procs}
    values = sorted((tracks[u][0], ts, v) for u, ts, v in events if u in tracks)
    return sorted(tracks.values()), values


def main():
    tg, trace = sys.argv[1], sys.argv[2]
    textproto = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--textproto" else None
    if not os.path.exists(trace):
        print("SKIP: %s is absent" % trace)
        return 77
    failures, checks = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "t.db")
        p = subprocess.run([tg, "convert", "--to", "sqlite", "-o", db_path, trace],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL: convert --to sqlite: %s" % p.stderr.strip())
            return 1
        db = sqlite3.connect(db_path)
        want = expected_thread_slices(db)
        db.close()
    header, rows = sql(tg, trace, "SELECT * FROM thread_slice")
    got = sorted(rows, key=lambda r: int(r[0]))
    checks += 2
    if header != COLUMNS:
        failures += 1
        print("FAIL: thread_slice's columns %s, expected %s" % (header, COLUMNS))
    if got != want:
        failures += 1
        print("FAIL: thread_slice: %d rows, expected %d" % (len(got), len(want)))
        for g, w in zip(got, want):
            if g != w:
                print("  first difference: %s\n  expected:         %s" % (g, w))
                break
    print("thread_slice: %d rows" % len(got))
    if textproto:
        want_tracks, want_values = textproto_counters(textproto)
        _, tracks = sql(tg, trace, "SELECT t.name, p.pid FROM process_counter_track t "
                        "JOIN process p USING (upid)")
        got_tracks = sorted((n, int(pid)) for n, pid in tracks)
        _, values = sql(tg, trace, "SELECT t.name, c.ts, c.value FROM counter c "
                        "JOIN process_counter_track t ON c.track_id = t.id")
        got_values = sorted((n, int(ts), int(float(v))) for n, ts, v in values)
        checks += 2
        if got_tracks != want_tracks or not want_tracks:
            failures += 1
            print("FAIL: process_counter_track %s, expected %s" % (got_tracks, want_tracks))
        if got_values != want_values:
            failures += 1
            print("FAIL: their counters %s, expected %s" % (got_values, want_values))
        print("process_counter_track: %d tracks, %d values" % (len(got_tracks), len(got_values)))
    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures or not want else 0


if __name__ == "__main__":
    sys.exit(main())
