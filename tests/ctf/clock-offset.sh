#!/bin/bash
# clock-offset.sh - a CTF clock whose offset puts the cycle values past what signed 64-bit ns
# from the clock's origin hold (offset_s past 2262, or just under it with the cycles pushing
# over).  babeltrace2 2.0.4 reads nothing ("Cannot convert clock cycles to nanoseconds from
# origin"); traceglot reads every event, its time counted from the clock's offset, says so in
# one warning and exits 0.  Expected: babeltrace2's text of the same trace with the offset
# taken out of the metadata (offset_s = 0, offset = 0): the events as they are.  The trace is
# make-threads.py's; babeltrace2 runs here (SKIP without it).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd babeltrace2
tg_need_cmd python3
export TZ=UTC
python3 "$TG_TESTS/ctf/make-threads.py" "$TG_TMP/t" || exit 1
kt=$TG_TMP/t/kernel-threads
clock='offset_s = 1700000000; offset = 0;'
grep -q "$clock" "$kt/metadata" || { tg_fail "make-threads.py" "its clock line changed"; tg_done; }

cp -r "$kt" "$TG_TMP/zero"
sed -i "s/$clock/offset_s = 0; offset = 0;/" "$TG_TMP/zero/metadata"
babeltrace2 "$TG_TMP/zero" >"$TG_TMP/want" 2>/dev/null || { tg_fail "babeltrace2 on the copy without offset" "failed"; tg_done; }

for off in "offset_s = 9223372037; offset = 0;" "offset_s = 9223372036; offset = 854775000;"; do
    rm -rf "$TG_TMP/over"
    cp -r "$kt" "$TG_TMP/over"
    sed -i "s/$clock/$off/" "$TG_TMP/over/metadata"
    babeltrace2 "$TG_TMP/over" >/dev/null 2>"$TG_TMP/bt-err"
    grep -q "Cannot convert clock cycles to nanoseconds from origin" "$TG_TMP/bt-err" &&
        tg_pass "$off: babeltrace2 stops" || tg_fail "$off" "babeltrace2 read it: the class is not shown"
    tg_check "$off: every event, from the offset" "$TG_TMP/want" "$TG" cat --style=babeltrace "$TG_TMP/over"
    n=$(grep -c "^traceglot: warning: .*clock 'monotonic': its offset .* times are counted from the clock's offset instead$" "$TG_TMP/err")
    [ "$n" = 1 ] && tg_pass "$off: said once" || tg_fail "$off" "$n warnings: $(cat "$TG_TMP/err")"
    tg_run "$TG" stats "$TG_TMP/over"
    [ "$(tail -n 1 "$TG_TMP/out")" = "total: 36 events, 3 lost" ] && tg_pass "$off: stats" ||
        tg_fail "$off: stats" "$(tail -n 1 "$TG_TMP/out")"
done
tg_done
