#!/bin/bash
# bench/uftrace.sh - traceglot vs uftrace on two large uftrace recordings of different shapes
# (~10 million records each).
#
# Records each workload once with `uftrace record` (cached in $TG_BENCH_OUT): uftrace_bench.c
# (one recursive function, fib, in two threads: uftrace-fib.data) and uftrace_mix.c (four
# threads, twenty functions of shallow and deep stacks, library calls through qsort and libc:
# uftrace-mix.data); then times `replay` and `report` of both tools on each in alternating
# pairs (timing.sh's tg_pairs: the medians of wall, user and system time, minor faults, peak
# RSS, the ratio, and whether the two outputs are identical byte for byte).
# Goals: replay >= 15x, report >= 20x (issue 35 asks 20x and 30x on both recordings).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}
for tool in uftrace gcc /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "uftrace: SKIP ($tool is not installed)"; exit 0; }
done
mkdir -p "$out"

# record NAME SOURCE -> $out/NAME.data, once
record() {
    local name=$1 src=$2 data=$out/$1.data
    [ -f "$data/info" ] && return 0
    gcc -O1 -pg -o "$out/$name" "$here/$src" -lpthread || return 1
    rm -rf "$data"
    (cd "$out" && uftrace record -d "$data" "./$name" >/dev/null)
}

. "$here/timing.sh"

for w in uftrace-fib:uftrace_bench.c uftrace-mix:uftrace_mix.c; do
    name=${w%%:*}
    data=$out/$name.data
    record "$name" "${w#*:}" || { echo "uftrace: SKIP $name (uftrace record failed)"; continue; }
    records=$(( $(cat "$data"/[0-9]*.dat | wc -c) / 16 ))
    # the first recording keeps its case names (earlier results compare with them)
    label=
    [ "$name" = uftrace-fib ] || label=" (${name#uftrace-})"
    echo "uftrace: $records records in $data"
    tg_pairs "uftrace replay$label" --goal 15 :: traceglot "$TG" replay "$data" :: uftrace uftrace replay -d "$data"
    tg_pairs "uftrace report$label" --goal 20 :: traceglot "$TG" report "$data" :: uftrace uftrace report -d "$data"
done
