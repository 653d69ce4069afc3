"""binding_check.py TRACEGLOT FORMAT TRACE [PEER_FILES...] - the Python binding against the
CLI (and the peer tools' recorded outputs) on one trace: the events (count, time, name, cpu,
tid) and their fields equal `traceglot sql`'s ftrace_event and args tables, every table's
rows equal `traceglot sql --format csv`, columns equal the same rows, and the printers,
reports and conversions print what the commands print.  One line per check, "ok   NAME" or
"FAIL NAME: why"; run by binding.sh.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping

import traceglot

TG, FORMAT, TRACE = sys.argv[1], sys.argv[2], sys.argv[3]
failed = 0


def check(name, ok, why=""):
    global failed
    if ok:
        print("ok   %s: %s" % (FORMAT, name))
    else:
        failed += 1
        print("FAIL %s: %s%s" % (FORMAT, name, ": " + why if why else ""))


def cli(*args, status=0):
    p = subprocess.run([TG] + list(args), capture_output=True)
    if p.returncode != status:
        raise RuntimeError("%s exited %d: %s" % (args, p.returncode, p.stderr[:300]))
    return p.stdout.decode("utf-8", "surrogateescape")


def csv_rows(text):
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "first difference at %d: %r != %r" % (i, x, y)
    return "lengths %d != %d" % (len(a), len(b))


ts = traceglot.open(TRACE)

# ---- events: count, time, name, cpu, tid against ftrace_event ------------------------------
want = csv_rows(cli("sql", "--format", "csv", TRACE, "-q",
                    "SELECT e.ts, e.name, e.cpu, t.tid FROM ftrace_event e "
                    "LEFT JOIN thread t USING (utid) ORDER BY e.id"))[1:]
want = [(int(t), n, int(c) if c else -1, int(tid) if tid else -1) for t, n, c, tid in want]
got = [(e.ts, e.name, e.cpu, e.tid) for e in ts.events()]
check("%d events, their ts, name, cpu, tid = traceglot sql's ftrace_event" % len(want),
      got == want and len(got) > 0, first_diff(got, want))
# stats' total counts what the tracer recorded: the lost-records markers are not events
recorded = sum(1 for e in ts.events() if e.kind != "lost")
stats_total = cli("stats", TRACE).splitlines()[-1]
check("event count = traceglot stats' total (%s)" % stats_total,
      stats_total.startswith("total: %d events" % recorded))

# ---- fields: payload, return values and contexts against the args table ---------------------


def flatten(prefix, v, out):
    """The args table's rows of a value: a.b for members, a[i] for elements."""
    if isinstance(v, Mapping):  # a dict, or an Event's Fields
        for k, x in v.items():
            flatten(prefix + "." + k if prefix else k, x, out)
    elif isinstance(v, list):
        for i, x in enumerate(v[:4096]):
            flatten("%s[%d]" % (prefix, i), x, out)
    elif isinstance(v, bytes):
        out[prefix] = v.hex()
    elif isinstance(v, int) and v >= 1 << 63:
        out[prefix] = v - (1 << 64)  # a uint the table holds as a 64-bit integer
    else:
        out[prefix] = v


def text_arrays(mine, theirs):
    """A text array is a str in Python (up to its first NUL); the table lists its bytes as
    elements: compare the text with the elements' bytes."""
    for k, v in list(mine.items()):
        if not isinstance(v, str) or k in theirs:
            continue
        elems, n = [], 0
        while "%s[%d]" % (k, n) in theirs:
            elems.append(theirs.pop("%s[%d]" % (k, n)))
            n += 1
        if bytes(x & 0xFF for x in elems).split(b"\0")[0] == v.encode("utf-8", "surrogateescape"):
            del mine[k]


args = {}
for r in json.loads(cli("sql", "--format", "json", TRACE, "-q",
                        "SELECT arg_set_id, key, int_value, string_value, real_value, value_type "
                        "FROM args") or "[]"):
    vt = r["value_type"]
    v = r["int_value"] if vt in ("int", "uint", "pointer") else \
        r["real_value"] if vt == "real" else r["string_value"]
    args.setdefault(r["arg_set_id"], {})[r["key"]] = v
bad = []
for i, e in enumerate(ts.events()):
    mine = {}
    flatten("", e.fields, mine)
    flatten("", e.retval, mine)
    flatten("", {"context": e.context} if e.context else {}, mine)
    theirs = dict(args.get(i, {}))
    text_arrays(mine, theirs)
    if mine != theirs and len(bad) < 3:
        bad.append("event %d %s: %r != %r" % (i, e.name, mine, theirs))
check("fields, return values and contexts = traceglot sql's args (%d events with args)" % len(args),
      not bad, "; ".join(bad))

# ---- Fields: one field decoded on access answers as the whole mapping does ----------------
bad = []
for e in ts.events():
    for attr in ("fields", "context", "retval"):
        f = getattr(e, attr)
        whole = f.copy()
        one = {k: f[k] for k in whole}
        if (type(f) is not traceglot.Fields or not isinstance(f, Mapping) or one != whole or
                len(f) != len(whole) or f != whole or not all(k in f for k in whole) or
                "no such field" in f or f.get("no such field", 7) != 7 or list(f) != list(whole) or
                repr(f) != repr(whole)) and len(bad) < 3:
            bad.append("%s %s: %r != %r" % (e.name, attr, one, whole))
check("ev.fields, ev.context, ev.retval: each field on access = the whole mapping", not bad,
      "; ".join(bad))

# ---- SQL: every table, as rows and as text --------------------------------------------------
for table in ("ftrace_event", "thread", "process", "thread_track", "slice", "sched_slice",
              "thread_state", "counter", "counter_track", "args", "trace", "stats"):
    q = "SELECT * FROM %s" % table
    want = cli("sql", "--format", "csv", TRACE, "-q", q)
    text = ts.sql(q, format="csv")
    rows = ts.sql(q)
    again = traceglot._traceglot.format_rows(rows.columns, rows, "csv") if rows.columns else ""
    check("sql %s: csv = traceglot sql --format csv (%d rows)" % (table, len(rows)),
          text == want, first_diff(text, want))
    check("sql %s: rows, formatted again = traceglot sql --format csv" % table,
          again == want, first_diff(again, want))
for fmt in ("table", "json"):
    q = "SELECT name, count(*) AS n, min(ts) AS first FROM ftrace_event GROUP BY name ORDER BY name"
    want = cli("sql", "--format", fmt, TRACE, "-q", q)
    check("sql --format %s" % fmt, ts.sql(q, format=fmt) == want)
df = ts.sql("SELECT * FROM ftrace_event").to_pandas()
check("to_pandas: %d rows, columns %s" % (len(df), list(df.columns)[:3]),
      len(df) == len(got) and list(df.columns)[:3] == ["id", "ts", "name"])

# ---- columns --------------------------------------------------------------------------------
want = csv_rows(cli("sql", "--format", "csv", TRACE, "-q",
                    "SELECT ts, dur, name, depth FROM slice"))[1:]
cols = ts.columns(["ts", "dur", "name", "depth"], table="slice")
mine = [(str(t), str(d), n, str(dp)) for t, d, n, dp in
        zip(cols["ts"], cols["dur"], cols["name"], cols["depth"])]
check("columns of slice (%d rows) = traceglot sql's" % len(mine), mine == [tuple(r) for r in want],
      first_diff(mine, [tuple(r) for r in want]))
ecols = ts.columns(["ts", "name", "cpu", "tid"])
mine = list(zip(ecols["ts"].tolist(), ecols["name"].tolist(), ecols["cpu"].tolist(),
                ecols["tid"].tolist()))
check("columns of the events = the events", mine == got, first_diff(mine, got))
plain = ts.columns(["ts", "name"], numpy=False)
check("columns without numpy: lists", isinstance(plain["ts"], list) and
      plain["ts"] == ecols["ts"].tolist() and plain["name"] == ecols["name"].tolist())

# ---- what the commands print ------------------------------------------------------------------
check("stats = traceglot stats", ts.stats() == cli("stats", TRACE))
check("info = traceglot info", ts.info() == cli("info", TRACE))
check("cat = traceglot cat", ts.cat() == cli("cat", TRACE))
check("cat begin/end/events filters = traceglot cat's",
      ts.cat(begin="+1us", events="*e*") == cli("cat", "--begin", "+1us", "--events", "*e*", TRACE))
check("convert chrome = traceglot convert --to chrome",
      ts.convert("chrome") == cli("convert", "--to", "chrome", TRACE))
with tempfile.TemporaryDirectory() as tmp:
    ts.convert("ctf", output=os.path.join(tmp, "py.ctf"))
    cli("convert", "--to", "ctf", "-o", os.path.join(tmp, "cli.ctf"), TRACE)
    check("convert ctf (a directory) = traceglot convert --to ctf",
          cli("cat", os.path.join(tmp, "py.ctf")) == cli("cat", os.path.join(tmp, "cli.ctf")))
    ts.convert("sqlite", output=os.path.join(tmp, "py.db"))
    check("convert sqlite (a file)", os.path.getsize(os.path.join(tmp, "py.db")) > 0)

# the peers' own outputs, recorded by tests/<format>/record-*.sh with the real tools
for spec in sys.argv[4:]:
    call, _, path = spec.partition("=")
    what, _, opt = call.partition(":")
    kw = dict(o.split("~", 1) for o in opt.split(",") if o) if opt else {}
    for k, v in kw.items():
        kw[k] = True if v == "1" else v
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        peer = f.read()
    mine = {"cat": lambda: ts.cat(**kw), "report": lambda: ts.report(**kw),
            "replay": lambda: ts.replay(**kw)}[what]()
    check("%s %s = %s" % (what, kw, os.path.basename(path)), mine == peer, first_diff(mine, peer))

# ---- damaged input: what was read before the damage, then the errors, as the CLI ------------


def cli_damaged(*args):
    p = subprocess.run([TG] + list(args), capture_output=True)
    errs = [l[len("traceglot: error: "):] for l in
            p.stderr.decode("utf-8", "replace").splitlines() if l.startswith("traceglot: error: ")]
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), errs


def damaged_copies(tmp):
    """Damaged copies of the trace: its biggest data file truncated, or 64 bytes of it
    overwritten at 90%, 80%, ... of its length (where the format notices)."""
    for i, how in enumerate(["cut"] + [f for f in (90, 80, 70, 60, 50)]):
        bad = os.path.join(tmp, "%d-%s" % (i, os.path.basename(TRACE.rstrip("/"))))
        if os.path.isdir(TRACE):
            shutil.copytree(TRACE, bad)
            files = [os.path.join(r, f) for r, _, fs in os.walk(bad) for f in fs]
        else:
            shutil.copy(TRACE, bad)
            files = [bad]
        victim = max((f for f in files if os.path.basename(f) != "metadata"),
                     key=os.path.getsize)
        size = os.path.getsize(victim)
        if how == "cut":
            os.truncate(victim, size * 6 // 10)
        else:
            with open(victim, "r+b") as f:
                f.seek(size * how // 100)
                f.write(b"\xff" * 64)
        yield bad


with tempfile.TemporaryDirectory() as tmp:
    # the first copy whose damage the CLI meets after some events, else the first it refuses
    found = None
    for bad in damaged_copies(tmp):
        rc, out, errs = cli_damaged("cat", bad)
        if rc == 1 and found is None:
            found = (bad, rc, out, errs)
        if rc == 1 and out:
            found = (bad, rc, out, errs)
            break
    bad, rc, out, errs = found
    try:
        dts = traceglot.open(bad)
    except traceglot.Error as e:
        check("damaged, refused at open: the CLI's errors (%s)" % errs[:1],
              rc == 1 and e.errors == errs, "%r != %r" % (e.errors, errs))
        dts = None
    if dts is not None:
        try:
            text = dts.cat()
            check("damaged: cat raises", False, "no error (the CLI exited %d)" % rc)
        except traceglot.Error as e:
            check("damaged: cat's text before the damage, then the CLI's errors (%d)" % len(errs),
                  rc == 1 and e.partial == out and e.errors == errs and errs,
                  "%r != %r" % (e.errors, errs))
        rc, out, errs = cli_damaged("sql", "--format", "csv", bad, "-q",
                                    "SELECT ts, name FROM ftrace_event ORDER BY id")
        want = [(int(t), n) for t, n in csv_rows(out)[1:]]
        seen = []
        try:
            for e in dts.events():
                seen.append((e.ts, e.name))
            check("damaged: events raise", False, "no error")
        except traceglot.Error as e:
            check("damaged: the %d events before the damage, then the CLI's errors" % len(seen),
                  seen == want and e.errors == errs and len(seen) < len(got),
                  "%s; %r != %r" % (first_diff(seen, want), e.errors, errs))
        try:
            dts.sql("SELECT ts, name FROM ftrace_event ORDER BY id")
            check("damaged: sql raises", False, "no error")
        except traceglot.Error as e:
            check("damaged: sql's rows before the damage (Error.partial), then the errors",
                  [tuple(r) for r in e.partial] == want and e.errors == errs)

# ---- the peer's own reader: python3-bt2 on CTF --------------------------------------------------
# (CTF 1.8: babeltrace2 2.0.4 reads no CTF 2; binding.sh needs bt2 for FORMAT ctf)
if FORMAT == "ctf":
    import bt2

    if True:
        def conv(f):
            if isinstance(f, bt2._StructureFieldConst):
                return {k: conv(v) for k, v in f.items()}
            if isinstance(f, bt2._VariantFieldConst):
                return {f.cls[f.selected_option_index].name: conv(f.selected_option)}
            if isinstance(f, bt2._ArrayFieldConst):
                return [conv(x) for x in f]
            if isinstance(f, bt2._StringFieldConst):
                return str(f)
            if isinstance(f, bt2._RealFieldConst):
                return float(f)
            if isinstance(f, bt2._BoolFieldConst):
                return bool(f)
            return int(f)

        peer = []
        for m in bt2.TraceCollectionMessageIterator(TRACE):
            if type(m) is bt2._EventMessageConst:
                p = m.event.payload_field
                peer.append((m.event.name, conv(p) if p is not None else {}))
        # babeltrace2 gives discarded events as messages of their own, not events
        mine = [(e.name, e.fields) for e in ts.events(keep=True) if e.kind != "lost"]

        def same(a, b):
            """babeltrace2 2.0.4 shows an empty text as the text an earlier event of the
            class left in its recycled field (docs/design-notes.md): that is its only
            difference allowed."""
            if isinstance(a, Mapping) and isinstance(b, Mapping):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            if isinstance(a, list) and isinstance(b, list):
                return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            return a == b or (isinstance(a, str) and a == "" and isinstance(b, str))

        diffs = [(m, p) for m, p in zip(mine, peer) if m[0] != p[0] or not same(m[1], p[1])]
        check("%d events' names and payload fields = python3-bt2's" % len(peer),
              len(mine) == len(peer) and not diffs, "%r" % diffs[:1])

# ---- options: the CLI's, refused as the CLI refuses them ------------------------------------
try:
    traceglot.open(TRACE, instr_mpa="./app")
    check("a misspelt option is refused", False, "opened")
except traceglot.Error as e:
    check("a misspelt option: traceglot.Error naming the nearest (%s)" % e,
          e.status_name == "usage" and "instr-map" in str(e))
try:
    ts.cat(raw=True)
    check("an option the style does not take is refused", False, "printed")
except traceglot.Error as e:
    check("an option the style does not take: %s" % e, e.status_name == "usage" and "raw" in str(e))

# ---- an Event after the pass moved on ---------------------------------------------------------
evs = list(ts.events(keep=True))
check("keep=True: Events answer after the pass", [e.fields for e in evs][:5] ==
      [e.fields for e, _ in zip(ts.events(), range(5))])
it = ts.events()
first = next(it)
next(it)
try:
    first.fields
    check("a plain pass forgets an Event's fields once it moves on", False, "answered")
except traceglot.Error as e:
    check("a plain pass forgets an Event's fields once it moves on", "keep=True" in str(e))
check("ts, name, cpu, tid stay", (first.ts, first.name) == got[0][:2])

sys.exit(1 if failed else 0)
