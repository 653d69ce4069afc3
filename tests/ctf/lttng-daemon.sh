# lttng-daemon.sh - sourced by the live CTF tests: a session daemon to record with.
#
#   tg_lttng_daemon WORKDIR    sets LTTNG_HOME and `started` (the pid to kill at the end, or
#                              empty) and tg_lttng_foreign (1: a daemon this test did not
#                              start); returns 1 (with the reason in $tg_lttng_why) when no
#                              daemon can be had
#   tg_lttng_lost              exit 77 (SKIP) when recording failed because a daemon this
#                              test did not start went away meanwhile
#   tg_lttng_cyg_app WORKDIR APP [TOOL...]
#                              SKIP unless lttng, lttng-sessiond, gcc, each TOOL and
#                              liblttng-ust-cyg-profile are here ($cyg: its path); starts the
#                              daemon (killed at exit) and builds tg_fixture_app.c with -g
#                              -finstrument-functions as WORKDIR/APP
#   tg_lttng_record NAME OUT EVENTS CONTEXTS CMD...
#                              one session NAME recording the user-space EVENTS with the
#                              contexts (comma-separated) into OUT while CMD runs
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

tg_lttng_cyg_app() {
    local work=$1 app=$2 tool
    shift 2
    for tool in lttng lttng-sessiond gcc "$@"; do
        command -v "$tool" >/dev/null || tg_skip "$tool not installed"
    done
    cyg=$(ls /usr/lib/*/liblttng-ust-cyg-profile.so.1 2>/dev/null | head -1)
    [ -n "$cyg" ] || tg_skip "liblttng-ust-cyg-profile.so.1 not installed"
    started=""
    tg_at_exit '[ -n "$started" ] && kill "$started" 2>/dev/null'
    tg_lttng_daemon "$work" || tg_skip "$tg_lttng_why"
    local src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    gcc -O1 -g -finstrument-functions -I"$src" -o "$work/$app" "$src/tg_fixture_app.c" \
        -llttng-ust -ldl -lpthread || { echo "FAIL: build"; exit 1; }
}

tg_lttng_record() {
    local name=$1 out=$2 events=$3 contexts=$4
    shift 4
    lttng create "$name" --output="$out" >/dev/null || tg_skip "lttng create failed"
    lttng enable-event -u "$events" >/dev/null
    lttng add-context -u $(printf -- ' -t %s' ${contexts//,/ }) >/dev/null
    lttng start >/dev/null
    "$@" >/dev/null
    lttng stop >/dev/null
    lttng destroy "$name" >/dev/null
    [ -d "$out" ] || tg_lttng_lost
}
