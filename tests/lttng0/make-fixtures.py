#!/usr/bin/env python3
"""make-fixtures.py - hand-made LTTng 0.x traces (trace format 2.x) and what they must print.

No LTTng 0.x tracer runs on a current kernel, so these traces are written byte by byte from
the format (block header, event headers, marker formats: see src/formats/lttng0/) together
with the output they must give, computed here from the values written, never from
traceglot:
  <name>/                 the trace folder (tracefiles <channel>_<cpu>)
  <name>.lttv.txt         `traceglot cat --style=lttv --path-prefix fixture <name>`
  <name>.total.txt        the last line of `traceglot stats <name>`

  smp8     8 cpus (kernel_0..7), a sparse channel (fs_0, fs_3, fs_7), two metadata files,
           little endian, 32-bit pointers, packed; compact headers whose 27 low TSC bits
           wrap again and again, the cycle counter crossing 2^32, extended headers (ids 29,
           30, 31), every field type (strings, 1/2/4/8-byte integers, signed, pointers,
           network byte order, "0x%lX", "%c")
  lost-be  big endian, 64-bit pointers, aligned (alignment 8), format 2.6, blocks of
           different sizes whose events_lost counters grow (lost-event records)
  flight   flight recorder, format 2.3 (the block header's size field is lost_size): the
           surviving blocks written in ring order, the oldest overwritten (events_lost and
           subbuf_corrupt say so)
Run: tests/lttng0/make-fixtures.py tests/data/lttng0
"""
import os
import shutil
import struct
import sys

MAGIC = 0x00D6B7ED
TSC_BITS = 27
TSC_MASK = (1 << TSC_BITS) - 1


class Trace:
    def __init__(self, be, minor, arch, align, freq, start_tsc, start_sec=1262715366,
                 start_usec=408819):
        self.e = '>' if be else '<'
        self.minor, self.arch, self.align = minor, arch, align
        self.freq, self.start_tsc = freq, start_tsc
        self.start_sec, self.start_usec = start_sec, start_usec
        self.markers = {}       # (channel, name) -> (id, format)
        self.next_id = {}
        self.files = {}         # tracefile name -> list of blocks (in file order)
        self.expected = []      # (tsc, order, line)
        self.lost = 0
        self.order = 0

    # ---- sizes and layout of marker fields (the format's rules) --------------------------
    def fields(self, fmt):
        out = []
        words = fmt.split()
        for i in range(0, len(words), 2):
            name, t = words[i], words[i + 1]
            kind, size, net = None, None, False
            conv = t
            if t.startswith('#'):
                spec, conv = t[1:].split('%', 1)
                conv = '%' + conv
                if spec.startswith('n'):
                    net, spec = True, spec[1:]
                if spec == 'p':
                    kind, size = 'ptr', self.arch
                else:
                    size = int(spec[0])
                    kind = {'u': 'u', 'd': 's', 'x': 'u'}.get(spec[1:2], None)
            letter = conv[-1]
            q = conv[conv.index('%') + 1:-1].lstrip('-+ #0123456789')
            csize = {'': 4, 'h': 2, 'hh': 1, 'l': self.arch, 'll': 8, 'L': 8, 'z': self.arch}[q]
            ckind = {'d': 's', 'i': 's', 'u': 'u', 'x': 'u', 'X': 'u', 'o': 'u', 'c': 'u',
                     'p': 'ptr', 's': 'str'}[letter]
            if letter == 'c':
                csize = 1
            if letter == 'p':
                csize = self.arch
            if ckind == 'str':
                kind, size = 'str', 0
            kind = kind or ckind
            size = size or csize
            out.append((name, kind, size, net, conv))
        return out

    def falign(self, size):
        return min(size, self.align) if self.align and size else 1

    def payload(self, fmt, values):
        """Bytes of a payload that starts at an offset aligned to the largest alignment."""
        b = bytearray()
        for (name, kind, size, net, conv), v in zip(self.fields(fmt), values):
            if kind == 'str':
                b += v.encode() + b'\0'
                continue
            a = self.falign(size)
            b += b'\0' * ((-len(b)) % a)
            e = '>' if net else self.e
            code = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]
            b += struct.pack(e + code, v & ((1 << (8 * size)) - 1))
        return bytes(b)

    def largest(self, fmt):
        return max([self.falign(f[2]) for f in self.fields(fmt) if f[1] != 'str'] + [1])

    # ---- LTTV's text for a payload (its printing rules) -------------------------------------
    def text(self, fmt, values):
        parts = []
        for (name, kind, size, net, conv), v in zip(self.fields(fmt), values):
            if kind == 'str':
                parts.append('%s = "%s"' % (name, v))
                continue
            v &= (1 << (8 * size)) - 1
            if kind == 's' and v >= 1 << (8 * size - 1):
                v -= 1 << (8 * size)
            if kind == 'ptr':
                parts.append('%s = 0x%x' % (name, v))
                continue
            pre, c = conv.split('%', 1)
            letter = c[-1]
            if letter in 'di':
                if v >= 1 << 63:
                    v -= 1 << 64
                s = '%d' % v
            elif letter == 'c':
                s = chr(v)
            else:
                s = {'u': '%d', 'x': '%x', 'X': '%X', 'o': '%o'}[letter] % (v % (1 << 64))
            parts.append('%s = %s%s' % (name, pre, s))
        return ' { ' + ', '.join(parts) + ' }' if parts else ''

    def ns(self, tsc):
        def cyc(c):
            return int(float(c) * 1e9 / float(self.freq))
        base = cyc(self.start_tsc)
        return base + cyc(tsc - self.start_tsc) if tsc >= self.start_tsc else \
            base - cyc(self.start_tsc - tsc)

    # ---- events and blocks -------------------------------------------------------------------
    def declare(self, meta, channel, name, fmt, tsc):
        eid = self.next_id.get(channel, 0)
        self.next_id[channel] = eid + 1
        self.markers[(channel, name)] = (eid, fmt)
        a = self.align
        idfmt = ('channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu '
                 'size_t #1u%zu alignment #1u%u')
        meta.append(('metadata', 'core_marker_id', idfmt,
                     [channel, name, eid, 4, self.arch, self.arch, self.arch, a], tsc, 'c'))
        meta.append(('metadata', 'core_marker_format', 'channel %s name %s format %s',
                     [channel, name, fmt], tsc + 20, 'c'))

    def encode_block(self, fname, events, begin, sb_size, lost=0, corrupt=0):
        """events: (channel, name, fmt, values, tsc, header kind 'c'|'29'|'30'|'31')."""
        cpu = int(fname.rsplit('_', 1)[1])
        body = bytearray()
        pos = 68
        prev = begin
        for channel, name, fmt, values, tsc, kind in events:
            if channel == 'metadata':
                eid = {'core_marker_id': 0, 'core_marker_format': 1}[name]
            else:
                eid = self.markers[(channel, name)][0]
            if kind == 'c' and (eid >= 29 or not (0 <= tsc - prev <= TSC_MASK)):
                kind = '29'
            assert tsc >= prev or kind == '29'
            pay = self.payload(fmt, values)
            ev = bytearray()

            def pad(n):
                if self.align:
                    ev.extend(b'\0' * ((-(pos + len(ev))) % min(n, self.align)))
            pad(4)
            hid = {'c': eid, '29': 29, '30': 30, '31': 31}[kind]
            ev += struct.pack(self.e + 'I', (hid << TSC_BITS) | (tsc & TSC_MASK))
            if kind in ('29', '30'):
                ev += struct.pack(self.e + 'HH', eid, len(pay))
            elif kind == '31':
                ev += struct.pack(self.e + 'H', eid)
            if kind == '29':
                pad(8)
                ev += struct.pack(self.e + 'Q', tsc)
            if self.align:
                pad(self.largest(fmt))
            ev += pay
            body += ev
            pos += len(ev)
            prev = tsc
            line = '%s.%s: %d.%09d (fixture/%s), ' % (channel, name, self.ns(tsc) // 10**9,
                                                      self.ns(tsc) % 10**9, fname)
            self.expected.append((tsc, self.order, cpu, channel, name, values, line + '@PROC@' +
                                  self.text(fmt, values)))
            self.order += 1
        data_size = 68 + len(body)
        assert data_size <= sb_size, (fname, data_size, sb_size)
        size_field = data_size if self.minor >= 5 else sb_size - data_size
        hdr = struct.pack(self.e + 'QQIBBBBQQQIIIII', begin, prev + 5, MAGIC, 2, self.minor,
                          self.arch, self.align, self.start_sec, self.start_usec, self.freq, 1,
                          size_field, sb_size, lost, corrupt)
        blk = hdr + bytes(body) + b'\0' * (sb_size - data_size)
        self.files.setdefault(fname, []).append(blk)

    def write(self, root, name):
        d = os.path.join(root, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for fname, blocks in self.files.items():
            with open(os.path.join(d, fname), 'wb') as f:
                f.write(b''.join(blocks))
        # LTTV's process columns: the running process per cpu (sched_schedule's next_pid,
        # unnamed and in unknown mode) or the unnamed pid 0
        running = {}
        lines = []
        for tsc, order, cpu, channel, ev, values, line in sorted(self.expected, key=lambda x: (
                self.ns(x[0]), x[1])):
            if channel == 'kernel' and ev == 'sched_schedule':
                running[cpu] = values[1]
            pid = running.get(cpu, 0)
            lines.append(line.replace('@PROC@', '%d, 0, , , 0, 0x0, MODE_UNKNOWN' % pid))
        with open(d + '.lttv.txt', 'w') as f:
            f.write('Trace set contains 1 traces\n\n' + ''.join(l + '\n' for l in lines) +
                    'End trace set\n\n')
        with open(d + '.total.txt', 'w') as f:
            # the events written; the lost-records markers are not events
            f.write('total: %d events, %d lost\n' % (len(lines), self.lost))


VALUES_FMT = ('label %s small #1u%u delta #2d%d count %u big %llu neg %ld ptr %p '
              'ip 0x%lX port #n2u%hu ch %c')


def smp8(root):
    t = Trace(be=False, minor=5, arch=4, align=0, freq=2500000000, start_tsc=0xFFFF0000 - 7000000)
    meta0, meta1 = [], []
    tsc = t.start_tsc + 100
    t.declare(meta0, 'kernel', 'sched_schedule', 'prev_pid %d next_pid %d prev_state #2d%ld', tsc)
    t.declare(meta0, 'fs', 'values', VALUES_FMT, tsc + 100)
    t.declare(meta1, 'fs', 'empty', ' ', tsc + 200)
    t.declare(meta1, 'kernel', 'wide', 'a #8u%llu b #4d%d', tsc + 300)
    t.encode_block('metadata_0', meta0, t.start_tsc, 1024)
    t.encode_block('metadata_1', meta1, t.start_tsc, 1024)
    # kernel_0..7: two blocks each; events 9,000,000 to 120,000,000 cycles apart, so the 27
    # low bits wrap and the counter crosses 2^32 (0xFFFF0000 + ...)
    for cpu in range(8):
        evs = []
        tsc = t.start_tsc + 1000 + cpu * 37
        gaps = [9000000, 120000000, 50000000, 130000000, 1000, 77777777]
        for k in range(12):
            tsc += gaps[k % len(gaps)] + cpu * 11
            kind = ['c', 'c', '29', 'c', '30', '31'][(k + cpu) % 6]
            if k % 3 == 0:
                evs.append(('kernel', 'sched_schedule', 'prev_pid %d next_pid %d prev_state #2d%ld',
                            [100 + cpu + k, 200 + 10 * cpu + k, -1 if k % 2 else 0], tsc, kind))
            else:
                evs.append(('kernel', 'wide', 'a #8u%llu b #4d%d',
                            [(1 << 63) + k * 1000003 + cpu, -(k * 7 + cpu)], tsc, kind))
        t.encode_block('kernel_%d' % cpu, evs[:6], t.start_tsc + cpu, 512)
        t.encode_block('kernel_%d' % cpu, evs[6:], evs[5][4] + 1, 512)
    for cpu in (0, 3, 7):
        tsc = t.start_tsc + 5000000 + cpu * 101
        evs = []
        for k in range(4):
            tsc += 60000000 + k
            evs.append(('fs', 'values', VALUES_FMT,
                        ['file-%d-%d' % (cpu, k), 200 + k, -3 - k, 4000000000 + k,
                         (1 << 64) - 1 - k, -(1 << 31) + k, 0xc0ffee00 + k, 0xC1421750 + k,
                         8080 + k, ord('A') + k], tsc, ['c', '30', '31', '29'][k]))
            evs.append(('fs', 'empty', ' ', [], tsc + 3, 'c'))
        t.encode_block('fs_%d' % cpu, evs, t.start_tsc + 2, 1024)
    t.write(root, 'smp8')


def lost_be(root):
    t = Trace(be=True, minor=6, arch=8, align=8, freq=1993051000, start_tsc=0x2b54a2003b7a)
    meta = []
    tsc = t.start_tsc + 10
    t.declare(meta, 'kernel', 'values', VALUES_FMT, tsc)
    t.declare(meta, 'kernel', 'pair', 'x #1u%u y %llu', tsc + 100)
    t.encode_block('metadata_0', meta, t.start_tsc, 2048)
    tsc = t.start_tsc + 1000
    counters = [(0, 0), (5, 0), (12, 1)]
    sizes = [1024, 2048, 512]
    t.lost = 12
    for b, ((lost, corrupt), sb) in enumerate(zip(counters, sizes)):
        evs = []
        begin = tsc + 1
        for k in range(3 + b):
            tsc += 3000 + 100 * k
            if k % 2:
                evs.append(('kernel', 'pair', 'x #1u%u y %llu', [k, 10**12 + k], tsc,
                            ['c', '29', '30', '31'][k % 4]))
            else:
                evs.append(('kernel', 'values', VALUES_FMT,
                            ['be-%d-%d' % (b, k), k, -k, 123456 + k, 2**40 + k, -(2**40) - k,
                             0xffff800012345678 + k, 0xABCDEF + k, 443, ord('a') + k], tsc,
                            ['c', '29', '30', '31'][k % 4]))
        t.encode_block('kernel_0', evs, begin, sb, lost, corrupt)
        tsc += 100000
    t.write(root, 'lost-be')


def flight(root):
    t = Trace(be=False, minor=3, arch=4, align=0, freq=1000000000, start_tsc=5000)
    meta = []
    t.declare(meta, 'kernel', 'tick', 'n %u', 5100)
    t.encode_block('metadata_0', meta, 5000, 512)
    # the tracer kept the last 4 blocks of 6; lttd wrote them in ring order: 5, 6, 3, 4
    blocks = []
    tsc = 10000
    n = 0
    for b in range(6):
        evs = []
        begin = tsc
        for k in range(5):
            tsc += 1000 + k
            evs.append(('kernel', 'tick', 'n %u', [n], tsc, 'c'))
            n += 1
        tsc += 500
        blocks.append((begin, evs))
    survivors = [4, 5, 2, 3]
    lost_before = 10  # the 10 events of blocks 0 and 1
    expected_keep = []
    for i in survivors:
        begin, evs = blocks[i]
        t.encode_block('kernel_0', evs, begin, 256, lost_before, 2)
        expected_keep.append(i)
    # only the surviving events are expected (encode_block recorded them)
    t.lost = lost_before
    t.write(root, 'flight')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..',
                                                              'data', 'lttng0')
    os.makedirs(root, exist_ok=True)
    smp8(root)
    lost_be(root)
    flight(root)


if __name__ == '__main__':
    main()
