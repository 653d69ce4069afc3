#!/usr/bin/python3
"""make-kernel-trace.py OUTDIR [SEED] [TRACER_VERSION] [io] - a small LTTng-modules-like kernel
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
The same SEED writes the same bytes.

With "io", for the I/O analyses (lttng-io*) the trace also holds the statedump's file
descriptors and block devices, system calls on descriptors (open, openat, socket, dup, dup2,
dup3, fcntl, close, read, write, pread64, readv, writev, recvmsg, sendmsg, recvfrom, sendto,
connect, fsync, fdatasync, sync, sync_file_range, splice; on known and unknown descriptors,
some failing), network packets sent during writes and received (net_dev_xmit,
netif_receive_skb), and block requests (block_rq_insert, block_rq_issue, block_rq_complete,
some remapped with block_bio_remap, some completed in another size or never issued), and
execs that close the close-on-exec descriptors.  With "midnight", the trace crosses a day;
"late" cuts two CPUs' streams, "disjoint" adds a stream before all (see main)."""
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
IO_EVENTS = [
    ("lttng_statedump_file_descriptor", "int32_t _pid; int32_t _fd; uint32_t _flags; "
     "uint32_t _fmode; string _filename;"),
    ("lttng_statedump_block_device", "uint32_t _dev; string _diskname;"),
    ("block_rq_insert", "uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; uint32_t _bytes; "
     "int32_t _tid; uint32_t _rwbs; char_t _comm[16];"),
    ("block_rq_issue", "uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; uint32_t _bytes; "
     "int32_t _tid; uint32_t _rwbs; char_t _comm[16];"),
    ("block_rq_complete", "uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; "
     "int32_t _errors; uint32_t _rwbs;"),
    ("block_bio_remap", "uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; uint32_t _rwbs; "
     "uint32_t _old_dev; uint64_t _old_sector;"),
    ("net_dev_xmit", "uint64_t _skbaddr; int32_t _rc; uint32_t _len; string _name;"),
    ("netif_receive_skb", "uint64_t _skbaddr; uint32_t _len; string _name;"),
    ("sched_process_exec", "string _filename; int32_t _tid; int32_t _old_tid;"),
]
IO_SYSCALLS = [
    ("open", "string _filename; int32_t _flags; uint16_t _mode;"),
    ("openat", "int32_t _dfd; string _filename; int32_t _flags; uint16_t _mode;"),
    ("socket", "int32_t _family; int32_t _type; int32_t _protocol;"),
    ("dup", "uint32_t _fildes;"),
    ("dup2", "uint32_t _oldfd; uint32_t _newfd;"),
    ("dup3", "uint32_t _oldfd; uint32_t _newfd; int32_t _flags;"),
    ("fcntl", "uint32_t _fd; uint32_t _cmd; uint64_t _arg;"),
    ("pread64", "uint32_t _fd; uint64_t _count; int64_t _pos;"),
    ("readv", "uint64_t _fd; uint64_t _vec; uint64_t _vlen;"),
    ("writev", "uint64_t _fd; uint64_t _vec; uint64_t _vlen;"),
    ("recvmsg", "int32_t _fd; uint64_t _msg; uint32_t _flags;"),
    ("sendmsg", "int32_t _fd; uint64_t _msg; uint32_t _flags;"),
    ("recvfrom", "int32_t _fd; uint64_t _size; uint32_t _flags; uint64_t _addr_len;"),
    ("sendto", "int32_t _fd; uint64_t _buff; uint64_t _len; uint32_t _flags; uint64_t _addr; "
     "int32_t _addr_len;"),
    ("connect", "int32_t _fd; uint64_t _uservaddr; int32_t _addrlen; int32_t _family; "
     "be16_t _dport; uint32_t __v4addr_length; uint8_t _v4addr[__v4addr_length];"),
    ("fsync", "uint32_t _fd;"),
    ("fdatasync", "uint32_t _fd;"),
    ("sync", "uint32_t _unused;"),
    ("sync_file_range", "int32_t _fd; int64_t _offset; int64_t _nbytes; uint32_t _flags;"),
    ("splice", "int32_t _fd_in; uint64_t _off_in; int32_t _fd_out; uint64_t _off_out; "
     "uint64_t _len; uint32_t _flags;"),
]
if "io" in sys.argv[4:]:
    EVENTS += IO_EVENTS
    for name, fields in IO_SYSCALLS:
        EVENTS.append(("syscall_entry_" + name, fields))
        EVENTS.append(("syscall_exit_" + name, "int64_t _ret;"))
ID = {name: i for i, (name, _) in enumerate(EVENTS)}

HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 16; align = 8; signed = false; byte_order = be; } := be16_t;
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
    offset_s = %d;
    offset = %d;
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


FILES = ["/etc/passwd", "/var/log/syslog", "/home/user/data.bin", "/tmp/x", "/proc/stat",
         "/dev/null"]
DISKS = [(8 << 20, "sda"), ((8 << 20) | 1, "sda1"), (253 << 20, "dm-0")]
UNNAMED_DISK = 8 << 20 | 16  # no statedump: "(8,16)"
IFACES = ["eth0", "lo", "wlan0"]


class Sim:
    def __init__(self, seed, prio_offset, io=False):
        self.io = io
        self.fds = {}  # pid -> {fd: name}
        self.pending = []  # block requests issued: (dev, sector, nr_sector, rwbs)
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

    def io_statedump(self):
        for pid in sorted({p for _, p, _ in self.threads.values()}):
            fds = self.fds.setdefault(pid, {})
            names = ["/dev/null", "/dev/pts/0", "/dev/pts/0"] + self.r.sample(
                FILES + ["socket:[4242]", "pipe:[77]", "anon_inode:[eventfd]"], 3)
            for fd, name in enumerate(names):
                if fd >= 3 and self.r.random() < 0.3:
                    continue
                fds[fd] = name
                flags = self.r.choice([0, 0x80000, 0x2])
                self.emit(0, "lttng_statedump_file_descriptor",
                          struct.pack("<iiII", pid, fd, flags, 0) + name.encode() + b"\0")
        # a process the statedump's process list does not hold
        self.emit(0, "lttng_statedump_file_descriptor",
                  struct.pack("<iiII", 999, 4, 0, 0) + b"/var/lib/orphan\0")
        for dev, name in DISKS:
            self.emit(0, "lttng_statedump_block_device",
                      struct.pack("<I", dev) + name.encode() + b"\0")

    def io_block(self, cpu):
        r = self.r
        if self.pending and r.random() < 0.5:
            dev, sector, nr, rwbs = self.pending.pop(r.randrange(len(self.pending)))
            if r.random() < 0.08:  # another size: lttng-analyses ignores it
                nr += 8
            self.emit(cpu, "block_rq_complete", struct.pack("<IQIiI", dev, sector, nr, 0, rwbs))
            return
        if r.random() < 0.05:  # never issued
            self.emit(cpu, "block_rq_complete",
                      struct.pack("<IQIiI", DISKS[0][0], r.randrange(1 << 30), 8, 0, 0))
            return
        dev = r.choice([d for d, _ in DISKS] + [UNNAMED_DISK])
        sector = r.randrange(1 << 30)
        nr = r.choice([0, 8, 8, 16, 256, 1024])
        rwbs = r.choice([0, 1, 2, 3, 8, 9])
        tid = self.running[cpu] or r.choice(sorted(self.threads) + [9999])
        if dev == DISKS[2][0] and r.random() < 0.6:  # dm-0 remapped onto sda
            new_sector = r.randrange(1 << 30)
            self.emit(cpu, "block_bio_remap", struct.pack("<IQIIIQ", DISKS[0][0], new_sector, nr,
                                                          rwbs, dev, sector))
            dev, sector = DISKS[0][0], new_sector
        name = self.threads[tid][0] if tid in self.threads else "kworker"
        issue = struct.pack("<IQIIiI", dev, sector, nr, nr * 512, tid, rwbs) + comm(name)
        self.emit(cpu, "block_rq_insert", issue)
        self.emit(cpu, "block_rq_issue", issue)
        if nr:
            self.pending.append((dev, sector, nr, rwbs))

    def io_call(self, cpu):
        r = self.r
        tid = self.running[cpu]
        pid = self.threads[tid][1] if tid else 0
        fds = self.fds.setdefault(pid, {})

        def pick_fd():
            known = sorted(fds)
            return r.choice(known) if known and r.random() < 0.85 else r.randrange(3, 40)

        def new_fd():
            n = 3
            while n in fds:
                n += 1
            return n

        def call(name, payload, ret, inside=None):
            self.emit(cpu, "syscall_entry_" + name, payload)
            if inside:
                inside()
            self.emit(cpu, "syscall_exit_" + name, struct.pack("<q", ret))

        k = r.random()
        if k < 0.15:
            name = r.choice(FILES)
            flags = r.choice([0, 0x80000, 0x241])
            ret = new_fd() if r.random() < 0.85 else r.choice([-2, -13])
            if r.random() < 0.5:
                call("open", name.encode() + b"\0" + struct.pack("<iH", flags, 0o644), ret)
            else:
                call("openat", struct.pack("<i", -100) + name.encode() + b"\0" +
                     struct.pack("<iH", flags, 0o644), ret)
            if ret >= 0:
                fds[ret] = name
        elif k < 0.22:
            family = r.choice([2, 2, 10, 1])
            ret = new_fd()
            call("socket", struct.pack("<iii", family, 1, 0), ret)
            fds[ret] = "socket"
        elif k < 0.30:
            name = r.choice(["dup", "dup2", "dup3", "fcntl"])
            old = pick_fd()
            ret = new_fd() if r.random() < 0.9 else -9
            if name == "dup":
                call(name, struct.pack("<I", old), ret)
            elif name == "fcntl":
                cmd = r.choice([0, 0, 1, 2])
                call(name, struct.pack("<IIQ", old, cmd, 0), ret if cmd == 0 else 0)
                if cmd:
                    return
            else:
                new = r.choice([new_fd(), pick_fd()])
                ret = new if ret >= 0 else ret
                payload = struct.pack("<II", old, new)
                if name == "dup3":
                    payload += struct.pack("<i", r.choice([0, 0x80000]))
                call(name, payload, ret)
            if ret >= 0:
                fds[ret] = fds.get(old, "unknown")
        elif k < 0.40:
            fd = pick_fd()
            ret = 0 if r.random() < 0.9 else -9
            call("close", struct.pack("<iQ", fd, 0), ret)
            if ret == 0:
                fds.pop(fd, None)
        elif k < 0.75:
            name = r.choice(["read", "write", "read", "write", "pread64", "readv", "writev",
                             "recvmsg", "sendmsg", "recvfrom", "sendto"])
            fd = pick_fd()
            count = r.choice([1, 16, 512, 4096, 65536, 1 << 20, 3 << 20])
            payload = {
                "read": lambda: struct.pack("<iQ", fd, count),
                "write": lambda: struct.pack("<iQ", fd, count),
                "pread64": lambda: struct.pack("<IQq", fd, count, 0),
                "readv": lambda: struct.pack("<QQQ", fd, 0, r.randint(1, 8)),
                "writev": lambda: struct.pack("<QQQ", fd, 0, r.randint(1, 8)),
                "recvmsg": lambda: struct.pack("<iQI", fd, 0, 0),
                "sendmsg": lambda: struct.pack("<iQI", fd, 0, 0),
                "recvfrom": lambda: struct.pack("<iQIQ", fd, count, 0, 0),
                "sendto": lambda: struct.pack("<iQQIQi", fd, 0, count, 0, 0, 16),
            }[name]()
            ret = r.randint(0, count) if r.random() < 0.85 else r.choice([-11, -9, -4])

            def xmit():
                self.emit(cpu, "net_dev_xmit", struct.pack("<QiI", 0xffff0000, 0, r.randint(40, 1500))
                          + r.choice(IFACES).encode() + b"\0")
            sending = name in ("write", "writev", "sendmsg", "sendto")
            call(name, payload, ret, xmit if sending and r.random() < 0.4 else None)
        elif k < 0.80:
            fd = pick_fd()
            family = r.choice([2, 2, 10])
            payload = (struct.pack("<iQii", fd, 0, 16, family) + struct.pack(">H", r.choice([80, 443]))
                       + struct.pack("<I", 4) + bytes([10, 0, r.randrange(256), r.randrange(256)]))
            call("connect", payload, r.choice([0, 0, -111]))
        elif k < 0.86:
            name = r.choice(["fsync", "fdatasync", "sync", "sync_file_range"])
            fd = pick_fd()
            payload = {"fsync": struct.pack("<I", fd), "fdatasync": struct.pack("<I", fd),
                       "sync": struct.pack("<I", 0),
                       "sync_file_range": struct.pack("<iqqI", fd, 0, r.choice([4096, 1 << 20]), 0)
                       }[name]
            call(name, payload, r.choice([0, 0, 0, -5]))
        elif k < 0.89:
            call("splice", struct.pack("<iQiQQI", pick_fd(), 0, pick_fd(), 0, 4096, 0), 4096)
        elif k < 0.96:
            self.emit(cpu, "netif_receive_skb", struct.pack("<QI", 0xffff0001, r.randint(40, 9000))
                      + r.choice(IFACES).encode() + b"\0")
        elif tid:
            self.emit(cpu, "sched_process_exec", b"/usr/bin/true\0" + struct.pack("<ii", tid, tid))

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
        elif self.io and x < 0.95:
            if r.random() < 0.3:
                self.io_block(cpu)
            elif self.running[cpu] or r.random() < 0.2:
                self.io_call(cpu)
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
    io = "io" in sys.argv[4:]
    sim = Sim(seed, prio_offset, io)
    sim.statedump()
    if io:
        sim.io_statedump()
    statedump_end = sim.t
    for _ in range(3000):
        sim.step()
    begin, end = sim.evs[0][0] - 10, sim.t + 10
    os.makedirs(out, exist_ok=True)
    # "midnight": the trace crosses a day (lttng-analyses then prints dates)
    offset = (1700006399, 995000000) if "midnight" in sys.argv[4:] else (1700000000, 0)
    meta = HEAD % (tuple(version) + offset)
    for i, (name, fields) in enumerate(EVENTS):
        meta += 'event { name = "%s"; id = %d; stream_id = 0; fields := struct { %s }; };\n' % (
            name, i, fields)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(meta)
    # "late": CPU 3's stream begins 1 ms after the state dump and CPU 1's ends 2.5 ms early
    # (their events outside left out), so that the streams' intersection is narrower than
    # the trace (and holds the state dump, without which lttng-analyses fails)
    late = "late" in sys.argv[4:]
    # "disjoint": one more stream (CPU NCPU's), without events, whose packet ends 1 us before
    # the others begin: the streams have no intersection (lttng-analyses refuses the trace
    # unless --no-intersection, which then reads every event)
    disjoint = "disjoint" in sys.argv[4:]
    for cpu in range(NCPU + (1 if disjoint else 0)):
        b = statedump_end + 1000000 if late and cpu == 3 else begin
        e = end - 2500000 if late and cpu == 1 else end
        if cpu == NCPU:
            b, e = begin - 2000, begin - 1000
        body = b"".join(struct.pack("<IQ", ident, ts) + payload
                        for ts, c, ident, payload in sim.evs if c == cpu and b <= ts <= e)
        size = 8 + 8 * 5 + 4 + len(body)
        ctx = struct.pack("<QQQQQI", b, e, size * 8, size * 8, 0, cpu)
        with open(os.path.join(out, "channel0_%d" % cpu), "wb") as f:
            f.write(struct.pack("<II", 0xC1FC1FC1, 0) + ctx + body)


main()
