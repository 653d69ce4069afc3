# running-check.sh - sourced by the kernel SQL tests: one check that thread_state's Running
# rows are sched_slice's rows both ways (but the idle task's, which has no thread states).
#
#   running_check NAME TRACE   passes when neither set has a row the other lacks
running_check() {
    local q="SELECT (SELECT count(*) FROM (SELECT ts, dur, cpu, utid FROM sched_slice WHERE utid != 0
                                         EXCEPT SELECT ts, dur, cpu, utid FROM thread_state
                                         WHERE state = 'Running')),
                    (SELECT count(*) FROM (SELECT ts, dur, cpu, utid FROM thread_state WHERE state = 'Running'
                                         EXCEPT SELECT ts, dur, cpu, utid FROM sched_slice)),
                    (SELECT count(*) FROM sched_slice WHERE utid != 0)"
    if tg_run "$TG" sql --format csv "$2" -q "$q"; then
        local row
        row=$(tail -1 "$TG_TMP/out")
        [ "${row%,*}" = "0,0" ] && tg_pass "$1: thread_state Running = sched_slice (${row##*,} slices)" ||
            tg_fail "$1: thread_state Running = sched_slice" "$row (missing, extra, slices)"
    else
        tg_fail "$1: thread_state" "$(head -3 "$TG_TMP/err")"
    fi
}
