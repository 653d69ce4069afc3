#!/usr/bin/env python3
"""make-discarded.py - a CTF 1.8 trace whose streams lost events and whole packets, written
here byte by byte.

    make-discarded.py OUTDIR    writes OUTDIR/discarded/

What LTTng writes when its ring buffers fill (CTF 1.8 section 5: a packet context's
`events_discarded` counts the events the tracer dropped so far in the stream, and its
`packet_seq_num` numbers the packets, so a number skipped is a packet lost, as a consumer
that fell behind in overwrite mode loses them), made deterministic:
  - stream class 0, LTTng-UST's packet context (packet times, sizes, sequence number,
    discarded events counter, cpu id), two streams (instance ids 0 and 1):
      cpu 0: packets 0 1 4 5 6 9 10, the counter 0 0 0 1 1 6 6: two packets lost before 4,
             one event before 5, and five events and two packets before 9;
      cpu 1: packets 0 1 3 4: one packet lost before 3;
  - stream class 1, a packet context with sizes and a sequence number only (no packet
    times, no counter: its gaps have no time range and babeltrace2 gives the stream an id of
    its own, not its header's instance id 7): packets 0 2 3 7.
babeltrace2 -c sink.text.details prints "Discarded events (N events)" and "Discarded
packets (N packets)" messages for them (tests/ctf/details.sh --made)."""
import os
import struct
import sys
import uuid

UUID = uuid.UUID("d15ca4de-d0c5-4c7a-8e6b-1a2b3c4d5e6f")
PACKET_SIZE = 256  # bytes

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
  major = 1; minor = 8; uuid = "%s"; byte_order = le;
  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;
    uint64_t stream_instance_id; };
};
env { hostname = "tg-discarded"; domain = "ust"; tracer_name = "lttng-ust";
  tracer_major = 2; tracer_minor = 13; };
clock { name = "monotonic"; uuid = "%s"; freq = 1000000000; offset_s = 1700000000;
  offset = 0; };
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
};
stream {
  id = 1;
  event.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };
  packet.context := struct { uint64_t content_size; uint64_t packet_size;
    uint64_t packet_seq_num; };
};
event { name = "app:tick"; id = 0; stream_id = 0; fields := struct { uint32_t n; }; };
event { name = "agent:beat"; id = 0; stream_id = 1; fields := struct { uint32_t n; }; };
""" % (UUID, uuid.UUID("0c10c4aa-0000-4000-8000-000000000001"))


def header(stream_class, instance):
    return struct.pack("<I", 0xC1FC1FC1) + UUID.bytes + struct.pack("<IQ", stream_class, instance)


def events(t0, n, first):
    body, t = b"", t0
    for k in range(n):
        t += 10
        body += struct.pack("<IQI", 0, t, first + k)
    return body, t


def timed_packet(instance, cpu, seq, discarded, t0):
    body, t = events(t0, 3, seq * 10)
    head_len = 32 + 8 * 6 + 4
    content = head_len + len(body)
    ctx = struct.pack("<QQQQQQI", t0, t + 5, content * 8, PACKET_SIZE * 8, seq, discarded, cpu)
    return (header(0, instance) + ctx + body).ljust(PACKET_SIZE, b"\0")


def bare_packet(seq, t0):
    body, _ = events(t0, 2, seq * 10)
    content = 32 + 8 * 3 + len(body)
    ctx = struct.pack("<QQQ", content * 8, PACKET_SIZE * 8, seq)
    return (header(1, 7) + ctx + body).ljust(PACKET_SIZE, b"\0")


def main():
    d = os.path.join(sys.argv[1], "discarded")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "w") as f:
        f.write(METADATA)
    cpu0 = [(0, 0), (1, 0), (4, 0), (5, 1), (6, 1), (9, 6), (10, 6)]
    cpu1 = [(0, 0), (1, 0), (3, 0), (4, 0)]
    for cpu, packets in ((0, cpu0), (1, cpu1)):
        with open(os.path.join(d, "chan_%d" % cpu), "wb") as f:
            for seq, discarded in packets:
                f.write(timed_packet(cpu, cpu, seq, discarded, 1000 + cpu * 7 + seq * 100))
    with open(os.path.join(d, "agent_0"), "wb") as f:
        for seq in (0, 2, 3, 7):
            f.write(bare_packet(seq, 1030 + seq * 100))


main()
