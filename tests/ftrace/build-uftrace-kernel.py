#!/usr/bin/env python3
"""build-uftrace-kernel.py - turns a real uftrace recording into one made with `uftrace record -k`.

`uftrace record -k` adds the kernel's function_graph records of the traced tasks to the data
directory: kernel-cpuN.dat (the ring-buffer pages read from per_cpu/cpuN/trace_pipe_raw),
kernel_header (PAGE_SIZE, LONG_SIZE and ENDIAN lines, then "TRACEFS: NAME: LENGTH" and the
text of events/header_page and of ftrace's funcgraph_entry and funcgraph_exit formats),
kallsyms (a copy of /proc/kallsyms) and the KERNEL bit in the info header's features.  The
function_graph tracer cannot run on the machines the project is tested on, so this script
writes those files by hand from tracefs's own format files, around the libc calls the real
uftrace recorded: each open/read/write/close gets a kernel call tree between its entry and
exit (records on both cpus), and there are kernel calls uftrace hides by default: before
main (outside user functions), a task that was not traced, and an exit_group that never
returns.  The real `uftrace replay` then prints the expected outputs
(record-uftrace-kernel.sh).

usage: build-uftrace-kernel.py DATA_DIR DUMP   (DUMP: `uftrace dump` of DATA_DIR; exit 77 when
       tracefs cannot be read)
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
T = funcfix.T

KBASE = 0xffffffff81000000
# kernel call trees under each libc call: (function, children)
KTREES = {
    'open': ('__x64_sys_openat', [('do_sys_openat2', [('getname', []), ('do_filp_open', [
        ('path_openat', [])])])]),
    'read': ('__x64_sys_read', [('ksys_read', [('__fdget_pos', []), ('vfs_read', [
        ('rw_verify_area', []), ('read_iter_zero', [])])])]),
    'write': ('__x64_sys_write', [('ksys_write', [('vfs_write', [('write_null', [])])])]),
    'close': ('__x64_sys_close', [('close_fd', []), ('fput', [])]),
}
OUTSIDE = ('__x64_sys_brk', [('do_brk_flags', [])])          # between two user functions
OTHER_TASK = ('__x64_sys_futex', [('futex_wait', [])])      # a pid uftrace did not trace
NAMES = sorted({n for tree in list(KTREES.values()) + [OUTSIDE, OTHER_TASK]
                for n in (lambda walk: walk(walk, tree))(
                    lambda w, t: [t[0]] + [x for k in t[1] for x in w(w, k)])} |
               {'__x64_sys_exit_group', 'do_group_exit', 'tg_unused_symbol'})


def addr(name):
    return KBASE + 0x100 * (NAMES.index(name) + 1)


def user_calls(dump):
    """[(tid, name, entry ns, exit ns, depth)] of the task files' records in `uftrace dump`."""
    calls, open_, in_task = [], {}, False
    for line in open(dump):
        if line.startswith('reading '):
            in_task = re.match(r'reading \d+\.dat', line) is not None
            continue
        m = re.match(r'\s*(\d+)\.(\d{9})\s+(\d+): \[(entry|exit )\] (\S+)\([0-9a-f]+\) depth: (\d+)', line)
        if not in_task or not m:
            continue
        ts, tid, kind, name, depth = int(m.group(1)) * 10**9 + int(m.group(2)), int(m.group(3)), \
            m.group(4).strip(), m.group(5), int(m.group(6))
        if kind == 'entry':
            open_[(tid, depth)] = (name, ts)
        else:
            n, start = open_.pop((tid, depth))
            calls.append((tid, n, start, ts, depth))
    return sorted(calls, key=lambda c: c[2])


def tree_records(tree, pid, start, end, ids):
    """(ts, payload) of the funcgraph entries/exits of tree, spread over (start, end)."""
    events = []

    def walk(node, depth):
        events.append(('entry', node[0], depth))
        for kid in node[1]:
            walk(kid, depth + 1)
        events.append(('exit', node[0], depth))
    walk(tree, 0)
    step = (end - start) // (len(events) + 1)
    assert step > 0, 'the user call is too short for its kernel calls'
    out, entered = [], {}
    for i, (kind, name, depth) in enumerate(events):
        ts = start + step * (i + 1)
        if kind == 'entry':
            entered[depth] = ts
            body = struct.pack('<HBBi', ids['funcgraph_entry'], 0, 0, pid)
            body += struct.pack('<QI', addr(name), depth) + b'\0' * 4
        else:
            body = struct.pack('<HBBi', ids['funcgraph_exit'], 0, 0, pid)
            body += struct.pack('<QIIQQ', addr(name), depth, 0, entered[depth], ts)
        out.append((ts, body))
    return out


def main():
    data, dump = sys.argv[1], sys.argv[2]
    try:
        texts = {n: open(T + '/events/' + p).read() for n, p in [
            ('header_page', 'header_page'),
            ('funcgraph_entry', 'ftrace/funcgraph_entry/format'),
            ('funcgraph_exit', 'ftrace/funcgraph_exit/format')]}
    except OSError as err:
        print('SKIP: cannot read the format files in tracefs (%s)' % err)
        sys.exit(77)
    ids = {n: int(re.search(r'^ID: (\d+)', texts[n], re.M).group(1))
           for n in ('funcgraph_entry', 'funcgraph_exit')}
    calls = user_calls(dump)
    tid = calls[0][0]
    cpus = [[], []]
    n_libc = 0
    for t, name, start, end, depth in calls:
        if name in KTREES:
            cpus[n_libc % 2] += tree_records(KTREES[name], t, start, end, ids)
            n_libc += 1
        if name == 'read':      # meanwhile another task runs on the other cpu
            cpus[1] += tree_records(OTHER_TASK, tid + 1, start, end, ids)
    # kernel calls between two user functions at depth 0 (no user function running)
    atexit_end = next(c[3] for c in calls if c[1] == '__cxa_atexit')
    main_start = next(c[2] for c in calls if c[1] == 'main')
    cpus[0] += tree_records(OUTSIDE, tid, atexit_end, main_start, ids)
    # the task's exit_group: entries whose exits are never written
    last = max(c[3] for c in calls)
    for k, name in enumerate(['__x64_sys_exit_group', 'do_group_exit']):
        body = struct.pack('<HBBi', ids['funcgraph_entry'], 0, 0, tid)
        cpus[1].append((last + 1000 + k * 300, body + struct.pack('<QI', addr(name), k) + b'\0' * 4))
    for cpu, recs in enumerate(cpus):
        p = funcfix.Pages('<', 8)
        for ts, payload in sorted(recs, key=lambda r: r[0]):
            p.add(ts, payload)
        p.flush()
        with open(os.path.join(data, 'kernel-cpu%d.dat' % cpu), 'wb') as f:
            f.write(b''.join(p.pages))
    with open(os.path.join(data, 'kernel_header'), 'w') as f:
        f.write('PAGE_SIZE: %d\nLONG_SIZE: 8\nENDIAN: LE\n' % funcfix.PAGE)
        for n, path in [('header_page', 'events/header_page'),
                        ('funcgraph_entry', 'events/ftrace/funcgraph_entry/format'),
                        ('funcgraph_exit', 'events/ftrace/funcgraph_exit/format')]:
            f.write('TRACEFS: %s: %d\n' % (path, len(texts[n])) + texts[n])
    with open(os.path.join(data, 'kallsyms'), 'w') as f:
        f.write('%016x T _stext\n' % KBASE)
        for n in NAMES:
            f.write('%016x T %s\n' % (addr(n), n))
        f.write('%016x T _etext\n' % (addr(NAMES[-1]) + 0x100))
    with open(os.path.join(data, 'info'), 'r+b') as f:   # the KERNEL feature bit
        f.seek(16)
        feat = struct.unpack('<Q', f.read(8))[0] | 1 << 2
        f.seek(16)
        f.write(struct.pack('<Q', feat))


if __name__ == '__main__':
    main()
