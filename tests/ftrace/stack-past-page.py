#!/usr/bin/env python3
"""stack-past-page.py - kernel_stack records whose caller[] runs past what trace-cmd holds.

trace-cmd report -R prints kernel_stack's caller[] to its declared length, reading past a short
record.  Past the record's page it reads the next page only while that page lies in the block
of pages it mapped with it: a cpu's data is mapped in blocks of the largest power of two of
pages that the largest cpu's data holds, at multiples of that size in the file, cut to the
cpu's data.  Past the block it prints memory of its own process, which differs from run to
run and from one file version to another (the blocks lie elsewhere in a v7 conversion).  A
live capture can hold such a record anywhere.

Reads a file-version-6 trace.dat independently of traceglot and finds such records of the
top instance: each is the N-th kernel_stack record of its cpu, with so many bytes of caller[]
within what trace-cmd holds.  With --page, every record whose caller[] runs past its page is
taken, with the bytes within the page (what all file versions print alike).  Without TEXT it
lists them ("CPU N BYTES"); with TEXT (report -R's output of the file, "-" for stdin) it
prints TEXT with the caller[] of those records cut after their bytes ("..." marks the cut).
Finds nothing in other files.

usage: stack-past-page.py [--page] FILE-v6.dat [TEXT]
"""
import re
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.p, self.e = data, 0, '<'

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            raise ValueError('truncated')
        self.p += n
        return b

    def num(self, fmt):
        return struct.unpack(self.e + fmt, self.take(struct.calcsize(fmt)))[0]

    def cstr(self):
        end = self.d.index(b'\0', self.p)
        s = self.d[self.p:end].decode(errors='replace')
        self.p = end + 1
        return s


def past(path, by_page):
    """{(cpu, n): bytes of caller[] held} of the stack records that run past what is held."""
    found = {}
    data = open(path, 'rb').read()
    r = Reader(data)
    if r.take(10) != b'\x17\x08\x44tracing' or r.cstr() != '6':
        return found
    r.e = '>' if r.take(1)[0] else '<'
    r.take(1)  # long size
    page_size = r.num('I')
    r.cstr()
    header_page = r.take(r.num('Q')).decode(errors='replace')
    r.cstr()
    r.take(r.num('Q'))
    data_off = int(re.search(r'data;\toffset:(\d+);', header_page).group(1))
    commit = re.search(r'commit;\toffset:(\d+);\tsize:(\d+);', header_page)
    commit_off, commit_size = int(commit.group(1)), int(commit.group(2))
    stack_id = caller = None
    for _ in range(r.num('I')):  # ftrace's own formats
        text = r.take(r.num('Q')).decode(errors='replace')
        if re.search(r'^name: kernel_stack$', text, re.M):
            stack_id = int(re.search(r'^ID: (\d+)', text, re.M).group(1))
            m = re.search(r'caller\[\d*\];\toffset:(\d+);\tsize:(\d+);', text)
            caller = (int(m.group(1)), int(m.group(2)))
    for _ in range(r.num('I')):  # other systems
        r.cstr()
        for _ in range(r.num('I')):
            r.take(r.num('Q'))
    r.take(r.num('I'))  # kallsyms
    r.take(r.num('I'))  # printk formats
    r.take(r.num('Q'))  # saved cmdlines
    cpus = r.num('I')
    if r.take(10) == b'options  \0':
        while r.num('H'):
            r.take(r.num('I'))
        kind = r.take(10)
    else:
        kind = data[r.p - 10:r.p]
    if stack_id is None or not kind.startswith(b'flyrecord'):
        return found
    table = [(r.num('Q'), r.num('Q')) for _ in range(cpus)]
    pages = max([size // page_size for _, size in table] + [1])
    block = page_size * (1 << (pages.bit_length() - 1))
    for cpu, (offset, size) in enumerate(table):
        n = 0
        for page in range(offset, offset + size - page_size + 1, page_size):
            raw = data[page + commit_off:page + commit_off + commit_size]
            used = int.from_bytes(raw, 'little' if r.e == '<' else 'big') & ((1 << 27) - 1)
            pos, end = page + data_off, page + data_off + min(used, page_size - data_off)
            while pos + 4 <= end:
                hdr = struct.unpack(r.e + 'I', data[pos:pos + 4])[0]
                type_len = hdr & 31 if r.e == '<' else hdr >> 27
                if type_len in (30, 31):  # time extend, absolute time stamp
                    pos += 8
                    continue
                if type_len == 0 or type_len == 29:  # length in the next word; padding
                    length = struct.unpack(r.e + 'I', data[pos + 4:pos + 8])[0]
                    rec, pos = pos + 8, pos + 4 + length
                    if type_len == 29:
                        continue
                else:
                    rec, pos = pos + 4, pos + 4 + 4 * type_len
                if int.from_bytes(data[rec:rec + 2], 'little' if r.e == '<' else 'big') != stack_id:
                    continue
                held = page + page_size
                if not by_page:
                    held = min(offset + size, (page & ~(block - 1)) + block)
                if rec + caller[0] + caller[1] > held:
                    found[(cpu, n)] = max(0, held - rec - caller[0])
                n += 1
    return found


def mask(text, found):
    """report -R's lines with the caller[] of the found records cut."""
    seen = {}
    for line in text.splitlines(keepends=True):
        m = re.search(r' \[(\d+)\] .* kernel_stack: ', line)
        if m:
            cpu = int(m.group(1))
            key = (cpu, seen.get(cpu, 0))
            seen[cpu] = key[1] + 1
            a = line.find('caller=ARRAY[')
            if key in found and a >= 0:
                items = line[a + 13:].rstrip('\n').rstrip(']').split(', ')
                line = line[:a + 13] + ', '.join(items[:found[key]]) + ', ...]\n'
        sys.stdout.buffer.write(line.encode('latin-1'))


def main():
    args = sys.argv[1:]
    by_page = args[0] == '--page'
    if by_page:
        args = args[1:]
    found = past(args[0], by_page)
    if len(args) == 1:
        for (cpu, n), held in sorted(found.items()):
            print(cpu, n, held)
        return
    text = (sys.stdin.buffer.read() if args[1] == '-' else open(args[1], 'rb').read()).decode('latin-1')
    mask(text, found)


if __name__ == '__main__':
    main()
