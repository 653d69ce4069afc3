#!/bin/bash
# ctf.sh - `convert --to ctf` of a perf.data file against `perf data convert --to-ctf`:
# babeltrace2's text of both outputs, byte for byte (the references NAME.ctf.txt are
# babeltrace2's text of perf's own conversion of each fixture, made by record-fixtures.sh
# --ctf with TZ=UTC).  The same event names (cpu-clock, sched:sched_switch), the sample's
# perf_* fields, the call chain, the tracepoints' common_* and own fields with perf's types,
# cpu_id per stream, and the times on perf's clock.  kernel.ctf-head.txt is the head of
# perf's conversion of the perf-kernel fixture (raw_syscalls' args arrays, irq strings).
# pipe.data has no reference: perf's converter refuses pipe input and a `perf inject`ed
# copy of it alike ("Error during conversion setup.").
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
tg_need_cmd babeltrace2 "babeltrace2"
export TZ=UTC
bt_text() { # DIR: babeltrace2's text of a CTF directory
    babeltrace2 "$1" 2>"$TG_TMP/bt-err"
}
for n in cpu-clock cpu-clock-g multi sched sched-g all-g zstd; do
    out=$TG_TMP/ctf-$n
    rm -rf "$out"
    if ! "$TG" convert --to ctf -o "$out" "$D/$n.data" 2>"$TG_TMP/err"; then
        tg_fail "$n: convert --to ctf" "$(head -c 300 "$TG_TMP/err")"
        continue
    fi
    tg_check "$n: babeltrace2 text as of perf data convert --to-ctf" "$D/$n.ctf.txt" \
        bt_text "$out"
done
out=$TG_TMP/ctf-kernel
rm -rf "$out"
if "$TG" convert --to ctf -o "$out" "$TG_TEST_DATA/perf-kernel/kernel.data" 2>"$TG_TMP/err"; then
    lines=$(wc -l <"$D/kernel.ctf-head.txt")
    babeltrace2 "$out" 2>/dev/null | head -n "$lines" >"$TG_TMP/kernel-head.txt"
    tg_same "kernel: the first $lines events as perf data convert --to-ctf" \
        "$D/kernel.ctf-head.txt" "$TG_TMP/kernel-head.txt"
else
    tg_fail "kernel: convert --to ctf" "$(head -c 300 "$TG_TMP/err")"
fi
# the references hold samples, call chains and tracepoint fields: the checks can fail
grep -q 'perf_callchain = \[ \[0\]' "$D/cpu-clock-g.ctf.txt" &&
    grep -q 'sched:sched_switch: { cpu_id = [0-9]* }, { perf_ip = .*prev_comm = "' "$D/sched.ctf.txt" &&
    grep -q 'args = \[ \[0\] = 0x' "$D/kernel.ctf-head.txt" &&
    tg_pass "the references carry chains, tracepoint fields and arrays" ||
    tg_fail "the references carry chains, tracepoint fields and arrays" "missing"
tg_done
