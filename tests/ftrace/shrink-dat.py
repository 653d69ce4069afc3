#!/usr/bin/env python3
"""shrink-dat.py - makes a small copy of a trace.dat (file version 6) for committed fixtures.

`trace-cmd extract` stores the whole of /proc/kallsyms and every event format of the
machine (megabytes).  The copy keeps the event systems and system/event formats named on the
command line (plus ftrace's own formats), and only the kallsyms entries the capture needs: every symbol whose
name or address trace-cmd prints for it (given as the report outputs), with the symbol that
follows each one (so address ranges resolve the same way).  Everything else is copied as is;
the CPU data is re-laid out page-aligned.  trace-cmd's outputs are then recorded from the
small file itself, so the fixture and its expected output always belong together.

usage: shrink-dat.py IN.dat OUT.dat SYSTEM[/EVENT],...|auto REPORT.txt...
(auto: the formats of the events the reports show)
"""
import re
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3].split(',')
    if wanted == ['auto']:
        # the events the capture holds: the names trace-cmd printed
        wanted = []
        for r in sys.argv[4:]:
            for m in re.finditer(r'\] +\d+\.\d+: ([A-Za-z0-9_]+):', open(r, errors='replace').read()):
                wanted.append('*/' + m.group(1))
        wanted = sorted(set(wanted)) + ['ftrace']
    systems = {w for w in wanted if '/' not in w}
    events = {tuple(w.split('/', 1)) for w in wanted if '/' in w}
    reports = sys.argv[4:]
    d = open(src, 'rb').read()
    assert d[:10] == b'\x17\x08\x44tracing'
    p = 10
    ver_end = d.index(b'\0', p)
    assert d[p:ver_end] == b'6', 'file version 6 expected'
    p = ver_end + 1
    endian, long_size = d[p], d[p + 1]
    assert endian == 0
    page_size = struct.unpack_from('<I', d, p + 2)[0]
    p += 6
    out = bytearray(d[:p])

    def take(n):
        nonlocal p
        b = d[p:p + n]
        p += n
        return b

    # header page / header event
    for tag in (b'header_page\0', b'header_event\0'):
        assert take(len(tag)) == tag
        n = struct.unpack('<Q', take(8))[0]
        out += tag + struct.pack('<Q', n) + take(n)
    # ftrace formats: all
    cnt = struct.unpack('<I', take(4))[0]
    out += struct.pack('<I', cnt)
    for _ in range(cnt):
        n = struct.unpack('<Q', take(8))[0]
        out += struct.pack('<Q', n) + take(n)
    # event systems: the ones asked for
    nsys = struct.unpack('<I', take(4))[0]
    kept = []
    for _ in range(nsys):
        e = d.index(b'\0', p)
        name = d[p:e].decode()
        p = e + 1
        cnt = struct.unpack('<I', take(4))[0]
        fmts = []
        for _ in range(cnt):
            n = struct.unpack('<Q', take(8))[0]
            f = take(n)
            m = re.match(rb'name: (\S+)', f)
            ev = m.group(1).decode() if m else ''
            if name in systems or (name, ev) in events or ('*', ev) in events:
                fmts.append(f)
        if fmts:
            kept.append((name, fmts))
    out += struct.pack('<I', len(kept))
    for name, fmts in kept:
        out += name.encode() + b'\0' + struct.pack('<I', len(fmts))
        for f in fmts:
            out += struct.pack('<Q', len(f)) + f
    # kallsyms: what the reports name, and the next symbol of each
    n = struct.unpack('<I', take(4))[0]
    ks = take(n).decode(errors='replace').split('\n')
    words, addrs = set(), set()
    for r in reports:
        txt = open(r, errors='replace').read()
        words.update(re.findall(r'[A-Za-z_][A-Za-z0-9_.$]*', txt))
        addrs.update(int(h, 16) for h in re.findall(r'0x([0-9a-f]{9,16})', txt))
        addrs.update(int(h, 16) for h in re.findall(r'\b([0-9a-f]{16})\b', txt))
    syms = []
    for line in ks:
        parts = line.split()
        if len(parts) >= 3:
            syms.append((int(parts[0], 16), parts[2], line))
    order = sorted(range(len(syms)), key=lambda i: syms[i][0])
    sorted_addrs = [syms[i][0] for i in order]
    keep = set()
    import bisect
    for i, (a, name, _) in enumerate(syms):
        if name in words:
            keep.add(i)
    for a in addrs:
        k = bisect.bisect_right(sorted_addrs, a) - 1
        if k >= 0:
            keep.add(order[k])
    # with each kept symbol: every symbol at the same address and the next address's symbols
    extra = set()
    pos_of = {order[k]: k for k in range(len(order))}
    for i in keep:
        k = pos_of[i]
        a = syms[i][0]
        j = k
        while j > 0 and sorted_addrs[j - 1] == a:
            j -= 1
        while j < len(order) and sorted_addrs[j] == a:
            extra.add(order[j])
            j += 1
        if j < len(order):
            b = sorted_addrs[j]
            while j < len(order) and sorted_addrs[j] == b:
                extra.add(order[j])
                j += 1
    keep |= extra
    kbytes = ''.join(syms[i][2] + '\n' for i in sorted(keep)).encode()
    out += struct.pack('<I', len(kbytes)) + kbytes
    # printk formats, cmdlines, cpu count: as they are
    n = struct.unpack('<I', take(4))[0]
    out += struct.pack('<I', n) + take(n)
    n = struct.unpack('<Q', take(8))[0]
    out += struct.pack('<Q', n) + take(n)
    cpus = struct.unpack('<I', take(4))[0]
    out += struct.pack('<I', cpus)
    buffers = []  # (position of the offset in out, old offset) of BUFFER options
    while True:
        tag = take(10)
        out += tag
        if tag == b'options  \0':
            while True:
                oid = struct.unpack('<H', take(2))[0]
                out += struct.pack('<H', oid)
                if oid == 0:
                    break
                n = struct.unpack('<I', take(4))[0]
                out += struct.pack('<I', n)
                if oid == 3:  # BUFFER: u64 offset of the instance's flyrecord table, name
                    buffers.append((len(out), struct.unpack_from('<Q', d, p)[0]))
                out += take(n)
            continue
        assert tag == b'flyrecord\0', tag
        break

    def copy_flyrecord(at):
        """Copies the cpu table at d[at:] (and the clock after it) into out, then the data."""
        table = [struct.unpack_from('<QQ', d, at + 16 * c) for c in range(cpus)]
        table_at = len(out)
        out.extend(b'\0' * (16 * cpus))
        q = at + 16 * cpus
        n = struct.unpack_from('<Q', d, q)[0] if q + 8 <= len(d) else 0
        if 0 < n < 256 and d[q + 8:q + 9] == b'[':
            out.extend(d[q:q + 8 + n])
        for c, (off, size) in enumerate(table):
            out.extend(b'\0' * ((-len(out)) % page_size))
            new_off = len(out)
            out.extend(d[off:off + size])
            struct.pack_into('<QQ', out, table_at + 16 * c, new_off, size)

    copy_flyrecord(p)
    for pos, old in buffers:
        out.extend(b'\0' * ((-len(out)) % 8))
        struct.pack_into('<Q', out, pos, len(out))
        assert d[old:old + 10] == b'flyrecord\0'
        out.extend(b'flyrecord\0')
        copy_flyrecord(old + 10)
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
