#!/usr/bin/python3
"""perf.data -> `convert --to perfetto` -> read back by traceglot's own Perfetto reader: the
PerfSample packets and their interned stacks give the same perf_sample rows as the perf.data
file itself (ids aside): each sample's time, thread id (through utid), CPU, cpu_mode and the
names of its call stack's frames from the outermost (through callsite_id, parent_id,
frame_id) with their mappings' build ids (the perf.data file's build-id feature, written as
the mappings' interned build_ids), in time order.  On every fixture of hardware and software samples (tracepoint
samples are written as ftrace events, not PerfSamples), with an empty --symfs and the
fixtures' kallsyms as perfetto_samples.py converts them.  The tables of the read-back file
must also hold together (every callsite's parent one level up, every frame's mapping).
Usage: perfetto_readback.py TG DATA_DIR"""
import csv
import io
import os
import subprocess
import sys
import tempfile

FIXTURES = ["cpu-clock", "cpu-clock-g", "multi", "pipe", "zstd", "all-g"]
KALLSYMS = {"cpu-clock", "cpu-clock-g", "multi", "all-g"}
SAMPLES = ("SELECT s.ts, t.tid, s.cpu, s.cpu_mode, s.callsite_id FROM perf_sample s "
           "LEFT JOIN thread t USING (utid) ORDER BY s.ts, s.id")


def sql(tg, args, q):
    p = subprocess.run([tg, "sql", "--format", "csv"] + args + ["-q", q], capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def samples(tg, args):
    """(ts, tid, cpu, cpu_mode, ((frame name, build id), ...) outermost first) per sample, and the
    tables' inconsistencies."""
    callsites = {i: (int(d), p, f) for i, d, p, f in sql(
        tg, args, "SELECT id, depth, parent_id, frame_id FROM stack_profile_callsite")}
    mappings = dict(sql(tg, args, "SELECT id, build_id FROM stack_profile_mapping"))
    frames = {}
    bad = []
    for i, name, isnull, m in sql(tg, args, "SELECT id, name, name IS NULL, mapping "
                                  "FROM stack_profile_frame"):
        frames[i] = (None if isnull == "1" else name, mappings.get(m))
        if m not in mappings:
            bad.append("frame %s: mapping %s missing" % (i, m))
    for i, (d, p, f) in callsites.items():
        if f not in frames:
            bad.append("callsite %s: frame %s missing" % (i, f))
        if p and (p not in callsites or callsites[p][0] != d - 1):
            bad.append("callsite %s: parent %s not one level up" % (i, p))
        if not p and d != 0:
            bad.append("callsite %s: no parent at depth %d" % (i, d))
    out = []
    for ts, tid, cpu, mode, cs in sql(tg, args, SAMPLES):
        chain = []
        while cs:
            _, parent, frame = callsites[cs]
            chain.append(frames.get(frame))
            cs = parent
        out.append((int(ts), tid, cpu, mode, tuple(reversed(chain))))
    return out, bad


def main():
    tg, data = sys.argv[1], sys.argv[2]
    if not os.path.isdir(data):
        print("SKIP: %s not found" % data)
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "symfs")
        os.mkdir(empty)
        for name in FIXTURES:
            args = ["--symfs", empty]
            if name in KALLSYMS:
                args += ["--kallsyms", os.path.join(data, "kallsyms")]
            path = os.path.join(data, name + ".data")
            out = os.path.join(tmp, name + ".pftrace")
            subprocess.run([tg, "convert", "--to", "perfetto", "-o", out] + args + [path],
                           check=True)
            want, _ = samples(tg, args + [path])
            got, bad = samples(tg, [out])
            stacks = sum(1 for s in want if s[4])
            ids = sum(1 for s in want for f in s[4] if f[1])
            if got == want and want and not bad:
                print("PASS %s: %d samples (%d with stacks, %d frames in a mapping with a "
                      "build id) read back equal" % (name, len(want), stacks, ids))
                continue
            failed += 1
            print("FAIL %s: %d samples read back, %d in the perf.data file" %
                  (name, len(got), len(want)))
            for b in bad[:5]:
                print("   " + b)
            for g, w in zip(got, want):
                if g != w:
                    print("   first difference:\n   read back %r\n   perf.data %r" % (g, w))
                    break
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
