#!/usr/bin/python3
"""perf.data samples in SQL (perf_sample, stack_profile_callsite, stack_profile_frame,
stack_profile_mapping) against `perf script` (perf 6.1) on the fixtures that
record-fixtures.sh recorded: the samples, in order, with perf script's thread id, CPU
(where it prints one) and time in ns (--ns); their count per thread; for files with call
chains, each sample's stack read back from the tables, the sampled frame first, equal to
perf script's lines (address, symbol without its +offset, shared object) with --symfs
holding the workload binary, and with --kallsyms (the kernel's frames named from the
fixtures' kallsyms, perf script --kallsyms); each sample's cpu_mode against perf script -F
misc's cpumode letter; and the tables' consistency (every callsite's parent exists and is
one level up, every frame's mapping exists, every sample's callsite exists).
Usage: sql_tables.py TG DATA_DIR"""
import collections
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

FIXTURES = ["cpu-clock", "cpu-clock-g", "multi", "pipe", "zstd", "sched", "sched-g", "all-g"]
HEADER = re.compile(r"^\s*(.*?\S)\s+(\d+)\s+(?:\[(\d+)\]\s+)?(\d+)\.(\d+):")
FRAME = re.compile(r"^\t\s*([0-9a-f]+) (\S.*?) \((.*)\)$")
KALLSYMS = ["cpu-clock", "cpu-clock-g", "multi", "sched-g", "all-g"]
CPUMODE = {"K": "kernel", "U": "user", "H": "hypervisor", "G": "guest_kernel", "g": "guest_user"}


def sql(tg, args, q):
    p = subprocess.run([tg, "sql", "--format", "csv"] + args + ["-q", q], capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def script_samples(path):
    """perf script's samples: (tid, cpu or None, ts_ns, [(addr, sym, dso), ...])."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = FRAME.match(line)
            if m and out and line.startswith("\t"):
                sym = re.sub(r"\+0x[0-9a-f]+$", "", m.group(2))
                out[-1][3].append((int(m.group(1), 16), sym, m.group(3)))
                continue
            m = HEADER.match(line)
            if m:
                ns = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0"))
                cpu = int(m.group(3)) if m.group(3) is not None else None
                out.append((int(m.group(2)), cpu, ns, []))
    return out


def tables(tg, args):
    """The samples, callsites, frames and mappings."""
    rows = sql(tg, args, "SELECT s.id, t.tid, s.cpu, s.ts, s.callsite_id FROM perf_sample s "
               "LEFT JOIN thread t USING (utid) ORDER BY s.id")
    callsites = {int(i): (int(d), int(p) if p else None, int(f)) for i, d, p, f in sql(
        tg, args, "SELECT id, depth, parent_id, frame_id FROM stack_profile_callsite")}
    frames = {int(i): (name if isnull == "0" else "[unknown]", int(m), int(pc)) for i, name, isnull, m, pc in sql(
        tg, args, "SELECT id, name, name IS NULL, mapping, rel_pc FROM stack_profile_frame")}
    mappings = {int(i): name for i, name in sql(tg, args, "SELECT id, name FROM stack_profile_mapping")}
    return rows, callsites, frames, mappings


def stacks_differ(rows, want, callsites, frames, mappings):
    """The samples whose stack read back from the tables is not perf script's."""
    bad = []
    for i, (r, w) in enumerate(zip(rows, want)):
        stack, cs = [], int(r[4]) if r[4] else None
        while cs is not None:
            d, p, f = callsites[cs]
            name, m, pc = frames[f]
            stack.append((pc & (2**64 - 1), name, mappings[m]))
            cs = p
        if stack != w[3]:
            bad.append(i)
    return bad


def main():
    tg, data = sys.argv[1], sys.argv[2]
    empty = tempfile.mkdtemp()
    kernel_modes, named_kernel = 0, 0
    if not os.path.isdir(data):
        print("SKIP: no fixtures at " + data)
        return 77
    failures, checks, named = 0, 0, 0

    def check(what, ok, detail=""):
        nonlocal failures, checks
        checks += 1
        if not ok:
            failures += 1
            print("FAIL: %s %s" % (what, detail))

    for n in FIXTURES:
        trace = os.path.join(data, n + ".data")
        args = ["--symfs", os.path.join(data, "symfs"), trace]
        want = script_samples(os.path.join(data, n + ".script-ns.txt"))
        rows = sql(tg, args, "SELECT s.id, t.tid, s.cpu, s.ts, s.callsite_id FROM perf_sample s "
                   "LEFT JOIN thread t USING (utid) ORDER BY s.id")
        check(n + ": sample count", len(rows) == len(want), "%d, perf script %d" % (len(rows), len(want)))
        per_thread = collections.Counter(int(r[1]) for r in rows)
        per_thread_want = collections.Counter(w[0] for w in want)
        got_groups = {int(t): int(c) for t, c in sql(
            tg, args, "SELECT t.tid, count(*) FROM perf_sample s JOIN thread t USING (utid) "
            "GROUP BY t.tid")}
        check(n + ": samples per thread (GROUP BY)", got_groups == dict(per_thread_want),
              "%s != %s" % (sorted(got_groups.items())[:5], sorted(per_thread_want.items())[:5]))
        check(n + ": samples per thread", per_thread == per_thread_want)
        bad = [i for i, (r, w) in enumerate(zip(rows, want))
               if int(r[1]) != w[0] or int(r[3]) != w[2] or (w[1] is not None and int(r[2]) != w[1])]
        check(n + ": each sample's thread, time and cpu", not bad,
              "first at %s: %s vs %s" % (bad[0], rows[bad[0]], want[bad[0]][:3]) if bad else "")

        _, callsites, frames, mappings = tables(tg, args)
        if n in KALLSYMS:
            modes = []
            with open(os.path.join(data, n + ".script-cpumode.txt")) as f:
                for line in f:
                    if line.strip():
                        modes.append(CPUMODE.get(line.split()[1], "unknown"))
            got = [m for (m,) in sql(tg, args, "SELECT cpu_mode FROM perf_sample ORDER BY id")]
            check(n + ": each sample's cpu_mode is perf script's cpumode", got == modes,
                  "%s vs %s" % (collections.Counter(got), collections.Counter(modes)))
            kernel_modes += modes.count("kernel")
        broken = [i for i, (d, p, f) in callsites.items()
                  if f not in frames or (p is None and d != 0) or
                  (p is not None and (p not in callsites or callsites[p][0] != d - 1))]
        check(n + ": every callsite's parent exists, one level up", not broken, str(broken[:5]))
        check(n + ": every frame's mapping exists", all(m in mappings for _, m, _ in frames.values()))
        check(n + ": every sample's callsite exists", all(not r[4] or int(r[4]) in callsites for r in rows))
        if not any(w[3] for w in want):
            check(n + ": no call chains, no callsites", all(not r[4] for r in rows) and not callsites)
            continue
        sym = script_samples(os.path.join(data, n + ".script-sym.txt"))
        bad = stacks_differ(rows, sym, callsites, frames, mappings)
        check(n + ": each sample's stack equals perf script's (--symfs)", not bad,
              "%d differ, first %s" % (len(bad), bad[:1]))
        named += sum(1 for w in sym for f in w[3] if f[1] != "[unknown]")
        if n in KALLSYMS:
            kargs = ["--symfs", empty, "--kallsyms", os.path.join(data, "kallsyms"), trace]
            ks = script_samples(os.path.join(data, n + ".script-kallsyms.txt"))
            krows, kcs, kfr, kmap = tables(tg, kargs)
            bad = stacks_differ(krows, ks, kcs, kfr, kmap)
            check(n + ": each sample's stack equals perf script --kallsyms's", not bad,
                  "%d differ, first %s" % (len(bad), bad[:1]))
            named_kernel += sum(1 for w in ks for f in w[3]
                                if f[2] == "[kernel.kallsyms]" and f[1] != "[unknown]")
    check("the stacks compared name symbols (the check can fail)", named > 0)
    check("the kallsyms stacks name kernel symbols (the check can fail)", named_kernel > 0)
    check("some samples are the kernel's (the check can fail)", kernel_modes > 0)
    os.rmdir(empty)
    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
