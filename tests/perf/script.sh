#!/bin/bash
# script.sh - `cat --style=perf` against `perf script` (perf 6.1) on the fixtures: byte for
# byte, default fields and --ns, software events with and without call chains, several
# events in one file, pipe mode and zstd-compressed records.  The references were recorded
# with an empty --symfs (record-fixtures.sh), so every symbol is perf's "[unknown]" and the
# shared objects come from the recorded maps alone.  The tracepoint fixture (sched) is left
# out: its payload text is not printed yet.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
for n in cpu-clock cpu-clock-g multi pipe zstd; do
    tg_check "$n: perf script" "$D/$n.script.txt" "$TG" cat --style=perf "$D/$n.data"
    tg_check "$n: perf script --ns" "$D/$n.script-ns.txt" "$TG" cat --style=perf --ns "$D/$n.data"
done
tg_done
