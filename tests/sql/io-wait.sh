#!/bin/bash
# io-wait.sh - thread_state.io_wait from sched_blocked_reason, as Perfetto sets it: on
# Perfetto's own diff-test trace that holds the event (Parsing__sched_blocked_reason_
# symbolized_*), the D states are the rows of Perfetto's expected output (trace_processor's
# answer: ts, pid), and each one's io_wait is the io_wait of the first sched_blocked_reason of
# its thread at or after it in the trace (trace.textproto, read by pftext.py), the blocked
# row Perfetto's ThreadStateTracker gives it to.  No trace.dat or LTTng trace of the corpus
# holds the event (an Android kernel's): skips without the Perfetto tests.
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
d=$TG_CORPUS/../perfetto-tests/Parsing__sched_blocked_reason_symbolized_sched_blocked_reason_function
[ -f "$d/trace.pb" ] || tg_skip "$d not found"
PYTHONPATH=$TG_TESTS/viewers /usr/bin/python3 - "$d" >"$TG_TMP/want" <<'PY'
import csv, sys
from pftext import one, packets
d = sys.argv[1]
reasons = []
for p in packets(open(d + "/trace.textproto").read()):
    for b in p.get("ftrace_events", []):
        for e in b.get("event", []):
            for r in e.get("sched_blocked_reason", []):
                reasons.append((one(e, "timestamp"), one(r, "pid"), one(r, "io_wait")))
reasons.sort()
rows = list(csv.reader(open(d + "/expected.csv")))[1:]
for ts, pid, _ in sorted(rows, key=lambda r: (int(r[0]), int(r[1]))):
    later = [w for t, p, w in reasons if p == int(pid) and t >= int(ts)]
    print("%s,%s,%s" % (ts, pid, later[0] if later else ""))
PY
[ -s "$TG_TMP/want" ] || tg_fail "expected rows" "none read from $d"
if tg_run "$TG" sql --format csv "$d/trace.pb" -q "SELECT ts, tid, io_wait FROM thread_state
        JOIN thread USING (utid) WHERE state = 'D' ORDER BY ts, tid"; then
    tail -n +2 "$TG_TMP/out" >"$TG_TMP/got"
    tg_same "D states and their io_wait ($(wc -l <"$TG_TMP/want"))" "$TG_TMP/want" "$TG_TMP/got"
else
    tg_fail "traceglot sql" "$(head -3 "$TG_TMP/err")"
fi
tg_done
