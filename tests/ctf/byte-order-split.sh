#!/bin/bash
# byte-order-split.sh - a field whose byte order differs from the last one read, right after
# an array, a sequence or a variant (make-byte-order-split.py: valid records, then one whose
# field starts inside the byte the array's last element, the sequence's last element or the
# variant's chosen option ended), against babeltrace2 run here: it prints the records before
# that one, in its text and details sinks, then stops ("two different byte orders not at a
# byte boundary", exit 1).  traceglot prints the same bytes in both styles, stops on the
# same record with an error naming the file, offset, event and field, and exits 1.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd babeltrace2
export TZ=UTC
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$TG_TESTS/ctf/make-byte-order-split.py" "$TG_TMP/t" || exit 1
for t in "$TG_TMP"/t/*; do
    name=$(basename "$t")
    for sink in text details; do
        if [ $sink = text ]; then
            bt=(babeltrace2 "$t") tg=(cat --style=babeltrace "$t")
        else
            bt=(babeltrace2 -c sink.text.details "$t") tg=(cat --style=babeltrace-details "$t")
        fi
        "${bt[@]}" > "$TG_TMP/bt" 2> "$TG_TMP/bt-err"
        rc=$?
        if [ $rc = 0 ] || ! grep -q "two different byte orders not at a byte boundary" "$TG_TMP/bt-err"; then
            tg_fail "$name $sink: babeltrace2" "no longer stops there (exit $rc): revise this test"
            continue
        fi
        tg_check_status "$name $sink: exit 1" 1 "$TG" "${tg[@]}"
        tg_same "$name $sink: the records before it ($(grep -c . "$TG_TMP/bt") lines)" \
            "$TG_TMP/bt" "$TG_TMP/out"
    done
    grep -q "chan_0: offset 0x[0-9a-f]*: packet [0-9]*: event '[a-z_]*': payload: field '[a-z]*': .*two different byte orders not at a byte boundary" "$TG_TMP/err" &&
        tg_pass "$name: the error names the file, offset, event and field" ||
        tg_fail "$name: error" "$(cat "$TG_TMP/err")"
done
tg_done
