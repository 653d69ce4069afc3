#!/bin/bash
# common-flags.sh - ftrace_event.common_flags is each trace.dat record's common_flags: decoded
# as the kernel's TRACE_FLAG_* bits into trace-cmd's latency columns as libtraceevent
# writes them (irqs-off d/X, need-resched N, hardirq/softirq H/h/s), it gives what `trace-cmd report -l -t`
# prints for every event (CPU, time and columns, as multisets); and it is NULL on a format
# without common_flags (an LTTng kernel CTF trace, whose babeltrace2 text shows none).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd trace-cmd
n=0
# the three latency columns of flags (the kernel's TRACE_FLAG_* bits), as libtraceevent prints
# them: "CPU TS COLUMNS" per row of the query's CSV (NULL where no flags)
columns='
import csv, sys
def cols(f):
    a = "d" if f & 1 else "X" if f & 2 else "."
    b = "N" if f & 4 else "."
    c = ("H" if f & 16 else "h") if f & 8 else "s" if f & 16 else "."
    return a + b + c
for r in list(csv.reader(sys.stdin))[1:]:
    print(r[0], r[1], cols(int(r[2])) if r[2] else "NULL")
'
for f in "$TG_TEST_DATA"/ftrace/sched-irq-timer-v6.dat "$TG_TEST_DATA"/ftrace/misc-v7zstd.dat \
    "$TG_TEST_DATA"/ftrace/kmem-block-wq-v6.dat "$TG_CORPUS"/gen/ftrace/kernel-visible-v6.dat; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    # "  comm-pid  0d..2.  5241.978951044: name: ..." -> "cpu ts d.."
    trace-cmd report -l -t "$f" 2>/dev/null |
        sed -n 's/^.*-[0-9]* *\([0-9][0-9]*\)\([.dXNHhs]\{3\}\)[^ ]* *\([0-9]*\)\.\([0-9]*\): .*/\1 \3\4 \2/p' |
        sort >"$TG_TMP/want"
    if ! tg_run "$TG" sql --format csv "$f" -q "SELECT cpu, ts, common_flags FROM ftrace_event
            WHERE name != 'lost'"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    /usr/bin/python3 -c "$columns" <"$TG_TMP/out" | sort >"$TG_TMP/got"
    [ -s "$TG_TMP/want" ] || { tg_fail "$name" "trace-cmd report -l printed no events"; continue; }
    tg_same "$name: common_flags = trace-cmd -l's columns ($(wc -l <"$TG_TMP/want") events)" \
        "$TG_TMP/want" "$TG_TMP/got"
    n=$((n + 1))
done
t=$TG_CORPUS/ctf-classes/flipping-endianness
if [ -f "$t/metadata" ]; then
    tg_run "$TG" sql --format csv "$t" -q "SELECT count(*), count(common_flags) FROM ftrace_event"
    row=$(tail -1 "$TG_TMP/out")
    [ "${row#*,}" = 0 ] && [ "${row%,*}" -gt 0 ] && tg_pass "$(basename "$t"): common_flags NULL on CTF" ||
        tg_fail "$(basename "$t"): common_flags on CTF" "$row (events, non-NULL)"
fi
[ "$n" -gt 0 ] || tg_skip "no trace.dat fixtures"
tg_done
