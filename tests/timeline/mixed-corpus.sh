#!/bin/bash
# mixed-corpus.sh - the corpus's mixed recording (../shared/corpus/mixed: uftrace, LTTng-UST
# and ftrace with trace_clock=mono around one program run) on one timeline: every round in
# causal order whatever the order of the paths; with alignment off they are not (LTTng's
# clock carries its offset to the epoch), so the check does see a wrong order; `info` says
# each trace's domain and shift.  SKIP (77) without the corpus.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
m=${TG_CORPUS:-$here/../../../shared/corpus}/mixed
[ -d "$m/ust" ] || { echo "SKIP: no corpus mixed recording at $m"; exit 77; }
fail=0
check() { # check NAME EXPECT(0|1) ARGS...
    local name=$1 expect=$2 got
    shift 2
    got=$(bash "$here/check-order.sh" "$@" 2>&1)
    local rc=$?
    if { [ "$expect" = 0 ] && [ $rc -eq 0 ]; } || { [ "$expect" = 1 ] && [ $rc -ne 0 ]; }; then
        echo "ok   $name: $got"
    else
        echo "FAIL $name: $got"; fail=1
    fi
}
check "uftrace, ust, kernel" 0 "$m/app.uftrace.data" "$m/ust" "$m/kernel.dat"
check "ust first (the timeline is LTTng's clock)" 0 "$m/ust" "$m/app.uftrace.data" "$m/kernel.dat"
check "kernel first" 0 "$m/kernel.dat" "$m/ust" "$m/app.uftrace.data"
check "--clock-align=none keeps own times (56 years apart)" 1 "$m/app.uftrace.data" "$m/ust" "$m/kernel.dat" --clock-align=none
# the user's offset moves one trace: 3 ms later puts every tracepoint after its write
check "--clock-offset ust=+3ms breaks the order" 1 "$m/app.uftrace.data" "$m/ust" "$m/kernel.dat" "--clock-offset=$m/ust=+3ms"

info=$("$TG" info "$m/app.uftrace.data" "$m/ust" "$m/kernel.dat" 2>&1)
expect_info() {
    if grep -qF -- "$1" <<<"$info"; then echo "ok   info: $1"; else echo "FAIL info lacks: $1"; fail=1; fi
}
expect_info "domain:       monotonic@vm"
expect_info "shift:        -1795376243376209765 ns (exact: same monotonic clock as"
expect_info "clock:        monotonic (monotonic, 1000000000 Hz, offset 1795376243376209765 ns"
# stats and Chrome show the shared timeline too: LTTng's events at 1436 s, not 1795377679 s
three=("$m/app.uftrace.data" "$m/ust" "$m/kernel.dat")
if "$TG" stats "${three[@]}" 2>/dev/null | grep -q '^tg_mixed:round  *20 1436\.384855748 1436\.'; then
    echo "ok   stats: tg_mixed:round on the shared timeline"
else
    echo "FAIL stats: tg_mixed:round not on the shared timeline"; fail=1
fi
if "$TG" convert --to chrome "${three[@]}" 2>/dev/null | grep -q '"name":"tg_mixed:round".*"ts":1436384855\.748'; then
    echo "ok   chrome: tg_mixed:round on the shared timeline"
else
    echo "FAIL chrome: tg_mixed:round not on the shared timeline"; fail=1
fi
# peer styles keep their tracer's own times: babeltrace style of the LTTng trace among the
# three prints what it prints alone
if cmp -s <("$TG" cat --style=babeltrace "$m/ust" 2>/dev/null) \
          <("$TG" cat --style=babeltrace --events='tg_mixed:*' "$m/ust" "$m/kernel.dat" 2>/dev/null); then
    echo "ok   babeltrace style keeps LTTng's own times among other traces"
else
    echo "FAIL babeltrace style changed by the alignment"; fail=1
fi
exit $fail
