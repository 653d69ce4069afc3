#!/bin/bash
# report.sh - `report --style=perf` against `perf report --stdio` (perf 6.1) on the fixtures
# recorded without call chains: byte for byte up to perf's closing tip, which perf picks at
# random ("#", "# (Tip: ...)", "#": the last three lines of its output, left out of the
# comparison and not printed by traceglot).  An empty --symfs, as the references were
# recorded: every entry an address.  A file recorded with call chains (sched-g) against
# perf report --stdio --no-children -g none (the entries of the leaves, no graph).
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
empty=$TG_TMP/empty-symfs
mkdir -p "$empty"
for n in cpu-clock multi pipe zstd sched; do
    tail -n 3 "$D/$n.report.txt" | sed -n 2p | grep -q '^# (Tip: ' ||
        { tg_fail "$n: perf report" "the reference does not end with perf's tip"; continue; }
    head -n -3 "$D/$n.report.txt" >"$TG_TMP/want"
    tg_check "$n: perf report --stdio" "$TG_TMP/want" "$TG" report --style=perf --symfs "$empty" "$D/$n.data"
done
for n in sched-g; do
    head -n -3 "$D/$n.report-flat.txt" >"$TG_TMP/want"
    tg_check "$n: perf report --stdio --no-children -g none" "$TG_TMP/want" \
        "$TG" report --style=perf --no-children -g none --symfs "$empty" "$D/$n.data"
done
tg_done
