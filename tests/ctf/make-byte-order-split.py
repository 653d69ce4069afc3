#!/usr/bin/env python3
"""make-byte-order-split.py - CTF 1.8 traces where a field's byte order differs from that of
the field read just before it, right after an array, a sequence or a variant.

    make-byte-order-split.py OUTDIR    writes OUTDIR/bo-after-array/, bo-after-sequence/
                                       and bo-after-variant/

CTF 1.8 packs a little-endian bit field from a byte's low bits and a big-endian one from its
high bits (section 4.1.5), so a field in the other byte order than the last one read must
start at a byte boundary; babeltrace2 2.0 stops at one that does not ("Cannot read bit
array: two different byte orders not at a byte boundary"), the last one read being the last
integer of whatever the array, sequence or variant held (nothing for an empty one).  Each
trace holds events that read well, then one that does not:
  bo-after-array     `{ le uint4 a[2]; be uint4 x; be uint4 y; }` (x at a byte boundary),
                     `{ be uint4 a[3]; be uint4 x; }` (one byte order), then
                     `{ le uint4 a[3]; be uint4 x; }`: x starts at bit 4 of a byte a ended
  bo-after-sequence  `{ uint8 n; le uint4 v[n]; be uint4 post; }` with n = 2, 0 and 4 (post
                     at a byte boundary), `{ uint8 n; be uint4 pre; le uint4 v[n]; be uint4
                     post; }` with n = 0 (post inside pre's byte, but pre was read last),
                     then the first with n = 1: post starts inside the byte v[0] ended
  bo-after-variant   `{ uint8 tag; variant <tag> { le uint3 A; be uint3 B; } v; be uint5
                     post; }` with B (one byte order), then A: post starts inside A's byte
Deterministic: the test runs babeltrace2 on them."""
import os
import struct
import sys

PACKET_SIZE = 128  # bytes

HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 3; align = 1; signed = false; byte_order = le; } := le3_t;
typealias integer { size = 4; align = 1; signed = false; byte_order = le; } := le4_t;
typealias integer { size = 3; align = 1; signed = false; byte_order = be; } := be3_t;
typealias integer { size = 4; align = 1; signed = false; byte_order = be; } := be4_t;
typealias integer { size = 5; align = 1; signed = false; byte_order = be; } := be5_t;
trace { major = 1; minor = 8; byte_order = le;
  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };
env { hostname = "tg-bo-split"; domain = "ust"; tracer_name = "lttng-ust";
  tracer_major = 2; tracer_minor = 13; };
clock { name = "monotonic"; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }
  := clk_t;
stream { id = 0;
  event.header := struct { uint32_t id; clk_t timestamp; };
  packet.context := struct { clk_t timestamp_begin; clk_t timestamp_end;
    uint64_t content_size; uint64_t packet_size; }; };
"""

EVENTS = {
    "bo-after-array": """
event { name = "le_array_whole_byte"; id = 0; stream_id = 0;
  fields := struct { le4_t a[2]; be4_t x; be4_t y; }; };
event { name = "be_array"; id = 1; stream_id = 0; fields := struct { be4_t a[3]; be4_t x; }; };
event { name = "le_array_split"; id = 2; stream_id = 0; fields := struct { le4_t a[3]; be4_t x; }; };
""",
    "bo-after-sequence": """
event { name = "seq"; id = 0; stream_id = 0;
  fields := struct { uint8_t n; le4_t v[n]; be4_t post; }; };
event { name = "seq_after_be"; id = 1; stream_id = 0;
  fields := struct { uint8_t n; be4_t pre; le4_t v[n]; be4_t post; }; };
""",
    "bo-after-variant": """
event { name = "var"; id = 0; stream_id = 0;
  fields := struct { enum : uint8_t { A = 0, B = 1 } tag;
    variant <tag> { le3_t A; be3_t B; } v; be5_t post; }; };
""",
}


class Bits:
    """Bits written at increasing positions, each field in its own byte order: a
    little-endian field's bit k at stream bit pos + k counted from a byte's low bit, a
    big-endian field's most significant bit first counted from a byte's high bit."""

    def __init__(self):
        self.buf = bytearray(64)
        self.pos = 0

    def put(self, value, n, be):
        for k in range(n):
            bit = (value >> (n - 1 - k)) & 1 if be else (value >> k) & 1
            p = self.pos + k
            if bit:
                self.buf[p // 8] |= (0x80 >> (p % 8)) if be else (1 << (p % 8))
        self.pos += n

    def data(self):
        return bytes(self.buf[:(self.pos + 7) // 8])


def fields(name, args):
    b = Bits()
    if name == "le_array_whole_byte":
        for v in (5, 10):
            b.put(v, 4, False)
        b.put(args, 4, True)
        b.put(9, 4, True)
    elif name in ("be_array", "le_array_split"):
        for v in (1, 2, 3):
            b.put(v, 4, name == "be_array")
        b.put(args, 4, True)
    elif name in ("seq", "seq_after_be"):
        b.put(args, 8, False)
        if name == "seq_after_be":
            b.put(6, 4, True)
        for k in range(args):
            b.put(k + 1, 4, False)
        b.put(11, 4, True)
    elif name == "var":
        b.put(args, 8, False)
        b.put(3 if args == 0 else 6, 3, args == 1)
        b.put(17, 5, True)
    return b.data()


STREAMS = {
    "bo-after-array": [(0, "le_array_whole_byte", 12), (1, "be_array", 7),
                       (0, "le_array_whole_byte", 3), (2, "le_array_split", 4),
                       (1, "be_array", 8)],
    "bo-after-sequence": [(0, "seq", 2), (0, "seq", 0), (1, "seq_after_be", 0), (0, "seq", 4),
                          (0, "seq", 1), (0, "seq", 2)],
    "bo-after-variant": [(0, "var", 1), (0, "var", 1), (0, "var", 0), (0, "var", 1)],
}


def main():
    for trace, evs in STREAMS.items():
        d = os.path.join(sys.argv[1], trace)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "metadata"), "w") as f:
            f.write(HEAD + EVENTS[trace])
        body, t = b"", 1000
        for eid, name, args in evs:
            t += 10
            body += struct.pack("<IQ", eid, t) + fields(name, args)
        content = 8 + 32 + len(body)
        ctx = struct.pack("<QQQQ", 1000, t, content * 8, PACKET_SIZE * 8)
        pkt = (struct.pack("<II", 0xC1FC1FC1, 0) + ctx + body).ljust(PACKET_SIZE, b"\0")
        with open(os.path.join(d, "chan_0"), "wb") as f:
            f.write(pkt)


main()
