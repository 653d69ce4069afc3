#!/usr/bin/env python3
"""fgraph_calls.py TRACECMD SQL_CSV REPLAY REPORT SQL_SUMS - compares the calls trace-cmd's
`report -O fgraph:tailprint` prints for a function_graph trace.dat with traceglot's:

  TRACECMD  trace-cmd's output: each leaf line "func();" and each closing line
            "} /* func */" is one call and its duration (rettime - calltime)
  SQL_CSV   `traceglot sql --format csv FILE -q "select name, dur from slice"`
  REPLAY    `traceglot replay FILE`: each leaf line and closing line, its duration column
  REPORT    `traceglot report FILE`: per function, total time and calls
  SQL_SUMS  `traceglot sql --format csv FILE -q "select name, count(*) as calls, sum(dur) as
            total, sum(self_dur) as self from slice group by name"`: report's every row
            (total, self, calls) is what the slices sum to, to the printed digit, whatever
            precision trace-cmd printed (two consumers of one call-stack builder agree)

A call whose entry precedes the trace ("}" with no block open in its task) is counted: its
exit holds calltime and rettime, so every consumer knows its duration (a slice from its
calltime, parent unknown).  Durations trace-cmd prints in whole microseconds
(7 digits and more) compare in whole microseconds.  Prints what it compared; exit 1 with
the first differences otherwise."""
import collections
import csv
import re
import sys


def tracecmd_calls(path):
    """[(function, ns, exact)] in trace-cmd's order, and the functions of the calls whose
    entry precedes the trace"""
    calls, unentered = [], []
    opened = collections.defaultdict(list)  # per task: the blocks "func() {" still open
    for line in open(path):
        task = re.match(r'\s*(\S+)\s+\[', line)
        task = task.group(1) if task else ''
        block = re.search(r'funcgraph_entry:\s+\|\s*(\S+)\(\) \{', line)
        if block:
            opened[task].append(block.group(1))
            continue
        m = re.search(r'funcgraph_(?:entry|exit):\s+(?:[+!#*@$ ]\s*)?(\d+)(?:\.(\d{3}))? us\s+\|\s*(.*)$',
                      line)
        if not m:
            continue
        body = m.group(3).strip()
        leaf = re.match(r'([^\s(]+)\(\);', body)
        close = re.match(r'\}(?: /\* (\S+) \*/)?$', body)  # no name: a function without symbol
        if leaf:
            fn = leaf.group(1)
        elif close:
            if not opened[task]:
                if not close.group(1):
                    continue  # no name to count it by
                fn = close.group(1)
                unentered.append(fn)
            else:
                fn = opened[task].pop()
        else:
            continue
        exact = m.group(2) is not None
        ns = int(m.group(1)) * 1000 + (int(m.group(2)) if exact else 0)
        calls.append((fn, ns, exact))
    return calls, unentered


def uftrace_time(ns):
    """uftrace's time column: the largest unit under 1000, three decimals, truncated; from
    60 s on, minutes and seconds ("2.024  m": 2 min 24 s), from 60 min, hours and minutes"""
    units = ['us', 'ms', ' s']
    v, frac, i = ns // 1000, ns % 1000, 0
    while v >= 1000 and i < 2:
        v, frac, i = v // 1000, v % 1000, i + 1
    for unit in (' m', ' h'):
        if i >= 2 and v >= 60:
            v, frac, units = v // 60, v % 60, units + [unit]
            i += 1
    return '%d.%03d %s' % (v, frac, units[i])


def plain_name(name):
    """a function without a symbol: trace-cmd prints its address in hex, traceglot 0x...
    (report: <...>)"""
    if re.fullmatch(r'<[0-9a-f]+>', name):
        return name[1:-1]
    return name[2:] if re.fullmatch(r'0x[0-9a-f]+', name) else name


def replay_calls(path, name_of):
    """(name_of(function), uftrace's printed time) of each call uftrace replay's output at
    path ends: a leaf `f();` or a closing `} /* f */`."""
    calls = []
    for line in open(path):
        m = re.match(r'\s*(\d+\.\d{3} (?:us|ms| s)) \[\s*\d+\] \|\s*(.*)$', line)
        if not m:
            continue
        leaf = re.match(r'([^\s(]+)\(\);', m.group(2))
        close = re.match(r'\} /\* (\S+) \*/', m.group(2))
        fn = leaf.group(1) if leaf else close.group(1) if close else None
        if fn:
            calls.append((name_of(fn), m.group(1)))
    return calls


def compare(what, want, got, fails, sides=('trace-cmd', 'traceglot')):
    want, got = collections.Counter(want), collections.Counter(got)
    if want != got:
        fails.append('%s: %s only %s; %s only %s'
                     % (what, sides[0], sorted((want - got).items())[:4], sides[1],
                        sorted((got - want).items())[:4]))


def main():
    calls, unentered = tracecmd_calls(sys.argv[1])
    if not calls:
        print('no calls in %s' % sys.argv[1])
        return 1
    fails = []
    rough = any(not exact for _, _, exact in calls)

    def key(ns):
        return ns if not rough else ns // 1000

    with open(sys.argv[2]) as f:
        sql = [(plain_name(r['name']), int(r['dur'])) for r in csv.DictReader(f)]
    compare('sql slice.dur', [(fn, key(ns)) for fn, ns, _ in calls],
            [(fn, key(ns)) for fn, ns in sql], fails)

    replay = replay_calls(sys.argv[3], plain_name)
    if not rough:
        compare('replay', [(fn, uftrace_time(ns)) for fn, ns, _ in calls], replay, fails)

    totals, counts = collections.Counter(), collections.Counter()
    for fn, ns, _ in calls:
        totals[fn] += ns
        counts[fn] += 1
    report, rows = {}, []
    for line in open(sys.argv[4]):
        m = re.match(r'\s*(\d+\.\d{3} (?:us|ms| s| m| h))\s+(\d+\.\d{3} (?:us|ms| s| m| h))\s+(\d+)\s+(\S+)\s*$',
                     line)
        if m:
            report[plain_name(m.group(4))] = (m.group(1), int(m.group(3)))
            rows.append((plain_name(m.group(4)), m.group(1), m.group(2), int(m.group(3))))
    if not rough:
        compare('report total, calls', [(fn, uftrace_time(totals[fn]), counts[fn]) for fn in totals],
                [(fn, t, c) for fn, (t, c) in report.items()], fails)
    with open(sys.argv[5]) as f:
        sums = [(plain_name(r['name']), uftrace_time(int(r['total'])), uftrace_time(int(r['self'])),
                 int(r['calls'])) for r in csv.DictReader(f)]
    compare('report rows (total, self, calls) = sql slices summed', sums, rows, fails,
            ('sql', 'report'))

    if fails:
        print('; '.join(fails))
        return 1
    print('%d calls of trace-cmd (%d begun before the trace): slice.dur%s; report = slices '
          'summed (%d rows)' % (len(calls), len(unentered), ' (in us)' if rough else
                                ', replay, report totals of %d functions' % len(totals),
                                len(rows)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
