# lttng-daemon.sh - sourced by the live CTF tests: a session daemon to record with.
#
#   tg_lttng_daemon WORKDIR    sets LTTNG_HOME and `started` (the pid to kill at the end, or
#                              empty) and tg_lttng_foreign (1: a daemon this test did not
#                              start); returns 1 (with the reason in $tg_lttng_why) when no
#                              daemon can be had
#   tg_lttng_lost              exit 77 (SKIP) when recording failed because a daemon this
#                              test did not start went away meanwhile
#
# A private daemon (its own LTTNG_HOME under WORKDIR) when one starts; when it cannot start
# because a daemon is already running on the machine (a root session daemon owns the
# user-space tracing paths), that daemon is used instead: sessions get unique names and
# their own output directories, so nothing collides with its other users.
tg_lttng_daemon() {
    local work=$1
    started=""
    tg_lttng_why=""
    tg_lttng_foreign=0
    local home=$work/home
    mkdir -p "$home"
    if LTTNG_HOME=$home lttng-sessiond --daemonize --no-kernel --pidfile "$work/sessiond.pid" \
        >"$work/sessiond.log" 2>&1 ||
        { sleep 1; LTTNG_HOME=$home lttng-sessiond --daemonize --no-kernel \
            --pidfile "$work/sessiond.pid" >"$work/sessiond.log" 2>&1; }; then
        export LTTNG_HOME=$home
        started=$(cat "$work/sessiond.pid" 2>/dev/null)
        return 0
    fi
    # already running here? use it (with the caller's own LTTNG_HOME, as its clients do)
    if pgrep -x lttng-sessiond >/dev/null && lttng list >/dev/null 2>&1; then
        echo "note: using the lttng-sessiond already running here"
        tg_lttng_foreign=1
        return 0
    fi
    tg_lttng_why="lttng-sessiond does not start here: $(head -c 300 "$work/sessiond.log")"
    return 1
}

tg_lttng_lost() {
    if [ "$tg_lttng_foreign" = 1 ] && ! lttng list >/dev/null 2>&1; then
        echo "SKIP: the lttng-sessiond that was running here went away during the recording"
        exit 77
    fi
}
