#!/bin/bash
# record-fixtures.sh - records the project's own small trace.dat fixtures with the real tools.
#
# Kernel events are enabled through tracefs for a short workload (`trace-cmd record` does not
# work on these machines; `trace-cmd extract` does), extracted with `trace-cmd extract`, and
# rewritten with `trace-cmd convert` as file version 6, version 7 uncompressed and version 7
# with zstd.  Beside each capture go trace-cmd's own outputs: report (.report.txt), report -R
# (.report-raw.txt), report -t (.report-t.txt), the same for the three versions (checked),
# and report --stat per version (-VERSION.stat.txt: it shows file offsets).
# Each capture is kept small (tens of KB): shrink-dat.py drops the formats and kallsyms
# entries the capture does not use, before trace-cmd prints the expected outputs.
#
# usage: record-fixtures.sh [OUTDIR]   (default: tests/data/ftrace next to this script)
#        TG_CAPTURES="stacktrace" record-fixtures.sh   records only the captures named
# Needs root (tracefs), trace-cmd.  Exits 77 with the reason when it cannot record.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/ftrace}
T=/sys/kernel/tracing

command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd is not installed"; exit 77; }
if [ ! -w $T/tracing_on ]; then
    mount -t tracefs nodev $T 2>/dev/null || true
fi
[ -w $T/tracing_on ] || { echo "SKIP: tracefs is not writable at $T"; exit 77; }
# the same tracefs is shared by everything on this machine (timeline/mixed-live records
# through it too, and ctest runs tests side by side): one recording at a time
exec 9>/tmp/traceglot-tracefs.lock
flock -w 600 9 || { echo "SKIP: tracefs busy (lock /tmp/traceglot-tracefs.lock)"; exit 77; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'echo 0 > $T/events/enable; echo 1408 > $T/buffer_size_kb; echo 1 > $T/tracing_on; rm -rf "$tmp"' EXIT

reset_tracing() {
    echo 0 > $T/tracing_on
    echo nop > $T/current_tracer
    echo 0 > $T/events/enable
    echo > $T/trace
}

marker() { # trace_marker writes (print events) from both CPUs; a trailing newline or none
    local c
    for c in 0 1; do
        taskset -c $c sh -c "echo 'traceglot fixture marker $1 on cpu $c' > $T/trace_marker;
            printf 'marker $1 without a newline' > $T/trace_marker" 2>/dev/null || true
    done
}

# a little of everything: fork/exec, files, pipes, signals, timers, TCP over the loopback,
# marker writes.  It runs in a subshell: bash 5.2 run in the script itself printed
# "wait_for: No record of process N" from the EXIT trap, about the pipeline's last process
# that the subshell now reaps
workload() (
    marker 1
    ls /usr/bin > /dev/null
    dd if=/dev/zero of="$tmp/blob" bs=4k count=8 conv=fsync 2>/dev/null
    cat "$tmp/blob" | wc -c > /dev/null
    sleep 0.01 &
    local p=$!
    kill -USR1 $p 2>/dev/null || true
    wait 2>/dev/null || true
    /usr/bin/python3 "$here/tcp-exchange.py" 2>/dev/null || true
    marker 2
    sync "$tmp/blob"
    rm -f "$tmp/blob"
)

# capture NAME BUFFER_KB EVENT...
capture() {
    local name=$1 kb=$2
    shift 2
    reset_tracing
    echo "$kb" > $T/buffer_size_kb
    for e in "$@"; do
        echo 1 > "$T/events/$e/enable"
    done
    echo 1 > $T/tracing_on
    workload
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    trace-cmd extract -o "$tmp/$name.raw.dat" > /dev/null 2>&1
    trace-cmd convert --file-version 6 -i "$tmp/$name.raw.dat" -o "$tmp/$name.full.dat" >/dev/null 2>&1
    trace-cmd report "$tmp/$name.full.dat" > "$tmp/full.txt" 2>/dev/null
    trace-cmd report -R "$tmp/$name.full.dat" > "$tmp/full-raw.txt" 2>/dev/null
    # keep the event systems captured and the kallsyms entries the outputs need
    local systems=ftrace e
    for e in "$@"; do systems="$systems,$e"; done
    finish "$name" "$systems"
}

# raw_of NAME DAT OUT: trace-cmd report -R of DAT into OUT.  Reading a kernel stack's caller[]
# past the pages it mapped, trace-cmd can also crash (a segmentation fault when nothing is
# mapped there): then OUT is not kept, and the capture has no -R output to compare with
raw_of() {
    local rc=0
    trace-cmd report -R "$2" > "$3" 2>/dev/null || rc=$?
    if [ $rc -ge 128 ]; then
        echo "$1: trace-cmd report -R $(basename "$2") died of signal $((rc - 128)) (a kernel" \
            "stack read past its pages): no -R output kept"
        rm -f "$3"
        return 1
    fi
}

# finish NAME SYSTEMS: shrink $tmp/NAME.full.dat into OUTDIR/NAME-v6.dat, convert it to v7 and
# v7 zstd, and record trace-cmd's outputs (checked alike for the three versions)
finish() {
    local name=$1 systems=$2
    python3 "$here/shrink-dat.py" "$tmp/$name.full.dat" "$out/$name-v6.dat" "$systems" \
        "$tmp/full.txt" "$tmp/full-raw.txt"
    trace-cmd report "$out/$name-v6.dat" 2>/dev/null | cmp -s - "$tmp/full.txt" ||
        { echo "$name: the shrunk copy does not print like the capture"; exit 1; }
    trace-cmd convert --file-version 7 --compression none -i "$out/$name-v6.dat" \
        -o "$out/$name-v7.dat" >/dev/null 2>&1
    trace-cmd convert --file-version 7 --compression zstd -i "$out/$name-v6.dat" \
        -o "$out/$name-v7zstd.dat" >/dev/null 2>&1
    # trace-cmd prints the three versions alike: one set of outputs per capture
    local base="$out/$name"
    trace-cmd report "$base-v6.dat" > "$base.report.txt" 2>/dev/null
    raw_of "$name" "$base-v6.dat" "$base.report-raw.txt" || true
    trace-cmd report -t "$base-v6.dat" > "$base.report-t.txt" 2>/dev/null
    for v in v6 v7 v7zstd; do # --stat shows file offsets: one per version
        trace-cmd report --stat "$base-$v.dat" > "$base-$v.stat.txt" 2>/dev/null
    done
    # a kernel_stack record whose caller[] runs past its page is printed by -R past the
    # record: the next page while trace-cmd's block of mapped pages holds it, else trace-cmd's
    # own memory, and the blocks lie elsewhere in each version: the versions are compared up
    # to the page's end (golden.sh compares traceglot with all that the file holds)
    [ -f "$base.report-raw.txt" ] &&
        python3 "$here/stack-past-page.py" --page "$base-v6.dat" "$base.report-raw.txt" > "$tmp/v6-raw"
    for v in v7 v7zstd; do
        trace-cmd report "$base-$v.dat" 2>/dev/null | cmp -s - "$base.report.txt" &&
        trace-cmd report -t "$base-$v.dat" 2>/dev/null | cmp -s - "$base.report-t.txt" ||
            { echo "$name: trace-cmd prints $v differently from v6"; exit 1; }
        [ -f "$base.report-raw.txt" ] && raw_of "$name" "$base-$v.dat" "$tmp/raw" || continue
        python3 "$here/stack-past-page.py" --page "$base-v6.dat" "$tmp/raw" | cmp -s - "$tmp/v6-raw" ||
            { echo "$name: trace-cmd prints $v differently from v6 (report -R)"; exit 1; }
    done
    echo "$name: $(wc -l < "$out/$name.report.txt") lines, $(du -k "$out/$name-v7zstd.dat" | cut -f1) KB (v7 zstd)"
}

# capture_instance NAME: the top instance records irq events, a second trace instance
# ("tgi") sched_switch; `trace-cmd extract -a -t` stores both (BUFFER options)
capture_instance() {
    local name=$1 I=$T/instances/tgi
    reset_tracing
    mkdir -p $I
    echo > $I/trace
    echo 8 > $T/buffer_size_kb
    echo 8 > $I/buffer_size_kb
    echo 1 > $T/events/irq/enable
    echo 1 > $I/events/sched/sched_switch/enable
    echo 1 > $I/tracing_on
    echo 1 > $T/tracing_on
    workload
    echo 0 > $T/tracing_on
    echo 0 > $I/tracing_on
    echo 0 > $I/events/enable
    echo 0 > $T/events/enable
    trace-cmd extract -a -t -o "$tmp/$name.raw.dat" > /dev/null 2>&1
    rmdir $I 2>/dev/null || true
    trace-cmd convert --file-version 6 -i "$tmp/$name.raw.dat" -o "$tmp/$name.full.dat" >/dev/null 2>&1
    trace-cmd report "$tmp/$name.full.dat" > "$tmp/full.txt" 2>/dev/null
    trace-cmd report -R "$tmp/$name.full.dat" > "$tmp/full-raw.txt" 2>/dev/null
    finish "$name" ftrace,irq,sched/sched_switch
}

# capture_all NAME: every event of every system for a moment (small buffers), so the print-fmt
# engine meets the print fmts of whatever the kernel emits
capture_all() {
    local name=$1
    reset_tracing
    echo 4 > $T/buffer_size_kb
    echo 1 > $T/events/enable 2>/dev/null || true
    echo 1 > $T/tracing_on
    workload
    echo 0 > $T/tracing_on
    echo 0 > $T/events/enable
    trace-cmd extract -o "$tmp/$name.raw.dat" > /dev/null 2>&1
    trace-cmd convert --file-version 6 -i "$tmp/$name.raw.dat" -o "$tmp/$name.full.dat" >/dev/null 2>&1
    trace-cmd report "$tmp/$name.full.dat" > "$tmp/full.txt" 2>/dev/null
    trace-cmd report -R "$tmp/$name.full.dat" > "$tmp/full-raw.txt" 2>/dev/null
    finish "$name" auto
}

# capture_stack NAME EVENT...: options/stacktrace on, so each event is followed by an
# ftrace:kernel_stack record of the kernel stack at that point (its depth as recorded, the
# caller array declared longer: report -R prints it past the record, see finish)
capture_stack() {
    local name=$1
    shift
    reset_tracing
    echo 8 > $T/buffer_size_kb
    for e in "$@"; do
        echo 1 > "$T/events/$e/enable"
    done
    echo 1 > $T/options/stacktrace
    echo 1 > $T/tracing_on
    workload
    echo 0 > $T/tracing_on
    echo 0 > $T/options/stacktrace
    echo 0 > $T/events/enable
    trace-cmd extract -o "$tmp/$name.raw.dat" > /dev/null 2>&1
    trace-cmd convert --file-version 6 -i "$tmp/$name.raw.dat" -o "$tmp/$name.full.dat" >/dev/null 2>&1
    trace-cmd report "$tmp/$name.full.dat" > "$tmp/full.txt" 2>/dev/null
    trace-cmd report -R "$tmp/$name.full.dat" > "$tmp/full-raw.txt" 2>/dev/null
    local systems=ftrace e
    for e in "$@"; do systems="$systems,$e"; done
    finish "$name" "$systems"
}

# TG_CAPTURES="NAME..." records only those captures (the others stay as committed)
want() { [ -z "${TG_CAPTURES:-}" ] || [[ " $TG_CAPTURES " == *" $1 "* ]]; }

# scheduling, interrupts, timers and a few syscalls
want sched-irq-timer && capture sched-irq-timer 8 sched irq timer syscalls/sys_enter_openat syscalls/sys_exit_openat \
    syscalls/sys_enter_read syscalls/sys_exit_read syscalls/sys_enter_write syscalls/sys_exit_write
# memory, block, workqueues, signals, tasks, trace_marker prints
want kmem-block-wq && capture kmem-block-wq 8 kmem/kmalloc kmem/kfree kmem/kmem_cache_alloc kmem/kmem_cache_free \
    kmem/mm_page_alloc kmem/mm_page_free block workqueue signal task \
    writeback/writeback_dirty_inode filemap
# a mix of other systems whose print fmts use flags, symbols, arrays and hex
want instances && capture_instance instances
want all-events && capture_all all-events
want misc && capture misc 8 raw_syscalls ipi rcu/rcu_utilization power/cpu_idle mmap_lock vmscan \
    compaction oom percpu initcall
# the network events whose print fmts hold IP addresses (%pISpc, %pI4, %pI6c)
want net && capture net 16 tcp sock
# kernel stacks after process and file events (trace-cmd's <stack trace > rendering; -R
# prints caller[] to its declared length, past the record's end)
want stacktrace && capture_stack stacktrace sched/sched_process_fork sched/sched_process_exec \
    sched/sched_process_exit syscalls/sys_enter_openat
true
