#!/bin/bash
# record-func-fixtures.sh - the hand-built fixtures (function and function_graph tracers, and
# tasks with several names) with the real trace-cmd's conversions and outputs beside them.
#
# build-func-fixtures.py assembles file-version-6 files from tracefs's format files (the
# function tracer itself cannot be enabled here), build-comm-fixtures.py sched_switch records
# of tasks with several names in saved_cmdlines and in the records, build-stack-fixtures.py
# kernel stacks at the ends of pages, build-power-fixtures.py power:cpu_frequency and cpu_idle
# records between sched_switches (the cpufreq/cpuidle counters); trace-cmd converts each to version 7
# (uncompressed and zstd) and prints the expected outputs: report, -R, -t, and report with
# the function plugin's options (-O ftrace:parent=1, offset=1, ftrace:indent=0, parent and
# offset together, and function:parent=1, which trace-cmd ignores: the plugin's alias is
# "ftrace"; for the function_graph files -O fgraph:tailprint, fgraph:depth=1 and both),
# named NAME.report-OOPTIONS.txt for golden.sh.  The versions must print alike.
# Big-endian files stay version 6: trace-cmd cannot read its v7 conversion of them back.
#
# usage: record-func-fixtures.sh [OUTDIR]   (default: tests/data/ftrace next to this script)
# Needs trace-cmd and a readable tracefs.  Exits 77 with the reason when it cannot build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/ftrace}
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/build-func-fixtures.py" "$tmp" || exit $?
python3 "$here/build-comm-fixtures.py" "$tmp" || exit $?
python3 "$here/build-stack-fixtures.py" "$tmp" || exit $?
python3 "$here/build-power-fixtures.py" "$tmp" || exit $?
mkdir -p "$out"
for v6 in "$tmp"/*-v6.dat; do
    name=$(basename "$v6" -v6.dat)
    base="$out/$name"
    cp "$v6" "$base-v6.dat"
    versions=
    case $name in
    *-be*) ;; # trace-cmd 3.1.6 cannot read back its own version-7 conversion of a big-endian file
    *)
        trace-cmd convert --file-version 7 --compression none -i "$base-v6.dat" -o "$base-v7.dat" >/dev/null 2>&1
        trace-cmd convert --file-version 7 --compression zstd -i "$base-v6.dat" -o "$base-v7zstd.dat" >/dev/null 2>&1
        versions="v7 v7zstd" ;;
    esac
    trace-cmd report "$base-v6.dat" > "$base.report.txt" 2>/dev/null
    trace-cmd report -R "$base-v6.dat" > "$base.report-raw.txt" 2>/dev/null
    trace-cmd report -t "$base-v6.dat" > "$base.report-t.txt" 2>/dev/null
    case $name in
    fgraph-*) all_opts="fgraph:tailprint fgraph:depth=1 tailprint,depth" ;;
    comm-* | stack-* | power-*) all_opts= ;;
    *) all_opts="ftrace:parent=1 offset=1 ftrace:indent=0 ftrace:parent=1,ftrace:offset=1 function:parent=1" ;;
    esac
    for opts in $all_opts; do
        args=()
        IFS=, read -ra each <<< "$opts"
        for o in "${each[@]}"; do args+=(-O "$o"); done
        trace-cmd report "${args[@]}" "$base-v6.dat" > "$base.report-O$opts.txt" 2>/dev/null
    done
    for v in $versions; do
        trace-cmd report "$base-$v.dat" 2>/dev/null | cmp -s - "$base.report.txt" &&
        trace-cmd report -R "$base-$v.dat" 2>/dev/null | cmp -s - "$base.report-raw.txt" ||
            { echo "$name: trace-cmd prints $v differently from v6"; exit 1; }
    done
    echo "$name: $(wc -l < "$base.report.txt") lines, $(du -k "$base-v6.dat" | cut -f1) KB (v6)"
done
