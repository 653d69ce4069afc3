#!/usr/bin/env python3
"""perfetto_fields.py SCHEMA DECODED REPORT - every field trace-cmd prints for the sched, irq,
softirq and power events of a trace.dat is in traceglot's Perfetto output, with its value.

  SCHEMA   Perfetto's perfetto_trace.proto (../shared/specs): which fields each typed
           FtraceEvent message has
  DECODED  protoc's text of `traceglot convert --to perfetto` (--decode=perfetto.protos.Trace)
  REPORT   `trace-cmd report -R -t` of the same file: each event's fields as name=value

Each event of REPORT named sched_*, irq_handler_*, softirq_*, cpu_frequency or cpu_idle is
found in DECODED by CPU, time and name (a typed message, a GenericFtraceEvent, or an entry of
a bundle's compact sched arrays, whose prev_* fields are the previous switch's next_* on the
CPU, as Perfetto's importer infers them), and each of its fields must hold the value
trace-cmd prints (numbers as numbers, text as text), and its pid trace-cmd's pid.  A field of
the kernel's format that Perfetto's own message for the event does not declare (Perfetto's
recorder cannot write it either) is counted and named on the summary line, not failed.
Prints the summary line; exits 1 with the first differences.

perfetto_fields.py --tree DECODED prints `thread TID NAME` for the last name the ProcessTree
packets give each thread (of a known process), sorted."""
import re
import sys

from pftext import one, packets

FAMILY = re.compile(r"^(sched_|irq_handler_|softirq_|cpu_frequency$|cpu_idle$)")


def schema_fields(path):
    text = open(path).read()
    messages = {m.group(1): m.group(2) for m in
                re.finditer(r"^message (\w+) \{\n(.*?)^\}", text, re.S | re.M)}
    fields = {}
    for m in re.finditer(r"^\s+(\w+FtraceEvent) (\w+) = \d+;", messages["FtraceEvent"], re.M):
        mtype, name = m.groups()
        if mtype in messages:
            fields[name] = set(re.findall(r"^\s+(?:optional|repeated) \w+ (\w+) = \d+;",
                                          messages[mtype], re.M))
    return fields


def ours(path):
    """{(cpu, ts, name): [fields dict, ...]} of the ftrace bundles, each dict with 'pid'."""
    events, switches = {}, {}
    for p in packets(open(path).read()):
        for b in p.get("ftrace_events", []):
            cpu = one(b, "cpu")
            for e in b.get("event", []):
                ts, pid = one(e, "timestamp"), one(e, "pid", 0)
                for key, value in e.items():
                    if key in ("timestamp", "pid", "common_flags"):
                        continue
                    msg = value[0]
                    if key == "generic":
                        name = one(msg, "event_name")
                        fields = {}
                        for f in msg.get("field", []):
                            for k in ("str_value", "int_value", "uint_value"):
                                if k in f:
                                    fields[one(f, "name")] = one(f, k)
                    else:
                        name = key
                        fields = {k: v[0] for k, v in msg.items()}
                    fields[" pid"] = pid
                    if name == "sched_switch":
                        switches.setdefault(cpu, []).append((ts, fields))
                    else:
                        events.setdefault((cpu, ts, name), []).append(fields)
            for c in b.get("compact_sched", []):
                table = c.get("intern_table", [])
                t = 0
                for i, d in enumerate(c.get("switch_timestamp", [])):
                    t += d
                    switches.setdefault(cpu, []).append((t, {
                        "prev_state": c.get("switch_prev_state", [0] * (i + 1))[i],
                        "next_pid": c["switch_next_pid"][i],
                        "next_prio": c["switch_next_prio"][i],
                        "next_comm": table[c["switch_next_comm_index"][i]],
                        "compact": True}))
                t = 0
                for i, d in enumerate(c.get("waking_timestamp", [])):
                    t += d
                    events.setdefault((cpu, t, "sched_waking"), []).append({
                        "pid": c["waking_pid"][i], "prio": c["waking_prio"][i],
                        "target_cpu": c["waking_target_cpu"][i],
                        "comm": table[c["waking_comm_index"][i]]})
    for cpu, sw in switches.items():
        last = None
        for ts, f in sorted(sw, key=lambda s: s[0]):
            if f.pop("compact", False) and last is not None:
                f.update({"prev_pid": last["next_pid"], "prev_prio": last["next_prio"],
                          "prev_comm": last["next_comm"], " pid": last["next_pid"]})
            events.setdefault((cpu, ts, "sched_switch"), []).append(f)
            last = f
    return events


LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): ([^:\s]+):\s*(.*)$")
FIELD = re.compile(r"(?:^| )(\w+)=(.*?)(?= \w+=|$)")


def theirs(path):
    for line in open(path, errors="replace"):
        m = LINE.match(line.rstrip("\n"))
        if not m or not FAMILY.match(m.group(6)):
            continue
        _, pid, cpu, s, f, name, rest = m.groups()
        yield (int(cpu), int(s) * 1000000000 + int(f.ljust(9, "0")), name), int(pid), \
            dict(FIELD.findall(rest))


def same(want, got):
    if isinstance(got, int):
        try:
            w = int(want, 0) if not re.match(r"^-?0\d", want) else int(want, 10)
        except ValueError:
            return False
        return w == got or w % (1 << 32) == got % (1 << 32) or w % (1 << 64) == got % (1 << 64)
    return want == got


def tree(path):
    names = {}
    for p in packets(open(path).read()):
        for t in p.get("process_tree", []):
            for th in t.get("threads", []):
                if "name" in th and "tgid" in th:
                    names[one(th, "tid")] = one(th, "name")
    for tid in sorted(names):
        print("thread %d %s" % (tid, names[tid]))


def main():
    if sys.argv[1] == "--tree":
        return tree(sys.argv[2])
    schema, decoded, report = sys.argv[1:4]
    known = schema_fields(schema)
    got = ours(decoded)
    checked, fields, missing, dropped, diffs = 0, 0, 0, {}, []
    for key, pid, want in theirs(report):
        cands = got.get(key)
        if not cands:
            missing += 1
            diffs.append("%s: not in the Perfetto output" % (key,))
            continue
        have = cands.pop(0)
        checked += 1
        if have.get(" pid", pid) != pid:
            diffs.append("%s: pid %s, trace-cmd %d" % (key, have.get(" pid"), pid))
        for k, v in want.items():
            if k not in have:
                if key[2] in known and k not in known[key[2]]:
                    dropped["%s.%s" % (key[2], k)] = dropped.get("%s.%s" % (key[2], k), 0) + 1
                    continue
                diffs.append("%s: no field %s (trace-cmd %s=%s)" % (key, k, k, v))
            elif not same(v, have[k]):
                diffs.append("%s: %s=%r, trace-cmd %s=%s" % (key, k, have[k], k, v))
            else:
                fields += 1
    print("%d events, %d field values equal; not in Perfetto's schema: %s"
          % (checked, fields, ", ".join("%s (%d)" % kv for kv in sorted(dropped.items())) or "none"))
    if diffs or not checked:
        print("\n".join(diffs[:20] or ["no sched/irq/softirq/power events compared"]),
              file=sys.stderr)
        sys.exit(1)


main()
