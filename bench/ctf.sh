#!/bin/bash
# bench/ctf.sh - `traceglot cat --style=babeltrace` vs `babeltrace2` on an LTTng-UST trace of
# about a million events.
#
# Records tests/ctf/tg_fixture_app.c (2 threads, 3 tracepoints per iteration: integers,
# floats and strings, arrays/sequences/text/enum) once with a blocking per-uid channel so no
# event is discarded (cached in $TG_BENCH_OUT/ctf), then times both tools on it: wall time
# median of 3, peak RSS (/usr/bin/time %M), and checks that the outputs are identical
# (TZ=UTC for both).  Goal: >= 10x faster.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}/ctf
for tool in lttng lttng-sessiond babeltrace2 gcc /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "ctf: SKIP ($tool is not installed)"; exit 0; }
done
export TZ=UTC
trace=$out/trace
if [ ! -f "$trace/metadata" ]; then
    mkdir -p "$out"
    work=$(mktemp -d /tmp/tg-ctf-bench.XXXXXX)
    export LTTNG_HOME=$work/home
    mkdir -p "$LTTNG_HOME"
    lttng-sessiond --daemonize --no-kernel --pidfile "$work/pid" >/dev/null 2>&1 ||
        { echo "ctf: SKIP (lttng-sessiond does not start)"; rm -rf "$work"; exit 0; }
    gcc -O2 -I"$root/tests/ctf" -o "$work/app" "$root/tests/ctf/tg_fixture_app.c" \
        -llttng-ust -ldl -lpthread || { echo "ctf: SKIP (build failed)"; exit 0; }
    s=tgbench-$$
    lttng create $s --output="$work/rec" >/dev/null
    lttng enable-channel -u ch --subbuf-size=4M --num-subbuf=8 --blocking-timeout=inf >/dev/null
    lttng enable-event -u -c ch 'tg_fixture:*' >/dev/null
    lttng add-context -u -c ch -t vpid -t vtid -t procname >/dev/null
    lttng start >/dev/null
    LTTNG_UST_ALLOW_BLOCKING=1 "$work/app" 170000 >/dev/null
    lttng stop >/dev/null
    lttng destroy $s >/dev/null
    kill "$(cat "$work/pid")" 2>/dev/null
    tdir=$(dirname "$(find "$work/rec" -name metadata | head -1)")
    rm -rf "$trace"
    mkdir -p "$trace"
    cp "$tdir"/metadata "$tdir"/ch_* "$trace/"
    rm -rf "$work"
fi

. "$here/timing.sh"

t1=() t2=()
for i in 1 2 3; do
    t1+=("$(tg_secs "$TG" cat --style=babeltrace "$trace")")
    t2+=("$(tg_secs babeltrace2 "$trace")")
done
m1=$(tg_rss "$TG" cat --style=babeltrace "$trace")
m2=$(tg_rss babeltrace2 "$trace")
"$TG" cat --style=babeltrace "$trace" > "$out/tg.txt" 2>/dev/null
babeltrace2 "$trace" > "$out/bt.txt" 2>/dev/null
events=$(wc -l < "$out/bt.txt")
if cmp -s "$out/tg.txt" "$out/bt.txt"; then same="identical output"; else same="OUTPUTS DIFFER"; fi
rm -f "$out/tg.txt" "$out/bt.txt"
a=$(tg_median "${t1[@]}")
b=$(tg_median "${t2[@]}")
echo "ctf: $events events in $trace"
awk -v a="$a" -v b="$b" -v m1="$m1" -v m2="$m2" -v s="$same" 'BEGIN {
    r = (a > 0) ? b / a : 0;
    printf "ctf cat --style=babeltrace: traceglot %.3f s, babeltrace2 %.3f s, ratio %.1fx (median of 3), peak RSS %.1f MB / %.1f MB, %s\n",
           a, b, r, m1 / 1024, m2 / 1024, s }'
