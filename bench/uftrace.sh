#!/bin/bash
# bench/uftrace.sh - traceglot vs uftrace on a large uftrace recording (~10 million records).
#
# Records bench/uftrace_bench.c once with `uftrace record` (cached in $TG_BENCH_OUT), then
# times `replay` and `report` of both tools in alternating pairs (timing.sh's tg_pairs: the
# medians of wall, user and system time, minor faults, peak RSS, the ratio, and whether the
# two outputs are identical byte for byte).  Goals: replay >= 15x, report >= 20x.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}
data=$out/uftrace-fib.data
for tool in uftrace gcc /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "uftrace: SKIP ($tool is not installed)"; exit 0; }
done
mkdir -p "$out"
if [ ! -f "$data/info" ]; then
    gcc -O1 -pg -o "$out/uftrace-fib" "$here/uftrace_bench.c" -lpthread
    rm -rf "$data"
    (cd "$out" && uftrace record -d "$data" ./uftrace-fib >/dev/null) ||
        { echo "uftrace: SKIP (uftrace record failed)"; exit 0; }
fi
records=$(( $(cat "$data"/[0-9]*.dat | wc -c) / 16 ))

. "$here/timing.sh"

# the goals (issue 24): replay >= 15x, report >= 20x
echo "uftrace: $records records in $data"
tg_pairs "uftrace replay" --goal 15 :: traceglot "$TG" replay "$data" :: uftrace uftrace replay -d "$data"
tg_pairs "uftrace report" --goal 20 :: traceglot "$TG" report "$data" :: uftrace uftrace report -d "$data"
