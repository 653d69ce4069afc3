#!/bin/bash
# options.sh - the timeline options on the CLI, with the committed fixtures: ftrace's local
# clock is left on its own times with a warning that says why, unless --clock-offset puts it
# on the timeline; bad --clock-align / --clock-offset values are usage errors (exit 2).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
D=${TG_TEST_DATA:?}
uft=$D/uftrace/threads.data kern=$D/ftrace/all-events-v7.dat
fail=0
expect() { # expect NAME EXIT STDERR-TEXT ARGS...
    local name=$1 want=$2 text=$3
    shift 3
    "$TG" "$@" > /dev/null 2> /tmp/tg-tl-opt.$$
    local rc=$?
    if [ $rc -eq "$want" ] && { [ -z "$text" ] && [ ! -s /tmp/tg-tl-opt.$$ ] || { [ -n "$text" ] && grep -qF -- "$text" /tmp/tg-tl-opt.$$; }; }; then
        echo "ok   $name"
    else
        echo "FAIL $name (exit $rc, want $want):"; cat /tmp/tg-tl-opt.$$; fail=1
    fi
    rm -f /tmp/tg-tl-opt.$$
}
expect "local clock: warning, own times" 0 "per-CPU scheduler clock" cat "$uft" "$kern"
expect "local clock aligned by the user" 0 "" cat --clock-offset "$kern=+0" "$uft" "$kern"
expect "alignment off: no warning" 0 "" stats --clock-align=none "$uft" "$kern"
expect "one trace: no warning" 0 "" cat "$kern"
expect "bad --clock-align" 2 "expected auto, none or realtime" cat --clock-align=sometimes "$uft"
expect "offset without a sign" 2 "expected PATH=+DURATION" cat --clock-offset "$uft=1ms" "$uft"
expect "offset with a bad unit" 2 "bad clock offset duration" cat --clock-offset "$uft=+1parsec" "$uft"
expect "offset for no trace" 2 "no trace was opened from it" cat --clock-offset "/nowhere=+1ms" "$uft"
if "$TG" info "$uft" "$kern" 2>/dev/null | grep -q "^shift:        +0 ns (none: its clock 'local'"; then
    echo "ok   info says why the local clock is not aligned"
else
    echo "FAIL info does not say why the local clock is not aligned"; fail=1
fi
exit $fail
