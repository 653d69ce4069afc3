#!/usr/bin/python3
"""`convert --to perfetto` of perf.data files: the samples as Perfetto's PerfSample packets.
The file is decoded by protoc with Perfetto's own schema (perfetto_trace.proto of the
specs beside the corpus: TG_CORPUS/../specs), the interned Mapping, Frame, Callstack and string
tables are resolved per packet sequence as trace_processor resolves them, and the samples'
times (the sequence's incremental clock), thread, CPU, cpu mode and call stack (each frame's
rel_pc, function name and mapping path, from the outermost frame) must equal the perf_sample
and stack_profile_* rows `traceglot sql` gives of the same perf.data file (which
sql_tables.py checks against perf script); and the stacks, folded, must equal Debian
perf's `perf script report stackcollapse` (the thread names aside).  With an empty --symfs
and the fixtures' kallsyms, as the references were recorded.  Tracepoint samples are not
PerfSamples (they go to the ftrace bundles), so the fixtures of hardware and software
events are the ones compared.
Usage: perfetto_samples.py TG DATA_DIR"""
import collections
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

FIXTURES = ["cpu-clock", "cpu-clock-g", "multi", "pipe", "zstd", "all-g"]
KALLSYMS = {"cpu-clock", "cpu-clock-g", "multi", "all-g"}
MODES = {"MODE_UNKNOWN": "unknown", "MODE_KERNEL": "kernel", "MODE_USER": "user",
         "MODE_HYPERVISOR": "hypervisor", "MODE_GUEST_KERNEL": "guest_kernel",
         "MODE_GUEST_USER": "guest_user"}
TOKEN = re.compile(r'\s*(?:(\w+)\s*\{|(\w+):\s*("(?:[^"\\]|\\.)*"|\S+)|\})')


def parse_text(text):
    """protoc's text format as nested dicts of lists."""
    root = collections.defaultdict(list)
    stack = [root]
    for m in TOKEN.finditer(text):
        if m.group(1):
            child = collections.defaultdict(list)
            stack[-1][m.group(1)].append(child)
            stack.append(child)
        elif m.group(2):
            v = m.group(3)
            if v.startswith('"'):
                v = v[1:-1].encode("latin-1").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
            stack[-1][m.group(2)].append(v)
        else:
            stack.pop()
    return root


def one(msg, key, default=None):
    return msg[key][0] if key in msg and msg[key] else default


def perfetto_samples(packets):
    """(ts, tid, cpu, mode, [(rel_pc, name, path components), ...] outermost first)."""
    seqs = {}
    out = []
    for p in packets:
        sid = int(one(p, "trusted_packet_sequence_id", 0))
        st = seqs.setdefault(sid, {"clock": None, "strings": {}, "paths": {}, "maps": {},
                                   "frames": {}, "stacks": {}})
        if int(one(p, "sequence_flags", 0)) & 1:
            st.update(strings={}, paths={}, maps={}, frames={}, stacks={})
        for snap in p.get("clock_snapshot", []):
            for c in snap["clocks"]:
                if one(c, "clock_id") == "64":
                    st["clock"] = int(one(c, "timestamp"))
        ts = int(one(p, "timestamp", 0))
        if one(p, "timestamp_clock_id") is None and st["clock"] is not None and "clock_snapshot" not in p:
            st["clock"] += ts
            ts = st["clock"]
        for d in p.get("interned_data", []):
            for s in d.get("function_names", []):
                st["strings"][one(s, "iid")] = one(s, "str")
            for s in d.get("mapping_paths", []):
                st["paths"][one(s, "iid")] = one(s, "str")
            for m in d.get("mappings", []):
                st["maps"][one(m, "iid")] = tuple(st["paths"][i] for i in m.get("path_string_ids", []))
            for f in d.get("frames", []):
                st["frames"][one(f, "iid")] = (
                    int(one(f, "rel_pc", 0)), st["strings"].get(one(f, "function_name_id"), "[unknown]"),
                    st["maps"][one(f, "mapping_id")])
            for c in d.get("callstacks", []):
                st["stacks"][one(c, "iid")] = [st["frames"][i] for i in c.get("frame_ids", [])]
        for s in p.get("perf_sample", []):
            cs = one(s, "callstack_iid")
            cpu = one(s, "cpu")
            out.append((ts, int(one(s, "tid")), int(cpu) if cpu else None, MODES[one(s, "cpu_mode")],
                        st["stacks"][cs] if cs else []))
    return out


def sql(tg, args, q):
    p = subprocess.run([tg, "sql", "--format", "csv"] + args + ["-q", q], capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def sql_samples(tg, args):
    rows = sql(tg, args, "SELECT s.ts, t.tid, s.cpu, s.cpu_mode, s.callsite_id FROM perf_sample s "
               "LEFT JOIN thread t USING (utid) ORDER BY s.id")
    callsites = {i: (p, f) for i, p, f in sql(
        tg, args, "SELECT id, parent_id, frame_id FROM stack_profile_callsite")}
    maps = {i: tuple(c for c in n.split("/") if c) for i, n in sql(
        tg, args, "SELECT id, name FROM stack_profile_mapping")}
    frames = {i: (int(pc) & (2**64 - 1), n if isnull == "0" else "[unknown]", maps[m]) for i, n, isnull, m, pc in sql(
        tg, args, "SELECT id, name, name IS NULL, mapping, rel_pc FROM stack_profile_frame")}
    out = []
    for ts, tid, cpu, mode, cs in rows:
        stack = []
        while cs:
            parent, f = callsites[cs]
            stack.append(frames[f])
            cs = parent
        out.append((int(ts), int(tid), int(cpu) if cpu else None, mode, stack[::-1]))
    return out


def reference(path):
    counts = collections.Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, n = line.rstrip("\n").rsplit(" ", 1)
            counts[stack.split(";", 1)[1] if ";" in stack else ""] += int(n)
    return counts


def main():
    tg, data = sys.argv[1], sys.argv[2]
    proto = os.path.join(os.environ.get("TG_CORPUS", ""), "..", "specs", "perfetto_trace.proto")
    if not os.path.isdir(data):
        print("SKIP: %s not found" % data)
        return 77
    if not shutil.which("protoc"):
        print("SKIP: protoc is not installed (apt-get install protobuf-compiler)")
        return 77
    if not os.path.exists(proto):
        print("SKIP: Perfetto's schema %s not found (TG_CORPUS/../specs)" % proto)
        return 77
    proto = os.path.abspath(proto)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "symfs")
        os.mkdir(empty)
        for name in FIXTURES:
            args = ["--symfs", empty]
            suffix = ".stackcollapse.txt"
            if name in KALLSYMS:
                args += ["--kallsyms", os.path.join(data, "kallsyms")]
                suffix = ".stackcollapse-kallsyms.txt"
            path = os.path.join(data, name + ".data")
            out = os.path.join(tmp, name + ".pftrace")
            subprocess.run([tg, "convert", "--to", "perfetto", "-o", out] + args + [path], check=True)
            with open(out, "rb") as f:
                text = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I",
                                       os.path.dirname(proto), proto], stdin=f, capture_output=True,
                                      check=True).stdout.decode("utf-8")
            got = perfetto_samples(parse_text(text)["packet"])
            want = sql_samples(tg, args + [path])
            if got == want and got:
                print("PASS %s: %d PerfSamples equal the SQL rows" % (name, len(got)))
            else:
                failed += 1
                print("FAIL %s: %d PerfSamples, %d SQL rows" % (name, len(got), len(want)))
                for g, w in zip(got, want):
                    if g != w:
                        print("   first difference:\n   %r\n   %r" % (g, w))
                        break
            folded = collections.Counter(";".join(n.replace(";", ":") for _, n, _ in s[4]) for s in got)
            ref = reference(os.path.join(data, name + suffix))
            if folded == ref:
                print("PASS %s: the stacks fold to stackcollapse's %d lines" % (name, len(ref)))
            else:
                failed += 1
                print("FAIL %s: the stacks differ from stackcollapse's" % name)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
