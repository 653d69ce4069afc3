#!/usr/bin/env python3
"""perfetto_args.py DECODED UFTRACE.json - the slices of a traceglot Perfetto file (protoc's
text of it) carry the arguments and return values `uftrace dump --chrome` writes: per thread,
the sequence of slice begins (name, debug annotation "arguments") and ends (annotation
"retval") equals uftrace's "B"/"E" events (name and args.arguments / args.retval).
uftrace 0.13 writes no "B" for a pre-empted context switch (only the "E" of its sched-in),
so the begins of slices named "linux:schedule (pre-empted)" are left out."""
import json
import sys

from pftext import one, packets


def ours(path):
    seqs, threads, out = {}, {}, {}
    for p in packets(open(path).read()):
        seq = one(p, "trusted_packet_sequence_id")
        if one(p, "sequence_flags", 0) & 1:
            d = one(p, "trace_packet_defaults", {})
            seqs[seq] = {"names": {}, "ann": {},
                         "track": one(one(d, "track_event_defaults", {}), "track_uuid")}
        for td in p.get("track_descriptor", []):
            if "thread" in td:
                threads[one(td, "uuid")] = one(td["thread"][0], "tid")
        if "track_event" not in p:
            continue
        st = seqs[seq]
        for i in p.get("interned_data", []):
            for n in i.get("event_names", []):
                st["names"][one(n, "iid")] = one(n, "name")
            for n in i.get("debug_annotation_names", []):
                st["ann"][one(n, "iid")] = one(n, "name")
        te = p["track_event"][0]
        kind = one(te, "type")
        if kind not in ("TYPE_SLICE_BEGIN", "TYPE_SLICE_END"):
            continue
        tid = threads[one(te, "track_uuid", st["track"])]
        args = {st["ann"][one(a, "name_iid")]: one(a, "string_value")
                for a in te.get("debug_annotations", [])}
        if kind == "TYPE_SLICE_END":
            out.setdefault(tid, []).append(("E", args))
            continue
        name = st["names"][one(te, "name_iid")]
        if name != "linux:schedule (pre-empted)":
            out.setdefault(tid, []).append(("B", name, args))
    return out


def theirs(path):
    out = {}
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") == "B":
            out.setdefault(e.get("tid", e["pid"]), []).append(("B", e["name"], e.get("args", {})))
        elif e.get("ph") == "E":
            out.setdefault(e.get("tid", e["pid"]), []).append(("E", e.get("args", {})))
    return out


a, b = ours(sys.argv[1]), theirs(sys.argv[2])
fails = []
if sorted(a) != sorted(b):
    fails.append("threads %s, uftrace's %s" % (sorted(a), sorted(b)))
for tid in sorted(set(a) & set(b)):
    for i, (x, y) in enumerate(zip(a[tid] + [None] * len(b[tid]), b[tid] + [None] * len(a[tid]))):
        if x != y:
            fails.append("thread %d slice event %d: %r, uftrace %r" % (tid, i, x, y))
            break
if fails:
    print("; ".join(fails[:5]))
    sys.exit(1)
n = sum(len(v) for v in b.values())
print("%d slice begins/ends on %d threads, %d with arguments or a return value"
      % (n, len(b), sum(1 for v in b.values() for e in v if e[-1])))
