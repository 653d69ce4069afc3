#!/bin/bash
# byte-order.sh - byte order per stream class and per field (make-byte-order.py: a big-endian
# trace, its packetized metadata in be, a kernel stream class in the trace's order whose events
# mix le, be, network and native fields and bit fields, and a stream class whose every type
# says le) against babeltrace2 run here:
# - byte-order: `cat --style=babeltrace` prints babeltrace2's text, the native style every
#   event; (--cpu/--tid on it: cpu-tid.sh, against the text record-handmade.sh kept)
# - byte-order-mid-byte: a be bit field followed by an le one inside the same byte, which no
#   layout defines: babeltrace2 prints the events before it, then stops with an error
#   ("Cannot read bit array: two different byte orders not at a byte boundary") and exit 1.
#   traceglot prints the same events and stops on that field with an error in the same
#   words, naming the file, offset, packet, event and field, and exits 1.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd babeltrace2
tg_need_cmd python3
export TZ=UTC
python3 "$TG_TESTS/ctf/make-byte-order.py" "$TG_TMP/t" &&
    python3 "$TG_TESTS/ctf/make-byte-order.py" --mid-byte "$TG_TMP/t" || exit 1
t=$TG_TMP/t/byte-order
babeltrace2 "$t" >"$TG_TMP/bt" 2>/dev/null || tg_fail byte-order "babeltrace2 failed"
tg_check "byte-order: babeltrace style ($(wc -l <"$TG_TMP/bt") events)" "$TG_TMP/bt" \
    "$TG" cat --style=babeltrace "$t"
n=$("$TG" cat "$t" | wc -l)
[ "$n" = "$(wc -l <"$TG_TMP/bt")" ] && tg_pass "byte-order: native style, $n events" ||
    tg_fail "byte-order: native style" "$n events, babeltrace2 prints $(wc -l <"$TG_TMP/bt")"

t=$TG_TMP/t/byte-order-mid-byte
babeltrace2 "$t" >"$TG_TMP/bt" 2>"$TG_TMP/bt-err"
rc=$?
[ $rc -ne 0 ] && grep -q "two different byte orders not at a byte boundary" "$TG_TMP/bt-err" &&
    tg_pass "mid-byte: babeltrace2 stops (exit $rc) after $(wc -l <"$TG_TMP/bt") events" ||
    tg_fail "mid-byte" "babeltrace2 no longer stops on it (exit $rc): revise this test"
tg_check_status "mid-byte: exit 1" 1 "$TG" cat --style=babeltrace "$t"
tg_same "mid-byte: the events before the field" "$TG_TMP/bt" "$TG_TMP/out"
grep -q "kernel_0: offset 0x[0-9a-f]*: packet [0-9]*: event 'bitfields': payload: field 'b5': .*two different byte orders not at a byte boundary" "$TG_TMP/err" &&
    tg_pass "mid-byte: the error names the file, offset, event and field" ||
    tg_fail "mid-byte: error" "$(cat "$TG_TMP/err")"
tg_check_status "mid-byte: native style, exit 1" 1 "$TG" cat "$t"
[ "$(wc -l <"$TG_TMP/out")" = "$(wc -l <"$TG_TMP/bt")" ] &&
    tg_pass "mid-byte: native style, the events before the field" ||
    tg_fail "mid-byte: native style" "$(wc -l <"$TG_TMP/out") events printed"
tg_done
