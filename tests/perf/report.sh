#!/bin/bash
# report.sh - `report --style=perf` against `perf report --stdio` (perf 6.1) on the fixtures
# recorded by record-fixtures.sh: byte for byte up to perf's closing tip, which perf picks
# at random ("#", "# (Tip: ...)", "#": the last three lines of its output, left out of the
# comparison and not printed by traceglot).  An empty --symfs, as the references were
# recorded: every entry an address.  Files without call chains: the default report and the
# --sort variants; files with call chains (cpu-clock-g, sched-g): the default (Children
# column and caller-first call graphs), --no-children (callee-first graphs), -g none,
# -g caller, -g callee, a threshold, and --sort pid/comm/dso,sym/sym; the kernel's symbols
# from the fixtures' kallsyms (--kallsyms).
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
empty=$TG_TMP/empty-symfs
mkdir -p "$empty"
# the options of each reference (NAME.report-SUFFIX.txt), as record-fixtures.sh ran perf
variant_options() { # SUFFIX HAS-CHAINS
    case $1 in
    report) ;;
    report-flat) echo "--no-children -g none" ;;
    report-sort-pid) echo "--sort pid" ;;
    report-sort-comm) [ "$2" = yes ] && echo "-g none --sort comm" || echo "--sort comm" ;;
    report-sort-dso-sym) [ "$2" = yes ] && echo "-g none --sort dso,sym" || echo "--sort dso,sym" ;;
    report-nochildren) echo "--no-children" ;;
    report-gnone) echo "-g none" ;;
    report-caller) echo "--no-children -g caller" ;;
    report-children-callee) echo "-g callee" ;;
    report-sort-sym) echo "--no-children --sort sym" ;;
    report-threshold) echo "--no-children -g graph,5" ;;
    report-kallsyms) echo "--kallsyms $D/kallsyms" ;;
    *) return 1 ;;
    esac
}
for n in cpu-clock multi pipe zstd sched cpu-clock-g sched-g all-g; do
    chains=no
    [ -e "$D/$n.report-flat.txt" ] || [ -e "$D/$n.report-nochildren.txt" ] && chains=yes
    for ref in "$D/$n".report*.txt; do
        suffix=${ref##*/"$n".}
        suffix=${suffix%.txt}
        opts=$(variant_options "$suffix" $chains) ||
            { tg_fail "$n: $suffix" "no options known for this reference"; continue; }
        tail -n 3 "$ref" | sed -n 2p | grep -q '^# (Tip: ' ||
            { tg_fail "$n: $suffix" "the reference does not end with perf's tip"; continue; }
        head -n -3 "$ref" >"$TG_TMP/want"
        # shellcheck disable=SC2086 # the options are words
        tg_check "$n: perf report --stdio $opts" "$TG_TMP/want" \
            "$TG" report --style=perf $opts --symfs "$empty" "$D/$n.data"
    done
done
tg_done
