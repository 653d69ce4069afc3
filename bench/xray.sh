#!/bin/bash
# bench/xray.sh - traceglot vs llvm-xray account on a large FDR log (~1.1 million records).
#
# Builds tests/xray/xray_app.cpp with clang-14 -fxray-instrument and records it once in FDR
# mode, single-threaded, with buffers big enough to keep every record (cached in
# $TG_BENCH_OUT/xray), then times `traceglot report --style=xray` against `llvm-xray account
# -keep-going` on the same log and binary: wall time median of 3 (millisecond clock), peak
# RSS of each (/usr/bin/time %M), and a check that the two outputs are identical; then the
# same for `traceglot cat --style=xray-yaml` against `llvm-xray convert -output-format=yaml
# -symbolize` (160 MB of text).  Goal for the report: >= 50x faster, far less memory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}/xray
for tool in clang++-14 llvm-xray /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "xray: SKIP ($tool is not installed)"; exit 0; }
done
mkdir -p "$out"
log=$out/fdr-bench.xray
bin=$out/xray_app
if [ ! -f "$log" ] || [ ! -x "$bin" ]; then
    bash "$root/tests/xray/build-app.sh" "$out" >/dev/null || { echo "xray: SKIP (build failed)"; exit 0; }
    rm -f "$out"/fdr-xray_app.*
    (cd "$out" && XRAY_APP_FDR_OPTIONS="buffer_size=1048576 buffer_max=32" \
        XRAY_OPTIONS="xray_logfile_base=$out/fdr-" ./xray_app fdr 40000 single 2>/dev/null) ||
        { echo "xray: SKIP (recording failed)"; exit 0; }
    mv "$out"/fdr-xray_app.* "$log"
fi
records=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
off, n = 32, 0
while off < len(d):
    if d[off] & 1:
        k = d[off] >> 1
        off += 16 + (int.from_bytes(d[off+1:off+5], "little", signed=True) if k in (5, 8) else 0)
    else:
        n += 1; off += 8
print(n)' "$log" 2>/dev/null || echo "?")

. "$here/timing.sh"

# case NAME "traceglot args" "llvm-xray args"
run_case() {
    local name=$1
    local -a tg lx
    read -r -a tg <<< "$2"
    read -r -a lx <<< "$3"
    local t1=() t2=() m1 m2 a b same
    for i in 1 2 3; do
        t1+=("$(tg_secs "$TG" "${tg[@]}")")
        t2+=("$(tg_secs llvm-xray "${lx[@]}")")
    done
    m1=$(tg_rss "$TG" "${tg[@]}")
    m2=$(tg_rss llvm-xray "${lx[@]}")
    "$TG" "${tg[@]}" > "$out/tg.txt" 2>/dev/null
    llvm-xray "${lx[@]}" > "$out/lx.txt" 2>/dev/null
    if cmp -s "$out/tg.txt" "$out/lx.txt"; then same="identical output"; else same="OUTPUTS DIFFER"; fi
    a=$(tg_median "${t1[@]}")
    b=$(tg_median "${t2[@]}")
    rm -f "$out/tg.txt" "$out/lx.txt"
    awk -v n="$name" -v a="$a" -v b="$b" -v m1="$m1" -v m2="$m2" -v s="$same" 'BEGIN {
        r = (a > 0) ? b / a : 0;
        printf "%s: traceglot %.3f s, llvm-xray %.3f s, ratio %.1fx (median of 3), peak RSS %.1f MB / %.1f MB, %s\n",
               n, a, b, r, m1 / 1024, m2 / 1024, s }'
}

echo "xray: $records function records in $log"
run_case "xray account" "report --style=xray --instr-map $bin $log" \
    "account -keep-going -instr_map=$bin $log"
run_case "xray yaml" "cat --style=xray-yaml --instr-map $bin $log" \
    "convert -output-format=yaml -symbolize -instr_map=$bin $log"
