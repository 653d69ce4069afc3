#!/bin/bash
# folded.sh - `convert --to folded` of a perf.data file against Debian perf's own
# `perf script report stackcollapse` (scripts/python/stackcollapse.py) on the fixtures
# recorded by record-fixtures.sh, byte for byte: the samples counted per thread name and
# call chain (none on files without chains; tracepoint samples, which the script does not
# handle, not at all).  An empty --symfs, as the references were recorded: every frame
# [unknown], but the kernel's with --kallsyms.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
empty=$TG_TMP/empty-symfs
mkdir -p "$empty"
for n in cpu-clock cpu-clock-g multi pipe zstd sched sched-g all-g; do
    tg_check "$n: perf script report stackcollapse" "$D/$n.stackcollapse.txt" \
        "$TG" convert --to folded --symfs "$empty" "$D/$n.data"
done
# the kernel's frames named from the fixtures' kallsyms (--kallsyms)
for n in cpu-clock cpu-clock-g multi sched-g all-g; do
    tg_check "$n: stackcollapse --kallsyms" "$D/$n.stackcollapse-kallsyms.txt" \
        "$TG" convert --to folded --symfs "$empty" --kallsyms "$D/kallsyms" "$D/$n.data"
done
# the references are not all empty: the check can fail
[ -s "$D/cpu-clock-g.stackcollapse.txt" ] && tg_pass "cpu-clock-g: the reference has stacks" ||
    tg_fail "cpu-clock-g: the reference has stacks" "empty"
tg_done
