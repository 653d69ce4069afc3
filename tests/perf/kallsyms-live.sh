#!/bin/bash
# kallsyms-live.sh - the kernel's symbols perf finds by itself, on a recording made here:
# without --kallsyms and --symfs, perf 6.1 reads the running kernel's /proc/kallsyms when
# the build id the file recorded for [kernel.kallsyms] is the running kernel's
# (/sys/kernel/notes), and so does `cat --style=perf`.  Records every CPU's context switches
# with call chains for 10 ms and compares the kernel frames (the lines of [kernel.kallsyms])
# of perf script and traceglot on that file, with HOME empty (no build-id cache).  Skips
# where perf is missing or perf_event_open is refused.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd perf "linux-perf"
data=$TG_TMP/live.data
perf record -q -o "$data" -a -g -e sched:sched_switch -- sleep 0.01 >/dev/null 2>&1 ||
    tg_skip "perf record is refused here (perf_event_open; run as root)"
mkdir -p "$TG_TMP/home"
HOME=$TG_TMP/home perf script -i "$data" 2>/dev/null | grep '(\[kernel.kallsyms\])$' \
    >"$TG_TMP/want" || true
[ -s "$TG_TMP/want" ] || tg_skip "perf recorded no kernel call chain here"
grep -qv ' \[unknown\] ' "$TG_TMP/want" ||
    tg_skip "perf names no kernel symbol here (no readable /proc/kallsyms)"
HOME=$TG_TMP/home "$TG" cat --style=perf "$data" >"$TG_TMP/all"
grep '(\[kernel.kallsyms\])$' "$TG_TMP/all" >"$TG_TMP/got" || true
tg_same "kernel frames named from /proc/kallsyms as perf script names them" "$TG_TMP/want" \
    "$TG_TMP/got"
tg_done
