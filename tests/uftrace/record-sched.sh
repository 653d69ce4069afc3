#!/bin/bash
# record-sched.sh [OUTDIR] - records the context-switch fixtures with the real uftrace.
#
# src/sched.c (two threads that spin and sleep) runs pinned to one CPU, so its threads are
# both scheduled out while sleeping (linux:schedule) and pre-empted while spinning
# (linux:schedule (pre-empted)); three runs of 2, 3 and 4 rounds, recorded with
# --no-libcall; and two runs whose end leaves a thread asleep: asleep2 (`sched 2 x`: a
# thread sleeping when the program exits never flushes its records, so the recording lists
# it in info and task.txt but has no data file of it) and end2 (`sched 2 end`: the recording
# is stopped, by SIGINT to uftrace, while the main thread sleeps at its end, so its last
# context switch has no sched-in and its functions no exit; the program is then killed).
# Symbol files of libraries are dropped, then uftrace prints, from exactly
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
# usage: tests/uftrace/record-sched.sh [OUTDIR [NAME...]]
#        (default: tests/data/uftrace-sched, all of s2 s3 s4 asleep2 end2; the diffs are
#        printed again when their runs are recorded)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/uftrace-sched}
shift || true
names=${*:-s2 s3 s4 asleep2 end2}
for tool in uftrace gcc taskset; do
    command -v "$tool" >/dev/null || { echo "record-sched: $tool is not installed" >&2; exit 77; }
done
work=$(mktemp -d /tmp/tg-sched-rec.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -O1 -pg -o "$work/sched" "$here/src/sched.c" -lpthread
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$work"
for name in $names; do
    case $name in
    s*) taskset -c 0 uftrace record --no-libcall -d "$name.data" ./sched "${name#s}" >/dev/null ;;
    asleep2) taskset -c 0 uftrace record --no-libcall -d "$name.data" ./sched 2 x >/dev/null ;;
    end2)
        taskset -c 0 uftrace record --no-libcall -d "$name.data" ./sched 2 end >/dev/null &
        recorder=$!
        sleep 1
        kill -INT "$recorder"
        wait "$recorder" || true
        program=$(sed -n 's/^SESS .* pid=\([0-9]*\) .*/\1/p' "$name.data/task.txt")
        [ -n "$program" ] && kill "$program" 2>/dev/null || true ;;
    esac
    for f in "$name.data"/*.sym; do
        [ "$(basename "$f")" = sched.sym ] || rm -f "$f"
    done
    rm -rf "${out:?}/$name.data"
    cp -r "$name.data" "$out/"
done
cd "$out"
for name in $names; do
    uftrace report -d "$name.data" >"$name.report.txt"
    uftrace report --task -d "$name.data" >"$name.task.txt"
    uftrace replay -d "$name.data" >"$name.replay.txt"
    uftrace dump --chrome -d "$name.data" >"$name.chrome.json"
done
for p in s3:s2 s4:s3; do
    IFS=: read -r path other <<<"$p"
    case " $names " in *" $path "* | *" $other "*) ;; *) continue ;; esac
    uftrace report --diff "$other.data" -d "$path.data" >"$path-$other.diff.txt"
    uftrace report --diff "$other.data" --diff-policy full -d "$path.data" >"$path-$other.full.txt"
done
echo "recorded $(ls -d "$out"/*.data | wc -l) runs in $out"
