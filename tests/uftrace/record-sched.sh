#!/bin/bash
# record-sched.sh [OUTDIR] - records the context-switch fixtures with the real uftrace.
#
# src/sched.c (two threads that spin and sleep) runs pinned to one CPU, so its threads are
# both scheduled out while sleeping (linux:schedule) and pre-empted while spinning
# (linux:schedule (pre-empted)); three runs of 2, 3 and 4 rounds, recorded with
# --no-libcall.  Symbol files of libraries are dropped, then uftrace prints, from exactly
# the committed files, beside each recording NAME.data:
#   NAME.report.txt      uftrace report
#   NAME.task.txt        uftrace report --task
#   NAME.replay.txt      uftrace replay
#   NAME.chrome.json     uftrace dump --chrome
# and the diffs of each pair PATH against OTHER (s3 against s2, s4 against s3):
#   PATH-OTHER.diff.txt  uftrace report --diff OTHER.data -d PATH.data
#   PATH-OTHER.full.txt  the same with --diff-policy full
# Which switches are pre-emptions depends on the machine's load: the runs are recorded once
# and committed, tests/uftrace/sched.sh compares with these outputs.
#
# usage: tests/uftrace/record-sched.sh [OUTDIR]      (default: tests/data/uftrace-sched)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/uftrace-sched}
for tool in uftrace gcc taskset; do
    command -v "$tool" >/dev/null || { echo "record-sched: $tool is not installed" >&2; exit 77; }
done
work=$(mktemp -d /tmp/tg-sched-rec.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -O1 -pg -o "$work/sched" "$here/src/sched.c" -lpthread
mkdir -p "$out"
cd "$work"
for n in 2 3 4; do
    name=s$n
    taskset -c 0 uftrace record --no-libcall -d "$name.data" ./sched "$n" >/dev/null
    for f in "$name.data"/*.sym; do
        [ "$(basename "$f")" = sched.sym ] || rm -f "$f"
    done
    rm -rf "${out:?}/$name.data"
    cp -r "$name.data" "$out/"
done
cd "$out"
for n in 2 3 4; do
    name=s$n
    uftrace report -d "$name.data" >"$name.report.txt"
    uftrace report --task -d "$name.data" >"$name.task.txt"
    uftrace replay -d "$name.data" >"$name.replay.txt"
    uftrace dump --chrome -d "$name.data" >"$name.chrome.json"
done
for p in s3:s2 s4:s3; do
    IFS=: read -r path other <<<"$p"
    uftrace report --diff "$other.data" -d "$path.data" >"$path-$other.diff.txt"
    uftrace report --diff "$other.data" --diff-policy full -d "$path.data" >"$path-$other.full.txt"
done
echo "recorded $(ls -d "$out"/*.data | wc -l) runs in $out"
