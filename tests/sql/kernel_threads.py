#!/usr/bin/python3
"""kernel_threads.py WHAT BABELTRACE2_TEXT - what babeltrace2's text of an LTTng kernel trace
says about its threads, worked out by hand, as CSV lines to compare with traceglot's tables.

The per-CPU current task is followed from the sched_switch lines (an event belongs to the
task its CPU switched to last; a sched_switch itself to the task it switches out, its
prev_tid; before a CPU's first sched_switch the thread is unknown, -1).  WHAT:
  per-thread   "tid,count" per thread of the events, sorted by tid
  syscalls     "tid,count" of the system calls each thread completed (a syscall_exit_*
               whose thread's last syscall event was a syscall_entry_*: what
               lttng-syscallstats counts), threads with none left out
  threads      the tids of the thread table: the idle task 0, the statedump's, the forks'
               children and every tid a sched event names
  processes    the pids of the process table: 0, the statedump's pids and ppids, and the
               forks' children's processes
  irq          "cpu,dur,name" per irq_handler_entry/exit pair of a CPU, in the order they
               began: Perfetto's slice "IRQ (name)" (an exit ends the entry open on its CPU;
               one without an entry ends nothing)
  softirq      the same for irq_softirq_entry/exit: the slice named by the vector's action
  counters     "cpu,name,value" per power_cpu_frequency ("cpufreq", of the CPU it names) and
               power_cpu_idle ("cpuidle") in time order
"""
import re
import sys

LINE = re.compile(r"^\[([^\]]*)\] \([^)]*\) (?:\S+ )?([\w:]+): \{ cpu_id = (\d+) \}(?:, \{ ?(.*?) ?\})?$")
SOFTIRQS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
            "RCU"]


def ns_of(stamp):
    """A time as babeltrace2 prints it, in ns: [HH:MM:SS.NNNNNNNNN] (of the day) or [cycles]."""
    if ':' not in stamp:
        return int(stamp)
    h, m, sec = stamp.split(':')
    whole, frac = sec.split('.')
    return ((int(h) * 60 + int(m)) * 60 + int(whole)) * 1000000000 + int(frac.ljust(9, '0'))


def field(payload, name):
    m = re.search(r'(?:^|, )' + name + r' = (-?\d+)', payload or '')
    return int(m.group(1)) if m else None


def main():
    what, path = sys.argv[1], sys.argv[2]
    current = {}
    per_thread = {}
    syscalls = {}
    in_call = {}
    threads = {0}
    processes = {0}
    opened = {}
    slices = {'irq': [], 'softirq': []}
    counters = []
    for line in open(path, encoding='utf-8', errors='replace'):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        ts, name, cpu, payload = ns_of(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
        tid = current.get(cpu, -1)
        if name == 'sched_switch':
            prev, nxt = field(payload, 'prev_tid'), field(payload, 'next_tid')
            tid = prev
            current[cpu] = nxt
            threads.update((prev, nxt))
        elif name in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new', 'sched_process_exit',
                      'sched_process_free'):
            threads.add(field(payload, 'tid'))
        elif name == 'sched_process_fork':
            threads.add(field(payload, 'child_tid'))
            processes.add(field(payload, 'child_pid'))
        elif name == 'lttng_statedump_process_state':
            threads.add(field(payload, 'tid'))
            processes.update((field(payload, 'pid'), field(payload, 'ppid')))
        elif name in ('irq_handler_entry', 'irq_softirq_entry'):
            kind = 'irq' if name == 'irq_handler_entry' else 'softirq'
            if kind == 'irq':
                label = 'IRQ (%s)' % re.search(r'name = "([^"]*)"', payload).group(1)
            else:
                vec = field(payload, 'vec')
                label = SOFTIRQS[vec] if 0 <= vec < len(SOFTIRQS) else None
            if label:
                opened.setdefault((cpu, kind), []).append((ts, label))
        elif name in ('irq_handler_exit', 'irq_softirq_exit'):
            kind = 'irq' if name == 'irq_handler_exit' else 'softirq'
            stack = opened.get((cpu, kind))
            if stack:
                begin, label = stack.pop()
                slices[kind].append((cpu, begin, ts - begin, label))
        elif name in ('power_cpu_frequency', 'power_cpu_idle'):
            counters.append('%d,%s,%.1f' % (field(payload, 'cpu_id'),
                                            'cpufreq' if name == 'power_cpu_frequency' else 'cpuidle',
                                            field(payload, 'state')))
        per_thread[tid] = per_thread.get(tid, 0) + 1
        if name.startswith('syscall_entry_'):
            in_call[tid] = True
        elif name.startswith('syscall_exit_'):
            if in_call.get(tid):
                syscalls[tid] = syscalls.get(tid, 0) + 1
            in_call[tid] = False
    if what in slices:  # quoted as `traceglot sql --format csv` quotes a text with a space
        for cpu, _, dur, label in sorted(slices[what]):
            print('%d,%d,%s' % (cpu, dur, '"%s"' % label if ' ' in label else label))
        return
    if what == 'counters':
        print('\n'.join(counters)) if counters else None
        return
    if what == 'per-thread':
        rows = per_thread
    elif what == 'syscalls':
        rows = {t: n for t, n in syscalls.items() if t >= 0}
    elif what == 'threads':
        rows = {t: None for t in threads if t is not None}
    else:
        rows = {p: None for p in processes if p is not None}
    for key in sorted(rows):
        print(key if rows[key] is None else '%d,%d' % (key, rows[key]))


main()
