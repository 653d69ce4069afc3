#!/bin/bash
# sched.sh - context switches as uftrace counts them, on the project's own recordings of a
# program that sleeps and is pre-empted (record-sched.sh): report (linux:schedule and
# linux:schedule (pre-empted) rows), report --task (the self time: the time between a
# thread's sched-out and its sched-in, the first counted from the thread's task.txt line),
# replay, report --diff (the other run read whole, as uftrace reads it: a thread's first
# sched-in ends no linux:schedule), and Chrome JSON's "B"/"E" events against uftrace dump
# --chrome (chrome_vs_uftrace.py).  Byte for byte against the outputs uftrace 0.13 printed,
# and against the installed uftrace when there is one.  Two runs end with a thread asleep:
# asleep2 has no data file of it (read as uftrace reads it, without the file: a warning, no
# error), end2 was stopped while its main thread slept (uftrace's Chrome JSON ends its open
# frames, the context switch by its record id, at the thread's last record).
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/uftrace-sched
tg_need_dir "$data"
cd "$data" || exit 1
for n in s2 s3 s4 asleep2 end2; do
    d=$n.data
    tg_check "$n report" "$n.report.txt" "$TG" report "$d"
    tg_check "$n report --task" "$n.task.txt" "$TG" report --task "$d"
    tg_check "$n replay" "$n.replay.txt" "$TG" replay "$d"
    if tg_run "$TG" convert --to chrome --force -o "$TG_TMP/ours.json" "$d" &&
        tg_run /usr/bin/python3 "$TG_TESTS/viewers/chrome_vs_uftrace.py" "$TG_TMP/ours.json" \
            "$n.chrome.json"; then
        tg_pass "$n chrome: $(cat "$TG_TMP/out")"
    else
        tg_fail "$n chrome" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 600)"
    fi
done
# the thread without a data file: a warning names it, the run is read
tg_run "$TG" replay asleep2.data
if grep -q "has no data file: read without it" "$TG_TMP/err"; then
    tg_pass "asleep2 warns of the missing data file"
else
    tg_fail "asleep2 warns of the missing data file" "$(head -c 300 "$TG_TMP/err")"
fi
for p in s3:s2 s4:s3; do
    IFS=: read -r path other <<<"$p"
    tg_check "$path-$other diff" "$path-$other.diff.txt" "$TG" report --diff "$other.data" "$path.data"
    tg_check "$path-$other diff full" "$path-$other.full.txt" \
        "$TG" report --diff "$other.data" --diff-policy full "$path.data"
done
if command -v uftrace >/dev/null; then
    uftrace report --task -d s3.data >"$TG_TMP/live-task" 2>/dev/null &&
        tg_check "live s3 report --task" "$TG_TMP/live-task" "$TG" report --task s3.data
    uftrace report --diff s3.data --diff-policy full -s call -d s4.data >"$TG_TMP/live-diff" 2>/dev/null &&
        tg_check "live s4-s3 diff full -s call" "$TG_TMP/live-diff" \
            "$TG" report --diff s3.data --diff-policy full -s call s4.data
fi
tg_done
