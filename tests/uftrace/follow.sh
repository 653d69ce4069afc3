#!/bin/bash
# follow.sh - `cat --follow` on a uftrace data directory while `uftrace record` writes it.
#
# Records tests/uftrace/src/growing.c (a few seconds of calls and sleeps) with a 4 KB buffer
# and --no-event (scheduling events are written late, see README), follows the directory
# from the start and samples, every 50 ms while the program runs, the size of its TID.dat
# (16 bytes a record: no arguments are recorded) and the lines printed so far.  Checks:
#   - every record flushed at a sample is printed (one line a record) within a second, while
#     the recording still runs (no info file yet);
#   - traceglot ends by itself when uftrace writes info (bounded waits), and says nothing;
#   - the whole text equals `cat` on the finished recording (each event once, in order);
#   - the functions entered, in order, are the ones `uftrace replay` shows.
# SKIP when uftrace or gcc is missing or uftrace cannot record here.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace
tg_need_cmd gcc
here=$(cd "$(dirname "$0")" && pwd)
prog=$TG_TMP/growing
gcc -pg -O0 -o "$prog" "$here/src/growing.c" || tg_skip "gcc -pg could not build the fixture"
d=$TG_TMP/growing.data
uftrace record -d "$d" -b 4K --no-event "$prog" 25 >/dev/null 2>"$TG_TMP/rec.err" &
rec=$!
tg_at_exit "kill $rec 2>/dev/null"
for _ in $(seq 100); do [ -s "$d/task.txt" ] && break; sleep 0.05; done
[ -s "$d/task.txt" ] || tg_skip "uftrace record wrote no task.txt in 5 s: $(head -3 "$TG_TMP/rec.err")"
"$TG" cat --follow "$d" >"$TG_TMP/follow.out" 2>"$TG_TMP/follow.err" &
fol=$!
tg_at_exit "kill $fol 2>/dev/null"
# samples: time, records flushed, lines printed, info written (1/0)
: >"$TG_TMP/samples"
for _ in $(seq 400); do
    kill -0 $rec 2>/dev/null || break
    size=$(cat "$d"/[0-9]*.dat 2>/dev/null | wc -c)
    echo "$(date +%s.%N) $((size / 16)) $(wc -l <"$TG_TMP/follow.out") $([ -e "$d/info" ] && echo 1 || echo 0)" \
        >>"$TG_TMP/samples"
    sleep 0.05
done
wait $rec
rec_rc=$?
[ $rec_rc = 0 ] || tg_fail record "uftrace record exited with $rec_rc"
for _ in $(seq 100); do kill -0 $fol 2>/dev/null || break; sleep 0.1; done
if kill -0 $fol 2>/dev/null; then
    tg_fail ends "cat --follow still runs 10 s after uftrace ended"
    kill -INT $fol
fi
wait $fol
fol_rc=$?
[ $fol_rc = 0 ] && tg_pass "follow exits 0" || tg_fail "follow exits 0" "status $fol_rc"
[ -s "$TG_TMP/follow.err" ] && tg_fail "follow says nothing" "$(head -3 "$TG_TMP/follow.err")" ||
    tg_pass "follow says nothing"
# within a second: for each sample i and the first sample j at least 1 s later, both before
# info, the lines at j cover the records at i (the last record may wait for the next one)
late=$(awk '{ t[NR]=$1; r[NR]=$2; l[NR]=$3; inf[NR]=$4 }
    END { bad = 0; checked = 0
          for (i = 1; i <= NR; i++) for (j = i; j <= NR; j++) if (t[j] - t[i] >= 1.0) {
              if (!inf[j] && r[i] > 0) { checked++; if (l[j] < r[i] - 1) bad++ } break }
          print checked, bad }' "$TG_TMP/samples")
set -- $late
if [ "$1" -ge 5 ] && [ "$2" = 0 ]; then
    tg_pass "flushed records printed within 1 s ($1 samples)"
else
    tg_fail "flushed records printed within 1 s" "$1 samples checked, $2 late: $(cat "$TG_TMP/samples")"
fi
tg_run "$TG" cat "$d"
tg_same "follow text = cat of the finished recording" "$TG_TMP/out" "$TG_TMP/follow.out"
sed -n 's/.*uftrace:entry: func=\([^ ]*\) .*/\1/p' "$TG_TMP/follow.out" >"$TG_TMP/tg.funcs"
uftrace replay -f none -d "$d" | sed -n 's/^ *\([A-Za-z_][A-Za-z0-9_:]*\)() *[{;].*/\1/p' \
    >"$TG_TMP/uftrace.funcs"
if [ -s "$TG_TMP/uftrace.funcs" ]; then
    tg_same "functions entered = uftrace replay's" "$TG_TMP/uftrace.funcs" "$TG_TMP/tg.funcs"
else
    tg_fail "functions entered = uftrace replay's" "uftrace replay printed no function"
fi
tg_done
