#!/usr/bin/env python3
"""make-strings.py - LTTng-modules-like kernel traces whose text fields are sometimes empty.

    make-strings.py OUTDIR    writes OUTDIR/<name>/{metadata,stream_0,stream_1} and
                              OUTDIR/<name>.empty: how many texts decode empty (the
                              native style must print that many "")

babeltrace2 2.0 reuses an event's objects (a pool per event class) and does not clear a
string field that a decoded event leaves empty: it shows whatever text an earlier event of
the same class left there.  These traces put empty texts of every kind CTF has in syscall
and scheduler events of two CPUs: a null-terminated string (syscall_entry_openat's
filename) that is "", a fixed text array (sched_switch's prev_comm) of NUL bytes, a text
sequence whose length is 0 and one whose first byte is NUL; between non-empty ones, over
several packets, so that babeltrace2's batches and pools decide which text an empty field
shows.  The compact event header (5-bit id, 27-bit timestamp, or id 31 with an extended
header) and the packet context are LTTng-modules'.  Deterministic (fixed seeds), so
babeltrace2's output recorded by record-handmade.sh stays valid."""
import os
import random
import struct
import sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; } := uint27_t;
trace { major = 1; minor = 8; byte_order = le;
  packet.header := struct { uint32_t magic; uint32_t stream_id; uint64_t stream_instance_id; }; };
env { hostname = "strings"; domain = "kernel"; tracer_name = "lttng-modules"; };
clock { name = monotonic; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;
stream {
  id = 0;
  event.header := struct {
    enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
    variant <id> {
      struct { uint27_clock_t timestamp; } compact;
      struct { uint32_t id; uint64_clock_t timestamp; } extended;
    } v;
  } align(8);
  packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;
    uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;
    uint64_t events_discarded; uint32_t cpu_id; };
};
event { name = "syscall_entry_openat"; id = 0; stream_id = 0;
  fields := struct { int64_t dfd; string filename; int32_t flags; uint16_t mode; }; };
event { name = "syscall_exit_openat"; id = 1; stream_id = 0;
  fields := struct { int64_t ret; }; };
event { name = "syscall_entry_execve"; id = 2; stream_id = 0;
  fields := struct { string filename; uint64_t argv; uint64_t envp; }; };
event { name = "sched_switch"; id = 3; stream_id = 0;
  fields := struct { integer { size = 8; align = 8; signed = false; encoding = UTF8; } prev_comm[16];
    int32_t prev_tid; integer { size = 8; align = 8; signed = false; encoding = UTF8; } next_comm[16];
    int32_t next_tid; }; };
event { name = "lttng_logger"; id = 4; stream_id = 0;
  fields := struct { uint32_t _msg_length;
    integer { size = 8; align = 8; signed = false; encoding = UTF8; } msg[_msg_length]; }; };
event { name = "two_strings"; id = 40; stream_id = 0;
  fields := struct { string a; string b; }; };
"""

PATHS = ["/etc/ld.so.cache", "/lib/x86_64-linux-gnu/libc.so.6", "/proc/self/status",
         "/usr/share/locale/locale.alias", "/dev/null", "/tmp/x", "/home/user/.bashrc"]
COMMS = ["bash", "swapper/1", "kworker/u8:2", "systemd-journal", "sshd"]


def cstr(s, texts):
    texts.append(s.encode())
    return s.encode() + b"\0"


def comm(s, texts):
    texts.append(s.encode())
    return s.encode()[:16].ljust(16, b"\0")


def payload(rnd, k, empties):
    """Event class k's payload; about a third of the texts empty, of each kind of empty
    (counted in empties[0])."""
    texts = []
    p = payload_texts(rnd, k, texts)
    empties[0] += sum(1 for t in texts if not t.split(b"\0")[0])
    return p


def payload_texts(rnd, k, texts):
    empty = rnd.random() < 0.35
    if k == 0:
        return struct.pack("<q", -100) + cstr("" if empty else rnd.choice(PATHS), texts) + \
            struct.pack("<iH", rnd.randrange(1 << 20), 0o644)
    if k == 1:
        return struct.pack("<q", rnd.randrange(-2, 40))
    if k == 2:
        return cstr("" if empty else rnd.choice(PATHS), texts) + struct.pack("<QQ", 0x7ffd0000, 0x7ffd0100)
    if k == 3:
        a = "" if empty else rnd.choice(COMMS)
        b = "" if rnd.random() < 0.35 else rnd.choice(COMMS)
        return comm(a, texts) + struct.pack("<i", rnd.randrange(1, 5000)) + comm(b, texts) + \
            struct.pack("<i", rnd.randrange(1, 5000))
    if k == 4:
        kind = rnd.randrange(4)
        msg = {0: b"", 1: b"\0\0\0", 2: b"\0late", 3: rnd.choice(PATHS).encode() + b"\n"}[kind]
        texts.append(msg)
        return struct.pack("<I", len(msg)) + msg
    a = "" if empty else rnd.choice(COMMS)
    b = "" if rnd.random() < 0.35 else rnd.choice(PATHS)
    return cstr(a, texts) + cstr(b, texts)


def packet(rnd, cpu, seq, ts, n_events, empties):
    out = bytearray()
    body = bytearray()
    t = ts
    for _ in range(n_events):
        k = rnd.choice([0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 40])
        t += rnd.choice([1, 7, 150, 3000, 90000])
        if k < 31 and rnd.random() < 0.85:
            body += struct.pack("<I", k | ((t & ((1 << 27) - 1)) << 5))
        else:
            body += struct.pack("<B", 31) + struct.pack("<IQ", k, t)
        body += payload(rnd, k, empties)
    header_len = 16 + 6 * 8 + 4
    content = header_len + len(body)
    size = (content + 4095) // 4096 * 4096
    out += struct.pack("<IIQ", 0xC1FC1FC1, 0, cpu)
    out += struct.pack("<QQQQQQI", ts, t, content * 8, size * 8, seq, 0, cpu)
    out += body
    out += b"\0" * (size - len(out))
    return bytes(out), t


def main():
    out = sys.argv[1]
    d = os.path.join(out, "kernel-empty-strings")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "w") as f:
        f.write(METADATA)
    empties = [0]
    for cpu in range(2):
        rnd = random.Random(2000 + cpu)
        ts = 1000000 + cpu * 333
        data = bytearray()
        for seq in range(4):
            p, ts = packet(rnd, cpu, seq, ts, rnd.choice([5, 13, 40, 90]), empties)
            data += p
            ts += 10
        with open(os.path.join(d, "stream_%d" % cpu), "wb") as f:
            f.write(data)
    with open(d + ".empty", "w") as f:
        f.write("%d\n" % empties[0])


main()
