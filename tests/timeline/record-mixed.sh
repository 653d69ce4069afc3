#!/bin/bash
# record-mixed.sh - records one run of tg_mixed_app.c with three tracers at once, then checks
# that `traceglot cat` puts every round in causal order (check-order.sh): uftrace (the
# program is built with -pg), LTTng-UST (tracepoint tg_mixed:round, our own session daemon)
# and ftrace through tracefs with trace_clock=mono (events syscalls:sys_enter_write /
# sys_exit_write on the top-level buffer, which is what `trace-cmd extract` stores with the
# right clock; the previous clock is put back).  SKIP (77) with the reason when a tracer
# cannot run here.  Usage: record-mixed.sh [KEEP_DIR] (keeps the three traces there).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
for tool in uftrace lttng lttng-sessiond trace-cmd gcc; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
[ -f /usr/include/x86_64-linux-gnu/lttng/tracepoint.h ] || [ -f /usr/include/lttng/tracepoint.h ] ||
    { echo "SKIP: liblttng-ust-dev not installed"; exit 77; }
if [ ! -w $T/tracing_on ]; then
    mount -t tracefs nodev $T 2>/dev/null || true
fi
[ -w $T/tracing_on ] || { echo "SKIP: tracefs is not writable at $T (needs root)"; exit 77; }
[ -d $T/events/syscalls/sys_enter_write ] ||
    { echo "SKIP: this kernel has no syscalls:sys_enter_write trace event"; exit 77; }
grep -qw mono $T/trace_clock || { echo "SKIP: the kernel's trace clocks have no mono"; exit 77; }

work=$TG_TMP
sessiond="" old_clock=""
cleanup() {
    if [ -n "$old_clock" ]; then
        echo 0 > $T/events/syscalls/sys_enter_write/enable
        echo 0 > $T/events/syscalls/sys_exit_write/enable
        echo "$old_clock" > $T/trace_clock
    fi
    [ -n "$sessiond" ] && kill "$sessiond" 2>/dev/null
    rm -rf "$work"
}
tg_at_exit 'cleanup'
export LTTNG_HOME=$work/home
mkdir -p "$LTTNG_HOME"
# our own session daemon, stopped at the end by its pid; as root there is one per machine,
# so when another test's daemon runs, that one records our session
if lttng-sessiond --daemonize --no-kernel --pidfile "$work/sessiond.pid" >/dev/null 2>&1; then
    sessiond=$(cat "$work/sessiond.pid" 2>/dev/null)
elif ! lttng list >/dev/null 2>&1; then
    echo "SKIP: lttng-sessiond does not start here"; exit 77
fi
gcc -pg -O1 -I"$here" -o "$work/tg_mixed_app" "$here/tg_mixed_app.c" -llttng-ust -ldl -lpthread ||
    { echo "FAIL: cannot build tg_mixed_app.c"; exit 1; }

# the same tracefs is shared by everything on this machine: one recording at a time
exec 9>/tmp/traceglot-tracefs.lock
flock -w 300 9 || { echo "SKIP: tracefs busy (lock /tmp/traceglot-tracefs.lock)"; exit 77; }
sess=tgmixed-$$
lttng create "$sess" --output="$work/lttng" >/dev/null || { echo "FAIL: lttng create"; exit 1; }
lttng enable-event -u 'tg_mixed:round' >/dev/null && lttng start >/dev/null ||
    { echo "FAIL: lttng cannot start the session"; exit 1; }
old_clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $T/trace_clock)
echo 0 > $T/tracing_on
echo mono > $T/trace_clock             # also clears the buffer
echo 1 > $T/events/syscalls/sys_enter_write/enable
echo 1 > $T/events/syscalls/sys_exit_write/enable
echo 1 > $T/tracing_on
(cd "$work" && LTTNG_UST_ALLOW_BLOCKING=1 uftrace record -d "$work/app.uftrace.data" ./tg_mixed_app 20) \
    > "$work/uftrace.log" 2>&1
rc=$?
echo 0 > $T/tracing_on
echo 0 > $T/events/syscalls/sys_enter_write/enable
echo 0 > $T/events/syscalls/sys_exit_write/enable
lttng stop >/dev/null
lttng destroy "$sess" >/dev/null
trace-cmd extract -o "$work/kernel.dat" > /dev/null 2>&1
echo "$old_clock" > $T/trace_clock
old_clock=""
echo 1 > $T/tracing_on
flock -u 9
[ $rc -eq 0 ] || { echo "SKIP: uftrace record does not run here:"; tail -3 "$work/uftrace.log"; exit 77; }
[ -s "$work/kernel.dat" ] || { echo "FAIL: trace-cmd extract wrote nothing"; exit 1; }
ust=$(dirname "$(find "$work/lttng" -name metadata | head -1)")
[ -d "$ust" ] || { echo "FAIL: LTTng recorded no trace"; exit 1; }
"$TG" info "$work/app.uftrace.data" "$ust" "$work/kernel.dat" 2>&1 | grep -E '^(trace|clock|domain|shift):'
bash "$here/check-order.sh" "$work/app.uftrace.data" "$ust" "$work/kernel.dat"
rc=$?
if [ $# -ge 1 ]; then
    mkdir -p "$1" && cp -r "$work/app.uftrace.data" "$work/kernel.dat" "$1/" && cp -r "$ust" "$1/ust"
fi
exit $rc
