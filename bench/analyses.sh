#!/bin/bash
# bench/analyses.sh - `traceglot analyze cputop` and `analyze schedstats` vs lttng-cputop and
# lttng-schedstats (python3-lttnganalyses 0.6.1) on the corpus' LTTng kernel trace
# many-threads (240,644 events, 8 CPUs).
#
# lttng-analyses reads the tracer's version from a folder named `kernel`, so the trace is
# copied once to $TG_BENCH_OUT/analyses/kernel (the corpus itself is never written).  Both
# tools run with LC_ALL=C.UTF-8 and --gmt in alternating whole runs (timing.sh's tg_pairs,
# $TG_BENCH_PAIRS pairs: lttng-cputop takes tens of seconds a run, so 3 are plenty), the
# outputs checked identical.  Goal: >= 50x faster.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TG=${TG:?}
corpus=${TG_CORPUS:-$root/../shared/corpus}/ctf-kernel/many-threads
out=${TG_BENCH_OUT:-$here/out}/analyses
for tool in lttng-cputop lttng-schedstats babeltrace; do
    command -v "$tool" >/dev/null || { echo "analyses: SKIP ($tool is not installed)"; exit 0; }
done
[ -d "$corpus" ] || { echo "analyses: SKIP (no corpus trace $corpus)"; exit 0; }
if [ ! -f "$out/kernel/metadata" ]; then
    mkdir -p "$out/kernel"
    cp -r "$corpus"/. "$out/kernel/" || { echo "analyses: SKIP (cannot copy the trace)"; exit 0; }
fi
export LC_ALL=C.UTF-8 TZ=UTC
. "$here/timing.sh"
TG_BENCH_PAIRS=${TG_BENCH_PAIRS:-3}
for name in cputop schedstats; do
    tg_pairs "lttng-$name" --goal 50 :: traceglot "$TG" analyze "$name" --gmt "$out/kernel" :: \
        "lttng-$name" "lttng-$name" --no-color --no-progress --skip-validation --gmt "$out/kernel"
done
