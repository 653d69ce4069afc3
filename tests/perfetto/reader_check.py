#!/usr/bin/python3
"""Checks traceglot's Perfetto reader against protoc: each trace of tests/data/perfetto is
decoded by `protoc --decode` (the reader's schema, src/formats/perfetto/perfetto_read.proto,
Perfetto's field numbers), and what the packets say is computed here from that text, by
Perfetto's documented rules (TrackEvent slices per track, interned names per sequence and
their clearing, compact_sched's delta timestamps and intern table), then compared with
`traceglot sql`: the ftrace_event rows and their args (the ftrace events: not the slices'
records nor PerfSamples', which perf/perfetto-readback checks), the slices, the threads' names.
Then damaged copies (cut at every 7th byte) must exit 1 with an offset in the message where
protoc refuses them (a copy of under 4 bytes may also be no trace at all), 0 where it reads
them, and give no more rows than the whole.  Usage: reader_check.py TG PROTO_DIR TRACE..."""
import csv
import io
import re
import shutil
import subprocess
import sys

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def parse_text(text):
    """protoc's text format into nested lists of (name, value) pairs."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|[\w.\-]+|[{}:]', text)
    pos = 0

    def block():
        nonlocal pos
        out = []
        while pos < len(tokens) and tokens[pos] != "}":
            name = tokens[pos]
            pos += 1
            if tokens[pos] == ":":
                pos += 1
                v = tokens[pos]
                pos += 1
                if v.startswith('"'):
                    v = bytes(v[1:-1], "utf-8").decode("unicode_escape")
                elif re.match(r"^-?\d+$", v):
                    v = int(v)
                out.append((name, v))
            else:
                pos += 1  # {
                out.append((name, block()))
                pos += 1  # }
        return out
    return block()


def get(msg, name, default=None):
    for k, v in msg:
        if k == name:
            return v
    return default


def get_all(msg, name):
    return [v for k, v in msg if k == name]


def expected(packets):
    ftrace, slices, names = [], [], {}
    order = 0
    tracks = {}      # uuid -> open stack
    interned = {}    # (seq, iid) -> name
    defaults = {}    # seq -> track uuid
    running = {}     # cpu -> (pid, comm)
    for p in packets:
        seq = get(p, "trusted_packet_sequence_id", 0)
        flags = get(p, "sequence_flags", 0)
        if flags & 1:
            interned = {k: v for k, v in interned.items() if k[0] != seq}
            defaults.pop(seq, None)
        tpd = get(p, "trace_packet_defaults")
        if tpd:
            ted = get(tpd, "track_event_defaults")
            if ted and get(ted, "track_uuid") is not None:
                defaults[seq] = get(ted, "track_uuid")
        idata = get(p, "interned_data")
        if idata:
            for en in get_all(idata, "event_names"):
                interned[(seq, get(en, "iid"))] = get(en, "name", "")
        ts = get(p, "timestamp", 0)
        tree = get(p, "process_tree")
        if tree:
            for pr in get_all(tree, "processes"):
                c = get_all(pr, "cmdline")
                if c:
                    names[get(pr, "pid")] = c[0]
            for th in get_all(tree, "threads"):
                if get(th, "name"):
                    names[get(th, "tid")] = get(th, "name")
        td = get(p, "track_descriptor")
        if td:
            th = get(td, "thread")
            if th and get(th, "thread_name"):
                names[get(th, "tid")] = get(th, "thread_name")
            pr = get(td, "process")
            if pr and get(pr, "process_name"):
                names[get(pr, "pid")] = get(pr, "process_name")
        te = get(p, "track_event")
        if te:
            uuid = get(te, "track_uuid", defaults.get(seq))
            name = get(te, "name")
            if name is None and get(te, "name_iid") is not None:
                name = interned.get((seq, get(te, "name_iid")))
            kind = get(te, "type")
            stack = tracks.setdefault(uuid, [])
            if kind == "TYPE_SLICE_BEGIN":
                row = [ts, -1, name]
                stack.append(row)
                slices.append(row)
            elif kind == "TYPE_SLICE_END" and stack:
                row = stack.pop()
                row[1] = ts - row[0]
            elif kind == "TYPE_INSTANT":
                slices.append([ts, 0, name])
        fe = get(p, "ftrace_events")
        if fe:
            cpu = get(fe, "cpu", 0)
            for ev in get_all(fe, "event"):
                member = [(k, v) for k, v in ev if isinstance(v, list)]
                if not member:
                    continue
                ename, fields = member[0]
                ftrace.append((get(ev, "timestamp", 0), order, cpu, ename, dict(fields)))
                order += 1
                if ename == "print":
                    # atrace's slices: "B|pid|name" begins one on the printing thread, "E" ends it
                    buf = dict(fields).get("buf", "").rstrip("\n")
                    stack = tracks.setdefault(("atrace", get(ev, "pid")), [])
                    parts = buf.split("|")
                    if parts[0] == "B" and len(parts) >= 3 and parts[1].isdigit():
                        row = [get(ev, "timestamp", 0), -1, parts[2]]
                        stack.append(row)
                        slices.append(row)
                    elif parts[0] == "E" and stack:
                        row = stack.pop()
                        row[1] = get(ev, "timestamp", 0) - row[0]
            cs = get(fe, "compact_sched")
            if cs:
                table = get_all(cs, "intern_table")
                t = 0
                stamps = get_all(cs, "switch_timestamp")
                for i, d in enumerate(stamps):
                    t += d
                    nxt = get_all(cs, "switch_next_pid")[i]
                    comm = table[get_all(cs, "switch_next_comm_index")[i]]
                    prev = running.get(cpu, (0, ""))
                    ftrace.append((t, order, cpu, "sched_switch", {
                        "prev_pid": prev[0], "prev_comm": prev[1],
                        "prev_state": get_all(cs, "switch_prev_state")[i],
                        "next_pid": nxt, "next_comm": comm,
                        "next_prio": get_all(cs, "switch_next_prio")[i]}))
                    order += 1
                    running[cpu] = (nxt, comm)
                t = 0
                for i, d in enumerate(get_all(cs, "waking_timestamp")):
                    t += d
                    ftrace.append((t, order, cpu, "sched_waking", {
                        "pid": get_all(cs, "waking_pid")[i],
                        "comm": table[get_all(cs, "waking_comm_index")[i]],
                        "target_cpu": get_all(cs, "waking_target_cpu")[i],
                        "prio": get_all(cs, "waking_prio")[i]}))
                    order += 1
    ftrace.sort(key=lambda r: (r[0], r[1]))
    return ftrace, sorted(tuple(s) for s in slices), names


def sql(tg, trace, query):
    p = subprocess.run([tg, "sql", "--format", "csv", trace, "-q", query], capture_output=True,
                       text=True)
    rows = list(csv.reader(io.StringIO(p.stdout)))[1:]
    return p.returncode, rows, p.stderr


def check(tg, proto_dir, trace):
    with open(trace, "rb") as f:
        raw = f.read()
    text = subprocess.run(["protoc", "--proto_path=" + proto_dir, "--decode=perfetto_read.Trace",
                           "perfetto_read.proto"], input=raw, capture_output=True, check=True).stdout
    packets = get_all(parse_text(text.decode()), "packet")
    ftrace, slices, names = expected(packets)
    rc, rows, err = sql(tg, trace, "SELECT ts, cpu, name, arg_set_id FROM ftrace_event "
                       "WHERE name NOT IN ('slice_begin', 'slice_end', 'perf_sample') ORDER BY id")
    if rc != 0:
        fail("%s: sql exits %d: %s" % (trace, rc, err))
    got = [(int(r[0]), int(r[1]), r[2], r[3]) for r in rows]
    want = [(r[0], r[2], r[3]) for r in ftrace]
    if [g[:3] for g in got] != want:
        fail("%s: ftrace events %s, protoc says %s" % (trace, [g[:3] for g in got], want))
    else:
        for g, w in zip(got, ftrace):
            _, args, _ = sql(tg, trace, "SELECT key, int_value, string_value FROM args "
                             "WHERE arg_set_id = %s" % g[3])
            have = {a[0]: (a[1] if a[1] != "" else a[2]) for a in args}
            for k, v in w[4].items():
                if str(v) != have.get(k):
                    fail("%s: %s at %d: %s = %r, protoc says %r" % (trace, w[3], w[0], k,
                                                                      have.get(k), v))
    rc, rows, err = sql(tg, trace, "SELECT ts, dur, name FROM slice")
    got_slices = sorted((int(r[0]), int(r[1]), r[2]) for r in rows)
    if got_slices != slices:
        fail("%s: slices %s, protoc says %s" % (trace, got_slices, slices))
    rc, rows, err = sql(tg, trace, "SELECT tid, name FROM thread")
    have = {int(r[0]): r[1] for r in rows}
    for tid, name in names.items():
        if have.get(tid) != name:
            fail("%s: thread %d is named %r, protoc says %r" % (trace, tid, have.get(tid), name))
    # damaged copies: a prefix of the rows, exit 1, the offset named
    full = len(got)
    for cut in range(1, len(raw), 7):
        path = "/tmp/tg-perfetto-cut-%d.pb" % cut
        with open(path, "wb") as f:
            f.write(raw[:cut])
        rc, rows, err = sql(tg, path, "SELECT ts, cpu, name FROM ftrace_event WHERE name NOT IN "
                            "('slice_begin', 'slice_end', 'perf_sample') ORDER BY id")
        valid = subprocess.run(["protoc", "--proto_path=" + proto_dir,
                                "--decode=perfetto_read.Trace", "perfetto_read.proto"],
                               input=raw[:cut], capture_output=True).returncode == 0
        if valid and rc != 0:
            fail("%s cut at %d (protoc reads it): exit %d, %r" % (trace, cut, rc, err))
        if not valid and (rc != 1 or ("offset 0x" not in err and cut >= 4)):
            fail("%s cut at %d: exit %d, %r (expected 1 and the offset)" % (trace, cut, rc, err))
        if len(rows) > full:
            fail("%s cut at %d: %d rows, more than the whole trace's %d" % (trace, cut,
                                                                          len(rows), full))
    print("%s: %d ftrace events, %d slices, %d names checked" % (trace, len(ftrace), len(slices),
                                                                 len(names)))


def main():
    if not shutil.which("protoc"):
        print("SKIP: protoc is not installed (Debian: protobuf-compiler)")
        return 77
    tg, proto_dir = sys.argv[1], sys.argv[2]
    for trace in sys.argv[3:]:
        check(tg, proto_dir, trace)
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
