#!/usr/bin/env python3
"""counters.py KIND FILE... - the counter samples of files, one a line, in the files' order:
`TID|TRACK|TIME_NS|VALUE`, for tests/viewers/counters.sh to compare.

  uftrace-replay TEXT  `uftrace replay -f duration,tid,time` output: each read:* record
                       (`/* read:proc/statm (vmsize=15492KB ...) */`) gives a line per
                       value, TRACK `read:proc/statm vmsize`, VALUE as uftrace prints it
                       (`15492KB`)
  perfetto TEXT...     protoc's text of Perfetto traces (each on its own, as the parts
                       of a split output are): each TYPE_COUNTER event on its
                       counter track, TRACK the track's name, TID the tid of the thread
                       track that is the counter track's parent (which must be a thread
                       track whose parent is its process's track), TIME_NS decoded from the
                       sequence's clocks, VALUE the counter_value with `KB` when the track
                       counts bytes in units of 1024
  chrome FILE          a Chrome JSON trace (json module): each "C" event's args, TRACK
                       `NAME ARG`, TIME_NS from ts (microseconds)
Exit 0 when the files read, 1 with the reason otherwise."""
import json
import re
import sys

from check_outputs import packets

REPLAY_READ = re.compile(r"\[\s*(\d+)\]\s+(\d+)\.(\d{9})\s*\|\s*/\* (read:\S+) \((.*)\) \*/")


def uftrace_replay(path):
    for line in open(path):
        m = REPLAY_READ.search(line)
        if not m:
            continue
        tid, sec, frac, name, values = m.groups()
        for field, value in re.findall(r"(\w+)=(\d+(?:KB)?)", values):
            print("%s|%s %s|%d|%s" % (tid, name, field, int(sec) * 10**9 + int(frac), value))
    return None


def fields_of(pkt):
    """A packet's fields by dotted path, each a list of values (as perfetto_alone reads them)."""
    fields, section = {}, []
    for depth, line in pkt:
        if line.endswith("{"):
            section = section[:depth - 2] + [line[:-2]]
            continue
        section = section[:depth - 1]
        key, _, value = line.partition(": ")
        fields.setdefault(".".join(section + [key]), []).append(value)
    return fields


def perfetto(path):
    threads, processes, counters = {}, set(), {}
    clocks = {}  # sequence -> [incremental clock value, default clock id]
    n = 0
    for pkt in packets(open(path).read()):
        n += 1
        f = fields_of(pkt)
        seq = f.get("trusted_packet_sequence_id", [None])[0]
        if "clock_snapshot.clocks.clock_id" in f:
            for cid, ts in zip(f["clock_snapshot.clocks.clock_id"], f["clock_snapshot.clocks.timestamp"]):
                if cid == "64":
                    clocks[seq] = [int(ts), f.get("trace_packet_defaults.timestamp_clock_id", ["6"])[0]]
        clock = f.get("timestamp_clock_id", [clocks.get(seq, [0, "6"])[1]])[0]
        ts = int(f.get("timestamp", ["0"])[0])
        if clock == "64" and "clock_snapshot.clocks.clock_id" not in f:
            clocks[seq][0] += ts
            ts = clocks[seq][0]
        uuid = f.get("track_descriptor.uuid", [None])[0]
        parent = f.get("track_descriptor.parent_uuid", [None])[0]
        if "track_descriptor.process.pid" in f:
            processes.add((uuid, f["track_descriptor.process.pid"][0]))
        if "track_descriptor.thread.tid" in f:
            threads[uuid] = (f["track_descriptor.thread.tid"][0], f["track_descriptor.thread.pid"][0], parent)
        if uuid and any(ln == "counter {" for _, ln in pkt):
            unit = ""
            if f.get("track_descriptor.counter.unit") == ["UNIT_SIZE_BYTES"]:
                unit = "KB" if f.get("track_descriptor.counter.unit_multiplier") == ["1024"] else "B?"
            name = f.get("track_descriptor.name", ['"?"'])[0][1:-1]
            counters[uuid] = (name, parent, unit)
        if f.get("track_event.type") != ["TYPE_COUNTER"]:
            continue
        track = f.get("track_event.track_uuid", [None])[0]
        if track not in counters:
            return "packet %d: a counter value on track %s, not a described counter track" % (n, track)
        name, parent, unit = counters[track]
        if parent not in threads:
            return "packet %d: counter track %s (%s) has parent %s, not a thread track" % (n, track, name, parent)
        tid, pid, process = threads[parent]
        if (process, pid) not in processes:
            return "thread track %s (tid %s) has parent %s, not process %s's track" % (parent, tid, process, pid)
        value = f.get("track_event.counter_value", f.get("track_event.double_counter_value", ["?"]))[0]
        print("%s|%s|%d|%s%s" % (tid, name, ts, value, unit))
    return None


def chrome(path):
    for ev in json.load(open(path), parse_float=str)["traceEvents"]:
        if ev["ph"] != "C":
            continue
        whole, _, frac = str(ev["ts"]).partition(".")
        ns = int(whole) * 1000 + int((frac + "000")[:3])
        for field, value in ev["args"].items():
            if not isinstance(value, int):
                return "\"C\" event %s: %s is not an integer: %r" % (ev["name"], field, value)
            print("%s|%s %s|%d|%d" % (ev["tid"], ev["name"], field, ns, value))
    return None


def main():
    fn = {"uftrace-replay": uftrace_replay, "perfetto": perfetto, "chrome": chrome}[sys.argv[1]]
    for path in sys.argv[2:]:
        try:
            why = fn(path)
        except (ValueError, KeyError) as e:
            why = "%s: %s" % (type(e).__name__, e)
        if why:
            print("%s: %s" % (path, why))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
