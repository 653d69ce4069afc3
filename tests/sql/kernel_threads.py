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
"""
import re
import sys

LINE = re.compile(r"^\[[^\]]*\] \([^)]*\) (?:\S+ )?([\w:]+): \{ cpu_id = (\d+) \}(?:, \{ ?(.*?) ?\})?$")


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
    for line in open(path, encoding='utf-8', errors='replace'):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        name, cpu, payload = m.group(1), int(m.group(2)), m.group(3)
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
        per_thread[tid] = per_thread.get(tid, 0) + 1
        if name.startswith('syscall_entry_'):
            in_call[tid] = True
        elif name.startswith('syscall_exit_'):
            if in_call.get(tid):
                syscalls[tid] = syscalls.get(tid, 0) + 1
            in_call[tid] = False
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
