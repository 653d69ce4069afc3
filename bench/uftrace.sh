#!/bin/bash
# bench/uftrace.sh - traceglot vs uftrace on a large uftrace recording (~10 million records).
#
# Records bench/uftrace_bench.c once with `uftrace record` (cached in $TG_BENCH_OUT), then
# times `report` and `replay` of both tools, median of 3 runs each with the output sent to
# /dev/null (so the disk does not time itself), and checks in one more run that the two
# outputs are identical byte for byte.  Goals: report >= 20x, replay >= 10x.
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

bench() { # NAME SUBCOMMAND
    local name=$1 sub=$2 t1=() t2=() c1=() c2=() m1=0 m2=0
    for i in 1 2 3; do
        read -r s kb cpu < <(tg_timed /dev/null "$TG" "$sub" "$data")
        t1+=("$s"); c1+=("$cpu"); [ "$kb" -gt "$m1" ] && m1=$kb
        read -r s kb cpu < <(tg_timed /dev/null uftrace "$sub" -d "$data")
        t2+=("$s"); c2+=("$cpu"); [ "$kb" -gt "$m2" ] && m2=$kb
    done
    "$TG" "$sub" "$data" >"$out/tg.$sub.txt" 2>/dev/null
    uftrace "$sub" -d "$data" >"$out/uf.$sub.txt" 2>/dev/null
    local a b same
    a=$(tg_median "${t1[@]}")
    b=$(tg_median "${t2[@]}")
    local ca cb
    ca=$(tg_median "${c1[@]}")
    cb=$(tg_median "${c2[@]}")
    if cmp -s "$out/tg.$sub.txt" "$out/uf.$sub.txt"; then same="identical output"; else same="OUTPUTS DIFFER"; fi
    awk -v n="$name" -v a="$a" -v b="$b" -v m1="$m1" -v m2="$m2" -v s="$same" \
        -v ca="$ca" -v cb="$cb" 'BEGIN {
        r = (a > 0) ? b / a : 0;
        rc = (ca > 0) ? cb / ca : 0;
        printf "%s: traceglot %.3f s, uftrace %.3f s, ratio %.1fx (median of 3), peak RSS %.0f MB / %.0f MB, %s; cpu time %.2f s / %.2f s (%.1fx)\n",
               n, a, b, r, m1 / 1024, m2 / 1024, s, ca, cb, rc }'
    rm -f "$out/tg.$sub.txt" "$out/uf.$sub.txt"
}

echo "uftrace: $records records in $data"
bench "uftrace report" report
bench "uftrace replay" replay
