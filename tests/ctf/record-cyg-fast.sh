#!/bin/bash
# record-cyg-fast.sh [OUTDIR] - records the project's LTTng-UST cyg_profile_fast fixture with
# the real tools: tg_fixture_app.c built with -finstrument-functions, traced with
# liblttng-ust-cyg-profile-fast (whose func_exit carries no address: an exit ends the top
# frame of its thread), with the statedump (bin_info) and the vpid/vtid/procname contexts,
# in a session daemon of its own (tests/ctf/lttng-daemon.sh; stopped by its pid at the end).
# Kept in OUTDIR (default tests/data/ctf):
#   cyg-fast/                     the trace (metadata and stream files)
#   cyg-fast.babeltrace2.txt      babeltrace2's text of it (TZ=UTC), and
#   cyg-fast.babeltrace2-seconds.txt  with --clock-seconds (golden-fixtures.sh reads both)
#   cyg-fast.debug/.build-id/NN/REST.debug
#                                 the traced program, found by its build id with
#                                 --debug-info-dir (the path the statedump names is gone)
# Needs lttng, lttng-sessiond, babeltrace2, gcc, liblttng-ust-dev; exits 77 (SKIP) without.
set -u
here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../data/ctf}
for tool in lttng lttng-sessiond babeltrace2 gcc readelf; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
fast=$(ls /usr/lib/*/liblttng-ust-cyg-profile-fast.so.1 2>/dev/null | head -1)
[ -n "$fast" ] || { echo "SKIP: liblttng-ust-cyg-profile-fast.so.1 not installed"; exit 77; }
work=$(mktemp -d /tmp/tg-cygfast-rec.XXXXXX)
started=""
cleanup() {
    [ -n "$started" ] && kill "$started" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
. "$here/lttng-daemon.sh"
tg_lttng_daemon "$work" || { echo "SKIP: $tg_lttng_why"; exit 77; }
gcc -O1 -finstrument-functions -Wl,--build-id -I"$here" -o "$work/app_fast" \
    "$here/tg_fixture_app.c" -llttng-ust -ldl -lpthread || exit 1
sess=tgfx-cygfast-$$
lttng create "$sess" --output="$work/rec" >/dev/null || { tg_lttng_lost; exit 1; }
lttng enable-channel -u ch --subbuf-size=65536 --num-subbuf=4 >/dev/null
lttng enable-event -u -c ch 'lttng_ust_cyg_profile_fast:*' >/dev/null
lttng enable-event -u -c ch 'lttng_ust_statedump:*' >/dev/null
lttng add-context -u -c ch -t vpid -t vtid -t procname >/dev/null
lttng start >/dev/null
LTTNG_UST_ALLOW_BLOCKING=1 LD_PRELOAD=$fast "$work/app_fast" 3 >/dev/null
lttng stop >/dev/null
lttng destroy "$sess" >/dev/null
tdir=$(dirname "$(find "$work/rec" -name metadata | head -1)")
[ -d "$tdir" ] || { tg_lttng_lost; echo "no trace recorded"; exit 1; }
rm -rf "${outdir:?}/cyg-fast" "${outdir:?}/cyg-fast.debug"
mkdir -p "$outdir/cyg-fast"
cp "$tdir"/metadata "$tdir"/ch_* "$outdir/cyg-fast/"
bid=$(readelf -n "$work/app_fast" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -1)
mkdir -p "$outdir/cyg-fast.debug/.build-id/${bid:0:2}"
cp "$work/app_fast" "$outdir/cyg-fast.debug/.build-id/${bid:0:2}/${bid:2}.debug"
TZ=UTC babeltrace2 "$outdir/cyg-fast" >"$outdir/cyg-fast.babeltrace2.txt" 2>/dev/null
TZ=UTC babeltrace2 --clock-seconds "$outdir/cyg-fast" >"$outdir/cyg-fast.babeltrace2-seconds.txt" 2>/dev/null
echo "recorded $outdir/cyg-fast ($(wc -l <"$outdir/cyg-fast.babeltrace2.txt") events)"
