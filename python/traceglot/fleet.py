"""traceglot.fleet: one question over many traces, on Dask distributed.

Each trace is one task on a Dask worker: the worker opens the trace where it sees it (a
shared or replicated trace store), runs the query with the library and returns the rows,
never the events; the client adds a `trace` column and concatenates the rows in the order
of the paths.  A trace that is damaged or cannot be read is one row of the errors table and
the others are complete.  Tasks are pure (a trace's path, the queries and the options make
the task's key and decide its result), so when a worker dies Dask runs its tasks again
elsewhere and each trace is still counted once.

    from traceglot import fleet
    res = fleet.sql(["runs/*.dat"], "SELECT name, count(*) AS n FROM ftrace_event GROUP BY name")
    res.to_pandas().groupby("name").n.sum()
    res.errors                              # [(trace, message), ...]
    fleet.map(paths, lambda ts: ts.stats()) # any function of a trace set

With no client, a LocalCluster of the machine's cores (one single-threaded worker process
per core) runs the tasks and is closed after.  `traceglot fleet` (and python3 -m
traceglot.fleet) is the command line: the same formats as `traceglot sql`.
"""

import glob as _glob
import os as _os
import sys as _sys

import traceglot as _tg

__all__ = ["sql", "map", "paths", "folder_traces", "FleetResult", "FleetMap"]

_GLOB_CHARS = "*?["


def _is_listing(path):
    """A text file whose every line (but blank ones and # comments) names an existing path."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
        lines = head.decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    base = _os.path.dirname(path)
    named = [l.strip() for l in lines if l.strip() and not l.lstrip().startswith("#")]
    return bool(named) and all(_os.path.exists(_os.path.join(base, l)) for l in named[:64])


def _listed(path):
    base = _os.path.dirname(path)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                yield from _expand_one(_os.path.join(base, line))


def _expand_one(p):
    p = _os.fspath(p)
    if p.startswith("@"):
        yield from _listed(p[1:])
    elif any(c in p for c in _GLOB_CHARS) and not _os.path.exists(p):
        found = sorted(_glob.glob(p))
        yield from found if found else [p]
    elif _os.path.isfile(p) and _is_listing(p):
        yield from _listed(p)
    else:
        yield p


def folder_traces(folder):
    """The traces traceglot finds in a folder, as opening it finds them ([folder] when the
    folder is one trace or cannot be opened: its task then says why)."""
    try:
        with _tg.open(folder) as ts:
            found = [t["path"] for t in ts.traces if t.get("path")]
    except _tg.Error:
        return [folder]
    return found if len(found) > 1 else [folder]


def paths(items, folders="one"):
    """The traces named by items: paths, globs ("runs/*/trace"), @FILE or a file listing
    paths one per line; absolute (the workers' working folders are not the client's), each
    once, in order.  A folder holding several traces is one trace merged on one timeline,
    as `traceglot sql` opens it (folders="one"), or each trace in it on its own
    (folders="each")."""
    if folders not in ("one", "each"):
        raise ValueError("folders: 'one' or 'each', not %r" % (folders,))
    if isinstance(items, (str, _os.PathLike)):
        items = [items]
    seen, out = set(), []
    for item in items:
        for p in _expand_one(item):
            p = _os.path.abspath(p)
            inside = folder_traces(p) if folders == "each" and _os.path.isdir(p) else [p]
            for t in inside:
                if t not in seen:
                    seen.add(t)
                    out.append(t)
    return out


# ---- the tasks (run on the workers) --------------------------------------------------------


def _status(e):
    return getattr(e, "status_name", "error")


def _sql_task(path, queries, options):
    """Opens one trace and runs each query: (path, [(columns, rows, error, status)], error,
    status).  Everything returned is plain data, small: rows, never events."""
    try:
        ts = _tg.open(path, **options)
    except _tg.Error as e:
        return (path, None, str(e), _status(e))
    except OSError as e:
        return (path, None, "%s: %s" % (path, e), "io")
    out = []
    try:
        for q in queries:
            try:
                rows = ts.sql(q)
                out.append((rows.columns, list(rows), None, None))
            except _tg.Error as e:
                part = e.partial if isinstance(e.partial, _tg.Rows) else _tg.Rows([])
                out.append((part.columns, list(part), str(e), _status(e)))
    finally:
        ts.close()
    return (path, out, None, None)


def _map_task(path, fn, options):
    try:
        ts = _tg.open(path, **options)
    except _tg.Error as e:
        return (path, None, str(e), _status(e))
    try:
        return (path, fn(ts), None, None)
    except _tg.Error as e:
        return (path, None, str(e), _status(e))
    except Exception as e:  # the function's own failure is this trace's error
        return (path, None, "%s: %s" % (type(e).__name__, e), "error")
    finally:
        ts.close()


# ---- running them ----------------------------------------------------------------------------


class _Cluster:
    """The client to use: the caller's, one connected to a scheduler, or a LocalCluster of
    the machine's cores (closed when done)."""

    def __init__(self, client=None, scheduler=None, workers=None):
        self.client, self._own = client, []
        if client is not None:
            return
        from distributed import Client

        if scheduler:
            self.client = Client(scheduler)
            self._own = [self.client]
            return
        import logging

        from distributed import LocalCluster

        n = workers or _os.cpu_count() or 1
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        self.client = Client(cluster)
        self._own = [self.client, cluster]

    def close(self):
        for c in self._own:
            c.close()
        self._own = []

    def __enter__(self):
        return self.client

    def __exit__(self, *exc):
        self.close()
        return False


def _run(client, task, traces, what, **kw):
    """Runs task(path, **kw) for each trace, one Dask task each; results by path.  A task that
    fails in Dask itself (its worker died too often: KilledWorker) is that trace's error."""
    from dask.base import tokenize
    from distributed import wait

    keys = ["traceglot-%s-%s" % (what, tokenize(p, kw)) for p in traces]
    futures = client.map(task, traces, key=keys, pure=True, **kw)
    try:
        wait(futures)
        done = [f for f in futures if f.status == "finished"]
        results = dict(zip((f.key for f in done), client.gather(done)))
        out = {}
        for path, f in zip(traces, futures):
            if f.key in results:
                out[path] = results[f.key]
            else:
                e = f.exception()
                out[path] = (path, None, "%s: %s: %s" % (path, type(e).__name__, e), "error")
        return out
    finally:
        client.cancel(futures)
        del futures

def _check(options):
    _tg._traceglot.check_options(_tg._pairs(options))


class FleetResult:
    """The rows of one query over many traces: .columns (trace first), .rows (tuples, in
    the order of the traces), .errors ([(trace, message)]), .traces (those answered)."""

    def __init__(self, columns, rows, errors, traces, statuses=None):
        self.columns, self.rows, self.errors, self.traces = columns, rows, errors, traces
        self.statuses = statuses or {}

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def to_pandas(self):
        import pandas

        return pandas.DataFrame.from_records(self.rows, columns=self.columns)

    def errors_frame(self):
        import pandas

        return pandas.DataFrame.from_records(self.errors, columns=["trace", "error"])

    def format(self, format="table"):
        """The rows as `traceglot sql --format` prints them (table, csv, json, perfetto)."""
        if not self.columns:
            return ""
        return _tg._traceglot.format_rows(self.columns, self.rows, format)

    def __repr__(self):
        return "FleetResult(%d traces, %d rows, %d errors)" % (
            len(self.traces), len(self.rows), len(self.errors))


def _gather(order, results, index, partial):
    columns, rows, errors, traces, statuses = None, [], [], [], {}
    for path in order:
        _, answers, err, status = results[path]
        if answers is None:
            errors.append((path, err))
            statuses[path] = status
            continue
        cols, got, err, status = answers[index]
        if columns is None and (err is None or partial):
            columns = ["trace"] + list(cols)
        if columns is not None and ["trace"] + list(cols) != columns and got:
            err = err or "%s: the query's columns %s differ from the other traces' %s" % (
                path, cols, columns[1:])
            status, got = status or "error", []
        if err is not None:
            errors.append((path, err))
            statuses[path] = status
            if not partial:
                continue
        traces.append(path)
        rows.extend((path,) + tuple(r) for r in got)
    return FleetResult(columns or [], rows, errors, traces, statuses)


def sql_many(traces, queries, client=None, partial=False, scheduler=None, workers=None,
             folders="one", **options):
    """Each query over each trace in one task per trace: a FleetResult per query."""
    _check(options)
    order = paths(traces, folders)
    if not order:
        return [FleetResult([], [], [], []) for _ in queries]
    with _Cluster(client, scheduler, workers) as c:
        results = _run(c, _sql_task, order, "sql", queries=list(queries), options=options)
    return [_gather(order, results, i, partial) for i in range(len(queries))]


def sql(traces, query, client=None, partial=False, **options):
    """Runs query on each trace (one task per trace on the client's workers; no client: a
    LocalCluster of the machine's cores) and concatenates the rows, a `trace` column first.

    traces: paths, globs, @FILE or files listing paths (folders="each": each trace in a
    folder on its own, see paths).  options: traceglot.open's (the filters, clock_align,
    instr_map, ...).  A trace that cannot be read is one row of
    .errors and gives no rows (partial=True: the rows read before its damage too)."""
    return sql_many(traces, [query], client=client, partial=partial, **options)[0]


class FleetMap:
    """fn's results: .results ([(trace, value)] in the order of the traces), .errors."""

    def __init__(self, results, errors):
        self.results, self.errors = results, errors

    def __iter__(self):
        return iter(self.results)

    def __len__(self):
        return len(self.results)

    def __repr__(self):
        return "FleetMap(%d results, %d errors)" % (len(self.results), len(self.errors))


def map(traces, fn, client=None, folders="one", **options):
    """Runs fn(trace_set) on each trace, one task per trace, on Dask workers; fn's result
    must be picklable and should be small.  A trace that cannot be read, or on which fn
    raises, is one row of .errors."""
    _check(options)
    order = paths(traces, folders)
    if not order:
        return FleetMap([], [])
    with _Cluster(client) as c:
        results = _run(c, _map_task, order, "map", fn=fn, options=options)
    out, errors = [], []
    for path in order:
        _, value, err, _ = results[path]
        if err is None:
            out.append((path, value))
        else:
            errors.append((path, err))
    return FleetMap(out, errors)


# ---- the command line: traceglot fleet -----------------------------------------------------


def _print_error(path, message):
    text = message if message.startswith(path) else "%s: %s" % (path, message)
    for line in text.splitlines() or [text]:
        _sys.stderr.write("traceglot: error: %s\n" % line)


def _query_text(q):
    if q.startswith("@"):
        with open(q[1:], encoding="utf-8") as f:
            return f.read()
    return q


def _say_folders(items, folders):
    """On stderr, for each folder given that holds several traces: how the fleet takes it."""
    for item in items:
        if not _os.path.isdir(item):
            continue
        inside = folder_traces(_os.path.abspath(item))
        if len(inside) < 2:
            continue
        if folders == "each":
            how = "one task each (--folders one: the folder as one trace)"
        else:
            how = "taken as one trace, merged on one timeline (--folders each: one task each)"
        _sys.stderr.write("traceglot fleet: %s holds %d traces: %s\n" % (item, len(inside), how))


def main(argv=None):
    """traceglot fleet [--scheduler ADDR] [--workers N] [--folders one|each] -q SQL
    [--format F] [--option K=V] PATH...: exit 0, 1 when a trace could not be read, 2 for a usage error (bad SQL)."""
    import argparse

    p = argparse.ArgumentParser(
        prog="traceglot fleet",
        description="one SQL question over many traces, one Dask task per trace")
    p.add_argument("--scheduler", help="a running dask-scheduler (tcp://HOST:8786); none: "
                   "a LocalCluster of this machine's cores")
    p.add_argument("--workers", type=int, help="workers of the LocalCluster (default: cores)")
    p.add_argument("-q", "--query", action="append", default=[], help="SQL (@FILE: from FILE)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json", "perfetto"])
    p.add_argument("--folders", default="one", choices=["one", "each"],
                   help="a folder holding several traces: one trace (default) or each its own")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of opening or a filter (begin=+1ms, instr-map=./app)")
    p.add_argument("paths", nargs="*", metavar="PATH")
    a = p.parse_args(argv)
    if not a.query:
        p.error("no query: give -q SQL")
    if not a.paths:
        p.error("no trace given")
    options = {}
    for kv in a.option:
        key, sep, value = kv.partition("=")
        if not sep:
            p.error("--option needs KEY=VALUE: %r" % kv)
        options[key] = value
    try:
        queries = [_query_text(q) for q in a.query]
        _say_folders(a.paths, a.folders)
        results = sql_many(a.paths, queries, scheduler=a.scheduler, workers=a.workers,
                           folders=a.folders, **options)
    except _tg.Error as e:
        _sys.stderr.write("traceglot fleet: %s\n" % e)
        return 2
    except OSError as e:
        _sys.stderr.write("traceglot fleet: %s\n" % e)
        return 2
    status = 0
    out = _sys.stdout.buffer
    for res in results:
        usage = [path for path, _ in res.errors if res.statuses.get(path) == "usage"]
        if usage:  # the query's own fault: the same message for every trace, said once
            msg = dict(res.errors)[usage[0]]
            _sys.stderr.write("traceglot: error: %s\n" % msg)
            return 2
        out.write(res.format(a.format).encode("utf-8", "surrogateescape"))
        out.flush()
        for path, message in res.errors:
            _print_error(path, message)
            status = 1
    return status


if __name__ == "__main__":
    # the tasks must be traceglot.fleet's functions, not __main__'s, for the workers
    from traceglot import fleet as _fleet

    _sys.exit(_fleet.main())
