#!/bin/bash
# script.sh - `cat --style=perf` against `perf script` (perf 6.1) on the fixtures: byte for
# byte, default fields and --ns, software events with and without call chains, several
# events in one file, pipe mode and zstd-compressed records; each with an empty --symfs
# (every symbol perf's "[unknown]", the shared objects from the recorded maps alone) and with
# --symfs holding the workload binary (its functions as perf finds them in its ELF symbol
# table, "inner_loop+0x2a").  Tracepoints (sched: sched_switch and sched_wakeup on every
# CPU; sched-g: sched_switch with kernel and user call chains, JIT maps among them) print
# their payload as the tracepoint's print fmt prints it.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
empty=$TG_TMP/empty-symfs
mkdir -p "$empty"
for n in cpu-clock cpu-clock-g multi pipe zstd sched sched-g all-g; do
    tg_check "$n: perf script" "$D/$n.script.txt" "$TG" cat --style=perf --symfs "$empty" "$D/$n.data"
    tg_check "$n: perf script --ns" "$D/$n.script-ns.txt" \
        "$TG" cat --style=perf --ns --symfs "$empty" "$D/$n.data"
    tg_check "$n: perf script --symfs with the binary" "$D/$n.script-sym.txt" \
        "$TG" cat --style=perf --symfs "$D/symfs" "$D/$n.data"
done
tg_done
