#!/bin/bash
# uftrace-kernel.sh - `uftrace record -k` data: traceglot replay and report against the real
# uftrace's outputs, and damaged copies of the kernel files.
#
# tests/data/uftrace-kernel holds the data directory and what uftrace 0.13 printed for it
# (record-uftrace-kernel.sh made both): replay, replay -f time,tid,duration, replay
# --kernel-full, report and report --kernel-full.  Each must come out byte for byte.  Then
# copies of the directory are damaged at test time (nothing damaged is committed): a
# kernel-cpu0.dat cut inside a record, a kernel-cpu0.dat whose page commit runs past the
# page, a kernel_header cut inside a section: a clear error naming the file and offset, a
# non-zero exit, the events before the damage printed, never a crash or hang.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
src=${TG_TEST_DATA:?}/uftrace-kernel
data=$src/kernel.data
[ -d "$data" ] || { echo "SKIP: fixture $data is missing"; exit 77; }
tmp=$TG_TMP
fail=0

same() { # same NAME EXPECTED ARGS...
    local name=$1 want=$2
    shift 2
    if ! timeout 60 "$TG" "$@" > "$tmp/out" 2> "$tmp/err"; then
        echo "FAIL $name: exit status $?: $(head -c 300 "$tmp/err")"
        fail=$((fail + 1))
    elif ! cmp -s "$tmp/out" "$want"; then
        echo "FAIL $name: differs from uftrace's output"
        diff "$tmp/out" "$want" | head -20
        fail=$((fail + 1))
    else
        echo "ok   $name"
    fi
}

same replay "$src/kernel.replay.txt" replay "$data"
same replay-time "$src/kernel.replay-time.txt" replay -f time,tid,duration "$data"
same replay-kernel-full "$src/kernel.replay-full.txt" replay --kernel-full "$data"
same report "$src/kernel.report.txt" report "$data"
same report-kernel-full "$src/kernel.report-full.txt" report --kernel-full "$data"
# the report's merged path (a filter turns off the per-thread one)
same report-merged "$src/kernel.report.txt" report --tid 3525 "$data"

# damaged NAME PATTERN MIN_LINES FILE PYTHON: a copy with FILE changed by PYTHON (on the
# bytearray d); replay must fail saying PATTERN after printing >= MIN_LINES lines
damaged() {
    local name=$1 pat=$2 min=$3 file=$4 expr=$5
    rm -rf "$tmp/d"
    cp -r "$data" "$tmp/d"
    python3 - "$tmp/d/$file" "$expr" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
exec(sys.argv[2])
open(sys.argv[1], 'wb').write(d)
PY
    timeout 60 "$TG" replay "$tmp/d" > "$tmp/out" 2> "$tmp/err"
    local rc=$? lines
    lines=$(wc -l < "$tmp/out")
    if [ "$rc" -ge 124 ] || grep -q -e Sanitizer -e "runtime error" "$tmp/err"; then
        echo "FAIL $name: crashed or hung (exit $rc): $(head -c 300 "$tmp/err")"
        fail=$((fail + 1))
    elif [ "$rc" = 0 ]; then
        echo "FAIL $name: exit status 0"
        fail=$((fail + 1))
    elif ! grep -q -e "$pat" "$tmp/err"; then
        echo "FAIL $name: the error does not say '$pat': $(head -c 300 "$tmp/err")"
        fail=$((fail + 1))
    elif [ "$lines" -lt "$min" ]; then
        echo "FAIL $name: $lines lines printed before the error (expected >= $min)"
        fail=$((fail + 1))
    else
        echo "ok   $name (exit $rc, $lines lines, $(head -1 "$tmp/err" | cut -c1-160))"
    fi
}

command -v python3 >/dev/null || { echo "SKIP: python3 is needed to damage copies"; exit 77; }
# cut inside the 19th record of cpu 0: what came before it is printed (main and the first
# open's kernel calls), then the error at the cut record
damaged truncated-cpu0 "kernel-cpu0.dat: offset 0x240: the file ends inside this record" 20 \
    kernel-cpu0.dat "del d[600:]"
# the commit word of page 0 says more bytes than a page holds: the page is reported and
# skipped, the user functions still printed
damaged bad-commit "kernel-cpu0.dat: offset 0x0: page commit 8000 runs past" 20 \
    kernel-cpu0.dat "d[8:16] = (8000).to_bytes(8, 'little')"
damaged truncated-header "kernel_header: offset 0x28: section length runs past the end" 0 \
    kernel_header "del d[100:]"
# an empty kernel-cpu1.dat (nothing recorded on that cpu) is no damage
rm -rf "$tmp/d" && cp -r "$data" "$tmp/d" && : > "$tmp/d/kernel-cpu1.dat"
if timeout 60 "$TG" replay "$tmp/d" > "$tmp/out" 2> "$tmp/err"; then
    echo "ok   empty-cpu1"
else
    echo "FAIL empty-cpu1: exit status $?: $(head -c 300 "$tmp/err")"
    fail=$((fail + 1))
fi
[ "$fail" = 0 ] || { echo "$fail failure(s)"; exit 1; }
echo "all uftrace kernel-data checks passed"
