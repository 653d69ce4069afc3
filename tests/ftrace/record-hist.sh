#!/bin/bash
# record-hist.sh - records what the real `trace-cmd hist` prints (plain and -P) of each
# trace.dat fixture, for hist.sh.
#
# For each capture NAME (NAME-v6.dat, -v7.dat, -v7zstd.dat in DATADIR) it writes into
# DATADIR/hist/ NAME.hist.txt and NAME.hist-P.txt (the three versions print the same; the
# script stops when they do not).
#
# usage: record-hist.sh [DATADIR]   (default: tests/data/ftrace)
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../data/ftrace}
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd is not installed"; exit 77; }
out=$data/hist
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v6 in "$data"/*-v6.dat; do
    name=$(basename "$v6" -v6.dat)
    for mode in "" -P; do
        for v in v6 v7 v7zstd; do
            [ -f "$data/$name-$v.dat" ] || continue
            trace-cmd hist $mode -i "$data/$name-$v.dat" > "$tmp/$v.out" 2>/dev/null ||
                { echo "$name-$v: trace-cmd hist $mode failed"; exit 1; }
            cmp -s "$tmp/v6.out" "$tmp/$v.out" ||
                { echo "$name: the versions print differently"; exit 1; }
        done
        cp "$tmp/v6.out" "$out/$name.hist$mode.txt"
    done
done
echo "recorded $(ls "$out" | wc -l) outputs ($(trace-cmd --version 2>&1 | grep -o 'version [^ ]*' | head -1))"
