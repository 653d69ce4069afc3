#!/bin/bash
# check-order.sh UFTRACE_DIR UST_DIR KERNEL_DAT [TRACEGLOT OPTIONS...] - one program run seen
# by three tracers must come out of `traceglot cat` in causal order, round by round.
#
# The program (mixed_app.c in the corpus, tg_mixed_app.c here) calls work(k) for k = 0, 1, ...;
# work() fires the LTTng-UST tracepoint tg_mixed:round (k), writes one byte with write(2) and
# returns.  uftrace records work()'s entry and exit, LTTng the tracepoint, ftrace the
# sys_enter_write.  So every round must read: work() entry < tg_mixed:round k=ROUND <
# sys_enter_write(count=1) of the program's thread < work() exit; and every tracepoint must
# belong to a round.  Prints the number of rounds checked; exit 1 (with the round and the line
# out of order) when they are not.
set -u
TG=${TG:?TG must name the traceglot CLI}
[ $# -ge 3 ] || { echo "usage: check-order.sh UFTRACE_DIR UST_DIR KERNEL_DAT [OPTIONS...]"; exit 2; }
uft=$1 ust=$2 kern=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$TG" cat "$@" "$uft" "$ust" "$kern" > "$out" 2>/dev/null
[ -s "$out" ] || { echo "FAIL: traceglot cat printed nothing"; exit 1; }
awk '
function bad(what) {
    printf "FAIL: round %d: %s out of order (expected %s):\n  %s\n", round, what, want[st], $0
    failed = 1
    exit 1
}
BEGIN { st = 0; round = 0; tid = ""
        want[0] = "work() entry"; want[1] = "tg_mixed:round k=" 0
        want[2] = "sys_enter_write"; want[3] = "work() exit" }
/ uftrace:entry: func=work / {
    if (st != 0) bad("work() entry")
    if (match($0, /tid=[0-9]+/)) tid = substr($0, RSTART + 4, RLENGTH - 4)
    st = 1; next
}
/ tg_mixed:round: / {
    tps++
    k = $0; sub(/.* k=/, "", k); sub(/[^0-9].*/, "", k)
    want[1] = "tg_mixed:round k=" round
    if (st != 1 || k + 0 != round) bad("tg_mixed:round k=" k)
    st = 2; next
}
tid != "" && index($0, " tid=" tid " sys_enter_write: ") && / count=1$/ {
    if (st == 1) bad("sys_enter_write(count=1)")
    if (st == 2) st = 3
    next
}
/ uftrace:exit: func=work / {
    if (st != 3) bad("work() exit")
    round++; st = 0; next
}
END {
    if (failed) exit 1
    if (round == 0) { print "FAIL: no round found (work() entries, tg_mixed:round, sys_enter_write)"; exit 1 }
    if (st != 0) { printf "FAIL: round %d is not complete (missing %s)\n", round, want[st]; exit 1 }
    if (tps != round) { printf "FAIL: %d tracepoints for %d rounds\n", tps, round; exit 1 }
    printf "%d rounds in causal order\n", round
}' "$out"
