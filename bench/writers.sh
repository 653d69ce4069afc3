#!/bin/bash
# bench/writers.sh - the CTF and uftrace writers on the bench traces.
#
# - `traceglot convert --to ctf` of the CTF bench trace (bench/ctf.sh records it) against
#   `babeltrace2 IN -c sink.ctf.fs -p path=OUT`: wall time median of 3, peak RSS, and a check
#   that babeltrace2 prints the same for traceglot's output as for the input.  Goal >= 10x.
# - `traceglot convert --to uftrace` of the XRay bench log (bench/xray.sh records it): the
#   rate in records per second, and a check that `uftrace replay` reads the output.
# A missing input is made by running its own case first.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
base=${TG_BENCH_OUT:-$here/out}
out=$base/writers
mkdir -p "$out"
export TZ=UTC
secs() { # CMD... -> wall seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}
rss() { /usr/bin/time -f %M -o "$out/rss.txt" "$@" >/dev/null 2>&1; cat "$out/rss.txt"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

ctf=$base/ctf/trace
[ -f "$ctf/metadata" ] || bash "$here/ctf.sh" >/dev/null 2>&1
if [ ! -f "$ctf/metadata" ] || ! command -v babeltrace2 >/dev/null; then
    echo "writers: convert --to ctf SKIP (no CTF bench trace or no babeltrace2)"
else
    tg_ctf() { rm -rf "$out/tg.ctf"; "$TG" convert --to ctf -o "$out/tg.ctf" "$ctf"; }
    bt_ctf() { rm -rf "$out/bt.ctf"; babeltrace2 "$ctf" -c sink.ctf.fs -p "path=\"$out/bt.ctf\""; }
    t1=() t2=()
    for i in 1 2 3; do
        t1+=("$(secs tg_ctf)")
        t2+=("$(secs bt_ctf)")
    done
    rm -rf "$out/tg.ctf" "$out/bt.ctf"
    m1=$(rss "$TG" convert --to ctf -o "$out/tg.ctf" "$ctf")
    m2=$(rss babeltrace2 "$ctf" -c sink.ctf.fs -p "path=\"$out/bt.ctf\"")
    babeltrace2 "$ctf" > "$out/in.txt" 2>/dev/null
    babeltrace2 "$out/tg.ctf" > "$out/tg.txt" 2>/dev/null
    events=$(wc -l < "$out/in.txt")
    if cmp -s "$out/in.txt" "$out/tg.txt"; then same="babeltrace2 prints the same"; else same="BABELTRACE2 OUTPUTS DIFFER"; fi
    rm -rf "$out/in.txt" "$out/tg.txt" "$out/tg.ctf" "$out/bt.ctf"
    a=$(median3 "${t1[@]}")
    b=$(median3 "${t2[@]}")
    awk -v a="$a" -v b="$b" -v m1="$m1" -v m2="$m2" -v s="$same" -v n="$events" 'BEGIN {
        r = (a > 0) ? b / a : 0;
        printf "convert --to ctf (%d events): traceglot %.3f s, babeltrace2 sink.ctf.fs %.3f s, ratio %.1fx (median of 3), peak RSS %.1f MB / %.1f MB, %s\n",
               n, a, b, r, m1 / 1024, m2 / 1024, s }'
fi

xlog=$base/xray/fdr-bench.xray
xbin=$base/xray/xray_app
[ -f "$xlog" ] || bash "$here/xray.sh" >/dev/null 2>&1
if [ ! -f "$xlog" ]; then
    echo "writers: convert --to uftrace SKIP (no XRay bench log)"
else
    tg_uft() { rm -rf "$out/tg.uftrace"; "$TG" convert --to uftrace --instr-map "$xbin" -o "$out/tg.uftrace" "$xlog"; }
    t1=()
    for i in 1 2 3; do t1+=("$(secs tg_uft)"); done
    rm -rf "$out/tg.uftrace"
    m1=$(rss "$TG" convert --to uftrace --instr-map "$xbin" -o "$out/tg.uftrace" "$xlog")
    records=$("$TG" stats --instr-map "$xbin" "$xlog" 2>/dev/null | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
    if command -v uftrace >/dev/null && uftrace replay -d "$out/tg.uftrace" >/dev/null 2>&1; then ok="uftrace replays it"; else ok="UFTRACE CANNOT REPLAY IT"; fi
    rm -rf "$out/tg.uftrace"
    a=$(median3 "${t1[@]}")
    awk -v a="$a" -v n="$records" -v m1="$m1" -v s="$ok" 'BEGIN {
        printf "convert --to uftrace of the XRay bench log: %d records in %.3f s, %.1f M records/s (median of 3), peak RSS %.1f MB, %s\n",
               n, a, (a > 0) ? n / a / 1e6 : 0, m1 / 1024, s }'
fi
