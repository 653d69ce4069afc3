#!/usr/bin/python3
"""Checks traceglot's Gecko profile reader (the Firefox Profiler's JSON) against Python's json
module: Python decodes each profile and the slices are computed here by the format's rules
(markers of phase 0 instants, 1 intervals, 2/3 a start and the end of the latest start of that
name on the thread; times in milliseconds; category by meta.categories; data members as
args data.NAME); traceglot's slice table must hold the same (tid, ts, dur, name, category,
args) rows.  Then damaged copies (cut at 40 places): exit 1 naming the offset, and the slices
exactly those of the threads whole before the cut.
Usage: gecko_check.py TG PROFILE..."""
import json
import os
import subprocess
import sys
import tempfile

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def ns(ms):
    return round(ms * 1e6)


def thread_slices(th, categories):
    strings = th.get("stringArray", th.get("stringTable", []))
    m = th["markers"]
    if "schema" in m:
        sc = m["schema"]
        rows = [{k: r[i] for k, i in sc.items()} for r in m["data"]]
    else:
        rows = [{k: m[k][i] for k in ("name", "startTime", "endTime", "phase", "category", "data")}
                for i in range(len(m["name"]))]
    out, open_ = [], []
    for r in rows:
        name = strings[r["name"]]
        cat = categories[r["category"]]["name"]
        data = r["data"] or {}
        args = tuple(sorted(("data." + k, str(v)) for k, v in data.items()))
        tid = int(th["tid"])
        if r["phase"] == 0:
            out.append((tid, ns(r["startTime"]), 0, name, cat, args))
        elif r["phase"] == 1:
            out.append((tid, ns(r["startTime"]), ns(r["endTime"]) - ns(r["startTime"]), name, cat, args))
        elif r["phase"] == 2:
            open_.append((name, ns(r["startTime"]), cat, args))
        elif r["phase"] == 3:
            for k in range(len(open_) - 1, -1, -1):
                if open_[k][0] == name:
                    n, ts, c, a = open_.pop(k)
                    out.append((tid, ts, ns(r["endTime"]) - ts, n, c, a))
                    break
    return out


QUERY = ("select t.tid, s.ts, s.dur, s.name, s.category, "
         "(select group_concat(key || '=' || display_value, '|') from args a "
         "where a.arg_set_id = s.arg_set_id) from slice s "
         "join thread_track tt on s.track_id = tt.id join thread t using(utid)")


def tg_slices(tg, path):
    p = subprocess.run([tg, "sql", "--format", "csv", "-q", QUERY, path], capture_output=True,
                       text=True, timeout=60)
    rows = []
    import csv
    import io
    for r in list(csv.reader(io.StringIO(p.stdout)))[1:]:
        args = tuple(sorted(tuple(kv.split("=", 1)) for kv in r[5].split("|"))) if r[5] else ()
        rows.append((int(r[0]), int(r[1]), int(r[2]), r[3], r[4], args))
    return p.returncode, p.stderr, sorted(rows)


def main():
    tg, profiles = sys.argv[1], sys.argv[2:]
    tmp = tempfile.mkdtemp()
    for path in profiles:
        data = open(path, "rb").read()
        doc = json.loads(data)
        cats = doc["meta"]["categories"]
        want = sorted(s for th in doc["threads"] for s in thread_slices(th, cats))
        rc, err, got = tg_slices(tg, path)
        if rc != 0 or got != want:
            fail("%s: exit %d %s\n  want %s\n  got  %s" % (path, rc, err.strip(), want, got))
        # where each thread ends in the file
        text = data.decode()
        dec = json.JSONDecoder()
        at = text.index("[", text.index('"threads"')) + 1
        ends = []
        for th in doc["threads"]:
            while text[at] in " \t\r\n,":
                at += 1
            _, at = dec.raw_decode(text, at)
            ends.append(at)
        for i in range(40):
            cut = len(data) * i // 40
            if cut >= ends[-1]:
                continue
            cpath = os.path.join(tmp, "cut.json")
            open(cpath, "wb").write(data[:cut])
            rc, err, got = tg_slices(tg, cpath)
            whole = [th for th, e in zip(doc["threads"], ends) if e <= cut]
            want_cut = sorted(s for th in whole for s in thread_slices(th, cats))
            if cut == 0 or b'"meta"' not in data[:cut] or b'"threads"' not in data[:cut]:
                if rc not in (0, 1):
                    fail("%s cut at %d: exit %d" % (path, cut, rc))
                continue
            if rc != 1 or "offset 0x" not in err or got != want_cut:
                fail("%s cut at %d: exit %d %s\n  want %s\n  got  %s" % (path, cut, rc,
                                                                       err.strip(), want_cut, got))
    print("gecko reader: %d profile(s), %d failure(s)" % (len(profiles), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
