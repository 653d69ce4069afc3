#!/bin/bash
# record-uftrace-kernel.sh - a uftrace data directory as `uftrace record -k` writes it, with the
# real uftrace's outputs beside it.
#
# The user side is recorded by the real uftrace (src/kcalls.c built with -pg); the kernel
# side (kernel_header, kernel-cpuN.dat, kallsyms, the KERNEL feature bit) is added by
# build-uftrace-kernel.py, since the function_graph tracer cannot run here.  Symbol files of
# shared libraries are dropped (only the program's own .sym is kept), then the real uftrace
# prints the expected outputs from exactly the files that are kept: kernel.replay.txt
# (uftrace replay), kernel.replay-time.txt (replay -f time,tid,duration) and
# kernel.replay-full.txt (replay --kernel-full: the kernel calls outside user functions too),
# kernel.report.txt and kernel.report-full.txt (uftrace report, without and with
# --kernel-full).  tests/ftrace/uftrace-kernel.sh compares traceglot with them.
#
# usage: record-uftrace-kernel.sh [OUTDIR]   (default: tests/data/uftrace-kernel)
# Needs gcc, uftrace and a readable tracefs; exits 77 with the reason otherwise.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/uftrace-kernel}
for tool in uftrace gcc python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d /tmp/tg-ukernel.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -pg -O0 -o "$work/kcalls" "$here/src/kcalls.c"
(cd "$work" && uftrace record -d kernel.data ./kcalls >/dev/null)
d=$work/kernel.data
for f in "$d"/*.sym; do
    [ "$(basename "$f")" = kcalls.sym ] || rm -f "$f"
done
uftrace dump -d "$d" > "$work/dump.txt"
python3 "$here/build-uftrace-kernel.py" "$d" "$work/dump.txt" || exit $?
mkdir -p "$out"
rm -rf "$out/kernel.data"
cp -r "$d" "$out/kernel.data"
uftrace replay -d "$out/kernel.data" > "$out/kernel.replay.txt"
uftrace replay -f time,tid,duration -d "$out/kernel.data" > "$out/kernel.replay-time.txt"
uftrace replay --kernel-full -d "$out/kernel.data" > "$out/kernel.replay-full.txt"
uftrace report -d "$out/kernel.data" > "$out/kernel.report.txt"
uftrace report --kernel-full -d "$out/kernel.data" > "$out/kernel.report-full.txt"
grep -q __x64_sys_read "$out/kernel.replay.txt" ||
    { echo "uftrace replay does not show the kernel functions"; exit 1; }
echo "kernel.data: $(wc -l < "$out/kernel.replay.txt") lines of replay"
