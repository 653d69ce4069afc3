#!/usr/bin/env python3
"""build-power-fixtures.py - a hand-built trace.dat holding power:cpu_frequency and cpu_idle.

The kernel model turns these events into Perfetto's counters (`cpufreq` and `cpuidle` on
the track of the CPU their cpu_id names).  No trace of the corpus holds them and a machine
without a cpufreq or cpuidle driver cannot record them, so this fixture is built from the
format's definition, with the event formats of the running kernel (tracefs), on every run
alike:

  power-counters: 3 CPUs whose idle tasks leave and enter idle states (cpu_idle's state,
      4294967295 when leaving), tasks switched in and out between them (sched_switch), and
      frequency changes of a policy covering CPUs 0 and 1 written from either CPU (one
      cpu_frequency per CPU of the policy, the cpu_id naming another CPU than the record's),
      and of CPU 3, which has no records of its own.

The records are packed by build-comm-fixtures.py's Records and the file is written by
build-func-fixtures.py's trace.dat writer (file version 6); record-func-fixtures.sh converts
it to version 7 and has the real trace-cmd print it.

usage: build-power-fixtures.py OUTDIR   (exit 77 when tracefs cannot be read)
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


funcfix = load('funcfix', 'build-func-fixtures.py')
commfix = load('commfix', 'build-comm-fixtures.py')
T = funcfix.T
POWER = ['cpu_frequency', 'cpu_idle']
SCHED = ['sched_switch']
LEAVE = 4294967295  # cpu_idle's state when the CPU leaves idle (PWR_EVENT_EXIT)
CMDLINES = [(1234, 'bash'), (1301, 'cat'), (1400, 'kworker/0:1'), (1555, 'tg-worker')]


class Power(commfix.Records):
    """sched_switch and the power events' payloads."""

    def __init__(self, formats):
        super().__init__(formats, SCHED + POWER)

    def power(self, name, pid, state, cpu_id):
        return self.record(name, pid, {'state': state, 'cpu_id': cpu_id}, 16)

    def freq(self, pid, khz, cpu_id):
        return self.power('cpu_frequency', pid, khz, cpu_id)

    def idle(self, cpu, state):
        return self.power('cpu_idle', 0, state, cpu)


def per_cpu(r):
    """Each CPU's records in time order."""
    cpu0 = [
        r.idle(0, LEAVE),
        r.switch(0, 'swapper/0', 0, 'bash', 1234, 0),
        r.freq(1234, 2400000, 0),                  # the policy of CPUs 0 and 1
        r.freq(1234, 2400000, 1),
        r.switch(1234, 'bash', 1234, 'swapper/0', 0),
        r.idle(0, 1),
        r.idle(0, LEAVE),
        r.switch(0, 'swapper/0', 0, 'kworker/0:1', 1400, 0),
        r.freq(1400, 800000, 0),
        r.freq(1400, 800000, 1),
        r.switch(1400, 'kworker/0:1', 1400, 'swapper/0', 0, 2),
        r.idle(0, 2),
    ]
    cpu1 = [
        r.idle(1, 3),
        r.idle(1, LEAVE),
        r.switch(0, 'swapper/1', 0, 'tg-worker', 1555, 0),
        r.freq(1555, 3100000, 0),                  # CPU 1 changes its policy too
        r.freq(1555, 3100000, 1),
        r.switch(1555, 'tg-worker', 1555, 'swapper/1', 0),
        r.idle(1, 0),
    ]
    cpu2 = [
        r.freq(0, 1200000, 3),                     # CPU 3's own policy, set from CPU 2
        r.idle(2, LEAVE),
        r.switch(0, 'swapper/2', 0, 'cat', 1301, 0),
        r.freq(1301, 2000000, 3),
        r.switch(1301, 'cat', 1301, 'swapper/2', 0, 0),
        r.idle(2, 1),
        r.idle(2, LEAVE),
        r.idle(2, 2),
    ]
    return [cpu0, cpu1, cpu2]


def build(out, formats):
    e, ls = '<', 8
    cpus = []
    for cpu, payloads in enumerate(per_cpu(Power(formats))):
        p = funcfix.Pages(e, ls)
        ts = 5000000000 + cpu * 333
        for n, payload in enumerate(payloads):
            ts += 20000 + n * 1700 + cpu * 90
            p.add(ts, payload)
        p.flush()
        cpus.append(b''.join(p.pages))
    cmdlines = ''.join('%d %s\n' % c for c in CMDLINES)
    funcfix.write_dat(os.path.join(out, 'power-counters-v6.dat'), e, ls, formats['header_page'],
                      formats['header_event'], [],
                      [('sched', [formats[n] for n in SCHED]),
                       ('power', [formats[n] for n in POWER])],
                      '', '', cmdlines, cpus)


def main():
    out = sys.argv[1]
    try:
        formats = {n: open('%s/events/sched/%s/format' % (T, n)).read() for n in SCHED}
        formats.update({n: open('%s/events/power/%s/format' % (T, n)).read() for n in POWER})
        formats['header_page'] = open(T + '/events/header_page').read()
        formats['header_event'] = open(T + '/events/header_event').read()
    except OSError as err:
        print('SKIP: cannot read the format files in tracefs (%s)' % err)
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    build(out, formats)


if __name__ == '__main__':
    main()
