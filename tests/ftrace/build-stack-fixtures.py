#!/usr/bin/env python3
"""build-stack-fixtures.py - a hand-built trace.dat whose kernel stacks end their pages.

trace-cmd report -R prints kernel_stack's caller[] to its declared length (8 entries), however
few the record holds: the bytes after a short record are read from trace-cmd's buffer, which
past the record's page holds the next page (its header, then its records) as long as the next
page lies in the same buffer.  A live capture meets a stack record at its page's end by
chance; this fixture holds the cases on purpose, on every run:

  page 0 ends exactly with a 2-deep stack: caller[] reads the next page's header and first
      record;
  page 1 ends with a 3-deep stack 20 bytes before the page's end: the unused tail of the page
      (the kernel leaves old bytes there: a pattern here) comes first;
  pages 2 to 6 end with stacks of other depths, at the end or short of it;
  the last page of each cpu ends with an 8-deep stack (nothing is read past a cpu's data:
      trace-cmd's buffer ends there and what it prints past it is its own memory).
Between the stacks, trace_marker records of about 1 KB (short texts, then NULs: records whose
length is in a word of their own) fill the pages, and stacks follow texts and other stacks.

trace-cmd maps a cpu's data in blocks of the largest power of two of pages that the largest
cpu's data holds, aligned in the file (in the inflated data when compressed): cpu 0 holds 8
pages and is placed at a multiple of 8 pages, so its pages share one block in file version 6
and in its zstd conversion (trace-cmd's own v7 conversion places it elsewhere: the recording
script checks that trace-cmd prints it alike).  The kernel_stack and print formats come from
tracefs.

usage: build-stack-fixtures.py OUTDIR   (exit 77 when tracefs cannot be read)
"""
import importlib.util
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('funcfix', os.path.join(HERE, 'build-func-fixtures.py'))
funcfix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(funcfix)
T, PAGE = funcfix.T, funcfix.PAGE
ROOM = PAGE - 16  # a 64-bit little-endian page: timestamp, commit, then the records
BASE = 0xffffffff81000000
STALE = bytes(range(0xa0, 0xc0))  # what the unused tail of a page holds


def stack(type_id, pid, depth, salt):
    """A kernel_stack payload: common fields, size, then depth return addresses."""
    rec = struct.pack('<HBBiiI', type_id, 0, 0, pid, depth, 0)
    for i in range(depth):
        rec += struct.pack('<Q', BASE + funcfix.SYMBOLS[1 + (salt + i) % 19][0] + 0x10 + i)
    return rec


def marker(type_id, pid, size, n):
    """A print (trace_marker) payload of size bytes: ip, a short text, NULs."""
    text = ('traceglot stack fixture filler %d' % n).encode()
    return (struct.pack('<HBBiQ', type_id, 0, 0, pid, BASE + 0x1000) + text).ljust(size, b'\0')


def record(payload, delta):
    """The ring-buffer record: a length in the header up to 112 bytes, else in a word."""
    if len(payload) <= 112:
        return struct.pack('<I', delta << 5 | len(payload) // 4) + payload
    return struct.pack('<II', delta << 5, len(payload) + 4) + payload


def page(ts, payloads, tail=b''):
    """One page: the records (100 ns apart) packed from ts, then the stale tail."""
    body = b''.join(record(p, 0 if i == 0 else 100) for i, p in enumerate(payloads))
    assert len(body) <= ROOM, len(body)
    head = struct.pack('<QQ', ts, len(body))
    rest = ROOM - len(body)
    fill = (tail * (rest // max(len(tail), 1) + 1))[:rest] if tail else b'\0' * rest
    return head + body + fill, ts + 100 * len(payloads)


def fill_page(ids, pid, last_depth, slack, salt):
    """Payloads that fill a page up to ROOM - slack: trace_marker texts and stacks, the last
    one a last_depth-deep stack."""
    payloads = [marker(ids['print'], pid, 1200, salt), stack(ids['kernel_stack'], pid, 3, salt),
                marker(ids['print'], pid, 1000, salt + 1),
                stack(ids['kernel_stack'], pid, 8, salt + 1)]
    used = sum(len(record(p, 0)) for p in payloads)
    last = stack(ids['kernel_stack'], pid, last_depth, salt + 2)
    left = ROOM - slack - used - len(record(last, 0)) - 8  # the last text's header and length
    payloads += [marker(ids['print'], pid, left, salt + 2), last]
    assert sum(len(record(p, 0)) for p in payloads) == ROOM - slack
    return payloads


def build(out, formats):
    ids = {n: int(re.search(r'^ID: (\d+)', formats[n], re.M).group(1))
           for n in ('kernel_stack', 'print')}
    ts = 9000000000
    cpu0 = []
    # (pid, depth of the page's last stack, bytes left unused after it, stale tail)
    plan = [(1234, 2, 0, b''), (1234, 3, 20, STALE), (1301, 6, 0, b''), (1301, 1, 0, b''),
            (1400, 5, 12, STALE), (1400, 4, 0, b''), (1555, 7, 28, STALE), (1555, 8, 4, STALE)]
    for n, (pid, depth, slack, tail) in enumerate(plan):
        pg, ts = page(ts, fill_page(ids, pid, depth, slack, n * 3), tail)
        cpu0.append(pg)
        ts += 2000
    cpu1 = []
    ts1 = 9000000050
    for n, (pid, depth, slack, tail) in enumerate([(1600, 3, 0, b''), (1600, 8, 0, b'')]):
        pg, ts1 = page(ts1, fill_page(ids, pid, depth, slack, 40 + n), tail)
        cpu1.append(pg)
        ts1 += 3100
    ksyms = ''.join('%016x %s %s\n' % (BASE + a, t, n)
                    for a, t, n, mod in funcfix.SYMBOLS if not mod)
    cmdlines = ''.join('%d %s\n' % c for c in funcfix.COMMS + [(1600, 'ls')])
    funcfix.write_dat(os.path.join(out, 'stack-page-end-v6.dat'), '<', 8, formats['header_page'],
                      formats['header_event'], [formats['kernel_stack'], formats['print']], [],
                      ksyms, '', cmdlines, [b''.join(cpu0), b''.join(cpu1)],
                      align=len(cpu0) * PAGE)


def main():
    out = sys.argv[1]
    try:
        formats = {
            'header_page': open(T + '/events/header_page').read(),
            'header_event': open(T + '/events/header_event').read(),
            'kernel_stack': open(T + '/events/ftrace/kernel_stack/format').read(),
            'print': open(T + '/events/ftrace/print/format').read(),
        }
    except OSError as err:
        print('SKIP: cannot read the format files in tracefs (%s)' % err)
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    build(out, formats)


if __name__ == '__main__':
    main()
