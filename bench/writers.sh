#!/bin/bash
# bench/writers.sh - the CTF and uftrace writers on the bench traces.
#
# - `traceglot convert --to ctf` of the CTF bench trace (bench/ctf.sh records it) against
#   `babeltrace2 IN -c sink.ctf.fs -p path=OUT` (the one peer that writes CTF): wall time,
#   median of 5, the ratio (goal >= 10x), peak RSS, and a check that babeltrace2 prints the
#   same for traceglot's output as for the input.
# - `convert --to ctf` of the uftrace, ftrace and XRay bench inputs, and `convert --to
#   uftrace` of the uftrace and XRay ones (no peer writes these): events per second, median
#   of 5, peak RSS, and a check that babeltrace2 / uftrace read the output.
# A missing input is made by running its own case first (bench/ctf.sh, uftrace.sh, ftrace.sh,
# xray.sh); $TG_BENCH_OUT holds them (default bench/out).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
base=${TG_BENCH_OUT:-$here/out}
out=$base/writers
mkdir -p "$out"
export TZ=UTC
. "$here/timing.sh"
runs=5
timed() { # CMD... (removes $out/o before each run) -> median wall seconds
    local t=() i
    for i in $(seq $runs); do
        rm -rf "$out/o"
        t+=("$(tg_secs "$@")")
    done
    tg_median "${t[@]}"
}
events() { "$TG" stats "$@" 2>/dev/null | sed -n 's/^total: \([0-9]*\) events.*/\1/p'; }

# ---- CTF -> CTF against babeltrace2 ------------------------------------------------------------
ctf=$base/ctf/trace
[ -f "$ctf/metadata" ] || bash "$here/ctf.sh" >/dev/null 2>&1
if [ ! -f "$ctf/metadata" ] || ! command -v babeltrace2 >/dev/null; then
    echo "writers: convert --to ctf SKIP (no CTF bench trace or no babeltrace2)"
else
    a=$(timed "$TG" convert --to ctf -o "$out/o" "$ctf")
    m1=$(tg_rss "$TG" convert --to ctf -o "$out/tg.ctf" "$ctf")
    b=$(timed babeltrace2 "$ctf" -c sink.ctf.fs -p "path=\"$out/o\"")
    rm -rf "$out/o"
    m2=$(tg_rss babeltrace2 "$ctf" -c sink.ctf.fs -p "path=\"$out/o\"")
    babeltrace2 "$ctf" > "$out/in.txt" 2>/dev/null
    babeltrace2 "$out/tg.ctf" > "$out/tg.txt" 2>/dev/null
    n=$(wc -l < "$out/in.txt")
    if cmp -s "$out/in.txt" "$out/tg.txt"; then same="babeltrace2 prints the same"; else same="BABELTRACE2 OUTPUTS DIFFER"; fi
    rm -rf "$out/in.txt" "$out/tg.txt" "$out/tg.ctf" "$out/o"
    awk -v a="$a" -v b="$b" -v m1="$m1" -v m2="$m2" -v s="$same" -v n="$n" 'BEGIN {
        printf "convert --to ctf of the CTF bench trace (%d events): traceglot %.3f s, babeltrace2 sink.ctf.fs %.3f s, ratio %.1fx (median of 5), peak RSS %.1f MB / %.1f MB, %s\n",
               n, a, b, (a > 0) ? b / a : 0, m1 / 1024, m2 / 1024, s }'
fi

# ---- other inputs: rates -------------------------------------------------------------------------
rate() { # label to reader-check input-args...
    local label=$1 to=$2 check=$3; shift 3
    local a m n ok
    a=$(timed "$TG" convert --to "$to" -o "$out/o" "$@")
    rm -rf "$out/o"
    m=$(tg_rss "$TG" convert --to "$to" -o "$out/o" "$@")
    n=$(events "$@")
    if $check "$out/o" >/dev/null 2>&1; then ok="read back by $check"; else ok="$(echo "$check" | tr a-z A-Z) CANNOT READ IT"; fi
    rm -rf "$out/o"
    awk -v l="$label" -v t="$to" -v a="$a" -v n="$n" -v m="$m" -v s="$ok" 'BEGIN {
        printf "convert --to %s of %s: %d events in %.3f s, %.2f M events/s (median of 5), peak RSS %.1f MB, %s\n",
               t, l, n, a, (a > 0) ? n / a / 1e6 : 0, m / 1024, s }'
}
bt_read() { command -v babeltrace2 >/dev/null && babeltrace2 "$1" -c sink.utils.dummy; }
uf_read() { command -v uftrace >/dev/null && uftrace report -d "$1"; }

uft=$base/uftrace-fib.data
[ -d "$uft" ] || bash "$here/uftrace.sh" >/dev/null 2>&1
if [ -d "$uft" ]; then
    rate "the uftrace bench recording" ctf bt_read "$uft"
    rate "the uftrace bench recording" uftrace uf_read "$uft"
else
    echo "writers: uftrace input SKIP (no uftrace bench recording)"
fi
dat=$base/ftrace-bench-v6.dat
[ -f "$dat" ] || bash "$here/ftrace.sh" >/dev/null 2>&1
if [ -f "$dat" ]; then
    rate "the ftrace bench trace (v6)" ctf bt_read "$dat"
else
    echo "writers: ftrace input SKIP (no ftrace bench trace)"
fi
xlog=$base/xray/fdr-bench.xray
xbin=$base/xray/xray_app
[ -f "$xlog" ] || bash "$here/xray.sh" >/dev/null 2>&1
if [ -f "$xlog" ]; then
    rate "the XRay bench log" ctf bt_read --instr-map "$xbin" "$xlog"
    rate "the XRay bench log" uftrace uf_read --instr-map "$xbin" "$xlog"
else
    echo "writers: XRay input SKIP (no XRay bench log)"
fi
