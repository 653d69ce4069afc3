#!/usr/bin/env python3
"""build-func-fixtures.py - hand-built trace.dat files (file version 6) of the function and
function_graph tracers.

The function tracer cannot be enabled on the machines the project is tested on, so these
fixtures are assembled by hand from what the kernel does expose: the ring-buffer header
layouts and the format files of ftrace's own events (events/header_page, header_event,
events/ftrace/function, funcgraph_entry and funcgraph_exit/format), read from tracefs.  Around them go a small kallsyms (core
and module symbols), a printk-formats section, saved cmdlines, and ring-buffer pages whose
records (function events: ip, parent_ip; funcgraph entries and exits walking a call tree
with durations from under 1 us to over 10 s; in fgraph-lag, records written after the call
times they carry, as the kernel writes them) are packed here, page by page, with time deltas,
a time-extend record where a gap is too long for 27 bits; a page ends at its commit.

Each fixture is one word size (4 or 8: the formats' "long" fields and the page header's
commit field are resized for 4) and one byte order, with 1, 2 or 4 cpus.  The calls follow a
small call tree per cpu so that trace-cmd's function plugin indents them from the parents,
with addresses inside functions (offsets), an address no symbol covers, module functions and
several tasks.  trace-cmd itself then converts the files to version 7 and prints the
expected outputs (record-func-fixtures.sh).

usage: build-func-fixtures.py OUTDIR   (exit 77 when tracefs cannot be read)
       build-func-fixtures.py --bench FILE CPUS ROUNDS   (one large function_graph file for
       bench/ftrace.sh: 40 records per round per cpu)
"""
import os
import re
import struct
import sys

T = '/sys/kernel/tracing'
PAGE = 4096

# kallsyms: (address offset from the kernel base, type, name, module)
SYMBOLS = [
    (0x0000, 'T', '_stext', None), (0x1000, 'T', 'do_syscall_64', None),
    (0x1200, 'T', 'ksys_read', None), (0x1400, 'T', 'vfs_read', None),
    (0x1600, 'T', 'rw_verify_area', None), (0x1700, 'T', 'security_file_permission', None),
    (0x1800, 'T', 'new_sync_read', None), (0x1a00, 'T', 'ext4_file_read_iter', None),
    (0x1c00, 'T', 'filemap_read', None), (0x1e00, 'T', '__fsnotify_parent', None),
    (0x2000, 'T', 'ksys_write', None), (0x2200, 'T', 'vfs_write', None),
    (0x2400, 'T', 'irq_enter', None), (0x2480, 'T', 'rcu_irq_enter', None),
    (0x2500, 'T', 'irq_exit', None), (0x2580, 'T', 'rcu_irq_exit', None),
    (0x2600, 't', 'schedule', None), (0x2700, 't', '__schedule', None),
    (0x2800, 'T', 'pick_next_task_fair', None), (0x2900, 'W', 'finish_task_switch', None),
    (0x3000, 'T', '_etext', None),
    (0x40000, 't', 'tgmod_ioctl', 'tgmod'), (0x40100, 't', 'tgmod_helper', 'tgmod'),
    (0x40200, 't', 'tgnet_rx', 'tgnet'), (0x40300, 't', 'tgnet_poll', 'tgnet'),
]
PRINTK = [(0x90000, 'tgmod: ready %d\\n'), (0x90040, 'tgnet: poll %s budget %u\\n')]
COMMS = [(1234, 'bash'), (1301, 'cat'), (1400, 'kworker/0:1'), (1555, 'tg-worker')]


def addr_of(base, name, off=0):
    for a, _, n, _ in SYMBOLS:
        if n == name:
            return base + a + off
    raise KeyError(name)


def resize_format(text, long_size):
    """A format file for another word size: "long" and pointer fields take long_size bytes and
    the offsets are laid out again (natural alignment, at most long_size)."""
    if long_size == 8:
        return text
    out, off = [], None
    for line in text.split('\n'):
        m = re.match(r'\tfield:(.*?);\toffset:(\d+);\tsize:(\d+);\tsigned:(\d+);$', line)
        if not m:
            out.append(line)
            continue
        decl, o, size, signed = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if decl.startswith('unsigned short common_type'):
            off = 0
        if ('long' in decl and 'long long' not in decl) or '*' in decl:
            size = 0 if size == 0 else 4
            elem = 4
        else:
            elem = size if size in (1, 2, 4, 8) else 1
        align = min(elem, long_size) or 1
        off = (off + align - 1) // align * align
        out.append('\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%s;' % (decl, off, size, signed))
        off += size
    return '\n'.join(out)


def header_page_text(text, long_size):
    if long_size == 8:
        return text
    text = text.replace('local_t commit;\toffset:8;\tsize:8;', 'local_t commit;\toffset:8;\tsize:4;')
    return re.sub(r'char data;\toffset:16;\tsize:(\d+);',
                  lambda m: 'char data;\toffset:12;\tsize:%d;' % (PAGE - 12), text)


class Pages:
    """Ring-buffer pages of one cpu: records packed with time deltas, as the kernel writes."""

    def __init__(self, e, long_size):
        self.e, self.ls = e, long_size
        self.pages, self.cur, self.page_ts, self.last = [], b'', None, None

    def hdr(self, type_len, delta):
        v = (delta << 5 | type_len) if self.e == '<' else (type_len << 27 | delta)
        return struct.pack(self.e + 'I', v)

    def flush(self):
        if self.page_ts is None:
            return
        head = struct.pack(self.e + 'Q', self.page_ts)
        head += struct.pack(self.e + ('Q' if self.ls == 8 else 'I'), len(self.cur))
        page = head + self.cur
        self.pages.append(page + b'\0' * (PAGE - len(page)))
        self.cur, self.page_ts = b'', None

    def add(self, ts, payload):
        assert len(payload) % 4 == 0 and len(payload) <= 112
        room = PAGE - (16 if self.ls == 8 else 12)
        rec_len = 4 + len(payload)
        delta = ts - self.last if self.last is not None else 0
        need = rec_len + (8 if delta >= 1 << 27 else 0)
        if self.page_ts is None or len(self.cur) + need > room:
            self.flush()
            self.page_ts, delta = ts, 0
        elif delta >= 1 << 27:
            self.cur += self.hdr(30, delta & ((1 << 27) - 1)) + struct.pack(self.e + 'I', delta >> 27)
            delta = 0
        self.cur += self.hdr(len(payload) // 4, delta) + payload
        self.last = ts


def function_record(e, ls, type_id, pid, ip, parent):
    common = struct.pack(e + 'HBBi', type_id, 0, 0, pid)
    w = 'Q' if ls == 8 else 'I'
    return common + struct.pack(e + w + w, ip, parent)


def calls(base, cpu, mod_base):
    """(pid, ip, parent_ip) of a small call tree per cpu, with offsets into the functions."""
    a = lambda n, o=0: addr_of(base, n, o)
    m = lambda n, o=0: addr_of(mod_base - 0x40000, n, o)
    pid = COMMS[cpu % len(COMMS)][0]
    seq = [
        (pid, a('ksys_read'), a('do_syscall_64', 0x4f)),
        (pid, a('vfs_read'), a('ksys_read', 0x6a)),
        (pid, a('rw_verify_area'), a('vfs_read', 0x3c)),
        (pid, a('security_file_permission'), a('rw_verify_area', 0x31)),
        (pid, a('new_sync_read'), a('vfs_read', 0x8d)),
        (pid, a('ext4_file_read_iter'), a('new_sync_read', 0x11e)),
        (pid, a('filemap_read'), a('ext4_file_read_iter', 0x42)),
        (pid, a('irq_enter'), a('filemap_read', 0x1a0)),
        (pid, a('rcu_irq_enter'), a('irq_enter', 0xd)),
        (pid, a('irq_exit'), a('filemap_read', 0x1a5)),
        (pid, a('rcu_irq_exit'), a('irq_exit', 0x2f)),
        (pid, a('__fsnotify_parent'), a('vfs_read', 0xf0)),
        (pid, m('tgmod_ioctl'), a('do_syscall_64', 0x4f)),
        (pid, m('tgmod_helper'), m('tgmod_ioctl', 0x24)),
        (pid, base - 0x100, m('tgmod_helper', 0x8)),        # no symbol covers the ip
        (pid, a('vfs_write'), base - 0x80),                  # nor the parent
        (COMMS[(cpu + 1) % len(COMMS)][0], m('tgnet_rx'), a('irq_exit', 0x40)),
        (COMMS[(cpu + 1) % len(COMMS)][0], m('tgnet_poll'), m('tgnet_rx', 0x7c)),
        (COMMS[(cpu + 2) % len(COMMS)][0], a('schedule'), a('do_syscall_64', 0x90)),
        (COMMS[(cpu + 2) % len(COMMS)][0], a('__schedule'), a('schedule', 0x33)),
        (COMMS[(cpu + 2) % len(COMMS)][0], a('pick_next_task_fair'), a('__schedule', 0x2b0)),
        (COMMS[(cpu + 2) % len(COMMS)][0], a('finish_task_switch'), a('__schedule', 0x3c4)),
        (pid, a('ksys_write'), a('do_syscall_64', 0x4f)),
        (pid, a('vfs_write'), a('ksys_write', 0x6a)),
    ]
    return seq


def function_events(base, mod_base, e, ls, ids, ncpu, rounds):
    """Per cpu: (ts, payload) of function events following calls()."""
    out = []
    for cpu in range(ncpu):
        recs, ts = [], 5000000000 + cpu * 317
        seq = calls(base, cpu, mod_base)
        for r in range(rounds):
            for i, (pid, ip, parent) in enumerate(seq):
                ts += 700 + (i * 131 + r * 17 + cpu * 7) % 2900
                if r == rounds // 2 and i == 0:
                    ts += 3 << 27       # a gap of ~0.4 s: a time-extend record
                recs.append((ts, function_record(e, ls, ids['function'], pid, ip, parent)))
        out.append(recs)
    return out


# A call tree: (function, self time in ns before the children, children, time after).
TREE = [
    ('ksys_read', 400, [
        ('vfs_read', 300, [
            ('rw_verify_area', 200, [('security_file_permission', 781, [], 0)], 150),
            ('new_sync_read', 250, [
                ('ext4_file_read_iter', 300, [('filemap_read', 12345, [], 0)], 100),
            ], 90),
            ('__fsnotify_parent', 95, [], 0),
        ], 210),
    ], 120),
    ('irq_enter', 150, [('rcu_irq_enter', 60, [], 0)], 40),
    ('irq_exit', 180, [('rcu_irq_exit', 150000, [], 0)], 30),          # a "! " leaf
    ('tgmod_ioctl', 500, [('tgmod_helper', 2500000, [], 0), (None, 900, [], 0)], 70),
    ('schedule', 100, [('__schedule', 200, [('pick_next_task_fair', 40000, [], 0)], 1300000000)], 50),
    ('ksys_write', 300, [('vfs_write', 12000000000, [], 0)], 20),     # over 7 digits of us
]


def fgraph_events(base, mod_base, e, ls, ids, ncpu, rounds):
    """Per cpu: (ts, payload) of funcgraph_entry/exit records walking TREE."""
    w = 'Q' if ls == 8 else 'I'
    a = lambda n: (addr_of(mod_base - 0x40000, n) if n and n.startswith('tg') else
                   addr_of(base, n) if n else base - 0x200)
    out = []
    for cpu in range(ncpu):
        recs = []
        pid = COMMS[cpu % len(COMMS)][0]
        t = [6000000000 + cpu * 411]

        def entry(fn, depth):
            common = struct.pack(e + 'HBBi', ids['funcgraph_entry'], 0, 0, pid)
            body = struct.pack(e + w + 'I', a(fn), depth)
            if ls == 8:
                body += b'\0' * 4
            recs.append((t[0], common + body))

        def exit_(fn, depth, calltime):
            common = struct.pack(e + 'HBBi', ids['funcgraph_exit'], 0, 0, pid)
            body = struct.pack(e + w + 'II', a(fn), depth, 0)
            body += struct.pack(e + 'QQ', calltime, t[0])
            recs.append((t[0], common + body))

        def walk(node, depth):
            fn, before, kids, after = node
            entry(fn, depth)
            start = t[0]
            t[0] += before + cpu * 13
            for k in kids:
                walk(k, depth + 1)
                t[0] += 35
            t[0] += after
            exit_(fn, depth, start)

        for r in range(rounds):
            for node in TREE:
                walk(node, 0)
                t[0] += 2000 + r * 7
        # the first record of a cpu may be an exit whose entry was not recorded
        if cpu == 1 and recs:
            recs = recs[1:]
        out.append(recs)
    return out


# The kernel's function_graph tracer takes a call's times itself (calltime at the entry,
# rettime at the return, from trace_clock_local) and writes each record after: the entry
# record some 100 ns after calltime, the exit record some 200 ns after rettime, so the
# record times make every call longer than it was.  trace-cmd prints rettime - calltime.
# A call tree for such records: (function, time before the children, children, time
# after); filemap_read is interrupted by an IRQ (irq_enter and irq_exit at its depth + 1).
TREE_LAG = [
    ('ksys_read', 400, [
        ('vfs_read', 300, [
            ('rw_verify_area', 200, [('security_file_permission', 781, [], 0)], 150),
            ('new_sync_read', 250, [
                ('ext4_file_read_iter', 300, [
                    ('filemap_read', 2100, [
                        ('irq_enter', 150, [('rcu_irq_enter', 60, [], 0)], 40),
                        ('irq_exit', 180, [('rcu_irq_exit', 3241000, [], 0)], 30),
                    ], 900),
                ], 100),
            ], 90),
            ('__fsnotify_parent', 95, [], 0),
        ], 210),
    ], 120),
    ('tgmod_ioctl', 500, [('tgmod_helper', 25000, [], 0)], 70),
]


def fgraph_lag_events(base, mod_base, e, ls, ids, ncpu, rounds):
    """Per cpu: (ts, payload) of funcgraph records walking TREE_LAG whose record times
    come after the calltime and rettime they carry (by depth- and round-dependent lags)."""
    w = 'Q' if ls == 8 else 'I'
    a = lambda n: (addr_of(mod_base - 0x40000, n) if n.startswith('tg') else addr_of(base, n))
    out = []
    for cpu in range(ncpu):
        recs = []
        pid = COMMS[cpu % len(COMMS)][0]
        t = [7000000000 + cpu * 577]  # trace_clock_local: the record clock too

        def walk(node, depth, r):
            fn, before, kids, after = node
            calltime = t[0]
            t[0] += 90 + 7 * depth + 3 * r  # the entry record is written after calltime
            body = struct.pack(e + w + 'I', a(fn), depth) + (b'\0' * 4 if ls == 8 else b'')
            recs.append((t[0], struct.pack(e + 'HBBi', ids['funcgraph_entry'], 0, 0, pid) + body))
            t[0] += before
            for k in kids:
                walk(k, depth + 1, r)
                t[0] += 35
            t[0] += after
            rettime = t[0]
            t[0] += 160 + 11 * depth + 5 * r  # and the exit record after rettime
            body = struct.pack(e + w + 'II', a(fn), depth, 0) + struct.pack(e + 'QQ', calltime, rettime)
            recs.append((t[0], struct.pack(e + 'HBBi', ids['funcgraph_exit'], 0, 0, pid) + body))

        for r in range(rounds):
            for node in TREE_LAG:
                walk(node, 0, r)
                t[0] += 1500 + r * 7
        out.append(recs)
    return out


def build(out, name, e, ls, ncpu, rounds, formats, kind='function'):
    base = 0xffffffff81000000 if ls == 8 else 0xc1000000
    mod_base = 0xffffffffc0040000 if ls == 8 else 0xf8040000
    hp = header_page_text(formats['header_page'], ls)
    names = ['function'] if kind == 'function' else ['funcgraph_entry', 'funcgraph_exit']
    fmts = {n: resize_format(formats[n], ls) for n in names}
    ids = {n: int(re.search(r'^ID: (\d+)', fmts[n], re.M).group(1)) for n in names}
    ksyms = ''
    for a, t, n, mod in SYMBOLS:
        addr = (mod_base - 0x40000 if mod else base) + a
        ksyms += '%0*x %s %s%s\n' % (ls * 2, addr, t, n, '\t[%s]' % mod if mod else '')
    printk = ''.join('0x%x : "%s"\n' % (base + a, f) for a, f in PRINTK)
    cmdlines = ''.join('%d %s\n' % c for c in COMMS)

    gen = {'function': function_events, 'fgraph': fgraph_events,
           'fgraph-lag': fgraph_lag_events}[kind]
    cpus = []
    for recs in gen(base, mod_base, e, ls, ids, ncpu, rounds):
        p = Pages(e, ls)
        for ts, payload in recs:
            p.add(ts, payload)
        p.flush()
        cpus.append(b''.join(p.pages))

    write_dat(os.path.join(out, name + '-v6.dat'), e, ls, hp, formats['header_event'],
              [fmts[n] for n in names], [], ksyms, printk, cmdlines, cpus)


def write_dat(path, e, ls, header_page, header_event, ftrace_fmts, systems, ksyms, printk,
              cmdlines, cpus, align=PAGE):
    """A file-version-6 trace.dat: the headers, ftrace's own formats, other event systems
    ([(system, [format text])]), kallsyms, printk formats, saved cmdlines (text), a
    TRACECLOCK option and one flyrecord of pages per cpu (bytes), the first cpu's data at a
    multiple of align (a multiple of the page size)."""
    u16, u32, u64 = (lambda v: struct.pack(e + 'H', v)), (lambda v: struct.pack(e + 'I', v)), \
        (lambda v: struct.pack(e + 'Q', v))
    b = b'\x17\x08\x44tracing' + b'6\0'
    b += bytes([0 if e == '<' else 1, ls]) + u32(PAGE)
    hp_b, he_b = header_page.encode(), header_event.encode()
    b += b'header_page\0' + u64(len(hp_b)) + hp_b
    b += b'header_event\0' + u64(len(he_b)) + he_b
    b += u32(len(ftrace_fmts))               # ftrace's own formats
    for text in ftrace_fmts:
        fb = text.encode()
        b += u64(len(fb)) + fb
    b += u32(len(systems))                   # the other event systems
    for system, texts in systems:
        b += system.encode() + b'\0' + u32(len(texts))
        for text in texts:
            fb = text.encode()
            b += u64(len(fb)) + fb
    kb = ksyms.encode()
    b += u32(len(kb)) + kb
    pb = printk.encode()
    b += u32(len(pb)) + pb
    cb = cmdlines.encode()
    b += u64(len(cb)) + cb
    b += u32(len(cpus))
    b += b'options  \0'
    clock = b'[local] global counter uptime perf mono mono_raw boot\n\0'
    b += u16(4) + u32(len(clock)) + clock     # TRACECLOCK
    b += u16(0)
    b += b'flyrecord\0'
    table_at = len(b)
    data_at = (table_at + 16 * len(cpus) + align - 1) // align * align
    table, at = b'', data_at
    for c in cpus:
        table += u64(at) + u64(len(c))
        at += len(c)
    b += table
    b += b'\0' * (data_at - len(b))
    for c in cpus:
        b += c
    with open(path, 'wb') as f:
        f.write(b)


def main():
    out = sys.argv[1]
    try:
        formats = {
            'header_page': open(T + '/events/header_page').read(),
            'header_event': open(T + '/events/header_event').read(),
            'function': open(T + '/events/ftrace/function/format').read(),
            'funcgraph_entry': open(T + '/events/ftrace/funcgraph_entry/format').read(),
            'funcgraph_exit': open(T + '/events/ftrace/funcgraph_exit/format').read(),
        }
    except OSError as err:
        print('SKIP: cannot read the format files in tracefs (%s)' % err)
        sys.exit(77)
    if out == '--bench':
        path, ncpu, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        d, name = os.path.split(path)
        build(d or '.', name[:-len('-v6.dat')] if name.endswith('-v6.dat') else name, '<', 8,
              ncpu, rounds, formats, 'fgraph')
        return
    os.makedirs(out, exist_ok=True)
    build(out, 'func-le64-1cpu', '<', 8, 1, 3, formats)
    build(out, 'func-le32-2cpu', '<', 4, 2, 3, formats)
    build(out, 'func-be64-4cpu', '>', 8, 4, 2, formats)
    build(out, 'func-be32-4cpu', '>', 4, 4, 2, formats)
    build(out, 'func-le64-many', '<', 8, 2, 8, formats)  # several pages per cpu
    build(out, 'fgraph-le64-1cpu', '<', 8, 1, 2, formats, 'fgraph')
    build(out, 'fgraph-le32-2cpu', '<', 4, 2, 2, formats, 'fgraph')
    build(out, 'fgraph-be64-4cpu', '>', 8, 4, 1, formats, 'fgraph')
    build(out, 'fgraph-le64-4cpu', '<', 8, 4, 3, formats, 'fgraph')
    build(out, 'fgraph-lag-le64-2cpu', '<', 8, 2, 3, formats, 'fgraph-lag')


if __name__ == '__main__':
    main()
