#!/usr/bin/python3
"""make-kernel-trace.py OUTDIR [SEED] [TRACER_VERSION] - a small LTTng-modules-like kernel
CTF 1.8 trace for the lttng-analyses checks (tests/analyze/live.sh).

lttng-modules cannot be loaded here, so this simulates a few CPUs and threads and writes the
events lttng-analyses reads, with lttng-modules' names and fields: the statedump's processes,
wakeups (sched_waking then sched_wakeup, some of a thread that is running, some twice) before
switches, preemptions and sleeps, migrations, forks with sched_wakeup_new, priority changes
(sched_pi_setprio), hard IRQs (some nested), softirqs raised (some twice, some entered
without a raise), pages allocated and freed (kmem_mm_page_*), and system calls with their
return values (errors too).  The softirq
events are named softirq_raise/entry/exit, the names lttng-analyses 0.6.1 reads.  One packet
per CPU, all with the same bounds (babeltrace 1's intersection is then the whole trace).
The same SEED writes the same bytes."""
import os
import random
import struct
import sys

EVENTS = [
    ("sched_switch", "char_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; "
     "int64_t _prev_state; char_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio;"),
    ("sched_waking", "char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu;"),
    ("sched_wakeup", "char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu;"),
    ("sched_wakeup_new", "char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu;"),
    ("sched_migrate_task", "char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _orig_cpu; "
     "int32_t _dest_cpu;"),
    ("sched_process_fork", "char_t _parent_comm[16]; int32_t _parent_tid; int32_t _parent_pid; "
     "char_t _child_comm[16]; int32_t _child_tid; int32_t _child_pid;"),
    ("sched_pi_setprio", "char_t _comm[16]; int32_t _tid; int32_t _oldprio; int32_t _newprio;"),
    ("lttng_statedump_process_state", "int32_t _tid; int32_t _pid; int32_t _ppid; "
     "char_t _name[16]; int32_t _type; int32_t _prio;"),
    ("irq_handler_entry", "int32_t _irq; string _name;"),
    ("irq_handler_exit", "int32_t _irq; int32_t _ret;"),
    ("softirq_raise", "uint32_t _vec;"),
    ("softirq_entry", "uint32_t _vec;"),
    ("softirq_exit", "uint32_t _vec;"),
    ("kmem_mm_page_alloc", "uint64_t _page; uint64_t _pfn; uint32_t _order; "
     "uint32_t _gfp_flags; int32_t _migratetype;"),
    ("kmem_mm_page_free", "uint64_t _page; uint64_t _pfn; uint32_t _order;"),
]
SYSCALLS = ["read", "write", "ioctl", "futex", "poll", "close"]
for name in SYSCALLS:
    EVENTS.append(("syscall_entry_" + name, "int32_t _fd; uint64_t _count;"))
    EVENTS.append(("syscall_exit_" + name, "int64_t _ret;"))
ID = {name: i for i, (name, _) in enumerate(EVENTS)}

HEAD = """/* CTF 1.8 */
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
    hostname = "tg-analyses";
    domain = "kernel";
    sysname = "Linux";
    kernel_release = "6.1.0";
    tracer_name = "lttng-modules";
    tracer_major = %d;
    tracer_minor = %d;
    tracer_patchlevel = %d;
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
        uint64_t events_discarded;
        uint32_t cpu_id;
    };
};
"""

NCPU = 4
ERRORS = [-11, -2, -4, -9, -512]


def comm(name):
    return name.encode().ljust(16, b"\0")[:16]


class Sim:
    def __init__(self, seed, prio_offset):
        self.r = random.Random(seed)
        self.t = 1000
        self.evs = []  # (time, cpu, id, payload)
        self.prio_offset = prio_offset
        self.threads = {}  # tid -> [name, pid, prio]
        self.running = {c: 0 for c in range(NCPU)}
        self.sleeping = set()
        self.runnable = set()
        self.next_tid = 2000

    def tick(self, lo=80, hi=4000):
        self.t += self.r.randint(lo, hi)
        return self.t

    def emit(self, cpu, name, payload):
        self.evs.append((self.tick(), cpu, ID[name], payload))

    def add_thread(self, tid, pid, name, prio):
        self.threads[tid] = [name, pid, prio]

    def statedump(self):
        names = ["systemd", "bash", "Xorg", "worker", "worker", "worker", "kworker/0:1",
                 "sshd", "python3", "python3", "irq/26-eth0", "rcu_sched"]
        tid = 100
        for i, name in enumerate(names):
            pid = tid if name not in ("worker", "python3") or i in (3, 8) else tid - 1
            prio = self.r.choice([20, 20, 20, 0, -6, 39])
            self.add_thread(tid, pid, name, prio)
            self.sleeping.add(tid)
            ppid = 1
            self.emit(0, "lttng_statedump_process_state",
                      struct.pack("<iii", tid, pid, ppid) + comm(name) + struct.pack("<ii", 0, prio))
            tid += 1

    def wake(self, tid, cpu, target):
        name, _, prio = self.threads[tid]
        wp = prio + (100 if self.prio_offset else 0)
        self.emit(cpu, "sched_waking", comm(name) + struct.pack("<iii", tid, wp, target))
        self.emit(cpu, "sched_wakeup", comm(name) + struct.pack("<iii", tid, wp, target))

    def switch(self, cpu):
        prev = self.running[cpu]
        cands = sorted(self.runnable)
        nxt = self.r.choice(cands) if cands and self.r.random() < 0.85 else 0
        if nxt == prev:
            return
        state = 0
        if prev:
            if self.r.random() < 0.6:
                self.sleeping.add(prev)
                state = 1
            else:
                self.runnable.add(prev)
        if nxt:
            self.runnable.discard(nxt)
        pname = self.threads[prev][0] if prev else "swapper/%d" % cpu
        nname = self.threads[nxt][0] if nxt else "swapper/%d" % cpu
        pprio = self.threads[prev][2] if prev else 20
        nprio = self.threads[nxt][2] if nxt else 20
        self.emit(cpu, "sched_switch", comm(pname) + struct.pack("<iiq", prev, pprio, state) +
                  comm(nname) + struct.pack("<ii", nxt, nprio))
        self.running[cpu] = nxt

    def step(self):
        r = self.r
        cpu = r.randrange(NCPU)
        x = r.random()
        if x < 0.22 and self.sleeping:
            tid = r.choice(sorted(self.sleeping))
            self.sleeping.discard(tid)
            self.runnable.add(tid)
            self.wake(tid, cpu, r.randrange(NCPU))
            if r.random() < 0.1:  # woken again before it runs
                self.wake(tid, r.randrange(NCPU), r.randrange(NCPU))
        elif x < 0.25:  # a wakeup of a running thread: lttng-analyses ignores it
            running = [t for t in self.running.values() if t]
            if running:
                self.wake(r.choice(running), cpu, cpu)
        elif x < 0.50:
            self.switch(cpu)
        elif x < 0.53 and self.runnable:
            tid = r.choice(sorted(self.runnable))
            name, _, prio = self.threads[tid]
            self.emit(cpu, "sched_migrate_task", comm(name) +
                      struct.pack("<iiii", tid, prio, cpu, r.randrange(NCPU)))
        elif x < 0.55 and self.running[cpu]:
            parent = self.running[cpu]
            pname, ppid, pprio = self.threads[parent]
            child = self.next_tid
            self.next_tid += 1
            thread = r.random() < 0.5
            self.add_thread(child, ppid if thread else child, pname, pprio)
            self.emit(cpu, "sched_process_fork", comm(pname) + struct.pack("<ii", parent, ppid) +
                      comm(pname) + struct.pack("<ii", child, ppid if thread else child))
            self.emit(cpu, "sched_wakeup_new", comm(pname) +
                      struct.pack("<iii", child, pprio + (100 if self.prio_offset else 0), cpu))
            self.runnable.add(child)
        elif x < 0.57:
            tid = r.choice(sorted(self.threads))
            name, pid, prio = self.threads[tid]
            new = r.choice([prio, -10, 0, 20])
            self.emit(cpu, "sched_pi_setprio", comm(name) + struct.pack("<iii", tid, prio, new))
            self.threads[tid][2] = new
        elif x < 0.67:
            irq = r.choice([26, 28, 30])
            names = {26: b"0000:00:1f.2", 28: b"eno1", 30: b"i915"}
            self.emit(cpu, "irq_handler_entry", struct.pack("<i", irq) + names[irq] + b"\0")
            if r.random() < 0.1:  # nested: lttng-analyses keeps the inner one
                self.emit(cpu, "irq_handler_entry", struct.pack("<i", 28) + b"eno1\0")
                self.emit(cpu, "irq_handler_exit", struct.pack("<ii", 28, 1))
            self.emit(cpu, "irq_handler_exit", struct.pack("<ii", irq, 1))
            if r.random() < 0.5:
                self.emit(cpu, "softirq_raise", struct.pack("<I", r.choice([1, 3, 7, 9])))
        elif x < 0.80:
            vec = r.choice([1, 3, 7, 9])
            if r.random() < 0.85:
                self.emit(cpu, "softirq_raise", struct.pack("<I", vec))
                if r.random() < 0.2:
                    self.emit(cpu, "softirq_raise", struct.pack("<I", vec))
            self.emit(cpu, "softirq_entry", struct.pack("<I", vec))
            if r.random() < 0.15:  # raised again while it runs: handled next time
                self.emit(cpu, "softirq_raise", struct.pack("<I", vec))
            self.emit(cpu, "softirq_exit", struct.pack("<I", vec))
        elif x < 0.85:  # pages: more freed than allocated at times (lttng-analyses' count)
            for _ in range(r.randint(1, 4)):
                pfn = r.randrange(1 << 20)
                if r.random() < 0.55:
                    self.emit(cpu, "kmem_mm_page_alloc", struct.pack("<QQIIi", pfn << 6, pfn, 0,
                                                                   0xcc0, 1))
                else:
                    self.emit(cpu, "kmem_mm_page_free", struct.pack("<QQI", pfn << 6, pfn, 0))
        elif self.running[cpu] or r.random() < 0.2:
            name = r.choice(SYSCALLS)
            self.emit(cpu, "syscall_entry_" + name, struct.pack("<iQ", r.randrange(10), 4096))
            ret = r.choice(ERRORS) if r.random() < 0.25 else r.randrange(5000)
            self.emit(cpu, "syscall_exit_" + name, struct.pack("<q", ret))


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    version = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "2.8.0").split(".")]
    prio_offset = tuple(version) < (2, 7, 1)
    sim = Sim(seed, prio_offset)
    sim.statedump()
    for _ in range(3000):
        sim.step()
    begin, end = sim.evs[0][0] - 10, sim.t + 10
    os.makedirs(out, exist_ok=True)
    meta = HEAD % tuple(version)
    for i, (name, fields) in enumerate(EVENTS):
        meta += 'event { name = "%s"; id = %d; stream_id = 0; fields := struct { %s }; };\n' % (
            name, i, fields)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(meta)
    for cpu in range(NCPU):
        body = b"".join(struct.pack("<IQ", ident, ts) + payload
                        for ts, c, ident, payload in sim.evs if c == cpu)
        size = 8 + 8 * 5 + 4 + len(body)
        ctx = struct.pack("<QQQQQI", begin, end, size * 8, size * 8, 0, cpu)
        with open(os.path.join(out, "channel0_%d" % cpu), "wb") as f:
            f.write(struct.pack("<II", 0xC1FC1FC1, 0) + ctx + body)


main()
