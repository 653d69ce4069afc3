#!/bin/bash
# live-debuginfo.sh - a fresh LTTng-UST recording of tg_fixture_app.c built with -g and
# -finstrument-functions (tracepoints and cyg-profile entry/exit, the statedump, vpid/vtid/ip
# contexts), printed by `babeltrace2 --debug-info` and `traceglot cat --style=babeltrace
# --debug-info`: the two texts must be equal, with the binaries at their paths (the
# machine's libraries resolve too), with --debug-info-full-path, and once more after the
# binary's DWARF moved out to DIR/.build-id/NN/REST.debug (strip --strip-debug), read with
# --debug-info-dir DIR.  SKIP (77) with the reason when a tool is missing.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lttng-daemon.sh"
work=$TG_TMP
tg_lttng_cyg_app "$work" app_dbg babeltrace2 objcopy strip
tg_lttng_record tgdbgi-$$ "$work/rec" \
    'tg_fixture:*,lttng_ust_cyg_profile*,lttng_ust_statedump:*,lttng_ust_lib:*' vpid,vtid,ip \
    env LD_PRELOAD="$cyg" "$work/app_dbg" 2
export TZ=UTC
fail=0
compare() { # name options...
    local name=$1
    shift
    babeltrace2 --debug-info "$@" "$work/rec" > "$work/bt.txt" 2>/dev/null
    "$TG" cat --style=babeltrace --debug-info "$@" "$work/rec" > "$work/tg.txt" 2> "$work/err"
    if [ -s "$work/bt.txt" ] && cmp -s "$work/bt.txt" "$work/tg.txt"; then
        echo "ok   $name ($(wc -l < "$work/bt.txt") events, $(grep -c 'func = "[^"]' "$work/bt.txt") with a function, $(grep -c 'src = "[^"]' "$work/bt.txt") with a source line)"
    else
        echo "FAIL $name"; diff "$work/bt.txt" "$work/tg.txt" | head -6 | cut -c1-400; head -3 "$work/err"
        fail=1
    fi
}
compare "binaries at their paths"
compare "full paths" --debug-info-full-path
bid=$(readelf -n "$work/app_dbg" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -1)
if [ -n "$bid" ]; then
    mkdir -p "$work/dbg/.build-id/${bid:0:2}"
    objcopy --only-keep-debug "$work/app_dbg" "$work/dbg/.build-id/${bid:0:2}/${bid:2}.debug"
    strip --strip-debug "$work/app_dbg"
    compare "DWARF by build id under --debug-info-dir" --debug-info-dir "$work/dbg"
    compare "stripped, no debug dir (ELF symbols only)"
fi
exit $fail
