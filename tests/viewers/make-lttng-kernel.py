#!/usr/bin/env python3
"""make-lttng-kernel.py OUTDIR - writes a small LTTng-modules-like kernel CTF 1.8 trace.

lttng-modules cannot be loaded here, so this writes the shape it records: the kernel
domain in the environment, one stream file per CPU whose packet context holds cpu_id, and
lttng-modules' event names and fields (sched_switch with prev_tid/next_tid and char-array
comms, sched_waking, irq_handler_entry/exit, irq_softirq_entry/exit, the statedump's
lttng_statedump_process_state, sched_process_fork/exec/exit/free, power_cpu_frequency and
power_cpu_idle, syscall_entry/exit_openat).  Two CPUs run a fixed schedule of four tasks: most switches
follow one another (the next task of one is the previous task of the next), one does not
(a switch the trace lost), so a converter must keep both forms.  babeltrace2 reads it; the
viewer tests compare traceglot's Perfetto output with babeltrace2's text of it, the SQL tests
(tests/sql/kernel-threads.sh) the kernel model's threads, processes, slices and counters."""
import os
import struct
import sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
trace {
    major = 1;
    minor = 8;
    byte_order = le;
    packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
env {
    hostname = "tg-fixture";
    domain = "kernel";
    sysname = "Linux";
    kernel_release = "6.1.0";
    tracer_name = "lttng-modules";
    tracer_major = 2;
    tracer_minor = 13;
    tracer_patchlevel = 0;
};
clock {
    name = "monotonic";
    description = "Monotonic Clock";
    freq = 1000000000;
    offset_s = 1700000000;
    offset = 0;
    absolute = FALSE;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clock_t;
typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := char_t;
stream {
    id = 0;
    event.header := struct { uint32_t id; clock_t timestamp; };
    packet.context := struct {
        clock_t timestamp_begin;
        clock_t timestamp_end;
        uint64_t content_size;
        uint64_t packet_size;
        uint64_t packet_seq_num;
        uint64_t events_discarded;
        uint32_t cpu_id;
    };
};
event { name = "sched_switch"; id = 0; stream_id = 0; fields := struct {
    char_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; int64_t _prev_state;
    char_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio; }; };
event { name = "sched_waking"; id = 1; stream_id = 0; fields := struct {
    char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu; }; };
event { name = "irq_handler_entry"; id = 2; stream_id = 0; fields := struct {
    int32_t _irq; string _name; }; };
event { name = "irq_handler_exit"; id = 3; stream_id = 0; fields := struct {
    int32_t _irq; int32_t _ret; }; };
event { name = "irq_softirq_entry"; id = 4; stream_id = 0; fields := struct { uint32_t _vec; }; };
event { name = "irq_softirq_exit"; id = 5; stream_id = 0; fields := struct { uint32_t _vec; }; };
event { name = "lttng_statedump_process_state"; id = 6; stream_id = 0; fields := struct {
    int32_t _tid; int32_t _pid; int32_t _ppid; char_t _name[16]; int32_t _type; }; };
event { name = "sched_process_fork"; id = 7; stream_id = 0; fields := struct {
    char_t _parent_comm[16]; int32_t _parent_tid; int32_t _parent_pid;
    char_t _child_comm[16]; int32_t _child_tid; int32_t _child_pid; }; };
event { name = "sched_process_exec"; id = 8; stream_id = 0; fields := struct {
    string _filename; int32_t _tid; int32_t _old_tid; }; };
event { name = "sched_process_exit"; id = 9; stream_id = 0; fields := struct {
    char_t _comm[16]; int32_t _tid; int32_t _prio; }; };
event { name = "sched_process_free"; id = 10; stream_id = 0; fields := struct {
    char_t _comm[16]; int32_t _tid; int32_t _prio; }; };
event { name = "power_cpu_frequency"; id = 11; stream_id = 0; fields := struct {
    uint32_t _state; uint32_t _cpu_id; }; };
event { name = "power_cpu_idle"; id = 12; stream_id = 0; fields := struct {
    uint32_t _state; uint32_t _cpu_id; }; };
event { name = "syscall_entry_openat"; id = 13; stream_id = 0; fields := struct {
    int32_t _dfd; string _filename; }; };
event { name = "syscall_exit_openat"; id = 14; stream_id = 0; fields := struct {
    int64_t _ret; }; };
"""

TASKS = {0: "swapper/0", 1: "systemd", 410: "worker", 411: "worker", 500: "bash", 412: "worker",
         600: "ls"}
TGID = {0: 0, 1: 1, 410: 410, 411: 410, 500: 500}
PPID = {0: 0, 1: 0, 410: 500, 411: 500, 500: 1}


def comm(tid):
    name = "swapper/1" if tid == -1 else TASKS[tid]
    return name.encode().ljust(16, b"\0")[:16]


def switch(prev, nxt, state):
    return 0, (comm(prev) + struct.pack("<iiq", prev, 120 if prev else 20, state) +
               comm(nxt) + struct.pack("<ii", nxt, 120 if nxt else 20))


def events_of(cpu):
    """(time, id, payload) of one CPU, in time order."""
    t = 1000 + cpu * 7
    out = []
    if cpu == 0:
        for tid in sorted(TGID):  # the tasks alive when tracing started
            out.append((t, 6, struct.pack("<iii", tid, TGID[tid], PPID[tid]) + comm(tid) +
                        struct.pack("<i", 1)))
            t += 50
    run = [500, 410, 0, 411, 1] if cpu == 0 else [411, 0, 410, 500, 0]
    cur = 0
    for i in range(24):
        nxt = run[i % len(run)]
        if nxt == cur:
            continue
        out.append((t, 1, comm(nxt) + struct.pack("<iii", nxt, 120, cpu)))
        t += 300
        if i == 9 and cpu == 1:  # a switch this trace did not record: the next one's prev is new
            cur = 411 if nxt != 411 else 410
        ident, payload = switch(cur, nxt, 1 if i % 3 else 0)
        out.append((t, ident, payload))
        t += 1100 + 13 * i
        if i % 4 == 1:
            out.append((t, 2, struct.pack("<i", 16 + cpu) + b"eth0\0"))
            out.append((t + 400, 3, struct.pack("<ii", 16 + cpu, 1)))
            out.append((t + 420, 4, struct.pack("<I", 3)))
            out.append((t + 900, 5, struct.pack("<I", 3)))
            t += 1000
        cur = nxt
    # then a process and a thread are born, run, exec, exit and are freed; the CPUs' frequency
    # and idle states change (a frequency event may name the other CPU)
    def at(ident, payload, dt=500):
        nonlocal t
        out.append((t, ident, payload))
        t += dt

    parent, child, pid, rest = (500, 600, 600, 0) if cpu == 0 else (410, 412, 410, 0)
    if cur != parent:
        at(*switch(cur, parent, 1))
    at(7, comm(parent) + struct.pack("<ii", parent, TGID[parent]) + comm(parent) +
       struct.pack("<ii", child, pid))
    at(13, struct.pack("<i", -100) + b"/etc/passwd\0")
    at(14, struct.pack("<q", 3))
    at(*switch(parent, child, 1))
    if cpu == 0:
        at(8, b"/usr/bin/ls\0" + struct.pack("<ii", child, child))
        at(11, struct.pack("<II", 1200000, 0))
        at(11, struct.pack("<II", 800000, 1))
    else:
        at(13, struct.pack("<i", -100) + b"/tmp/x\0")
        at(14, struct.pack("<q", -2))
        at(11, struct.pack("<II", 1000000, 1))
    at(9, comm(child) + struct.pack("<ii", child, 120))
    at(*switch(child, rest, 64))
    at(12, struct.pack("<II", 1, cpu))
    at(12, struct.pack("<II", 4294967295, cpu))
    at(10, comm(child) + struct.pack("<ii", child, 120))
    return out


def packet(cpu):
    evs = events_of(cpu)
    body = b"".join(struct.pack("<IQ", ident, ts) + payload for ts, ident, payload in evs)
    head_len = 8 + 8 * 6 + 4
    size = head_len + len(body)
    ctx = struct.pack("<QQQQQQI", evs[0][0], evs[-1][0], size * 8, size * 8, 0, 0, cpu)
    return struct.pack("<II", 0xC1FC1FC1, 0) + ctx + body


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(METADATA)
    for cpu in (0, 1):
        with open(os.path.join(out, "channel0_%d" % cpu), "wb") as f:
            f.write(packet(cpu))


main()
