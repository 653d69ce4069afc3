#!/usr/bin/env python3
"""build-comm-fixtures.py - hand-built trace.dat files where one pid has several names.

A task that execs (bash -> sh) can leave two names for its pid: saved_cmdlines may list the
pid twice, and sched_switch / sched_wakeup records carry the names the task had when they
were written.  Which name trace-cmd report prints depends on libtraceevent's comm table:
the saved cmdlines are kept in a list until the first lookup of a non-zero pid sorts them,
and the sched plugin adds the names it prints to that list (duplicates included) until then,
but only names of unknown pids afterwards.  A live capture meets these cases by chance;
these fixtures hold them on purpose, so the rule is tested on every run:

  comm-idle-first: the first records are the idle task's (pid 0 needs no lookup): its
      sched_switch and sched_wakeup records name tasks before the table is sorted.
  comm-task-first: a task's record comes first (the table is sorted at once); later
      switches name known pids by other names and unknown pids.

Both have saved cmdlines listing pids once, twice and three times, in an order that makes
glibc's bsearch land on different entries of a pid's run.  The files are built from
tracefs's format files of sched_switch, sched_wakeup and sched_process_exec with the
trace.dat writer of build-func-fixtures.py; record-comm-fixtures.sh has the real trace-cmd
print the expected outputs.

usage: build-comm-fixtures.py OUTDIR   (exit 77 when tracefs cannot be read)
"""
import importlib.util
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('funcfix', os.path.join(HERE, 'build-func-fixtures.py'))
funcfix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(funcfix)
T = funcfix.T

# saved cmdlines as the kernel lists them (a pid may come back under a newer name)
CMDLINES = [
    (1234, 'sh'), (1301, 'cat'), (1234, 'bash'), (1400, 'kworker/0:1'),
    (1555, 'tg-old'), (1400, 'kworker/0:2'), (1555, 'tg-worker'), (1555, 'tg-newest'),
    (1600, 'ls'), (1700, 'dd'), (1700, 'dd-2'), (1800, 'wc'), (1900, 'sleep'),
    (1900, 'sleep-2'), (1950, 'sync'),
]
SCHED = ['sched_switch', 'sched_wakeup', 'sched_process_exec']


def comm_bytes(name):
    return name.encode()[:15].ljust(16, b'\0')


class Records:
    """The payloads of events (the sched events unless names says others), packed as the
    format files lay them out."""

    def __init__(self, formats, names=SCHED):
        self.ids = {n: int(re.search(r'^ID: (\d+)', formats[n], re.M).group(1)) for n in names}
        self.offsets = {}
        for n in names:
            for m in re.finditer(r'field:[^;]*?(\w+)(\[\d+\])?;\toffset:(\d+);\tsize:(\d+);',
                                 formats[n]):
                self.offsets[(n, m.group(1))] = (int(m.group(3)), int(m.group(4)))

    def record(self, name, pid, values, size):
        rec = bytearray(size)
        struct.pack_into('<HBBi', rec, 0, self.ids[name], 0, 0, pid)
        for field, value in values.items():
            off, sz = self.offsets[(name, field)]
            if isinstance(value, bytes):
                rec[off:off + sz] = value.ljust(sz, b'\0')[:sz]
            else:
                rec[off:off + sz] = value.to_bytes(sz, 'little', signed=value < 0)
        return bytes(rec)

    def switch(self, pid, prev, prev_pid, next_, next_pid, state=1):
        return self.record('sched_switch', pid, {
            'prev_comm': comm_bytes(prev), 'prev_pid': prev_pid, 'prev_prio': 120,
            'prev_state': state, 'next_comm': comm_bytes(next_), 'next_pid': next_pid,
            'next_prio': 120}, 64)

    def wakeup(self, pid, comm, woken, cpu):
        return self.record('sched_wakeup', pid, {
            'comm': comm_bytes(comm), 'pid': woken, 'prio': 120, 'target_cpu': cpu}, 36)

    def exec_(self, pid, filename):
        # __data_loc: the string follows the fixed fields (offset | length << 16)
        fixed = 20
        s = filename.encode() + b'\0'
        rec = self.record('sched_process_exec', pid, {
            'filename': fixed | len(s) << 16, 'pid': pid, 'old_pid': pid}, fixed)
        return rec + s + b'\0' * (-(len(s)) % 4)


def idle_first(r):
    """cpu 0 and cpu 1 start in the idle task; names reach the table before any lookup."""
    cpu0 = [
        r.wakeup(0, 'bash', 1234, 0),
        r.switch(0, 'swapper/0', 0, 'bash', 1234, 0),       # 1234 is "sh" and "bash" in cmdlines
        r.exec_(1234, '/bin/sh'),
        r.switch(1234, 'sh', 1234, 'tg-task', 2500),          # 2500: unknown, after the sort
        r.switch(2500, 'tg-task', 2500, 'kworker/0:9', 1400),
        r.switch(1400, 'kworker/0:2', 1400, 'dd-9', 1700, 0x80),
        r.switch(1700, 'dd', 1700, 'swapper/0', 0, 0),
    ]
    cpu1 = [
        r.switch(0, 'swapper/1', 0, 'tg-worker-x', 1555, 0),  # registered before the sort
        r.wakeup(0, 'wc-early', 1800, 1),
        r.switch(1555, 'tg-worker', 1555, 'sleep', 1900),
        r.switch(1900, 'sleep', 1900, 'wc', 1800),
        r.switch(1800, 'wc', 1800, 'ls', 1600),
        r.switch(1600, 'ls', 1600, 'sync', 1950),
        r.switch(1950, 'sync', 1950, 'cat', 1301),
        r.switch(1301, 'cat', 1301, 'bash', 1234),
    ]
    return [cpu0, cpu1]


def task_first(r):
    """a task's record first: the table is sorted before the sched plugin names anyone."""
    cpu0 = [
        r.exec_(1234, '/bin/sh'),
        r.switch(1234, 'sh', 1234, 'swapper/0', 0),
        r.switch(0, 'swapper/0', 0, 'bash', 1234, 0),         # known pid: not renamed
        r.wakeup(1234, 'newbie', 2600, 0),                    # unknown: added
        r.switch(1234, 'bash', 1234, 'newbie', 2600),
        r.switch(2600, 'newbie', 2600, 'tg-worker', 1555),
        r.switch(1555, 'tg-x', 1555, 'lowpid', 50),           # added before every other pid
        r.switch(50, 'lowpid', 50, 'kworker/0:1', 1400),
    ]
    cpu1 = [
        r.switch(1700, 'dd', 1700, 'dd-3', 1700),
        r.switch(1700, 'dd-3', 1700, 'highpid', 9000),        # added after every other pid
        r.switch(9000, 'highpid', 9000, 'sleep', 1900),
        r.switch(1900, 'sleep', 1900, 'swapper/1', 0, 0),
    ]
    return [cpu0, cpu1]


def build(out, name, formats, per_cpu):
    e, ls = '<', 8
    cpus = []
    for cpu, payloads in enumerate(per_cpu):
        p = funcfix.Pages(e, ls)
        ts = 7000000000 + cpu * 250
        for payload in payloads:
            ts += 1500 + len(payload) * 3
            p.add(ts, payload)
        p.flush()
        cpus.append(b''.join(p.pages))
    cmdlines = ''.join('%d %s\n' % c for c in CMDLINES)
    funcfix.write_dat(os.path.join(out, name + '-v6.dat'), e, ls, formats['header_page'],
                      formats['header_event'], [], [('sched', [formats[n] for n in SCHED])],
                      '', '', cmdlines, cpus)


def main():
    out = sys.argv[1]
    try:
        formats = {n: open('%s/events/sched/%s/format' % (T, n)).read() for n in SCHED}
        formats['header_page'] = open(T + '/events/header_page').read()
        formats['header_event'] = open(T + '/events/header_event').read()
    except OSError as err:
        print('SKIP: cannot read the format files in tracefs (%s)' % err)
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    r = Records(formats)
    build(out, 'comm-idle-first', formats, idle_first(r))
    build(out, 'comm-task-first', formats, task_first(r))


if __name__ == '__main__':
    main()
