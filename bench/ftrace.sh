#!/bin/bash
# bench/ftrace.sh - traceglot vs trace-cmd on a large trace.dat (several hundred thousand events).
#
# Captures kernel events once through tracefs (sched, irq, timer, raw_syscalls and a few
# syscalls, large per-CPU buffers, a shell workload) with `trace-cmd extract`, converts the
# capture to file versions 6 and 7 with zstd (cached in $TG_BENCH_OUT), then times
# `traceglot cat --style=trace-cmd` against `trace-cmd report` on each in alternating pairs
# (timing.sh's tg_pairs), checking that the outputs are identical byte for byte.  Goal: >= 10x
# (v7 zstd).  A second capture holds only the kmem events (kmalloc, kfree, kmem_cache_*,
# mm_page_*, rss_stat: print fmts of __print_flags, __print_symbolic, %pS, __get_str) over a
# file-walking workload, about a million events (goal: >= 15x, issue 35).  One more case
# times a hand-built function_graph trace.dat of 3.2 million records (leaf folding and
# blocks).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}
T=/sys/kernel/tracing
for tool in trace-cmd /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "ftrace: SKIP ($tool is not installed)"; exit 0; }
done
mkdir -p "$out"
raw=$out/ftrace-bench-extract.dat
dat=$out/ftrace-bench-v6.dat
zst=$out/ftrace-bench-v7zstd.dat

capture() {
    [ -w $T/tracing_on ] || mount -t tracefs nodev $T 2>/dev/null || true
    [ -w $T/tracing_on ] || return 1
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    echo > $T/trace
    echo 32768 > $T/buffer_size_kb
    for e in sched irq timer raw_syscalls syscalls/sys_enter_openat syscalls/sys_exit_openat \
             syscalls/sys_enter_read syscalls/sys_exit_read syscalls/sys_enter_close \
             syscalls/sys_exit_close workqueue; do
        echo 1 > "$T/events/$e/enable"
    done
    echo 1 > $T/tracing_on
    local i
    for i in $(seq 1 150); do
        ls /usr/bin > /dev/null
        cat /etc/passwd /etc/group > /dev/null
        sleep 0.001
    done
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    trace-cmd extract -o "$raw" > /dev/null 2>&1
    echo 1408 > $T/buffer_size_kb
    echo 1 > $T/tracing_on
    [ -s "$raw" ]
}

# The kmem capture: the same way, 64 MB per CPU, only the kmem subsystem enabled.
kmem=$out/ftrace-bench-kmem-v6.dat
capture_kmem() {
    [ -w $T/tracing_on ] || return 1
    local raw_kmem=$out/ftrace-bench-kmem-extract.dat
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    echo > $T/trace
    echo 65536 > $T/buffer_size_kb
    echo 1 > $T/events/kmem/enable
    echo 1 > $T/tracing_on
    ls -lR /usr/share > /dev/null 2>&1
    sort /etc/services | uniq > /dev/null
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    trace-cmd extract -o "$raw_kmem" > /dev/null 2>&1
    echo 1408 > $T/buffer_size_kb
    echo 1 > $T/tracing_on
    [ -s "$raw_kmem" ] && trace-cmd convert --file-version 6 -i "$raw_kmem" -o "$kmem" >/dev/null 2>&1
    rm -f "$raw_kmem"
    [ -s "$kmem" ]
}

have_capture=1
if [ ! -s "$raw" ]; then
    if capture; then
        rm -f "$dat" "$zst"
    else
        echo "ftrace: SKIP the kernel-event cases (cannot capture through tracefs)"
        rm -f "$raw"
        have_capture=0
    fi
fi
if [ "$have_capture" = 1 ]; then
    [ -s "$dat" ] || trace-cmd convert --file-version 6 -i "$raw" -o "$dat" >/dev/null 2>&1
    [ -s "$zst" ] || trace-cmd convert --file-version 7 --compression zstd -i "$raw" -o "$zst" >/dev/null 2>&1
fi
# function_graph: a hand-built trace.dat (the tracer cannot run here) of 4 cpus x 20000
# rounds x 40 records = 3.2 million funcgraph records (tests/ftrace/build-func-fixtures.py)
fg=$out/ftrace-bench-fgraph-v6.dat
[ -s "$fg" ] || python3 "$here/../tests/ftrace/build-func-fixtures.py" --bench "$fg" 4 20000 ||
    echo "ftrace: SKIP the function_graph case (cannot read tracefs's format files)"

. "$here/timing.sh"

bench() { # NAME FILE [OPTION] (GOAL=x in the environment: the ratio asked for)
    local name=$1 file=$2 opt=${3:-} goal=()
    [ -n "${GOAL:-}" ] && goal=(--goal "$GOAL")
    tg_pairs "$name" "${goal[@]}" :: traceglot "$TG" cat --style=trace-cmd $opt "$file" :: \
        trace-cmd trace-cmd report $opt "$file"
}

if [ "$have_capture" = 1 ]; then
    events=$(( $("$TG" cat --style=trace-cmd "$dat" 2>/dev/null | wc -l) - 1 ))
    echo "ftrace: $events events in $dat ($(du -m "$dat" | cut -f1) MB; v7 zstd: $(du -m "$zst" | cut -f1) MB)"
    bench "trace-cmd report v6" "$dat"
    bench "trace-cmd report -R v6" "$dat" -R
    GOAL=10 bench "trace-cmd report v7 zstd" "$zst"
fi
[ -s "$kmem" ] || capture_kmem || echo "ftrace: SKIP the kmem case (cannot capture through tracefs)"
if [ -s "$kmem" ]; then
    echo "ftrace: $(( $("$TG" cat --style=trace-cmd "$kmem" 2>/dev/null | wc -l) - 1 )) kmem events in $kmem ($(du -m "$kmem" | cut -f1) MB)"
    GOAL=15 bench "trace-cmd report kmem" "$kmem"
fi
if [ -s "$fg" ]; then
    echo "ftrace: $(du -m "$fg" | cut -f1) MB of function_graph records in $fg"
    bench "trace-cmd report function_graph" "$fg"
fi
