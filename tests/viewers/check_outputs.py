#!/usr/bin/env python3
"""check_outputs.py KIND FILE [ARGS] - checks one traceglot viewer output with a reader
that is not traceglot's, and prints what it counted.

  speedscope FILE        JSON with the speedscope file format's required keys; each
                         evented profile's events ordered by time, every close matching
                         the innermost open frame, no frame left open
  folded FILE            every line `frame;frame;... WEIGHT`, WEIGHT a positive integer
  svg FILE               well-formed XML with at least one frame group
  perfetto-counts TEXT   counts TYPE_SLICE_BEGIN / TYPE_SLICE_END in protoc's text output
  chrome-counts FILE     counts "B" and "E" events of a Chrome JSON trace (json module), an
                         "E" that ends no "B" (uftrace's pre-empted context switch) as both
  perfetto-alone TEXT    protoc's text of one Perfetto file (a part of a split output) is
                         usable alone: each sequence starts by clearing its incremental
                         state, every interned name is defined on its sequence before use,
                         every track is described, and on every track the slices nest and
                         all end
  chrome-part FILE       a Chrome JSON file (a part of a split output) read by the json
                         module: on each thread every "E" ends the innermost open "B" of
                         the same name; prints the B and E counts and the B left open
  perfetto-names TEXT    prints the names protoc's text of a Perfetto file gives its
                         tracks, one a line: `process PID NAME`, `thread TID NAME` (the
                         last descriptor of each track)
  perfetto-threads TEXT  prints `TID COUNT` for the instants of each thread track and the
                         kernel events of each thread (FtraceEvent.pid, as Perfetto reads it)
  chrome-threads FILE    prints `TID COUNT` for the "i" events of each thread
Exit 0 when the file is valid, 1 with the reason otherwise."""
import json
import re
import sys
import xml.etree.ElementTree as ET


def speedscope(path):
    d = json.load(open(path))
    for key in ("$schema", "profiles", "shared"):
        if key not in d:
            return "missing key " + key
    n_frames = len(d["shared"]["frames"])
    events = 0
    for p in d["profiles"]:
        if p.get("type") != "evented" or p.get("unit") != "nanoseconds":
            return "profile %s is not evented in nanoseconds" % p.get("name")
        stack, last = [], None
        for e in p["events"]:
            if not isinstance(e["at"], int) or not 0 <= e["frame"] < n_frames:
                return "bad event %r in %s" % (e, p["name"])
            if last is not None and e["at"] < last:
                return "events out of time order in %s at %d" % (p["name"], e["at"])
            last = e["at"]
            if e["type"] == "O":
                stack.append(e["frame"])
            elif not stack or stack.pop() != e["frame"]:
                return "close of frame %d does not match the open frame in %s" % (e["frame"], p["name"])
        if stack:
            return "%d frames left open in %s" % (len(stack), p["name"])
        if not p["startValue"] <= (p["events"][0]["at"] if p["events"] else p["startValue"]):
            return "startValue after the first event in " + p["name"]
        events += len(p["events"])
    print("speedscope: %d profiles, %d frames, %d events" % (len(d["profiles"]), n_frames, events))
    return None


def folded(path):
    n = 0
    for line in open(path):
        if not re.fullmatch(r"[^ ].*? [1-9][0-9]*\n", line):
            return "bad folded line: %r" % line
        n += 1
    print("folded: %d stacks" % n)
    return None


def svg(path):
    root = ET.parse(path).getroot()
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "f"]
    if not groups:
        return "no frames"
    print("svg: %d frames" % len(groups))
    return None


def perfetto_counts(path):
    text = open(path).read()
    print("%d %d" % (text.count("type: TYPE_SLICE_BEGIN"), text.count("type: TYPE_SLICE_END")))
    return None


def chrome_counts(path):
    events = json.load(open(path))["traceEvents"]
    # a pre-empted context switch of uftrace data has no "B" (as `uftrace dump --chrome`
    # writes it), only the "E" of its sched-in: an "E" that ends no open "B" of its name
    # counts as the begin of its own slice too
    stacks, begins, ends = {}, 0, 0
    for e in events:
        stack = stacks.setdefault((e.get("pid"), e.get("tid")), [])
        if e["ph"] == "B":
            begins += 1
            stack.append(e["name"])
        elif e["ph"] == "E":
            ends += 1
            if stack and stack[-1] == e["name"]:
                stack.pop()
            else:
                begins += 1
    print("%d %d" % (begins, ends))
    return None


def chrome_part(path):
    stacks, b, e = {}, 0, 0
    for ev in json.load(open(path))["traceEvents"]:
        stack = stacks.setdefault((ev.get("pid"), ev.get("tid")), [])
        if ev["ph"] == "B":
            b += 1
            stack.append(ev["name"])
        elif ev["ph"] == "E":
            e += 1
            if not stack or stack.pop() != ev["name"]:
                return "an E of %s does not end the open B on thread %s" % (ev["name"], ev.get("tid"))
    print("%d %d %d" % (b, e, sum(len(s) for s in stacks.values())))
    return None


def packets(text):
    """The top-level packets of protoc's text output, as lists of (depth, line)."""
    packet, depth = None, 0
    for line in text.splitlines():
        stripped = line.strip()
        if depth == 0 and stripped == "packet {":
            packet, depth = [], 1
            continue
        if stripped.endswith("{"):
            depth += 1
        elif stripped == "}":
            depth -= 1
            if depth == 0:
                yield packet
                continue
        packet.append((depth, stripped))


def perfetto_alone(path):
    seqs, described, open_slices = {}, set(), {}
    n = 0
    for pkt in packets(open(path).read()):
        n += 1
        fields = {}
        section = []
        for depth, line in pkt:
            if line.endswith("{"):
                section = section[:depth - 2] + [line[:-2]]
                continue
            section = section[:depth - 1]
            key, _, value = line.partition(": ")
            fields.setdefault(".".join(section + [key]), []).append(value)
        seq = fields.get("trusted_packet_sequence_id", [None])[0]
        flags = int(fields.get("sequence_flags", ["0"])[0])
        if flags & 1:
            seqs[seq] = {"names": set(), "track": fields.get(
                "trace_packet_defaults.track_event_defaults.track_uuid", [None])[0]}
        if "track_descriptor.uuid" in fields:
            described.add(fields["track_descriptor.uuid"][0])
        if "track_event.type" not in fields:
            continue
        if seq not in seqs:
            return "packet %d uses sequence %s before its state was cleared" % (n, seq)
        state = seqs[seq]
        state["names"].update(fields.get("interned_data.event_names.iid", []))
        for iid in fields.get("track_event.name_iid", []):
            if iid not in state["names"]:
                return "packet %d: event name %s not interned on sequence %s" % (n, iid, seq)
        track = fields.get("track_event.track_uuid", [state["track"]])[0]
        if track not in described:
            return "packet %d: track %s not described" % (n, track)
        kind = fields["track_event.type"][0]
        if kind == "TYPE_SLICE_BEGIN":
            open_slices[track] = open_slices.get(track, 0) + 1
        elif kind == "TYPE_SLICE_END":
            if not open_slices.get(track):
                return "packet %d: slice end without a begin on track %s" % (n, track)
            open_slices[track] -= 1
    left = {t: k for t, k in open_slices.items() if k}
    if left:
        return "slices left open: %r" % left
    print("perfetto part: %d packets, whole" % n)
    return None


def perfetto_names(path):
    names = {}
    for pkt in packets(open(path).read()):
        section, ids, name = None, {}, None
        for depth, line in pkt:
            if line in ("process {", "thread {"):
                section = line[:-2]
                continue
            key, _, value = line.partition(": ")
            if section and key in ("pid", "tid"):
                ids[key] = value
            elif section and key in ("process_name", "thread_name"):
                # protoc escapes bytes in C's way (\303\251): undo that, then UTF-8
                name = value[1:-1].encode("latin-1").decode("unicode_escape").encode("latin-1").decode("utf-8")
        if section and name is not None:
            names[(section, ids["pid" if section == "process" else "tid"])] = name
    for (section, ident), name in sorted(names.items()):
        print("%s %s %s" % (section, ident, name))
    return None


def perfetto_threads(path):
    """`TID COUNT` per thread of the instants (events other than calls) on thread tracks, and
    of the kernel events, which Perfetto puts on the thread their FtraceEvent.pid names."""
    tids, defaults, counts = {}, {}, {}
    for pkt in packets(open(path).read()):
        fields, section = {}, []
        for depth, line in pkt:
            if line.endswith("{"):
                section = section[:depth - 2] + [line[:-2]]
                continue
            section = section[:depth - 1]
            key, _, value = line.partition(": ")
            fields.setdefault(".".join(section + [key]), []).append(value)
        seq = fields.get("trusted_packet_sequence_id", [None])[0]
        track = fields.get("trace_packet_defaults.track_event_defaults.track_uuid")
        if track:
            defaults[seq] = track[0]
        if "track_descriptor.thread.tid" in fields:
            tids[fields["track_descriptor.uuid"][0]] = fields["track_descriptor.thread.tid"][0]
        if fields.get("track_event.type") == ["TYPE_INSTANT"]:
            track = fields.get("track_event.track_uuid", [defaults.get(seq)])[0]
            tid = tids.get(track, "none")
            counts[tid] = counts.get(tid, 0) + 1
        for tid in fields.get("ftrace_events.event.pid", []):
            counts[tid] = counts.get(tid, 0) + 1
    for tid, n in sorted(counts.items()):
        print("%s %d" % (tid, n))
    return None


def chrome_threads(path):
    """`TID COUNT` per thread of the instant events."""
    counts = {}
    for ev in json.load(open(path))["traceEvents"]:
        if ev["ph"] == "i":
            counts[str(ev["tid"])] = counts.get(str(ev["tid"]), 0) + 1
    for tid, n in sorted(counts.items()):
        print("%s %d" % (tid, n))
    return None


def main():
    kind, path = sys.argv[1], sys.argv[2]
    fn = {"speedscope": speedscope, "folded": folded, "svg": svg,
          "perfetto-counts": perfetto_counts, "perfetto-alone": perfetto_alone, "chrome-counts": chrome_counts,
          "perfetto-names": perfetto_names, "chrome-part": chrome_part,
          "perfetto-threads": perfetto_threads, "chrome-threads": chrome_threads}[kind]
    try:
        why = fn(path)
    except (ValueError, KeyError, ET.ParseError) as e:
        why = "%s: %s" % (type(e).__name__, e)
    if why:
        print("%s: %s" % (path, why))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
