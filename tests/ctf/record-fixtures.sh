#!/bin/bash
# record-fixtures.sh [OUTDIR] - records the project's own small CTF fixtures with the real
# tools: LTTng-UST 2.13 traces of tg_fixture_app.c (every field type LTTng-UST writes,
# tg_fixture_tp.h) and of the same program built with -finstrument-functions and traced with
# liblttng-ust-cyg-profile (function entry/exit, statedump bin_info), and one recorded with
# tracefile rotation (a stream split over several files), each with babeltrace2's
# outputs beside it (TZ=UTC): T.babeltrace2.txt and T.babeltrace2-seconds.txt.
# Default OUTDIR: tests/data/ctf (the committed fixtures).  Needs lttng, lttng-sessiond,
# babeltrace2, gcc and liblttng-ust-dev; exits 77 (SKIP) when one is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../data/ctf}
for tool in lttng lttng-sessiond babeltrace2 gcc; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
[ -f /usr/include/x86_64-linux-gnu/lttng/tracepoint.h ] || [ -f /usr/include/lttng/tracepoint.h ] ||
    { echo "SKIP: liblttng-ust-dev not installed"; exit 77; }
cyg=$(ls /usr/lib/*/liblttng-ust-cyg-profile.so.1 2>/dev/null | head -1)
work=$(mktemp -d /tmp/tg-ctf-rec.XXXXXX)
started=""
cleanup() {
    [ -n "$started" ] && kill "$started" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# our own session daemon (no kernel tracer needed), stopped at the end by its pid, or the
# one already running on the machine
. "$here/lttng-daemon.sh"
tg_lttng_daemon "$work" || { echo "SKIP: $tg_lttng_why"; exit 77; }
gcc -O1 -I"$here" -o "$work/app" "$here/tg_fixture_app.c" -llttng-ust -ldl -lpthread || { tg_lttng_lost; exit 1; }
gcc -O1 -g -finstrument-functions -I"$here" -o "$work/app_cyg" "$here/tg_fixture_app.c" \
    -llttng-ust -ldl -lpthread || { tg_lttng_lost; exit 1; }

# record NAME EVENTS CMD... : one per-uid LTTng-UST session; the trace ends in $outdir/NAME
record() {
    local name=$1 events=$2
    shift 2
    local sess=tgfx-$name-$$
    lttng create "$sess" --output="$work/$name" >/dev/null || return 1
    lttng enable-channel -u ch ${CHOPTS:---subbuf-size=16384 --num-subbuf=4} >/dev/null
    lttng enable-event -u -c ch "$events" >/dev/null
    lttng enable-event -u -c ch 'lttng_ust_statedump:*' >/dev/null
    lttng add-context -u -c ch -t vpid -t vtid -t procname >/dev/null
    lttng start >/dev/null
    LTTNG_UST_ALLOW_BLOCKING=1 "$@" >/dev/null
    lttng stop >/dev/null
    lttng destroy "$sess" >/dev/null
    local tdir
    tdir=$(dirname "$(find "$work/$name" -name metadata | head -1)")
    [ -d "$tdir" ] || { echo "no trace recorded for $name"; return 1; }
    rm -rf "${outdir:?}/$name"
    mkdir -p "$outdir/$name"
    cp "$tdir"/metadata "$tdir"/ch_* "$outdir/$name/"
    TZ=UTC babeltrace2 "$outdir/$name" > "$outdir/$name.babeltrace2.txt" 2>/dev/null
    TZ=UTC babeltrace2 --clock-seconds "$outdir/$name" > "$outdir/$name.babeltrace2-seconds.txt" 2>/dev/null
    echo "recorded $outdir/$name ($(wc -l < "$outdir/$name.babeltrace2.txt") events)"
}
mkdir -p "$outdir"
record types 'tg_fixture:*' "$work/app" || { tg_lttng_lost; exit 1; }
# tracefile rotation: small trace files, so a stream spans several (ch_N_0, ch_N_1, ...)
CHOPTS="--subbuf-size=4096 --num-subbuf=4 --tracefile-size=8192" \
    record rotation 'tg_fixture:*' "$work/app" 40 || { tg_lttng_lost; exit 1; }
if [ -n "$cyg" ]; then
    record cyg 'lttng_ust_cyg_profile*' env LD_PRELOAD="$cyg" "$work/app_cyg" || { tg_lttng_lost; exit 1; }
else
    echo "note: liblttng-ust-cyg-profile.so.1 not found, no function-trace fixture"
fi
