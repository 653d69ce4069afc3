#!/bin/bash
# bench/viewers.sh - the viewer conversions on the large uftrace recording of
# bench/uftrace.sh (run that case first: it records $TG_BENCH_OUT/uftrace-fib.data).
#
# Times `convert --to chrome` and `--to perfetto` (median of 3, output written to files in
# $TG_BENCH_OUT so that sizes can be compared), then the flame graph outputs once each.
# Goals (issue 10): the Perfetto file at most a quarter of the Chrome JSON, at most 100 MB
# peak RSS, faster than the Chrome conversion.
set -u
TG=${TG:?}
out=${TG_BENCH_OUT:-$(cd "$(dirname "$0")" && pwd)/out}
data=$out/uftrace-fib.data
command -v /usr/bin/time >/dev/null || { echo "viewers: SKIP (/usr/bin/time is not installed)"; exit 0; }
[ -f "$data/info" ] || { echo "viewers: SKIP ($data not recorded: run bench/uftrace.sh first)"; exit 0; }

. "$(cd "$(dirname "$0")" && pwd)/timing.sh"
# timed OUTFILE ARGS... -> "seconds maxrss_kb cpu_seconds" of traceglot convert ARGS -o OUTFILE
timed() {
    local o=$1
    shift
    tg_timed /dev/null "$TG" convert "$@" -o "$o" "$data"
}

declare -A secs rss size
for to in chrome perfetto; do
    t=() m=0
    for i in 1 2 3; do
        read -r s kb _ < <(timed "$out/viewers.$to" --to $to)
        t+=("$s")
        [ "$kb" -gt "$m" ] && m=$kb
    done
    secs[$to]=$(tg_median "${t[@]}")
    rss[$to]=$m
    size[$to]=$(stat -c %s "$out/viewers.$to")
done
awk -v cs="${secs[chrome]}" -v ps="${secs[perfetto]}" -v cm="${rss[chrome]}" -v pm="${rss[perfetto]}" \
    -v cz="${size[chrome]}" -v pz="${size[perfetto]}" 'BEGIN {
    printf "viewers perfetto vs chrome: %.3f s / %.3f s (%.2fx faster, median of 3), size %.1f MB / %.1f MB (%.3f of the JSON), peak RSS %.0f MB / %.0f MB\n",
           ps, cs, (ps > 0 ? cs / ps : 0), pz / 1e6, cz / 1e6, (cz > 0 ? pz / cz : 0), pm / 1024, cm / 1024 }'
for to in folded speedscope svg; do
    read -r s kb _ < <(timed "$out/viewers.$to" --to $to)
    printf "viewers %s: %.3f s, %.1f MB, peak RSS %.0f MB\n" "$to" "$s" \
        "$(stat -c %s "$out/viewers.$to" | awk '{ print $1 / 1e6 }')" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')"
done
rm -f "$out"/viewers.*
