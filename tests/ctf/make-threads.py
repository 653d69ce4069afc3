#!/usr/bin/env python3
"""make-threads.py - an LTTng-modules-like kernel trace written here byte by byte.

    make-threads.py OUTDIR    writes OUTDIR/kernel-threads/{metadata,channel0_0,channel0_1}

What lttng-modules writes for a kernel session with `lttng add-context -k -t tid -t pid`
(the kernel tracer cannot run here): one stream file per cpu, each packet's context holding
the cpu_id, the begin/end times, the sizes, the packet sequence number and the discarded
events counter, and every event's stream context the `_tid` and `_pid` of the task that
hit the tracepoint.  Two cpus, three packets each; three tasks (two threads of one process
and one of another) move between the cpus, and the second packet of cpu 1 says 3 events
were discarded before it (babeltrace2 prints a warning and the events).  Packets are padded
to their packet size as lttng-modules pads sub-buffers.  Deterministic, so babeltrace2's
output, recorded beside the project by record-handmade.sh, stays valid; the cut-packet test
(cut-packet.sh) truncates copies of these files."""
import os
import struct
import sys

PACKET_SIZE = 512  # bytes
TASKS = [(1001, 1001), (1002, 1001), (2001, 2001)]  # (tid, pid)

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
trace {
  major = 1; minor = 8; byte_order = le;
  packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
env { hostname = "tg-threads"; domain = "kernel"; tracer_name = "lttng-modules";
  tracer_major = 2; tracer_minor = 13; };
clock { name = "monotonic"; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }
  := uint64_clock_monotonic_t;
stream {
  id = 0;
  event.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };
  packet.context := struct {
    uint64_clock_monotonic_t timestamp_begin; uint64_clock_monotonic_t timestamp_end;
    uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;
    uint64_t events_discarded; uint32_t cpu_id;
  };
  event.context := struct { int32_t _tid; int32_t _pid; };
};
event { name = "sched_waking"; id = 0; stream_id = 0;
  fields := struct { int32_t _tid; int32_t _prio; int32_t _target_cpu; }; };
event { name = "syscall_entry_write"; id = 1; stream_id = 0;
  fields := struct { uint32_t _fd; uint64_t _count; }; };
event { name = "syscall_exit_write"; id = 2; stream_id = 0;
  fields := struct { int32_t _ret; }; };
"""


def packet(cpu, seq, discarded, t0, events):
    """events: (dt, tid, pid, id, payload bytes)"""
    body = b""
    t = t0
    for dt, tid, pid, eid, pay in events:
        t += dt
        body += struct.pack("<IQii", eid, t, tid, pid) + pay
    head_len = 8 + 8 * 6 + 4
    content = head_len + len(body)
    assert content <= PACKET_SIZE
    head = struct.pack("<II", 0xC1FC1FC1, 0) + struct.pack(
        "<QQQQQQI", t0, t, content * 8, PACKET_SIZE * 8, seq, discarded, cpu)
    return (head + body).ljust(PACKET_SIZE, b"\0"), t


def stream(cpu):
    out = b""
    t = 1000 + cpu * 7
    discarded = 0
    for seq in range(3):
        if cpu == 1 and seq == 1:
            discarded += 3
        evs = []
        for k in range(6):
            tid, pid = TASKS[(cpu + seq + k // 2) % 3]
            kind = k % 3
            if kind == 0:
                pay = struct.pack("<iii", TASKS[(k + 1) % 3][0], 120, cpu)
            elif kind == 1:
                pay = struct.pack("<IQ", 1 + k, 10 * (seq + 1))
            else:
                pay = struct.pack("<i", 10 * (seq + 1))
            evs.append((101 + 13 * k + cpu, tid, pid, kind, pay))
        pkt, t = packet(cpu, seq, discarded, t + 50, evs)
        out += pkt
    return out


def main():
    d = os.path.join(sys.argv[1], "kernel-threads")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "w") as f:
        f.write(METADATA)
    for cpu in range(2):
        with open(os.path.join(d, "channel0_%d" % cpu), "wb") as f:
            f.write(stream(cpu))


main()
