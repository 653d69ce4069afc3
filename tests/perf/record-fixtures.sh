#!/bin/bash
# record-fixtures.sh - records the project's own perf.data fixtures with Debian's perf.
#
# Builds tests/perf/perf_work.c at a fixed path (/tmp/tg-perf-fixture/perf_work, so that the
# recorded MMAP paths do not depend on a temporary name), records it as root with
# `perf record` in every mode the reader must handle, and keeps in tests/data/perf/: each
# small perf.data, the workload binary (perf resolves its symbols from it when its build id
# matches: the tests give it as --symfs) and the peers' outputs for each file:
#   NAME.script.txt        perf script --symfs=EMPTY         (every symbol [unknown])
#   NAME.script-sym.txt    perf script --symfs=symfs         (the workload's own symbols)
#   NAME.script-F.txt      perf script -F comm,pid,tid,time,period,event,ip,sym,dso
#   NAME.script-ns.txt     perf script --ns
#   NAME.report.txt        perf report --stdio --symfs=EMPTY
#   NAME.stats.txt         perf report --stats
#   NAME.report-flat.txt   perf report --stdio --no-children -g none (files with call chains)
#   NAME.stackcollapse.txt perf script report stackcollapse --symfs=EMPTY (perf's own script)
#   NAME.report-VARIANT.txt  perf report --stdio with the options of each VARIANT below
#                          (report_variants: --no-children, -g none, -g caller, --sort keys)
# An empty symfs makes the outputs independent of the machine's kernel and libraries (perf
# then finds no kallsyms and no library either), so they can be compared on any machine.
# With fixture names as arguments (e.g. `record-fixtures.sh sched-g`), records only those
# (and no perf-kernel data), leaving the other fixtures as they are.  `record-fixtures.sh
# --kallsyms` records nothing: on the kernel that recorded the fixtures, it keeps the lines
# of /proc/kallsyms that name their kernel addresses (kallsyms_subset.py) as kallsyms, two
# damaged copies (kallsyms-edge: every fourth symbol of the first half, so that addresses
# fall past the kernel's map or into an earlier symbol; kallsyms-noref: without _text, the
# reference symbol, so that perf loads none), and perf's outputs with them:
#   NAME.script-kallsyms.txt       perf script --symfs=EMPTY --kallsyms=kallsyms
#   NAME.report-kallsyms.txt       perf report --stdio --symfs=EMPTY --kallsyms=kallsyms
#   NAME.stackcollapse-kallsyms.txt  perf script report stackcollapse, the same
#   NAME.script-kallsyms-edge.txt, NAME.script-kallsyms-noref.txt  perf script with those
#   NAME.script-cpumode.txt        perf script -F tid,misc (each sample's cpumode letter)  `record-fixtures.sh
# --reports` records nothing: it only writes the perf report references of the fixtures
# there are.  `record-fixtures.sh --ctf` records nothing either: it converts each fixture
# with `perf data convert --to-ctf` and keeps babeltrace2's text of it (TZ=UTC) as
# NAME.ctf.txt, and the first 200 lines of that of perf-kernel/kernel.data as
# kernel.ctf-head.txt (pipe.data has none: perf's converter refuses pipe input).
# Skips (exit 77) where perf is missing or perf_event_open is refused.
set -e
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data/perf
command -v perf >/dev/null || { echo "SKIP: perf is not installed (linux-perf)"; exit 77; }
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf record -q -e cpu-clock -o "$tmp/probe.data" -- true >/dev/null 2>&1 ||
    { echo "SKIP: perf record is refused here (perf_event_open; run as root)"; exit 77; }
work=/tmp/tg-perf-fixture
mkdir -p "$work" "$data" "$tmp/empty"
if [ "${1:-}" = --kallsyms ]; then
    want=$(perf buildid-list -i "$data/sched-g.data" 2>/dev/null | sed -n 's/ \[kernel.kallsyms\]$//p')
    [ "$want" = "$(perf buildid-list -k 2>/dev/null)" ] ||
        { echo "SKIP: the fixtures were recorded on another kernel than this one"; exit 77; }
    ks=(cpu-clock cpu-clock-g multi sched-g all-g)
    /usr/bin/python3 "$here/kallsyms_subset.py" /proc/kallsyms "$data/kallsyms" \
        $(for n in "${ks[@]}"; do echo "$data/$n.script.txt"; done)
    half=$(($(wc -l <"$data/kallsyms") / 2))
    { grep -E ' (_text|_stext)$' "$data/kallsyms"; head -n "$half" "$data/kallsyms" |
        grep -vE ' (_text|_stext)$' | awk 'NR % 4 == 0'; } >"$data/kallsyms-edge"
    grep -vE ' _text$' "$data/kallsyms" >"$data/kallsyms-noref"
    for n in "${ks[@]}"; do
        f=$data/$n.data
        perf script -i "$f" --symfs="$tmp/empty" --kallsyms="$data/kallsyms" \
            >"$data/$n.script-kallsyms.txt" 2>/dev/null
        perf report -i "$f" --stdio --symfs="$tmp/empty" --kallsyms="$data/kallsyms" \
            >"$data/$n.report-kallsyms.txt" 2>/dev/null
        perf script report stackcollapse -i "$f" --symfs="$tmp/empty" \
            --kallsyms="$data/kallsyms" >"$data/$n.stackcollapse-kallsyms.txt" 2>/dev/null
        perf script -i "$f" -F tid,misc >"$data/$n.script-cpumode.txt" 2>/dev/null
        for v in edge noref; do
            perf script -i "$f" --symfs="$tmp/empty" --kallsyms="$data/kallsyms-$v" \
                >"$data/$n.script-kallsyms-$v.txt" 2>/dev/null
        done
    done
    chmod 644 "$data"/kallsyms* "$data"/*.txt
    exit 0
fi
if [ "${1:-}" = --ctf ]; then
    command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
    export TZ=UTC
    for f in "$data"/*.data; do
        n=$(basename "${f%.data}")
        [ "$n" = pipe ] && continue
        perf data convert --to-ctf "$tmp/ctf-$n" -i "$f" >/dev/null 2>&1
        babeltrace2 "$tmp/ctf-$n" >"$data/$n.ctf.txt"
    done
    perf data convert --to-ctf "$tmp/ctf-kernel" -i "$here/../data/perf-kernel/kernel.data" \
        >/dev/null 2>&1
    babeltrace2 "$tmp/ctf-kernel" | head -n 200 >"$data/kernel.ctf-head.txt"
    chmod 644 "$data"/*.txt
    exit 0
fi
gcc -O1 -g -fno-omit-frame-pointer -o "$work/perf_work" "$here/perf_work.c"
rm -rf "$data/symfs" && mkdir -p "$data/symfs$work" && cp "$work/perf_work" "$data/symfs$work/"
run=("$work/perf_work" 1000)
# perf report's variants kept for report.sh: NAME SUFFIX OPTIONS (chains: files with call
# chains only)
report_variants() { # FILE NAME HAS-CHAINS
    local f=$1 name=$2 chains=$3 v
    local -a all=("sort-pid|--sort pid" "sort-comm|--sort comm" "sort-dso-sym|--sort dso,sym")
    local -a withchains=("nochildren|--no-children" "gnone|-g none" "caller|--no-children -g caller"
        "children-callee|-g callee" "sort-sym|--no-children --sort sym"
        "threshold|--no-children -g graph,5")
    [ "$chains" = yes ] && all=("sort-pid|--sort pid" "sort-comm|-g none --sort comm"
        "sort-dso-sym|-g none --sort dso,sym" "${withchains[@]}")
    perf script report stackcollapse -i "$f" --symfs="$tmp/empty" >"$name.stackcollapse.txt" \
        2>/dev/null
    for v in "${all[@]}"; do
        # shellcheck disable=SC2086 # the options are words
        perf report -i "$f" --stdio --symfs="$tmp/empty" ${v#*|} >"$name.report-${v%%|*}.txt" \
            2>/dev/null
    done
}
has_chains() {
    perf report -i "$1" --stdio --header-only 2>/dev/null |
        grep -q '^# sample_type.*CALLCHAIN\|^# event : .*sample_type = .*CALLCHAIN'
}
if [ "${1:-}" = --reports ]; then
    for f in "$data"/*.data; do
        chains=no
        has_chains "$f" && chains=yes
        report_variants "$f" "${f%.data}" $chains
    done
    chmod 644 "$data"/*.txt
    exit 0
fi
only=("$@")
wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }
rec() { # NAME perf-record-options...
    local name=$1
    shift
    wanted "$name" || return 0
    perf record -q -o "$data/$name.data" "$@" >/dev/null 2>&1
}
rec cpu-clock -F 1000 -e cpu-clock -- "${run[@]}"
rec cpu-clock-g -F 1000 -g -e cpu-clock -- "${run[@]}"
rec multi -F 1000 -e cpu-clock -e task-clock -e page-faults -e context-switches -- "${run[@]}"
rec sched --synth=task -a -e sched:sched_switch -e sched:sched_wakeup -- sleep 0.1
# every CPU's context switches with their kernel and user call chains (perf script prints
# the tracepoint's text, then the chain)
rec sched-g -a -g -e sched:sched_switch -- sleep 0.01
# every CPU's cpu-clock samples with call chains: many objects and threads, entries and call
# graph branches of equal weight (perf report's tie orders)
rec all-g -F 1000 -a -g -e cpu-clock -- sleep 0.05
rec zstd --compression-level=3 -F 1000 -e cpu-clock -- "${run[@]}"
wanted pipe && perf record -q -o - -F 1000 -e cpu-clock -- "${run[@]}" 2>/dev/null >"$data/pipe.data"
rm -f "$data"/*.data.old
for f in "$data"/*.data; do
    name=${f%.data}
    wanted "$(basename "$name")" || continue
    perf script -i "$f" --symfs="$tmp/empty" >"$name.script.txt" 2>/dev/null
    perf script -i "$f" --symfs="$data/symfs" >"$name.script-sym.txt" 2>/dev/null
    perf script -i "$f" --symfs="$tmp/empty" -F comm,pid,tid,time,period,event,ip,sym,dso \
        >"$name.script-F.txt" 2>/dev/null
    perf script -i "$f" --symfs="$tmp/empty" --ns >"$name.script-ns.txt" 2>/dev/null
    perf report -i "$f" --stdio --symfs="$tmp/empty" >"$name.report.txt" 2>/dev/null
    perf report -i "$f" --stats >"$name.stats.txt" 2>/dev/null
    chains=no
    if has_chains "$f"; then
        chains=yes
        perf report -i "$f" --stdio --no-children -g none --symfs="$tmp/empty" \
            >"$name.report-flat.txt" 2>/dev/null
    fi
    report_variants "$f" "$name" $chains
done
chmod 644 "$data"/*.data "$data"/*.txt
ls -la "$data"
[ ${#only[@]} -eq 0 ] || exit 0
# the kernel analyses' tracepoints (tests/analyze/sql-agree.sh): every CPU for 10 ms, without
# the task list, zstd-compressed (a few thousand raw_syscalls); no peer output is kept of it
mkdir -p "$here/../data/perf-kernel"
perf record -q --synth=no -z -m 512 -o "$here/../data/perf-kernel/kernel.data" -a \
    -e sched:sched_switch -e sched:sched_wakeup -e 'irq:*' -e 'raw_syscalls:*' -- sleep 0.01 \
    >/dev/null 2>&1
chmod 644 "$here/../data/perf-kernel/kernel.data"
# the fuzz target's tracepoint seed (tests/fuzz/fuzz_perf.c): the workload's own sched
# events, a few dozen records; sched.data's 1352 take over a second of CPU per input under
# the fuzzer's instrumentation (libFuzzer's timeout)
mkdir -p "$here/../data/perf-tp"
perf record -q -o "$here/../data/perf-tp/sched-task.data" \
    -e sched:sched_switch -e sched:sched_wakeup -- "${run[@]}" >/dev/null 2>&1
chmod 644 "$here/../data/perf-tp/sched-task.data"
# memtop's page events (tests/analyze/sql-agree.sh): every CPU for 10 ms, sched and kmem page
# tracepoints, zstd-compressed
perf record -q --synth=no -z -m 512 -o "$here/../data/perf-kernel/kmem.data" -a \
    -e sched:sched_switch -e sched:sched_wakeup -e kmem:mm_page_alloc -e kmem:mm_page_free \
    -- sleep 0.01 >/dev/null 2>&1
chmod 644 "$here/../data/perf-kernel/kmem.data"
