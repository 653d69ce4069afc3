#!/usr/bin/env python3
"""make-ctf2-optional.py - a CTF 2 trace (CTF2-SPEC-2.0 metadata) with optional fields.

    make-ctf2-optional.py OUTDIR    writes OUTDIR/ctf2-optional/{metadata,stream} and
                                    OUTDIR/ctf2-optional.expected

Each event record has a 64-bit timestamp header and the payload
    flag    fixed-length boolean (8 bits)
    opt_b   optional unsigned 32-bit integer, present when `flag` is true
    sel     fixed-length unsigned integer (8 bits)
    opt_i   optional null-terminated string, present when `sel` is in [1, 3] or [7, 7]
    tail    signed 16-bit integer (shows that decoding goes on at the right place)
written here byte by byte.  babeltrace2 2.0.4 reads no CTF 2, so the expectation is what
these bytes mean, written by this script in traceglot's native text form (`name=value`;
an optional is a variant of `none` (an empty structure) or `some`): the lines of
`traceglot cat` after the timestamp."""
import json
import os
import random
import struct
import sys


def uint(length, **kw):
    return dict({"type": "fixed-length-unsigned-integer", "length": length,
                 "byte-order": "little-endian", "alignment": 8}, **kw)


def location(name):
    return {"origin": "event-record-payload", "path": [name]}


FRAGMENTS = [
    {"type": "preamble", "version": 2},
    {"type": "trace-class"},
    {"type": "clock-class", "id": "mono", "name": "mono", "frequency": 1000000000,
     "offset-from-origin": {"seconds": 1700000000, "cycles": 0}},
    {"type": "data-stream-class", "default-clock-class-id": "mono",
     "event-record-header-field-class": {"type": "structure", "member-classes": [
         {"name": "timestamp", "field-class": uint(64, roles=["default-clock-timestamp"])}]}},
    {"type": "event-record-class", "name": "test", "payload-field-class": {
        "type": "structure", "member-classes": [
            {"name": "flag", "field-class": {"type": "fixed-length-boolean", "length": 8,
                                             "byte-order": "little-endian", "alignment": 8}},
            {"name": "opt_b", "field-class": {"type": "optional",
                                              "selector-field-location": location("flag"),
                                              "field-class": uint(32)}},
            {"name": "sel", "field-class": uint(8)},
            {"name": "opt_i", "field-class": {"type": "optional",
                                              "selector-field-location": location("sel"),
                                              "selector-field-ranges": [[1, 3], [7, 7]],
                                              "field-class": {"type": "null-terminated-string"}}},
            {"name": "tail", "field-class": {"type": "fixed-length-signed-integer", "length": 16,
                                             "byte-order": "little-endian", "alignment": 8}},
        ]}},
]


def main():
    out = sys.argv[1]
    d = os.path.join(out, "ctf2-optional")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "w") as f:
        for frag in FRAGMENTS:
            f.write("\x1e" + json.dumps(frag, indent=1) + "\n")
    rnd = random.Random(7)
    data = bytearray()
    lines = []
    ts = 1000
    for k in range(40):
        ts += rnd.choice([1, 10, 1000])
        flag = rnd.choice([0, 1, 2, 255]) if k else 1
        sel = rnd.choice([0, 1, 2, 3, 4, 7, 8, 255])
        b = rnd.getrandbits(32)
        s = rnd.choice(["abc", "", "tab\there", "x" * 20])
        tail = rnd.randrange(-32768, 32768)
        data += struct.pack("<QB", ts, flag)
        text = "test: flag=%d" % flag
        if flag:
            data += struct.pack("<I", b)
            text += " opt_b={ some = %d }" % b
        else:
            text += " opt_b={ none = {} }"
        data += struct.pack("<B", sel)
        text += " sel=%d" % sel
        if 1 <= sel <= 3 or sel == 7:
            data += s.encode() + b"\0"
            text += ' opt_i={ some = "%s" }' % s.replace("\t", "\\t")
        else:
            text += " opt_i={ none = {} }"
        data += struct.pack("<h", tail)
        text += " tail=%d" % tail
        lines.append(text)
    with open(os.path.join(d, "stream"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "ctf2-optional.expected"), "w") as f:
        f.write("\n".join(lines) + "\n")


main()
