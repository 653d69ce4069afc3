"""traceglot: every trace format Linux tracers write, in Python.

A thin layer over libtraceglot's public API (the extension module traceglot._traceglot):
the library reads, merges, filters, prints, converts and answers SQL; this package only
turns Python values into the library's options and its results into Python objects, so
anything the traceglot command does, Python does the same way::

    import traceglot
    ts = traceglot.open("trace.dat", "uftrace.data")       # one merged timeline
    for ev in ts.events(events="sched_*"):
        print(ev.ts, ev.name, ev.cpu, ev.tid, ev.fields)
    cols = ts.columns(["ts", "dur", "name"], table="slice")  # dict of numpy arrays
    rows = ts.sql("SELECT name, count(*) FROM ftrace_event GROUP BY name")
    df = rows.to_pandas()
    print(ts.report())                                       # = traceglot report

Keyword options are the CLI's long options with '_' for '-' (instr_map="./app",
clock_align="none", begin="+1ms", tid=[12, 13]); an option nobody declares raises
traceglot.Error naming the nearest one.  Damaged input: what was read before the damage,
then traceglot.Error (its .partial holds the rows, text or columns read; its .errors every
error of the set).  traceglot.fleet runs one query over many traces on Dask distributed.
"""

import collections.abc as _abc
import os as _os

from . import _traceglot
from ._traceglot import Error, Event, Fields, version

__all__ = ["open", "TraceSet", "Rows", "Error", "Event", "Fields", "options", "version"]

# ev.fields, ev.context and ev.retval: read-only mappings decoded on access (no dict per event)
_abc.Mapping.register(Fields)

_COMMA_LISTS = ("events", "tid", "cpu")
_TIMES = ("begin", "end")


def _seconds(ns):
    """ns on the timeline as the filters' absolute seconds, S.NNNNNNNNN."""
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return "%s%d.%09d" % (sign, ns // 1000000000, ns % 1000000000)


def _text(key, value):
    if value is True:
        return "1"
    if value is False:
        return "0"
    if key in _TIMES and isinstance(value, int):
        return _seconds(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        sep = "," if key in _COMMA_LISTS else "\n"
        return sep.join(_text(key, v) for v in value)
    if isinstance(value, _os.PathLike):
        return _os.fspath(value)
    return str(value)


def _pairs(options):
    """Keyword options as the library's (key, value) pairs: instr_map -> instr-map."""
    pairs = []
    for name, value in options.items():
        if value is None:
            continue
        key = name.replace("_", "-")
        pairs.append((key, _text(key, value)))
    return pairs


def options():
    """Every option the library declares: (name, type, default, help, owner, owner_name).

    A keyword option of open() and of the calls is one of these names with '_' for '-'."""
    return _traceglot.declared_options()


class Rows(list):
    """The rows of a query: a list of tuples, with .columns (the column names)."""

    def __init__(self, columns, rows=()):
        super().__init__(rows)
        self.columns = list(columns)

    def to_pandas(self):
        """The rows as a pandas DataFrame (python3-pandas)."""
        import pandas

        return pandas.DataFrame.from_records(list(self), columns=self.columns)

    def dicts(self):
        """The rows as dicts by column name."""
        return [dict(zip(self.columns, r)) for r in self]

    def __repr__(self):
        return "Rows(columns=%r, %d rows)" % (self.columns, len(self))


def _numpy():
    try:
        import numpy

        return numpy
    except ImportError:
        return None


def _column(code, payload, np):
    if np is not None:
        if code == "i":
            return np.frombuffer(payload, dtype=np.int64)
        if code == "f":
            return np.frombuffer(payload, dtype=np.float64)
        a = np.empty(len(payload), dtype=object)
        a[:] = payload
        return a
    if code in ("i", "f"):
        from array import array

        a = array("q" if code == "i" else "d")
        a.frombytes(bytes(payload))
        return a.tolist()
    return payload


def _columns(result, use_numpy):
    np = _numpy() if use_numpy is not False else None
    if use_numpy and np is None:
        raise ImportError("numpy is not installed (Debian: python3-numpy)")
    return {name: _column(code, payload, np) for name, (code, payload) in result}


class TraceSet:
    """One or more traces opened together, merged on one timeline (see traceglot.open)."""

    def __init__(self, paths, options):
        self.paths = [_os.fspath(p) for p in paths]
        self._set = _traceglot._Set(self.paths, _pairs(options))

    # -- what the traces are --------------------------------------------------------------
    @property
    def traces(self):
        """Each trace's attributes (path, format, version, clock, host, tracer, env, ...)."""
        return self._set.traces()

    @property
    def warnings(self):
        """What opening warned about (traces left on their own clocks, reader warnings)."""
        return self._set.warnings()

    # -- events ---------------------------------------------------------------------------
    def events(self, begin=None, end=None, events=None, tid=None, cpu=None, trace_clock=False,
               keep=False):
        """The merged, filtered events in time order, as Event objects.

        begin/end: ns on the timeline (int), or the CLI's "S.NNNNNNNNN" / "+1.5ms";
        events: name globs ("sched_*" or a list); tid, cpu: an int or a list.  trace_clock:
        each trace's own clock, as the peer tools print it.

        ts, name, cpu, tid, pid and kind are the Event's own; fields, context, retval,
        func, addr, depth, text, offset and lost are decoded from the library's event when
        asked, until the pass takes the next event.  keep=True: an Event still held when
        the pass moves on is decoded whole first (list(ts.events(keep=True)) answers
        everything later).  Damage: the events before it, then traceglot.Error."""
        f = _pairs(dict(begin=begin, end=end, events=events, tid=tid, cpu=cpu))
        return self._set.events(f, bool(trace_clock), bool(keep))

    def __iter__(self):
        return iter(self.events())

    # -- SQL and columns --------------------------------------------------------------------
    def sql(self, query, format=None, **options):
        """The rows of a query over Perfetto's tables (slice, thread, ftrace_event, args, ...).

        Every statement runs; the rows are the last row-returning statement's, as Rows (a
        list of tuples with .columns and .to_pandas()).  format="table", "csv" or "json":
        the text `traceglot sql --format` prints instead.  Options: the filters (begin,
        end, events, tid, cpu) for this query alone."""
        pairs = _pairs(options)
        if format is not None:
            return self._set.sql_text(query, format, pairs)
        try:
            columns, rows = self._set.sql(query, pairs)
        except Error as e:
            if isinstance(e.partial, tuple):
                e.partial = Rows(*e.partial)
            raise
        return Rows(columns, rows)

    def columns(self, names, table=None, where=None, numpy=None, **options):
        """Columns filled in C: a dict name -> numpy array (a list without numpy).

        table: a SQL table ("slice", "ftrace_event", "sched_slice", ...) or None for the
        events themselves (ts, name, cpu, tid, pid, kind, func, addr, depth, offset, trace);
        where: a SQL condition for a table; a name that is not a plain column is a SQL
        expression.  Integer columns are int64, real ones float64 (an integer column with
        NULLs float64 with NaN), text ones objects.  numpy=False: lists."""
        if isinstance(names, str):
            names = [names]
        try:
            result = self._set.columns(list(names), table, where, _pairs(options))
        except Error as e:
            if isinstance(e.partial, list):
                e.partial = _columns(e.partial, numpy)
            raise
        return _columns(result, numpy)

    # -- what the CLI's commands print -------------------------------------------------------
    def _call(self, what, style, options):
        return self._set.call(what, style, _pairs(options))

    def cat(self, style="native", **options):
        """Every event as text: traceglot cat --style STYLE (native, trace-cmd, babeltrace,
        babeltrace-details, xray-yaml, lttv), with that style's options (raw=True,
        plugin_option=[...])."""
        return self._call("print", style, options)

    def report(self, style="uftrace", **options):
        """Time per function: traceglot report (uftrace report; style="xray": llvm-xray
        account), with its options (sort="self", output_fields="total,call", ...)."""
        return self._call("report", style, options)

    def replay(self, **options):
        """The function-call timeline, as uftrace replay prints it (traceglot replay)."""
        return self._call("replay", None, options)

    def stats(self, **options):
        """One row per event class, then the totals (traceglot stats)."""
        return self._call("stats", None, options)

    def info(self, **options):
        """Formats, clocks, streams, classes, time range and counts (traceglot info)."""
        return self._call("info", None, options)

    def convert(self, to, output=None, **options):
        """Another format (traceglot convert --to TO): chrome, perfetto, folded, speedscope,
        svg (a stream: returned as text, bytes for perfetto, or written to output); ctf,
        uftrace (a directory) and sqlite (a file) are written at output."""
        kind = _traceglot.converter_kind(to)
        pairs = dict(options)
        if output is not None:
            pairs["output"] = _os.fspath(output)
        split = options.get("split_size") is not None or options.get("split_time") is not None
        if kind == 0 and (output is None or split):
            if split and output is None:
                raise ValueError("split outputs need output=")
            text = self._call("convert", to, pairs)
            return None if split else text
        if output is None:
            raise ValueError("--to %s writes a %s: give output=" % (to, "directory" if kind == 1 else "file"))
        self._set.convert_to(to, _os.fspath(output), _pairs(pairs))
        return None

    # -- life ------------------------------------------------------------------------------
    def close(self):
        """Lets the traces go (also when the set is collected)."""
        self._set.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "traceglot.TraceSet(%r)" % (self.paths,)


def open(*paths, **options):
    """Opens traces (directories or files, any format traceglot reads) as one set.

    Options are the CLI's: clock_align="auto"|"none"|"realtime", clock_offset=["PATH=+1ms"],
    instr_map="./app" (XRay), debug_info_dir=..., and the filters (begin, end, events, tid,
    cpu) that every call on the set then applies.  An unreadable trace raises
    traceglot.Error with the whole cause chain."""
    if len(paths) == 1 and isinstance(paths[0], (list, tuple)):
        paths = tuple(paths[0])
    return TraceSet(paths, options)
