#!/bin/bash
# debuginfo.sh - `cat --style=babeltrace --debug-info` on the fixture of record-debuginfo.sh
# (LTTng-UST tracepoints of tg_fixture_app.c built with -g, the statedump, vpid/vtid/ip
# contexts; the binary committed under root/ at the path the trace names) must print what
# `babeltrace2 --debug-info --debug-info-target-prefix=root` printed: debug_info { bin, func,
# src } from the ELF symbols and DWARF (libdw) of the binary, "" for the machine's libraries
# (not under root/), with and without --debug-info-full-path.  Run from the fixture's
# folder, as it was recorded, so that the relative prefix and full paths agree.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
dir=${TG_TEST_DATA:-$here/../data}/ctf/debuginfo
[ -d "$dir/trace" ] || { echo "SKIP: no debug-info fixture ($dir)"; exit 77; }
cd "$dir" || exit 1
export TZ=UTC
out=$TG_TMP/out.tmp
fail=0
for v in "" full-path; do
    exp=debuginfo${v:+-$v}.babeltrace2.txt
    if "$TG" cat --style=babeltrace --debug-info ${v:+--debug-info-$v} \
        --debug-info-target-prefix=root trace > "$out" 2>&1 && cmp -s "$out" "$exp"; then
        echo "ok   $exp ($(grep -c 'func = "[^"]' "$exp") events with a function)"
    else
        echo "FAIL $exp"; diff "$exp" "$out" | head -6 | cut -c1-400; fail=1
    fi
done
# the binary's functions and lines are in the expected text (the fixture is not empty of them)
grep -q 'func = "worker+0x[0-9a-f]*", src = "tg_fixture_app.c:[0-9]*"' debuginfo.babeltrace2.txt ||
    { echo "FAIL: the fixture has no resolved worker function"; fail=1; }
exit $fail
