# relay-daemons.sh - sourced by the lttng-live tests: their own lttng-sessiond and
# lttng-relayd, isolated from every other LTTng user of the machine.
#
#   tg_relay_isolate "$@"   first thing in a test: re-runs the script in a private mount
#                           namespace (unshare -m) where /var/run/lttng and /dev/shm are
#                           fresh tmpfs mounts, so the test's session daemon, its lttng
#                           client and its UST programs meet only each other (as root they
#                           would otherwise share the machine's); SKIP (77) when that or the
#                           tools are missing
#   tg_relay_start WORK     starts lttng-relayd on 127.0.0.1 (three high ports: control,
#                           data, live in $relay_ctl $relay_data $relay_live) writing under
#                           WORK/relay, and lttng-sessiond (LTTNG_HOME=WORK/home); both are
#                           stopped by their pids when the script exits; SKIP when they do
#                           not start.  Also builds the UST program tg_fixture_app.c as
#                           WORK/app, exports TZ=UTC and sets $host (this machine's name)
#                           and $relay (net://127.0.0.1:LIVE-PORT)
#   tg_relay_kill           kills the relay now (by pid)
#   tg_relay_clients SESSION N   waits (at most 20 s) until the relay lists N viewers on
#                           SESSION
tg_relay_isolate() {
    if [ "${TG_RELAY_NS:-}" != 1 ]; then
        for tool in lttng lttng-sessiond lttng-relayd babeltrace2 gcc unshare timeout; do
            command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
        done
        [ -f /usr/include/lttng/tracepoint.h ] ||
            [ -f /usr/include/x86_64-linux-gnu/lttng/tracepoint.h ] ||
            { echo "SKIP: liblttng-ust-dev not installed"; exit 77; }
        unshare -m --propagation private true 2>/dev/null ||
            { echo "SKIP: cannot make a private mount namespace (unshare -m needs root)"; exit 77; }
        TG_RELAY_NS=1 exec unshare -m --propagation private bash "$0" "$@"
    fi
    mkdir -p /var/run/lttng
    mount -t tmpfs tg-lttng /var/run/lttng && mount -t tmpfs tg-shm /dev/shm ||
        { echo "SKIP: cannot mount private tmpfs on /var/run/lttng and /dev/shm"; exit 77; }
}

relay_pids=""
relay_pid=""

tg_relay_stop_all() {
    local p
    for p in $relay_pids; do kill "$p" 2>/dev/null; done
    for p in $relay_pids; do
        for _ in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    relay_pids=""
}

# true when something accepts connections on 127.0.0.1:$1
tg_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

tg_relay_start() {
    local work=$1 try base
    mkdir -p "$work/home" "$work/relay"
    export LTTNG_HOME=$work/home
    tg_at_exit tg_relay_stop_all
    for try in 1 2 3 4 5; do
        base=$((20000 + (($$ * 7 + try * 131) % 2000) * 20))
        relay_ctl=$base relay_data=$((base + 1)) relay_live=$((base + 2))
        tg_port_open $relay_ctl || tg_port_open $relay_data || tg_port_open $relay_live && continue
        lttng-relayd -C tcp://127.0.0.1:$relay_ctl -D tcp://127.0.0.1:$relay_data \
            -L tcp://127.0.0.1:$relay_live -o "$work/relay" > "$work/relayd.log" 2>&1 &
        relay_pid=$!
        disown $relay_pid 2>/dev/null
        relay_pids="$relay_pids $relay_pid"
        for _ in $(seq 50); do
            tg_port_open $relay_live && break
            kill -0 $relay_pid 2>/dev/null || break
            sleep 0.1
        done
        tg_port_open $relay_live && break
        kill $relay_pid 2>/dev/null
        relay_pid=""
    done
    [ -n "$relay_pid" ] || { echo "SKIP: lttng-relayd does not start: $(head -c 300 "$work/relayd.log")"; exit 77; }
    lttng-sessiond --no-kernel > "$work/sessiond.log" 2>&1 &
    relay_pids="$relay_pids $!"
    local up=0
    for _ in $(seq 100); do lttng list >/dev/null 2>&1 && { up=1; break; }; sleep 0.1; done
    [ $up = 1 ] || tg_skip "lttng-sessiond does not start: $(head -c 300 "$work/sessiond.log")"
    local src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    gcc -O1 -I"$src" -o "$work/app" "$src/tg_fixture_app.c" -llttng-ust -ldl -lpthread ||
        tg_skip "cannot build the UST program"
    export TZ=UTC
    host=$(hostname)
    relay=net://127.0.0.1:$relay_live
}

tg_relay_kill() { kill -9 "$relay_pid" 2>/dev/null; }

tg_relay_clients() {
    local session=$1 n=$2
    for _ in $(seq 200); do
        timeout 10 babeltrace2 -i lttng-live "net://127.0.0.1:$relay_live" 2>/dev/null |
            grep -q "/$session (.* $n client(s) connected)" && return 0
        sleep 0.1
    done
    return 1
}
