#!/bin/bash
# script.sh - `cat --style=perf` against `perf script` (perf 6.1) on the fixtures: byte for
# byte, default fields and --ns, software events with and without call chains, several
# events in one file, pipe mode and zstd-compressed records; each with an empty --symfs
# (every symbol perf's "[unknown]", the shared objects from the recorded maps alone) and with
# --symfs holding the workload binary (its functions as perf finds them in its ELF symbol
# table, "inner_loop+0x2a").  Tracepoints (sched: sched_switch and sched_wakeup on every
# CPU; sched-g: sched_switch with kernel and user call chains, JIT maps among them) print
# their payload as the tracepoint's print fmt prints it.  Kernel addresses are named from a
# kallsyms file (--kallsyms) as perf names them.
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
# the kernel's symbols from the fixtures' kallsyms (record-fixtures.sh --kallsyms), and from
# its damaged copies: kallsyms-edge (the kernel's map ends at its last symbol's page: the
# addresses past it in no map, except the one that loaded the symbols; others in an earlier
# symbol), kallsyms-noref (no _text: perf loads no symbol).  Not all-g with kallsyms-noref:
# there perf 6.1 names one frame of a sample from the symbols of its failed load
# (arch_check_zapped_pte+0x7f000000), which it does for no other frame of the same address.
for n in cpu-clock cpu-clock-g multi sched-g all-g; do
    for v in "" -edge -noref; do
        [ "$n$v" = all-g-noref ] && continue
        tg_check "$n: perf script --kallsyms kallsyms$v" "$D/$n.script-kallsyms$v.txt" \
            "$TG" cat --style=perf --symfs "$empty" --kallsyms "$D/kallsyms$v" "$D/$n.data"
    done
done
tg_done
