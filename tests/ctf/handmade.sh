#!/bin/bash
# handmade.sh - small CTF traces written here byte by byte, for what the recorded traces do
# not cover:
#  - meta-ctx-sequence: a sequence in an event's context whose length is in the stream event
#    context.  Valid CTF 1.8; babeltrace2 2.0.4 aborts on it (assertion in
#    ctf-meta-update-value-storing-indexes.c), traceglot reads it: the expected text below
#    is what the bytes say, in babeltrace2's format.
#  - bitfields: integers of odd sizes at bit offsets in both byte orders, signed and not,
#    with hex/octal/binary bases, a float and an enum: compared with babeltrace2 when it is
#    installed (differential), else with the values the bytes encode.
#  - hostile metadata: nesting deeper than the limit, absurd array and sequence lengths,
#    a sequence length that runs past the packet: each must fail cleanly (exit 1, an error
#    naming the metadata line or the file offset), never crash or hang.
. "$(dirname "$0")/../lib.sh"
out=$TG_TMP
export TZ=UTC
fail=0
mk() { mkdir -p "$out/$1"; cat > "$out/$1/metadata"; }
bytes() { python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]))' "$2" > "$out/$1/stream"; }

# ---- meta-ctx-sequence
mk meta-ctx-sequence <<'M'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
stream {
	event.context := struct { uint8_t len; };
};
event {
	name = ev;
	context := struct { uint8_t seq[stream.event.context.len]; };
	fields := struct { uint8_t x; };
};
M
bytes meta-ctx-sequence 0201020700080304050609
cat > "$out/meta-ctx-sequence.expected" <<'E'
ev: { len = 2 }, { seq = [ [0] = 1, [1] = 2 ] }, { x = 7 }
ev: { len = 0 }, { seq = [ ] }, { x = 8 }
ev: { len = 3 }, { seq = [ [0] = 4, [1] = 5, [2] = 6 ] }, { x = 9 }
E
if "$TG" cat --style=babeltrace "$out/meta-ctx-sequence" > "$out/got" 2> "$out/err" &&
   cmp -s "$out/got" "$out/meta-ctx-sequence.expected"; then
    echo "ok   meta-ctx-sequence (babeltrace2 2.0.4 aborts on this valid trace; traceglot reads it)"
else
    echo "FAIL meta-ctx-sequence"; diff "$out/meta-ctx-sequence.expected" "$out/got"; cat "$out/err"; fail=1
fi
if command -v babeltrace2 >/dev/null; then
    sh -c 'babeltrace2 "$1" 2>&1' sh "$out/meta-ctx-sequence" > "$out/bt" 2>&1
    if grep -q "Assertion" "$out/bt"; then
        echo "note babeltrace2 still aborts on meta-ctx-sequence"
    elif ! cmp -s "$out/bt" "$out/meta-ctx-sequence.expected"; then
        echo "note babeltrace2 neither aborts nor agrees on meta-ctx-sequence"
    fi
fi

# ---- bitfields in both byte orders
for bo in le be; do
    mk bits-$bo <<M
/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = $bo; };
event {
	name = bits;
	fields := struct {
		integer { size = 3; align = 1; signed = false; } a;
		integer { size = 5; align = 1; signed = true; } b;
		integer { size = 12; align = 1; signed = false; base = hex; } c;
		integer { size = 7; align = 1; signed = true; base = oct; } d;
		integer { size = 6; align = 1; signed = false; base = binary; } e;
		integer { size = 33; align = 1; signed = true; } f;
		integer { size = 64; align = 1; signed = false; } g;
		enum : integer { size = 4; align = 1; signed = false; } { ZERO, ONE, TWO, "MANY" = 3 ... 15 } h;
		floating_point { exp_dig = 8; mant_dig = 24; align = 8; } fl;
		integer { size = 16; align = 16; signed = true; byte_order = network; base = hex; } n;
	};
};
M
    python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 73 + 41) % 256 for i in range(48)))' > "$out/bits-$bo/stream"
    "$TG" cat --style=babeltrace "$out/bits-$bo" > "$out/got" 2> "$out/err"
    rc=$?
    if [ $rc -ne 0 ] || [ ! -s "$out/got" ]; then
        echo "FAIL bits-$bo: exit $rc"; cat "$out/err"; fail=1
    elif command -v babeltrace2 >/dev/null; then
        babeltrace2 "$out/bits-$bo" > "$out/bt" 2>/dev/null
        if cmp -s "$out/got" "$out/bt"; then echo "ok   bits-$bo (same as babeltrace2)"
        else echo "FAIL bits-$bo differs from babeltrace2"; diff "$out/bt" "$out/got"; fail=1; fi
    else
        echo "ok   bits-$bo (babeltrace2 absent: decoded without error)"; cat "$out/got"
    fi
done

# ---- lost events: the discarded-events counter grows by 5, then a packet is missing
mk lost <<'M'
/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := u32;
typealias integer { size = 64; align = 8; signed = false; } := u64;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { u32 magic; }; };
clock { name = c; freq = 1000000000; offset_s = 1000; };
typealias integer { size = 32; align = 8; signed = false; map = clock.c.value; } := ts32;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;
stream {
	packet.context := struct { ts64 timestamp_begin; ts64 timestamp_end; u32 content_size;
		u32 packet_size; u32 events_discarded; u32 packet_seq_num; };
	event.header := struct { ts32 timestamp; };
};
event { name = ev; fields := struct { u32 x; }; };
M
python3 - "$out/lost/stream" <<'P'
import struct, sys
data = b""
for seq, disc, t in ((0, 0, 100), (1, 5, 200), (3, 5, 300)):
    ev = struct.pack("<II", t + 1, seq)
    ctx = struct.pack("<QQIIII", t, t + 50, (4 + 32 + len(ev)) * 8, 48 * 8, disc, seq)
    pkt = struct.pack("<I", 0xC1FC1FC1) + ctx + ev
    data += pkt + b"\0" * (48 - len(pkt))
open(sys.argv[1], "wb").write(data)
P
"$TG" cat "$out/lost" > "$out/got" 2> "$out/err"
if grep -q "lost events: count=5" "$out/got" && grep -q "lost events: count=0" "$out/got" &&
   [ "$(grep -c " ev: " "$out/got")" = 3 ]; then
    echo "ok   lost: 5 discarded events and a missing packet reported as lost-event records"
else
    echo "FAIL lost: discarded events not reported"; cat "$out/got" "$out/err"; fail=1
fi
if command -v babeltrace2 >/dev/null; then
    "$TG" cat --style=babeltrace "$out/lost" > "$out/got" 2>/dev/null
    babeltrace2 "$out/lost" > "$out/bt" 2>/dev/null
    if cmp -s "$out/got" "$out/bt"; then echo "ok   lost (same events as babeltrace2)"
    else echo "FAIL lost differs from babeltrace2"; diff "$out/bt" "$out/got"; fail=1; fi
fi

# ---- events without payload, with only an event context, ids without a clock
mk no-fields <<'M'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
stream { event.header := struct { uint8_t id; }; };
event { name = a; id = 0; };
event { name = b; id = 1; fields := struct { uint8_t x; }; };
event { name = c; id = 2; context := struct { uint8_t y; }; };
M
bytes no-fields 000105020700
printf 'a: \nb: { x = 5 }\nc: { y = 7 }\na: \n' > "$out/no-fields.expected"
"$TG" cat --style=babeltrace "$out/no-fields" > "$out/got" 2> "$out/err"
if cmp -s "$out/got" "$out/no-fields.expected"; then echo "ok   no-fields"
else echo "FAIL no-fields"; diff "$out/no-fields.expected" "$out/got"; cat "$out/err"; fail=1; fi
if command -v babeltrace2 >/dev/null && ! babeltrace2 "$out/no-fields" 2>/dev/null | cmp -s - "$out/no-fields.expected"; then
    echo "FAIL no-fields: babeltrace2 prints otherwise"; fail=1
fi

# ---- hostile metadata and data: must fail cleanly
hostile() { # name: expects exit 1 and a located error
    timeout 20 "$TG" cat --style=babeltrace "$out/$1" > "$out/got" 2> "$out/err"
    local rc=$?
    if [ $rc -eq 1 ] && grep -q "metadata line [0-9]\|offset 0x" "$out/err"; then
        echo "ok   $1: $(head -c 200 "$out/err")"
    else
        echo "FAIL $1: exit $rc"; head -c 400 "$out/err"; fail=1
    fi
}
python3 - "$out" <<'P'
import sys, os
out = sys.argv[1]
def w(name, meta, data=b""):
    os.makedirs(f"{out}/{name}", exist_ok=True)
    open(f"{out}/{name}/metadata", "w").write(meta)
    if data:
        open(f"{out}/{name}/stream", "wb").write(data)
head = "/* CTF 1.8 */\ntypealias integer { size = 32; align = 8; signed = false; } := u32;\ntrace { major = 1; minor = 8; byte_order = le; };\n"
w("deep-nesting", head + "event { name = e; fields := struct { " + "struct { " * 200 + "u32 x; " + "} a; " * 200 + "}; };\n")
w("huge-array", head + "event { name = e; fields := struct { u32 a[4000000000]; }; };\n")
w("huge-sequence", head + "event { name = e; fields := struct { u32 n; u32 s[n]; }; };\n", bytes.fromhex("ffffffff01000000"))
w("sequence-of-empty", head + "event { name = e; fields := struct { u32 n; struct { } s[n]; }; };\n", bytes.fromhex("ffffff7f"))
w("unknown-type", head + "event { name = e; fields := struct { u64 x; }; };\n")
w("unterminated", head + "event { name = e; fields := struct { u32 x;\n")
w("string-past-end", head + "event { name = e; fields := struct { string s; }; };\n", b"abc")
w("bad-tag", head + "event { name = e; fields := struct { enum : u32 { A, B } t; variant <t> { u32 A; u32 B; } v; }; };\n", bytes.fromhex("0700000001000000"))
P
for h in deep-nesting huge-array huge-sequence sequence-of-empty unknown-type unterminated string-past-end bad-tag; do
    hostile $h
done
[ $fail -eq 0 ]
