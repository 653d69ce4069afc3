#!/bin/bash
# cut-packet.sh - a CTF stream file that ends inside a packet (a crashed or still-copying
# LTTng session) loses only that packet: every complete packet of that stream, of the other
# streams and of the stream's later files (tracefile rotation) is read, the cut packet is
# reported with its file and offset, and the exit status is 1.  babeltrace2 prints nothing
# for such a trace, so the expected text is babeltrace2's on a copy cut where the damaged
# packet begins (the events as they are); babeltrace2 runs here (SKIP without it).
# Traces: make-threads.py's kernel trace (two cpus, three 512-byte packets each), cut in
# every packet, inside the packet header too; the rotation fixture (record-fixtures.sh),
# whose first file of a stream is cut in its last packet.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd babeltrace2
tg_need_cmd python3
export TZ=UTC
python3 "$TG_TESTS/ctf/make-threads.py" "$TG_TMP/t" || exit 1

# cut NAME TRACE FILE SIZE PACKET_START: FILE of a copy of TRACE cut to SIZE bytes
cut_check() {
    local name=$1 trace=$2 file=$3 size=$4 start=$5
    rm -rf "$TG_TMP/cut" "$TG_TMP/whole"
    cp -r "$trace" "$TG_TMP/cut"
    cp -r "$trace" "$TG_TMP/whole"
    truncate -s "$size" "$TG_TMP/cut/$file"
    if [ "$start" -gt 0 ]; then
        truncate -s "$start" "$TG_TMP/whole/$file"
    else
        rm "$TG_TMP/whole/$file"
    fi
    babeltrace2 "$TG_TMP/whole" >"$TG_TMP/want" 2>/dev/null ||
        { tg_fail "$name" "babeltrace2 failed on the copy cut at the packet's start"; return; }
    tg_run "$TG" cat --style=babeltrace "$TG_TMP/cut"
    local rc=$?
    if [ "$rc" != 1 ]; then
        tg_fail "$name" "exit status $rc, expected 1"
        return
    fi
    tg_same "$name: $(wc -l <"$TG_TMP/want") events" "$TG_TMP/want" "$TG_TMP/out"
    # the error names the file and an offset inside the cut packet (the packet's start, or
    # the header field the file ends in)
    local at
    at=$(sed -n "s|^traceglot: error: $TG_TMP/cut/$file: offset 0x\([0-9a-f]*\): .*|\1|p" "$TG_TMP/err" | head -1)
    if [ -n "$at" ] && [ $((0x$at)) -ge "$start" ] && [ $((0x$at)) -le "$size" ]; then
        tg_pass "$name: reported at $file 0x$at"
    else
        tg_fail "$name" "no error inside the packet at $start: $(cat "$TG_TMP/err")"
    fi
}

kt=$TG_TMP/t/kernel-threads
for f in channel0_0 channel0_1; do
    for cut in 100 520 700 1030 1500; do
        cut_check "kernel-threads $f cut to $cut" "$kt" "$f" "$cut" $((cut / 512 * 512))
    done
done

rot=$TG_TEST_DATA/ctf/rotation
if [ -f "$rot/ch_1_0" ] && [ -f "$rot/ch_1_1" ]; then
    size=$(stat -c %s "$rot/ch_1_0")
    cut_check "rotation ch_1_0 cut in its last packet" "$rot" ch_1_0 $((size - 100)) $((size - 4096))
fi
tg_done
