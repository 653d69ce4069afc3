#!/usr/bin/python3
"""sched-check.py trace-cmd|babeltrace2 TEXT SLICES.csv - sched_slice against the peer's text
of the same trace: `trace-cmd report -t` of a trace.dat, `babeltrace2 --clock-seconds` of an
LTTng kernel trace.  SLICES.csv: cpu, slices, idle slices, sum(dur), min(ts), max(ts + dur) per
CPU.  From the peer's lines, per CPU: its first event, its sched_switch lines, how many of
them switch to the idle task (pid 0), and whether the task switched out first was idle; the
trace's last event.  Expected: one slice per switch, plus one for the task that ran from the
CPU's first event to its first switch; the slices start at the CPU's first event and end at
the trace's last (Perfetto ends the running slices at the trace's end), so their durations
add up to that span.  Prints the differences; exit 1 on any."""
import csv
import re
import sys

TRACE_CMD = re.compile(r"^.*-\d+\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}):\s+([^\s:]+):\s*(.*)$")
TRACE_CMD_SWITCH = re.compile(r"(?:prev_pid=|:)(\d+) \[\d+\] \S+ ==> .*?:?(\d+) \[\d+\]\s*$")
# [1417383672.250167676] (+0.000659911) host name: { cpu_id = 0 }, { fields }
BABELTRACE = re.compile(r"^\[(\d+)\.(\d{9})\] \(\+[^)]*\) (?:\S+ )?([^\s:]+): \{ cpu_id = (\d+) \}(.*)$")
BABELTRACE_SWITCH = re.compile(r"prev_tid = (\d+),.* next_tid = (\d+),")


def events(tool, path):
    """(cpu, ts, name, switch (prev, next) or None) of each event line."""
    for line in open(path, errors="replace"):
        if tool == "trace-cmd":
            m = TRACE_CMD.match(line)
            if m:
                s = TRACE_CMD_SWITCH.search(m.group(5)) if m.group(4) == "sched_switch" else None
                yield (int(m.group(1)), int(m.group(2)) * 1000000000 + int(m.group(3)), m.group(4),
                       (int(s.group(1)), int(s.group(2))) if s else None)
        else:
            m = BABELTRACE.match(line)
            if m:
                s = BABELTRACE_SWITCH.search(m.group(5)) if m.group(3) == "sched_switch" else None
                yield (int(m.group(4)), int(m.group(1)) * 1000000000 + int(m.group(2)), m.group(3),
                       (int(s.group(1)), int(s.group(2))) if s else None)


def main():
    first, switches, idle, first_prev, last = {}, {}, {}, {}, None
    for cpu, ts, name, switch in events(sys.argv[1], sys.argv[2]):
        last = ts if last is None or ts > last else last
        first.setdefault(cpu, ts)
        if switch:
            prev, nxt = switch
            if cpu not in switches:
                first_prev[cpu] = (prev, ts)
            switches[cpu] = switches.get(cpu, 0) + 1
            idle[cpu] = idle.get(cpu, 0) + (nxt == 0)
    want = {}
    for cpu in switches:
        prev, ts = first_prev[cpu]
        pre = first[cpu] < ts
        want[cpu] = (switches[cpu] + pre, idle[cpu] + (pre and prev == 0), last - first[cpu],
                     first[cpu], last)
    got = {}
    with open(sys.argv[3], newline="") as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            got[int(row[0])] = tuple(int(x) for x in row[1:])
    bad = 0
    for cpu in sorted(set(want) | set(got)):
        if want.get(cpu) != got.get(cpu):
            print("  cpu %d: %s (slices, idle, span, first, last) %s, sched_slice %s" % (cpu, sys.argv[1],
                  want.get(cpu), got.get(cpu)))
            bad += 1
    print("%d cpus, %d differ" % (len(want), bad))
    sys.exit(1 if bad else 0)


main()
