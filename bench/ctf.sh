#!/bin/bash
# bench/ctf.sh - `traceglot cat --style=babeltrace` vs `babeltrace2` on an LTTng-UST trace of
# about a million events.
#
# Records tests/ctf/tg_fixture_app.c (2 threads, 3 tracepoints per iteration: integers,
# floats and strings, arrays/sequences/text/enum) once with a blocking per-uid channel so no
# event is discarded (cached in $TG_BENCH_OUT/ctf), then times both tools on it in
# alternating pairs (timing.sh's tg_pairs), checking that the outputs are identical (TZ=UTC
# for both).  Goal: >= 10x faster.
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

events=$("$TG" cat --style=babeltrace "$trace" 2>/dev/null | wc -l)
echo "ctf: $events events in $trace"
tg_pairs "babeltrace2 text" --goal 10 :: traceglot "$TG" cat --style=babeltrace "$trace" :: \
    babeltrace2 babeltrace2 "$trace"
