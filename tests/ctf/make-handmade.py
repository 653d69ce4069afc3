#!/usr/bin/env python3
"""make-handmade.py - CTF 1.8 traces written here bit by bit, for producers other than LTTng-UST.

    make-handmade.py OUTDIR    writes OUTDIR/<name>/{metadata,stream} for every trace below

Each trace has one packet of one stream: a packet header (magic, stream id), a packet
context (begin/end timestamps, sizes, cpu_id) and LTTng-modules' compact event header (a
5-bit id and a 27-bit timestamp, or id 31 and an extended header with a 32-bit id and a
64-bit timestamp), then events whose payloads are integers of every width 1..64 packed at
every bit offset (signed and not, in bases 2, 8, 10 and 16).  The traces differ in byte
order (CTF packs bit fields from the most significant bit in big endian) and in their
clock: frequencies that are not 1 GHz and large offsets, where cycles-to-ns conversion
must round as babeltrace2 does.  Deterministic (fixed seeds), so babeltrace2's output,
recorded beside it by record-handmade.sh, stays valid."""
import os
import random
import sys

TRACES = [
    # name, byte order, clock frequency (Hz), offset_s, offset (cycles)
    ("bitfields-le", "le", 1000000000, 100, 0),
    ("bitfields-be", "be", 1000000000, 100, 0),
    ("clock-2.8GHz", "le", 2800000000, 1600000000, 2799999999),
    ("clock-1.6GHz-be", "be", 1600000000, 1700000000, 1234567891),
    ("clock-1MHz", "le", 1000000, 1500000000, 999999),
    ("clock-33.333MHz", "le", 33333000, 1650000000, 33332999),
    ("clock-odd-large-offset", "be", 999999937, 4000000000, 123456789123),
    # metadata babeltrace2 accepts with a warning: unknown attributes in integer, floating
    # point and string classes and in the trace, clock, stream and event blocks, unknown type
    # assignments (`junk := struct {...}`) in them, a repeated environment entry (the last
    # value counts)
    ("meta-warnings", "le", 1000000000, 100, 0),
    # LTTng-modules' metadata names its event header (`struct event_header_compact { ... }
    # align(32);`) and uses it by name: the name keeps the alignment
    ("named-header-be", "be", 1000000000, 100, 0),
]

# where the named header's alignment matters: events start on 32-bit boundaries
HEADER_ALIGN = {"named-header-be": 32}

WARNINGS = """clock { name = other; freq = 1000; qqq = 3; junk := struct { uint8_t z; }; };
typealias integer { size = 16; align = 8; signed = false; foo = 3; } := odd_t;
typealias floating_point { exp_dig = 8; mant_dig = 24; align = 8; bar = x; } := odd_float_t;
typealias string { encoding = UTF8; baz = 1; } := odd_string_t;
env { hostname = "first"; domain = "kernel"; hostname = "second"; };
"""


class Bits:
    """A packet's bits in stream order; byte order decides how they fill each byte."""

    def __init__(self, bo):
        self.bo, self.bits = bo, []

    def align(self, a):
        while len(self.bits) % a:
            self.bits.append(0)

    def put(self, v, n, a=1):
        self.align(a)
        v &= (1 << n) - 1
        order = range(n - 1, -1, -1) if self.bo == "be" else range(n)
        self.bits.extend((v >> i) & 1 for i in order)

    def set_at(self, at, v, n):
        b = Bits(self.bo)
        b.put(v, n)
        self.bits[at:at + n] = b.bits

    def tobytes(self):
        self.align(8)
        out = bytearray()
        for i in range(0, len(self.bits), 8):
            byte = 0
            for j, bit in enumerate(self.bits[i:i + 8]):
                byte |= bit << (7 - j if self.bo == "be" else j)
            out.append(byte)
        return bytes(out)


def metadata(name, bo, freq, offset_s, offset):
    m = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
trace { major = 1; minor = 8; byte_order = %s;
  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };
clock { name = mono; freq = %d; offset_s = %d; offset = %d; };
typealias integer { size = 27; align = 1; signed = false; map = clock.mono.value; } := uint27_clock_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.mono.value; } := uint64_clock_t;
stream {
  id = 0;
  packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;
    uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; };
  event.header := struct {
    enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
    variant <id> {
      struct { uint27_clock_t timestamp; } compact;
      struct { uint32_t id; uint64_clock_t timestamp; } extended;
    } v;
  } align(8);
};
""" % (bo, freq, offset_s, offset)
    if name == "meta-warnings":
        m = m.replace("byte_order = %s;" % bo,
                      "byte_order = %s; blah = \"aaa\"; foo := struct { uint8_t x; };" % bo)
        m = m.replace("  id = 0;\n", "  id = 0;\n  zork = 1;\n  junk := struct { uint8_t y; };\n")
        m += WARNINGS
    if name in HEADER_ALIGN:
        header = m[m.index("  event.header := struct {"):m.index("};\n", m.index("} align(8);"))]
        m = m.replace(header, "  event.header := struct event_header_compact;\n")
        m = m.replace("stream {\n", header.replace("  event.header := struct {", "struct event_header_compact {")
                      .replace("} align(8);", "} align(%d);" % HEADER_ALIGN[name]) + "stream {\n")
    for k in range(40):
        w, g = widths(k)
        m += ('event { name = "ev%d"; id = %d; stream_id = 0; ' % (k, k) +
              ('extra = 1; junk := struct { uint8_t w; }; ' if name == "meta-warnings" and k == 0
               else '') +
              'fields := struct { '
              'integer { size = %d; align = 1; signed = %s; base = %d; } f%d; '
              'integer { size = %d; align = 1; signed = false; } g%d; }; };\n'
              % (w, "true" if k % 3 == 0 else "false",
                 [10, 16, 8, 2][k % 4] if w <= 16 else [10, 16][k % 2], k, g, k))
    return m


def widths(k):
    return 1 + (k * 7) % 64, 1 + (k * 5) % 13


def stream(bo, seed, header_align=8):
    rnd = random.Random(seed)
    b = Bits(bo)
    packet_bits = 8192 * 8
    b.put(0xC1FC1FC1, 32, 8)
    b.put(0, 32, 8)
    ts = 5000000000 + rnd.randrange(1 << 30)
    b.put(ts, 64, 8)
    end_at = len(b.bits)
    b.put(0, 64, 8)
    content_at = len(b.bits)
    b.put(0, 64, 8)
    b.put(packet_bits, 64, 8)
    b.put(1, 32, 8)
    for _ in range(200):
        k = rnd.randrange(40)
        dt = rnd.choice([1, 3, 100, 5000, 1 << 26, 1 << 28])
        ts += dt
        b.align(header_align)
        if dt < (1 << 27) and k < 31 and rnd.random() < 0.8:
            b.put(k, 5)
            b.put(ts & ((1 << 27) - 1), 27)
        else:
            b.put(31, 5)
            b.put(k, 32, 8)
            b.put(ts, 64, 8)
        w, g = widths(k)
        b.put(rnd.getrandbits(w), w)
        b.put(rnd.getrandbits(g), g)
    content = len(b.bits)
    b.set_at(end_at, ts, 64)
    b.set_at(content_at, content, 64)
    data = b.tobytes()
    return data + b"\0" * (packet_bits // 8 - len(data))


def main():
    out = sys.argv[1]
    for i, (name, bo, freq, offset_s, offset) in enumerate(TRACES):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "metadata"), "w") as f:
            f.write(metadata(name, bo, freq, offset_s, offset))
        with open(os.path.join(d, "stream"), "wb") as f:
            f.write(stream(bo, 1000 + i, HEADER_ALIGN.get(name, 8)))


main()
