#!/bin/bash
# live-func.sh - a fresh LTTng-UST cyg-profile function trace of tg_fixture_app.c built with
# -finstrument-functions: traceglot must turn func_entry/func_exit into calls, resolve their
# addresses through the statedump's bin_info and the binary's ELF symbols (the binary still
# exists here), and report them (uftrace style) and convert them (Chrome JSON) with the
# right names and call counts.  SKIP (77) with the reason when the tools are missing.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lttng-daemon.sh"
work=$TG_TMP
tg_lttng_cyg_app "$work" app_cyg
tg_lttng_record tgfunc-$$ "$work/rec" 'lttng_ust_cyg_profile*,lttng_ust_statedump:*' vpid,vtid \
    env LD_PRELOAD="$cyg" "$work/app_cyg"
fail=0
"$TG" report "$work/rec" > "$work/report.txt" 2> "$work/err" || { echo "FAIL: report exit $?"; cat "$work/err"; fail=1; }
cat "$work/report.txt"
# 2 threads x 6 iterations: mid 12 calls, leaf 24 calls, worker 2, main 1
for want in "12  mid" "24  leaf" "2  worker" "1  main"; do
    n=${want%% *}; f=${want##* }
    grep -Eq "[[:space:]]$n[[:space:]]+$f\$" "$work/report.txt" ||
        { echo "FAIL: report lacks $f with $n calls"; fail=1; }
done
"$TG" convert --to chrome "$work/rec" > "$work/chrome.json" 2> "$work/err" ||
    { echo "FAIL: convert exit $?"; cat "$work/err"; fail=1; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
names = [e.get("name") for e in ev if e.get("ph") in ("B", "X")]
for f, n in (("mid", 12), ("leaf", 24)):
    if names.count(f) != n:
        print("FAIL: chrome json has %d %s calls, expected %d" % (names.count(f), f, n)); sys.exit(1)
print("chrome json: ok")' "$work/chrome.json" || fail=1
# the binary gone from its path: found by its build id under --debug-info-dir, as
# babeltrace2's debug-info filter finds it (DIR/.build-id/NN/REST.debug)
bid=$(readelf -n "$work/app_cyg" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -1)
if [ -n "$bid" ]; then
    mkdir -p "$work/dbg/.build-id/${bid:0:2}"
    mv "$work/app_cyg" "$work/dbg/.build-id/${bid:0:2}/${bid:2}.debug"
    "$TG" report "$work/rec" > "$work/report-raw.txt" 2>/dev/null
    "$TG" report --debug-info-dir "$work/dbg" "$work/rec" > "$work/report-dbg.txt" 2> "$work/err"
    if grep -Eq "[[:space:]]12[[:space:]]+mid\$" "$work/report-dbg.txt" &&
        ! grep -Eq "[[:space:]]mid\$" "$work/report-raw.txt"; then
        echo "ok   names by build id under --debug-info-dir"
    else
        echo "FAIL: --debug-info-dir did not name the functions"; cat "$work/report-dbg.txt"; fail=1
    fi
else
    echo "note: the binary has no build id; --debug-info-dir not checked"
fi
[ $fail -eq 0 ] && echo "ok   cyg-profile report and chrome conversion"
exit $fail
