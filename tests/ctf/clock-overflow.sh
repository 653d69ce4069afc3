#!/bin/bash
# clock-overflow.sh - a CTF 1.8 trace whose second event's time, in ns from the clock's
# origin, is past what a signed 64-bit integer holds (offset_s 1.7e9 plus a 63-bit clock
# value; fuzz_ctf2_meta found the CTF 2 form).  babeltrace2 prints the events before it and
# stops with an error ("overflows the signed 64-bit integer range"); traceglot must print the
# same text and exit non-zero with an error naming the clock value.  The trace is written
# here; babeltrace2 runs here too (SKIP without it).
. "$(dirname "$0")/../lib.sh"
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$TG_TMP
t=$work/overflow
mkdir -p "$t"
cat > "$t/metadata" <<'META'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = mono; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false; map = clock.mono.value; } := uint64_clock_t;
stream { event.header := struct { uint64_clock_t timestamp; }; };
event { name = "e"; fields := struct { uint8_t x; }; };
META
python3 -c "
import struct, sys
sys.stdout.buffer.write(struct.pack('<QB', 5, 1) + struct.pack('<QB', 7526649518413840483, 2) +
                        struct.pack('<QB', 7526649518413840490, 3))" > "$t/stream"
export TZ=UTC
babeltrace2 "$t" > "$work/bt" 2>/dev/null
bt_rc=$?
"$TG" cat --style=babeltrace "$t" > "$work/tg" 2> "$work/err"
tg_rc=$?
if [ $bt_rc -ne 0 ] && [ $tg_rc -ne 0 ] && cmp -s "$work/bt" "$work/tg" &&
    grep -q "clock value 7526649518413840483" "$work/err"; then
    echo "ok   $(wc -l < "$work/tg") event before the overflow, then: $(cat "$work/err")"
else
    echo "FAIL babeltrace2 exit $bt_rc, traceglot exit $tg_rc"; diff "$work/bt" "$work/tg"; cat "$work/err"
    exit 1
fi
