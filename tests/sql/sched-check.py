#!/usr/bin/python3
"""sched-check.py REPORT-t.txt SLICES.csv - sched_slice against `trace-cmd report -t` of the
same trace.dat.  SLICES.csv: cpu, slices, idle slices, sum(dur), min(ts), max(ts + dur) per
CPU.  From trace-cmd's lines, per CPU: its first event, its sched_switch lines, how many of
them switch to the idle task (pid 0), and whether the task switched out first was idle; the
trace's last event.  Expected: one slice per switch, plus one for the task that ran from the
CPU's first event to its first switch; the slices start at the CPU's first event and end at
the trace's last (Perfetto ends the running slices at the trace's end), so their durations
add up to that span.  Prints the differences; exit 1 on any."""
import csv
import re
import sys

LINE = re.compile(r"^.*-\d+\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}):\s+([^\s:]+):\s*(.*)$")
SWITCH = re.compile(r"(?:prev_pid=|:)(\d+) \[\d+\] \S+ ==> .*?:?(\d+) \[\d+\]\s*$")


def main():
    first, switches, idle, first_prev, last = {}, {}, {}, {}, None
    for line in open(sys.argv[1], errors="replace"):
        m = LINE.match(line)
        if not m:
            continue
        cpu, ts = int(m.group(1)), int(m.group(2)) * 1000000000 + int(m.group(3))
        last = ts if last is None or ts > last else last
        first.setdefault(cpu, ts)
        if m.group(4) == "sched_switch":
            s = SWITCH.search(m.group(5))
            if not s:
                continue
            prev, nxt = int(s.group(1)), int(s.group(2))
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
    with open(sys.argv[2], newline="") as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            got[int(row[0])] = tuple(int(x) for x in row[1:])
    bad = 0
    for cpu in sorted(set(want) | set(got)):
        if want.get(cpu) != got.get(cpu):
            print("  cpu %d: trace-cmd (slices, idle, span, first, last) %s, sched_slice %s"
                  % (cpu, want.get(cpu), got.get(cpu)))
            bad += 1
    print("%d cpus, %d differ" % (len(want), bad))
    sys.exit(1 if bad else 0)


main()
