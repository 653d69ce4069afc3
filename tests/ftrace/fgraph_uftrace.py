#!/usr/bin/env python3
"""fgraph_uftrace.py TRACECMD REPLAY REPORT - compares the calls trace-cmd's `report -O
fgraph:tailprint` prints for a function_graph trace.dat with what the real uftrace prints of
that trace converted by `traceglot convert --to uftrace`:

  REPLAY  `uftrace replay` of the converted data: each leaf line and closing line, its
          duration (uftrace's exit record time - entry record time) at uftrace's precision
  REPORT  `uftrace report` of it: per function, total time and calls

Every call must last what trace-cmd prints (rettime - calltime) at uftrace's precision, as
a multiset of (function, duration) (trace-cmd prints whole microseconds from 1 s on, where
uftrace prints milliseconds), and every function's total and calls must be the sums of
trace-cmd's (the functions whose every duration trace-cmd prints to the nanosecond).  The
calls begun before the recording (trace-cmd's "}" with no block open) are compared too: the
converted data holds an entry for each, at its calltime.  Prints what it compared; exit 1
with the first differences otherwise."""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fgraph_calls import compare, replay_calls, tracecmd_calls, uftrace_time  # noqa: E402
from fgraph_calls import plain_name as hex_or_name  # noqa: E402


def plain_name(name):
    """a function without a symbol: its address, of which a uftrace record holds 48 bits"""
    name = hex_or_name(name)
    if re.fullmatch(r'[0-9a-f]{9,16}', name):
        return '%x' % (int(name, 16) & 0xffffffffffff)
    return name


def main():
    calls, unentered = tracecmd_calls(sys.argv[1])
    calls = [(plain_name(fn), ns, exact) for fn, ns, exact in calls]
    unentered = [plain_name(fn) for fn in unentered]
    if not calls:
        print('no calls in %s' % sys.argv[1])
        return 1
    fails = []
    replay = replay_calls(sys.argv[2], plain_name)
    compare('uftrace replay', [(fn, uftrace_time(ns)) for fn, ns, _ in calls], replay, fails)
    totals, counts = collections.Counter(), collections.Counter()
    rough = set(fn for fn, _, exact in calls if not exact)
    for fn, ns, _ in calls:
        totals[fn] += ns
        counts[fn] += 1
    report = {}
    for line in open(sys.argv[3]):
        m = re.match(r'\s*(\d+\.\d{3} (?:us|ms| s| m| h))\s+(\d+\.\d{3} (?:us|ms| s| m| h))\s+(\d+)\s+(\S+)\s*$',
                     line)
        if m:
            report[plain_name(m.group(4))] = (m.group(1), int(m.group(3)))
    compare('uftrace report total, calls',
            [(fn, uftrace_time(totals[fn]), counts[fn]) for fn in totals if fn not in rough],
            [(fn, t, c) for fn, (t, c) in report.items() if fn not in rough], fails)
    if fails:
        print('; '.join(fails))
        return 1
    print('%d calls of trace-cmd (%d begun before the trace): uftrace replay of each, report '
          'totals of %d functions' % (len(calls), len(unentered), len(set(totals) - rough)))
    return 0


sys.exit(main())
