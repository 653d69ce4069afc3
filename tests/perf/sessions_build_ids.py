#!/usr/bin/python3
"""perf_session and stack_profile_mapping.build_id against perf itself (Debian's perf 6.1):
each perf.data fixture has one perf_session row whose cmdline is the one `perf report
--header-only` prints ("# cmdline : ..."); every mapping with a build_id has the id `perf
buildid-list` prints for its path, and every mapping whose path perf buildid-list lists with
an id has that id.  A Perfetto trace converted from the file has one session per sequence
of samples, with a NULL cmdline (as trace_processor fills it for PerfSample packets).  Both
perf commands only read the file (no perf_event_open): they run here when perf is installed.
Usage: sessions_build_ids.py TG DATA_DIR"""
import csv
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile


def sql(tg, args, q):
    p = subprocess.run([tg, "sql", "--format", "csv"] + args + ["-q", q], capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def perf_build_ids(path):
    out = subprocess.run(["perf", "buildid-list", "-i", path], capture_output=True, text=True,
                         check=True).stdout
    ids = {}
    for line in out.splitlines():
        parts = line.strip().split(" ", 1)
        if len(parts) == 2 and parts[0]:
            ids[parts[1]] = parts[0]
    return ids


def perf_cmdline(path):
    out = subprocess.run(["perf", "report", "--header-only", "-i", path], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if line.startswith("# cmdline : "):
            return line[len("# cmdline : "):].rstrip()
    return None


def main():
    tg, data = sys.argv[1], sys.argv[2]
    if not shutil.which("perf"):
        print("SKIP: perf is not installed (apt-get install linux-perf)")
        return 77
    files = sorted(glob.glob(os.path.join(data, "perf*", "*.data")))
    if not files:
        print("SKIP: no perf.data fixtures under %s" % data)
        return 77
    failed = checked_ids = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.relpath(path, data)
            sessions = sql(tg, [path], "SELECT id, cmdline FROM perf_session")
            want = perf_cmdline(path)
            if len(sessions) == 1 and want and sessions[0][1] == want:
                print("PASS %s: perf_session cmdline = perf's" % name)
            else:
                failed += 1
                print("FAIL %s: perf_session %r, perf report --header-only: %r" %
                      (name, sessions, want))
            ids = perf_build_ids(path)
            bad = []
            for mid, build_id, mname in sql(tg, [path], "SELECT id, build_id, name FROM "
                                            "stack_profile_mapping"):
                if build_id or mname in ids:
                    checked_ids += 1
                    if ids.get(mname) != (build_id or None):
                        bad.append("mapping %s %s: %r, perf buildid-list %r" %
                                   (mid, mname, build_id, ids.get(mname)))
            if bad:
                failed += 1
                print("FAIL %s: build ids\n   %s" % (name, "\n   ".join(bad[:5])))
            else:
                print("PASS %s: the mappings' build ids are perf buildid-list's" % name)
        # a converted file: one session per sequence of samples, no cmdline
        path = os.path.join(data, "perf", "cpu-clock-g.data")
        if os.path.exists(path):
            out = os.path.join(tmp, "g.pftrace")
            subprocess.run([tg, "convert", "--to", "perfetto", "-o", out, path], check=True)
            sessions = sql(tg, [out], "SELECT id, cmdline IS NULL FROM perf_session")
            used = sql(tg, [out], "SELECT DISTINCT perf_session_id FROM perf_sample")
            if sessions == [["0", "1"]] and used == [["0"]]:
                print("PASS converted: one perf_session of the samples' sequence, cmdline NULL")
            else:
                failed += 1
                print("FAIL converted: perf_session %r, the samples' sessions %r" %
                      (sessions, used))
    if not checked_ids:
        print("FAIL: no mapping with a build id was compared")
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
