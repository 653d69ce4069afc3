#!/bin/bash
# record-debuginfo.sh [OUTDIR] - records the debug-info fixture with the real tools: the
# tracepoints of tg_fixture_app.c built with -g (-O1), traced by LTTng-UST with the statedump
# (bin_info, build_id, debug_link) and the vpid, vtid and ip contexts that babeltrace2's
# debug-info filter needs.  The program runs from a fixed path (/tmp/tg-debuginfo-fixture), so
# the trace names it there; the binary is committed beside the trace under root/ at that path,
# and babeltrace2 reads it, run from OUTDIR/debuginfo, with --debug-info-target-prefix=root
# (also with --debug-info-full-path; the libraries of the
# machine, under no such prefix, resolve to nothing, so the text does not depend on them).
# Writes OUTDIR/debuginfo/{trace/,root/...,debuginfo.babeltrace2.txt}; default OUTDIR
# tests/data/ctf.  Needs lttng, lttng-sessiond, babeltrace2, gcc and liblttng-ust-dev.
set -u
here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../data/ctf}/debuginfo
for tool in lttng lttng-sessiond babeltrace2 gcc; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
bindir=/tmp/tg-debuginfo-fixture
[ -e "$bindir" ] && { echo "$bindir exists: remove it first"; exit 1; }
work=$(mktemp -d /tmp/tg-ctf-dbgrec.XXXXXX)
started=""
cleanup() {
    [ -n "$started" ] && kill "$started" 2>/dev/null
    rm -rf "$work" "$bindir"
}
trap cleanup EXIT
. "$here/lttng-daemon.sh"
tg_lttng_daemon "$work" || { echo "SKIP: $tg_lttng_why"; exit 77; }
mkdir -p "$bindir"
gcc -O1 -g -I"$here" -o "$bindir/app_dbg" "$here/tg_fixture_app.c" -llttng-ust -ldl -lpthread ||
    exit 1
s=tgdbg-$$
lttng create $s --output="$work/rec" >/dev/null || { tg_lttng_lost; exit 1; }
lttng enable-channel -u ch --subbuf-size=16384 --num-subbuf=4 >/dev/null
lttng enable-event -u -c ch 'tg_fixture:*' >/dev/null
lttng enable-event -u -c ch 'lttng_ust_statedump:*' >/dev/null
lttng add-context -u -c ch -t vpid -t vtid -t ip >/dev/null
lttng start >/dev/null
LTTNG_UST_ALLOW_BLOCKING=1 "$bindir/app_dbg" 2 >/dev/null
lttng stop >/dev/null
lttng destroy $s >/dev/null
tdir=$(dirname "$(find "$work/rec" -name metadata | head -1)")
[ -d "$tdir" ] || { tg_lttng_lost; echo "no trace recorded"; exit 1; }
rm -rf "$outdir"
mkdir -p "$outdir/trace" "$outdir/root$bindir"
cp "$tdir"/metadata "$tdir"/ch_* "$outdir/trace/"
cp "$bindir/app_dbg" "$outdir/root$bindir/"
# from OUTDIR with a relative prefix, so that full paths do not name this checkout
cd "$outdir" || exit 1
TZ=UTC babeltrace2 --debug-info --debug-info-target-prefix=root trace \
    > debuginfo.babeltrace2.txt 2>/dev/null
TZ=UTC babeltrace2 --debug-info --debug-info-full-path --debug-info-target-prefix=root trace \
    > debuginfo-full-path.babeltrace2.txt 2>/dev/null
echo "recorded $outdir ($(wc -l < "$outdir/debuginfo.babeltrace2.txt") events)"
