#!/usr/bin/env python3
"""lttv_threads.py MODE ... - an LTTng 0.x trace's threads as LTTV's text dump gives them,
against traceglot's kernel model.

LTTV's text dump prints, for every event, the process LTTV's state machine has running on
the event's CPU (the columns after the tracefile: pid, tgid, name, ...), followed from
kernel.sched_schedule (which LTTV already gives to the task switched in; the kernel model,
as Perfetto, gives a switch to the task switched out: its prev_pid) and the statedump.

  events LTTV_TEXT OURS_CSV   OURS_CSV: `traceglot sql --format csv` rows `ts,cpu,name,tid`
            of ftrace_event (tid empty: unknown).  Compares, per event after its CPU's first
            sched_schedule (before it LTTV shows pid 0 by default, the model says unknown),
            LTTV's pid with ours, events matched in order by (time, cpu, name); prints
            `TID COUNT` of LTTV's per-thread counts and exits 1 on the first differences
  tasks LTTV_TEXT             `TID PID` of every task the trace names with its process: the
            statedump's task_state.process_state (pid, tgid) and kernel.process_fork
            (child_pid, child_tgid), sorted"""
import csv
import re
import sys

LINE = re.compile(r"^([a-z_]+)\.([a-z_0-9]+): (\d+)\.(\d+) \([^)]*_(\d+)\), (\d+), (\d+), "
                  r"(.*?), [^{]*?(?:\{ (.*) \})?$")


def lttv(path):
    for line in open(path, errors="replace"):
        m = LINE.match(line.rstrip("\n"))
        if m:
            chan, name, s, f, cpu, pid, tgid, _, fields = m.groups()
            yield (int(s) * 1000000000 + int(f), int(cpu), name, chan, int(pid),
                   dict(re.findall(r"(\w+) = (-?\d+)", fields or "")))


def events(text, ours_csv):
    theirs, started = [], set()
    for ts, cpu, name, chan, pid, fields in lttv(text):
        if name == "sched_schedule" and chan == "kernel":
            started.add(cpu)
            pid = int(fields["prev_pid"])
        elif cpu not in started:
            continue
        theirs.append((ts, cpu, name, pid))
    rows = list(csv.reader(open(ours_csv)))[1:]
    started, ours = set(), []
    for ts, cpu, name, tid in rows:
        cpu, base = int(cpu), name.split(".")[-1]
        if base == "sched_schedule":
            started.add(cpu)
        elif cpu not in started:
            continue
        ours.append((int(ts), cpu, base, int(tid) if tid else None))
    diffs = []
    if len(ours) != len(theirs):
        diffs.append("%d events after the first switches, LTTV %d" % (len(ours), len(theirs)))
    counts = {}
    for o, t in zip(ours, theirs):
        if o[:3] != t[:3]:
            diffs.append("event %r, LTTV %r: not the same event" % (o, t))
            break
        if o[3] != t[3]:
            diffs.append("%d cpu %d %s: thread %s, LTTV %d" % (t[0], t[1], t[2], o[3], t[3]))
        counts[t[3]] = counts.get(t[3], 0) + 1
    for tid in sorted(counts):
        print(tid, counts[tid])
    if diffs or not theirs:
        print("\n".join(diffs[:20] or ["no events after a sched_schedule"]), file=sys.stderr)
        sys.exit(1)


def tasks(text):
    out = set()
    for ts, cpu, name, chan, pid, f in lttv(text):
        if chan == "task_state" and name == "process_state":
            out.add((int(f["pid"]), int(f["tgid"])))
        elif chan == "kernel" and name == "process_fork":
            out.add((int(f["child_pid"]), int(f["child_tgid"])))
    for tid, pid in sorted(out):
        print(tid, pid)


if sys.argv[1] == "events":
    events(sys.argv[2], sys.argv[3])
else:
    tasks(sys.argv[2])
