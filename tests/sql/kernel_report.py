#!/usr/bin/python3
"""kernel_report.py WHAT REPORT - what `trace-cmd report -t` prints of a trace.dat, counted by
hand, as CSV lines to compare with traceglot's tables.
  per-thread  "pid,count": the event lines per comm-pid (the thread trace-cmd names)
  irq         "cpu,ts,dur,name" per irq_handler_entry/exit pair of a CPU (an exit ends the
              entry open on its CPU; one without an entry before it ends nothing):
              Perfetto's slice "IRQ (name)", ts and dur in ns
  softirq     the same for softirq_entry/exit: the slice named by [action=NAME]
"""
import re
import sys

LINE = re.compile(r'^\s*(?:\S+: )?\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$')


def main():
    what, path = sys.argv[1], sys.argv[2]
    counts = {}
    open_ = {}
    rows = []
    for line in open(path, encoding='utf-8', errors='replace'):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        pid, cpu = int(m.group(2)), int(m.group(3))
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        name, rest = m.group(6), m.group(7)
        counts[pid] = counts.get(pid, 0) + 1
        kind = None
        if name in ('irq_handler_entry', 'irq_handler_exit'):
            kind = 'irq'
        elif name in ('softirq_entry', 'softirq_exit'):
            kind = 'softirq'
        if kind != what:
            continue
        stack = open_.setdefault(cpu, [])
        if name.endswith('_entry'):
            if kind == 'irq':
                label = 'IRQ (%s)' % re.search(r'name=(.*)$', rest).group(1)
            else:
                label = re.search(r'\[action=(\w+)\]', rest).group(1)
            stack.append((ts, label))
        elif stack:
            begin, label = stack.pop()
            rows.append((cpu, begin, ts - begin, label))
    if what == 'per-thread':
        for pid in sorted(counts):
            print('%d,%d' % (pid, counts[pid]))
    else:
        for cpu, ts, dur, label in sorted(rows):  # quoted as `sqlite3 -csv` quotes a text
            print('%d,%d,%d,%s' % (cpu, ts, dur, '"%s"' % label if ' ' in label else label))


main()
