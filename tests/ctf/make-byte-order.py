#!/usr/bin/env python3
"""make-byte-order.py - CTF 1.8 traces whose byte order changes between stream classes and
between the fields of one event, written here bit by bit.

    make-byte-order.py OUTDIR               writes OUTDIR/byte-order/
    make-byte-order.py --mid-byte OUTDIR    writes OUTDIR/byte-order-mid-byte/

What a big-endian machine's tracer writes (an LTTng-modules kernel session on a PowerPC or
s390 host, the class of Trace Compass's "flipping-endianness" test trace), with what CTF 1.8
lets any producer add (section 4.1.5: each integer and floating point class may say
`byte_order = be | le | network | native`, native meaning the trace's):

byte-order/  the trace's byte order is be, its metadata packetized in be as LTTng writes it
  (magic 0x75d11d57, the trace's uuid).
  - stream class 0, "kernel": packet context, LTTng-modules' compact event header (a 5-bit
    id and a 27-bit timestamp, or id 31 and an extended header) and the `_vtid` context in
    the trace's order (no byte_order given); its events mix fields that say le, be, network
    and native: 32- and 64-bit integers, floats and doubles, an enumeration over an le
    integer, a sequence whose length is le and elements be, and bit fields (3 + 5 le bits in
    one byte, 4 + 4 be and native bits in the next, 12 le bits over a byte boundary).
  - stream class 1, "le-agent": every type of its packet context, its compact event header
    (le bit fields: the id in the low 5 bits of the first byte) and its `_vtid` context
    declares le; its events' fields are le, with one native (= be) and one network field.
  Two cpus, two files per stream class (one per cpu), two packets each; tasks move between
  the cpus.
byte-order-mid-byte/  the kernel stream of cpu 0 alone, whose `bitfields` event (the fourth
  event of its first packet) has a 3-bit be field followed by a 5-bit le one in the same
  byte: no layout says where such bits lie, and babeltrace2 2.0 stops there ("Cannot read
  bit array: two different byte orders not at a byte boundary") after printing the events
  before it.
Deterministic, so babeltrace2's output, recorded beside the project by record-handmade.sh,
stays valid."""
import os
import struct
import sys
import uuid

UUID = uuid.UUID("5c1e0b1d-b0a1-4e2f-9c3d-4b5a6f708192")
PACKET_SIZE = 1024  # bytes
TASKS = [1001, 1002, 2001]  # vtids

HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 16; signed = false; } := uint16_t;
typealias integer { size = 32; align = 32; signed = false; } := uint32_t;
typealias integer { size = 64; align = 64; signed = false; } := uint64_t;
typealias integer { size = 32; align = 32; signed = true; } := int32_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 16; align = 8; signed = false; byte_order = le; } := le_uint16_t;
typealias integer { size = 32; align = 8; signed = false; byte_order = le; } := le_uint32_t;
typealias integer { size = 64; align = 8; signed = false; byte_order = le; } := le_uint64_t;
typealias integer { size = 32; align = 8; signed = true; byte_order = le; } := le_int32_t;
typealias integer { size = 32; align = 8; signed = true; byte_order = native; } := native_int32_t;

trace {
  major = 1; minor = 8; uuid = "%s"; byte_order = be;
  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};
env { hostname = "%s"; domain = "kernel"; sysname = "Linux"; tracer_name = "lttng-modules";
  tracer_major = 2; tracer_minor = 13; };
clock { name = monotonic; uuid = "%s"; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; }
  := uint27_clock_monotonic_t;
typealias integer { size = 64; align = 64; signed = false; map = clock.monotonic.value; }
  := uint64_clock_monotonic_t;
typealias integer { size = 27; align = 1; signed = false; byte_order = le;
  map = clock.monotonic.value; } := le_uint27_clock_t;
typealias integer { size = 64; align = 8; signed = false; byte_order = le;
  map = clock.monotonic.value; } := le_uint64_clock_t;

struct packet_context {
  uint64_clock_monotonic_t timestamp_begin; uint64_clock_monotonic_t timestamp_end;
  uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;
  uint64_t events_discarded; uint32_t cpu_id;
};
struct event_header_compact {
  enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
  variant <id> {
    struct { uint27_clock_monotonic_t timestamp; } compact;
    struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;
  } v;
} align(32);
stream {
  id = 0;
  event.header := struct event_header_compact;
  packet.context := struct packet_context;
  event.context := struct { int32_t _vtid; };
};
"""

LE_STREAM = """
stream {
  id = 1;
  event.header := struct {
    enum : integer { size = 5; align = 1; signed = false; byte_order = le; }
      { compact = 0 ... 30, extended = 31 } id;
    variant <id> {
      struct { le_uint27_clock_t timestamp; } compact;
      struct { le_uint32_t id; le_uint64_clock_t timestamp; } extended;
    } v;
  } align(8);
  packet.context := struct {
    le_uint64_clock_t timestamp_begin; le_uint64_clock_t timestamp_end;
    le_uint64_t content_size; le_uint64_t packet_size; le_uint64_t packet_seq_num;
    le_uint64_t events_discarded; le_uint32_t cpu_id;
  };
  event.context := struct { le_int32_t _vtid; };
};
"""

# (name, stream id, fields): a field is (name, kind, bits, byte order, align, signed)
# kind: i (integer), f (floating point), e (enum over an integer), s (sequence of be 16-bit
# integers whose length is the field before it)
EVENTS = [
    ("sched_switch", 0, [("prev_tid", "i", 32, None, 32, True), ("next_tid", "i", 32, None, 32, True),
                         ("prev_prio", "i", 32, "le", 8, True), ("next_prio", "i", 32, "be", 8, True)]),
    ("irq_handler_entry", 0, [("irq", "i", 32, "network", 8, True), ("vec", "i", 16, "le", 8, False),
                              ("flags", "e", 16, "le", 8, False)]),
    ("net_dev_xmit", 0, [("skbaddr", "i", 64, "le", 8, False), ("len", "i", 64, "native", 8, True),
                         ("rc", "i", 16, "network", 16, True), ("ratio", "f", 32, "le", 8, None),
                         ("load", "f", 64, "be", 8, None), ("avg", "f", 32, None, 32, None)]),
    ("bitfields", 0, [("a3", "i", 3, "le", 8, False), ("b5", "i", 5, "le", 1, True),
                      ("c4", "i", 4, "be", 8, False), ("d4", "i", 4, "native", 1, False),
                      ("e12", "i", 12, "le", 8, True), ("f4", "i", 4, "le", 1, False),
                      ("g7", "i", 7, "be", 8, False), ("h1", "i", 1, "be", 1, False)]),
    ("sequence", 0, [("n", "i", 16, "le", 8, False), ("v", "s", 16, "be", 8, False)]),
    ("agent_sample", 1, [("seq", "i", 64, "le", 8, False), ("value", "i", 32, "le", 8, True),
                         ("cookie", "i", 32, "native", 8, False), ("port", "i", 16, "network", 8, False),
                         ("temp", "f", 64, "le", 8, None)]),
    ("agent_bits", 1, [("lo", "i", 6, "le", 8, False), ("mid", "i", 10, "le", 1, True),
                       ("hi", "i", 8, "be", 8, False), ("mask", "e", 32, "le", 8, False)]),
]
FLAGS = "{ NONE = 0, SHARED = 1, ONESHOT = 2, BOTH = 3, PERCPU = 513 }"


def field_decl(f):
    name, kind, bits, bo, align, signed = f
    attrs = "align = %d; " % align + ("byte_order = %s; " % bo if bo else "")
    if kind == "f":
        exp, mant = (8, 24) if bits == 32 else (11, 53)
        return "floating_point { exp_dig = %d; mant_dig = %d; %s} %s;" % (exp, mant, attrs, name)
    integer = "integer { size = %d; %ssigned = %s; }" % (bits, attrs, "true" if signed else "false")
    if kind == "e":
        return "enum : %s %s %s;" % (integer, FLAGS, name)
    if kind == "s":
        return "%s %s[n];" % (integer, name)
    return "%s %s;" % (integer, name)


def metadata(name, events):
    m = HEAD % (UUID, name, uuid.UUID(int=UUID.int ^ 1)) + LE_STREAM
    for i, (ev, sid, fields) in enumerate(events):
        m += 'event { name = "%s"; id = %d; stream_id = %d;\n  fields := struct { %s }; };\n' % (
            ev, i, sid, " ".join(field_decl(f) for f in fields))
    return m


def packetize(text):
    """The metadata as LTTng writes it: packets of 4 KiB at most, each with its header."""
    out = b""
    data = text.encode()
    for at in range(0, len(data), 4096 - 37):
        chunk = data[at:at + 4096 - 37]
        size = 37 + len(chunk)
        out += struct.pack(">I16sIIIBBBBB", 0x75D11D57, UUID.bytes, 0, size * 8, size * 8,
                           0, 0, 0, 1, 8) + chunk
    return out


class Bits:
    """A packet's bits in stream order, each field in its own byte order: in a be field the
    value's bits go from the most significant one and fill bytes from their high bit, in an
    le field from the least significant one and fill bytes from their low bit (CTF 1.8
    section 4.1.5)."""

    def __init__(self):
        self.bits = []  # (bit, big endian)

    def align(self, a):
        while len(self.bits) % a:
            self.bits.append((0, False))

    def put(self, v, n, be, a=1):
        self.align(a)
        v &= (1 << n) - 1
        order = range(n - 1, -1, -1) if be else range(n)
        self.bits.extend(((v >> i) & 1, be) for i in order)

    def set_at(self, at, v, n, be):
        b = Bits()
        b.put(v, n, be)
        self.bits[at:at + n] = b.bits

    def tobytes(self):
        self.align(8)
        out = bytearray()
        for i in range(0, len(self.bits), 8):
            byte = 0
            for j, (bit, be) in enumerate(self.bits[i:i + 8]):
                byte |= bit << (7 - j if be else j)
            out.append(byte)
        return bytes(out)


def float_bits(v, n):
    return struct.unpack(">I", struct.pack(">f", v))[0] if n == 32 else \
        struct.unpack(">Q", struct.pack(">d", v))[0]


def put_fields(b, fields, k, trace_be):
    n = 0
    for j, (name, kind, bits, bo, align, signed) in enumerate(fields):
        be = trace_be if bo in (None, "native") else bo in ("be", "network")
        if kind == "f":
            b.put(float_bits((k + 1) * 1.25 * (j + 1) * (-1) ** k, bits), bits, be, align)
        elif kind == "e":
            b.put([0, 1, 2, 3, 513][k % 5], bits, be, align)
        elif kind == "s":
            for x in range(n):
                b.put(0x1234 + 0x101 * x + k, bits, be, align)
        else:
            # values whose bytes read differently in the other order, negative ones too
            v = (0x0102030405060708 * (k + 1) + 0x1111 * j + 0x35 * k) & ((1 << bits) - 1)
            if name == "n":
                v = 1 + k % 4
                n = v
            elif signed and k % 2:
                v = -(v >> 1) - 1
            b.put(v, bits, be, align)


def packet(sid, cpu, seq, t0, events, trace_be, le_stream):
    """events: (dt, vtid, event index); the packet's bits, its end time"""
    pbe = trace_be and not le_stream  # the stream class's own types
    b = Bits()
    b.put(0xC1FC1FC1, 32, trace_be, 32)
    for byte in UUID.bytes:
        b.put(byte, 8, trace_be, 8)
    b.put(sid, 32, trace_be, 32)
    palign = 8 if le_stream else 64
    b.put(t0, 64, pbe, palign)
    end_at = len(b.bits)
    b.put(0, 64, pbe, palign)
    content_at = len(b.bits)
    b.put(0, 64, pbe, palign)
    b.put(PACKET_SIZE * 8, 64, pbe, palign)
    b.put(seq, 64, pbe, palign)
    b.put(0, 64, pbe, palign)
    b.put(cpu, 32, pbe, 8 if le_stream else 32)
    t = t0
    for dt, vtid, ev in events:
        t += dt
        name, esid, fields = EVENTS[ev]
        assert esid == sid
        b.align(8 if le_stream else 32)
        if ev < 31 and dt < (1 << 26):
            b.put(ev, 5, pbe)
            b.put(t & ((1 << 27) - 1), 27, pbe)
        else:
            b.put(31, 5, pbe)
            b.align(8 if le_stream else 64)  # the extended struct's alignment: its timestamp's
            b.put(ev, 32, pbe, 8 if le_stream else 32)
            b.put(t, 64, pbe, 8 if le_stream else 64)
        b.put(vtid, 32, pbe, 8 if le_stream else 32)
        put_fields(b, fields, dt % 7 + ev, trace_be)
    content = len(b.bits)
    assert content <= PACKET_SIZE * 8
    b.set_at(end_at, t, 64, pbe)
    b.set_at(content_at, content, 64, pbe)
    return b.tobytes().ljust(PACKET_SIZE, b"\0"), t


def stream_file(sid, cpu, events_of, le_stream=False):
    out = b""
    t = 1000 + 7 * cpu + 3 * sid
    for seq in range(2):
        evs = []
        for k in range(8):
            ev = events_of[(cpu + seq + k) % len(events_of)]
            dt = [101, 13, 7000, 1 << 27][(k + cpu + seq) % 4] + 11 * k
            evs.append((dt, TASKS[(cpu + seq + k // 3) % 3], ev))
        pkt, t = packet(sid, cpu, seq, t + 50, evs, True, le_stream)
        out += pkt
    return out


def write(d, meta, files):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "wb") as f:
        f.write(packetize(meta))
    for fname, data in files.items():
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)


def main():
    mid_byte = sys.argv[1] == "--mid-byte"
    out = sys.argv[-1]
    kernel = [i for i, e in enumerate(EVENTS) if e[1] == 0]
    agent = [i for i, e in enumerate(EVENTS) if e[1] == 1]
    if not mid_byte:
        write(os.path.join(out, "byte-order"), metadata("byte-order", EVENTS), {
            "kernel_0": stream_file(0, 0, kernel), "kernel_1": stream_file(0, 1, kernel),
            "le-agent_0": stream_file(1, 0, agent, True),
            "le-agent_1": stream_file(1, 1, agent, True)})
        return
    # the same kernel stream, but its bit-field event flips from be to le inside a byte
    EVENTS[:] = [e if e[0] != "bitfields" else ("bitfields", 0, [
        ("a3", "i", 3, "be", 8, False), ("b5", "i", 5, "le", 1, False)]) for e in EVENTS]
    write(os.path.join(out, "byte-order-mid-byte"), metadata("byte-order-mid-byte", EVENTS),
          {"kernel_0": stream_file(0, 0, kernel)})


main()
