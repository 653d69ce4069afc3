#!/usr/bin/env python3
"""chrome_vs_uftrace.py OURS.json UFTRACE.json - compares traceglot's Chrome JSON with
`uftrace dump --chrome` of the same recording, as JSON values (the json module reads both):

  - per thread, the sequence of "B"/"E" events: phase, name, timestamp, args (uftrace's
    args.arguments and args.retval); uftrace leaves "tid" out when it equals "pid";
  - the names of the "M" metadata events: the thread_name of each thread and the
    process_name of each process that has calls equal the ones uftrace gives that id.
Prints what it compared; exit 1 with the first differences otherwise."""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)["traceEvents"]


def calls(events):
    out = {}
    for e in events:
        if e.get("ph") not in ("B", "E"):
            continue
        tid = e.get("tid", e["pid"])
        out.setdefault(tid, []).append((e["ph"], e["name"], e["ts"], e["pid"], e.get("args", {})))
    return out




def main():
    ours, theirs = load(sys.argv[1]), load(sys.argv[2])
    fails = []
    a, b = calls(ours), calls(theirs)
    if sorted(a) != sorted(b):
        fails.append("threads %s, uftrace's %s" % (sorted(a), sorted(b)))
    n = args = 0
    for tid in sorted(set(a) & set(b)):
        if a[tid] != b[tid]:
            for i, (x, y) in enumerate(zip(a[tid] + [None] * len(b[tid]), b[tid] + [None] * len(a[tid]))):
                if x != y:
                    fails.append("thread %d event %d: %r, uftrace %r" % (tid, i, x, y))
                    break
        n += len(b[tid])
        args += sum(1 for e in b[tid] if e[4])
    # uftrace names every thread as a "process" and a "thread" of pid = its tid
    ours_threads = {e["tid"]: e["args"]["name"] for e in ours
                    if e.get("ph") == "M" and e.get("name") == "thread_name"}
    ours_procs = {e["pid"]: e["args"]["name"] for e in ours
                  if e.get("ph") == "M" and e.get("name") == "process_name" and e["pid"]}
    their_threads = {e["pid"]: e["args"]["name"] for e in theirs
                     if e.get("ph") == "M" and e.get("name") == "thread_name"}
    their_procs = {e["pid"]: e["args"]["name"] for e in theirs
                   if e.get("ph") == "M" and e.get("name") == "process_name"}
    for tid, name in sorted(ours_threads.items()):
        if tid in b and their_threads.get(tid) != name:
            fails.append("thread %d named %r, uftrace %r" % (tid, name, their_threads.get(tid)))
    pids = set(e[3] for tid in b for e in b[tid])
    for pid, name in sorted(ours_procs.items()):
        if pid in pids and their_procs.get(pid) != name:
            fails.append("process %d named %r, uftrace %r" % (pid, name, their_procs.get(pid)))
    if fails:
        print("; ".join(fails[:5]))
        return 1
    print("%d B/E events on %d threads (%d with args), names of %d threads and %d processes"
          % (n, len(b), args, len(b), len(pids)))
    return 0


sys.exit(main())
