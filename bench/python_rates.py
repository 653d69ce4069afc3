"""bench/python_rates.py TRACE RUNS - events/s into Python on one CTF trace: python3-bt2's
message iterator reading each event's name (as the issue's figure: 49 000/s here) against
traceglot's ts.events() reading ev.name, then ev.fields too (a Fields mapping, decoded on
access: the issue 35 goal, >= 10x), then every field's value (ev.fields.items()), and
ts.columns() (ts, name, tid as numpy arrays).  Each traceglot figure is the median of RUNS passes in this process; bt2's
one pass (it is slow).  Prints one line per measure and the ratios."""
import statistics
import sys
import time

import traceglot

trace, runs = sys.argv[1], int(sys.argv[2])


def timed(fn):
    t0 = time.perf_counter()
    n = fn()
    return time.perf_counter() - t0, n


def tg_names():
    n = 0
    for ev in traceglot.open(trace).events():
        ev.name
        n += 1
    return n


def tg_fields():
    n = 0
    for ev in traceglot.open(trace).events():
        ev.name
        ev.fields
        n += 1
    return n


def tg_items():
    n = 0
    for ev in traceglot.open(trace).events():
        ev.name
        for _ in ev.fields.items():
            pass
        n += 1
    return n


def tg_columns():
    c = traceglot.open(trace).columns(["ts", "name", "tid"])
    return len(c["ts"])


def bt2_names():
    import bt2

    n = 0
    for m in bt2.TraceCollectionMessageIterator(trace):
        if type(m) is bt2._EventMessageConst:
            m.event.name
            n += 1
    return n


res = {}
for name, fn in (("traceglot events (name)", tg_names), ("traceglot events (name, fields)",
                 tg_fields), ("traceglot events (name, fields.items())", tg_items),
                 ("traceglot columns (ts, name, tid)", tg_columns)):
    times = []
    for _ in range(runs):
        t, n = timed(fn)
        times.append(t)
    t = statistics.median(times)
    res[name] = n / t
    print("%-36s %9d events %7.3f s %12.0f events/s (median of %d)" % (name, n, t, n / t, runs))
try:
    t, n = timed(bt2_names)
    res["bt2"] = n / t
    print("%-36s %9d events %7.3f s %12.0f events/s (one pass)" % ("python3-bt2 (name)", n, t, n / t))
    for name in list(res)[:4]:
        print("%s: %.1fx python3-bt2" % (name, res[name] / res["bt2"]))
except ImportError:
    print("python3-bt2: not installed")
