#!/usr/bin/env python3
"""perfetto_sched.py MODE FILE - the context switches a kernel trace holds, one line each:
`CPU TIME_NS PREV_PID NEXT_PID PREV_STATE`, in each CPU's order.

  perfetto DECODED    protoc's text of a traceglot Perfetto file: the sched_switch messages
                      of its ftrace bundles and the compact sched arrays (whose prev pid is
                      the previous switch's next pid on the CPU, as Perfetto infers it).
                      Also checks that each CPU's bundles follow one another in time (one
                      bundle per CPU chunk) and prints a summary on stderr
  trace-cmd TEXT      `trace-cmd report -R -t` (prev_pid/next_pid/prev_state)
  babeltrace2 TEXT    `babeltrace2 --clock-seconds` of an LTTng kernel trace (prev_tid,
                      next_tid; a prev_state enumeration by its integer)
  lttv TEXT           LTTV's text dump of an LTTng 0.x trace (kernel.sched_schedule; the CPU
                      is the tracefile's number)
  native TEXT         `traceglot cat` (native): sched_switch or sched_schedule lines
  perfetto-counts DECODED   `COUNT NAME` per kernel event name the ftrace bundles hold
                      (a typed message's name, a generic event's event_name, the compact
                      switches and wakings)
  trace-cmd-counts TEXT     `COUNT NAME` per event name of `trace-cmd report -R`
  chrome JSON         traceglot's Chrome JSON: its sched_switch instants' args, which must be
                      typed (pids and state JSON numbers, comms JSON strings), as
                      `- TIME_NS PREV_PID NEXT_PID PREV_STATE PREV_COMM` in time order
  trace-cmd-comm TEXT the same from `trace-cmd report -R -t`"""
import re
import sys

from pftext import one, packets


def ns(sec, frac):
    return int(sec) * 1000000000 + int(frac.ljust(9, "0"))


def perfetto(path):
    per_cpu, bundles = {}, {}
    for p in packets(open(path).read()):
        for b in p.get("ftrace_events", []):
            cpu = one(b, "cpu")
            times = []
            for e in b.get("event", []):
                times.append(one(e, "timestamp"))
                for s in e.get("sched_switch", []):
                    per_cpu.setdefault(cpu, []).append(
                        (one(e, "timestamp"), "full", one(s, "prev_pid", 0), one(s, "next_pid", 0),
                         one(s, "prev_state", 0)))
            for c in b.get("compact_sched", []):
                t = 0
                for i, d in enumerate(c.get("switch_timestamp", [])):
                    t += d
                    times.append(t)
                    per_cpu.setdefault(cpu, []).append(
                        (t, "compact", None, c["switch_next_pid"][i],
                         c.get("switch_prev_state", [0] * (i + 1))[i]))
                t = 0
                for d in c.get("waking_timestamp", []):
                    t += d
                    times.append(t)
            if times:
                bundles.setdefault(cpu, []).append((min(times), max(times)))
    for cpu, spans in bundles.items():
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                sys.exit("cpu %d: a bundle from %d starts before the one before it ends (%d)"
                         % (cpu, b[0], a[1]))
    out, compact = [], 0
    for cpu in sorted(per_cpu):
        last = None
        for t, kind, prev, nxt, state in sorted(per_cpu[cpu], key=lambda e: e[0]):
            if kind == "compact":
                compact += 1
                if last is None:
                    sys.exit("cpu %d: a compact switch at %d with no switch before it" % (cpu, t))
                prev = last
            out.append((cpu, t, prev, nxt, state))
            last = nxt
    print("%d switches (%d compact) in %d bundles on %d cpus"
          % (len(out), compact, sum(len(v) for v in bundles.values()), len(bundles)),
          file=sys.stderr)
    return out


def trace_cmd(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r"\[(\d+)\]\s+(\d+)\.(\d+): sched_switch:.*prev_pid=(-?\d+) .*"
                      r"prev_state=(-?\d+) .*next_pid=(-?\d+)", line)
        if m:
            cpu, s, f, prev, state, nxt = m.groups()
            out.append((int(cpu), ns(s, f), int(prev), int(nxt), int(state)))
    return out


def babeltrace2(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r"^\[(\d+)\.(\d+)\].* sched_switch: \{ cpu_id = (\d+) \}.*prev_tid = (-?\d+),"
                      r".*prev_state = (?:\( .*?container = )?(-?\d+).*next_tid = (-?\d+)", line)
        if m:
            s, f, cpu, prev, state, nxt = m.groups()
            out.append((int(cpu), ns(s, f), int(prev), int(nxt), int(state)))
    return out


def lttv(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r"^kernel\.sched_schedule: (\d+)\.(\d+) \([^)]*_(\d+)\).*\{ prev_pid = (-?\d+),"
                      r" next_pid = (-?\d+), prev_state = (-?\d+) \}", line)
        if m:
            s, f, cpu, prev, nxt, state = m.groups()
            out.append((int(cpu), ns(s, f), int(prev), int(nxt), int(state)))
    return out


def native(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r"^(\d+)\.(\d+) cpu=(\d+) .*(?:sched_switch|sched_schedule): .*prev_pid=(-?\d+)"
                      r".*", line)
        if m:
            s, f, cpu, prev = m.groups()
            nxt = re.search(r"next_pid=(-?\d+)", line).group(1)
            state = re.search(r"prev_state=(-?\d+)", line).group(1)
            out.append((int(cpu), ns(s, f), int(prev), int(nxt), int(state)))
    return out


def perfetto_counts(path):
    counts = {}
    for p in packets(open(path).read()):
        for b in p.get("ftrace_events", []):
            for e in b.get("event", []):
                for key, value in e.items():
                    if key == "generic":
                        key = one(value[0], "event_name")
                    elif key in ("timestamp", "pid", "common_flags"):
                        continue
                    counts[key] = counts.get(key, 0) + 1
            for c in b.get("compact_sched", []):
                for key, n in (("sched_switch", len(c.get("switch_timestamp", []))),
                               ("sched_waking", len(c.get("waking_timestamp", [])))):
                    if n:
                        counts[key] = counts.get(key, 0) + n
    return counts


def trace_cmd_counts(path):
    counts = {}
    for line in open(path, errors="replace"):
        m = re.search(r"\[\d+\]\s+\d+\.\d+: ([^:\s]+):", line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts


def chrome(path):
    import json
    out = []
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") != "i" or e.get("name") != "sched_switch":
            continue
        a = e["args"]
        for k in ("prev_pid", "next_pid", "prev_state", "prev_prio"):
            if type(a[k]) is not int:
                sys.exit("%s is %r, not a JSON number" % (k, a[k]))
        for k in ("prev_comm", "next_comm"):
            if type(a[k]) is not str or a[k].startswith('"'):
                sys.exit("%s is %r, not a string quoted once" % (k, a[k]))
        out.append((round(e["ts"] * 1000), a["prev_pid"], a["next_pid"], a["prev_state"], a["prev_comm"]))
    return out


def trace_cmd_comm(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r"\s(\d+)\.(\d+): sched_switch:\s+prev_comm=(.*) prev_pid=(-?\d+) .*"
                      r"prev_state=(-?\d+) .*next_pid=(-?\d+)", line)
        if m:
            s, f, comm, prev, state, nxt = m.groups()
            out.append((ns(s, f), int(prev), int(nxt), int(state), comm))
    return out


if sys.argv[1] in ("chrome", "trace-cmd-comm"):
    rows = (chrome if sys.argv[1] == "chrome" else trace_cmd_comm)(sys.argv[2])
    for r in sorted(rows, key=lambda r: r[0]):
        print("- %d %d %d %d %s" % r)
    sys.exit(0)

if sys.argv[1].endswith("counts"):
    c = (perfetto_counts if sys.argv[1] == "perfetto-counts" else trace_cmd_counts)(sys.argv[2])
    for name in sorted(c):
        print(c[name], name)
    sys.exit(0)

rows = {"perfetto": perfetto, "trace-cmd": trace_cmd, "babeltrace2": babeltrace2, "lttv": lttv,
        "native": native}[sys.argv[1]](sys.argv[2])
rows.sort(key=lambda r: r[0])  # stable: each CPU's own order
for r in rows:
    print("%d %d %d %d %d" % r)
