#!/bin/bash
# record-block-dat.sh - records tests/data/ftrace/block-io.dat, the trace.dat on which
# sql-agree checks the I/O analyses (block requests, with the system calls and scheduling
# around them): block_rq_issue/insert/complete, sched and syscalls enabled through tracefs
# (`trace-cmd record` does not work on these machines; `trace-cmd extract` does) around a
# direct write, a read and a sync of a file, extracted with `trace-cmd extract` and made
# small with tests/ftrace/shrink-dat.py; trace-cmd report, report -R and report -t of it go
# beside it (OUT's name with .report.txt, .report-raw.txt, .report-t.txt).
#
# usage: record-block-dat.sh [OUT]   (default: tests/data/ftrace/block-io.dat)
# Needs root (tracefs), trace-cmd.  Exits 77 with the reason when it cannot record.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/ftrace/block-io.dat}
T=/sys/kernel/tracing
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd is not installed"; exit 77; }
[ -w $T/tracing_on ] || mount -t tracefs nodev $T 2>/dev/null || true
[ -w $T/tracing_on ] || { echo "SKIP: tracefs is not writable at $T"; exit 77; }
exec 9>/tmp/traceglot-tracefs.lock # one recording at a time on the shared tracefs
flock -w 600 9 || { echo "SKIP: tracefs busy (lock /tmp/traceglot-tracefs.lock)"; exit 77; }
tmp=$(mktemp -d /var/tmp/tg-block.XXXXXX) # on the disk (not a tmpfs): real block requests
trap 'echo 0 > $T/events/syscalls/filter; echo 0 > $T/events/enable; echo 1408 > $T/buffer_size_kb; echo 1 > $T/tracing_on; rm -rf "$tmp"' EXIT
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo 0 > $T/events/enable
echo > $T/trace
echo 2048 > $T/buffer_size_kb
for e in block/block_rq_issue block/block_rq_insert block/block_rq_complete \
    sched/sched_switch sched/sched_wakeup sched/sched_process_fork sched/sched_process_exec \
    sched/sched_process_exit syscalls/sys_enter_write syscalls/sys_exit_write syscalls/sys_enter_read \
    syscalls/sys_exit_read syscalls/sys_enter_openat syscalls/sys_exit_openat \
    syscalls/sys_enter_close syscalls/sys_exit_close syscalls/sys_enter_fsync \
    syscalls/sys_exit_fsync syscalls/sys_enter_sync syscalls/sys_exit_sync; do
    echo 1 > "$T/events/$e/enable"
    # the machine is shared: the system calls of dd alone (the rest is other users' noise)
    case $e in syscalls/*) echo 'comm == "dd"' > "$T/events/$e/filter" ;; esac
done
sync
echo 1 > $T/tracing_on
dd if=/dev/zero of="$tmp/blob" bs=64k count=4 oflag=direct conv=fsync 2>/dev/null
dd if="$tmp/blob" of=/dev/null bs=64k iflag=direct 2>/dev/null
sync
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
trace-cmd extract -o "$tmp/raw.dat" > /dev/null 2>&1
trace-cmd convert --file-version 6 -i "$tmp/raw.dat" -o "$tmp/v6.dat" > /dev/null 2>&1
trace-cmd report "$tmp/v6.dat" > "$tmp/full.txt" 2>/dev/null
/usr/bin/python3 "$here/../ftrace/shrink-dat.py" "$tmp/v6.dat" "$out" auto "$tmp/full.txt"
trace-cmd report "$out" 2>/dev/null | cmp -s - "$tmp/full.txt" ||
    { echo "the shrunk copy does not print like the capture"; exit 1; }
# trace-cmd's own outputs beside it (tests/ftrace/golden.sh compares traceglot's with them)
cp "$tmp/full.txt" "${out%.dat}.report.txt"
trace-cmd report -R "$out" > "${out%.dat}.report-raw.txt" 2>/dev/null
trace-cmd report -t "$out" > "${out%.dat}.report-t.txt" 2>/dev/null
echo "recorded $out: $(stat -c %s "$out") bytes, $(trace-cmd report "$out" 2>/dev/null | grep -c block_rq_) block events"
