#!/usr/bin/env python3
"""gen_synthetic.py OUTDIR - writes small hand-built XRay logs of every layout version.

The real runtime (compiler-rt 14) writes FDR version 5 and basic version 3 only; these logs
cover the older layouts the reader also accepts (FDR 1-4: EndOfBuffer, no PID record, custom
events with a full TSC and, from 4, a CPU; basic 1-2), plus call arguments, custom and typed
events, TSC wraps and several buffers per thread.  The test compares traceglot with
llvm-xray on them, so the expected outputs still come from the real tool."""
import os
import struct
import sys


def meta(kind, payload=b''):
    return bytes([(kind << 1) | 1]) + payload + b'\0' * (15 - len(payload))


def func(kind, fid, delta):
    return struct.pack('<II', (fid << 4) | (kind << 1), delta)


def custom(ver, delta_or_tsc, cpu, data):
    if ver >= 5:
        return meta(5, struct.pack('<ii', len(data), delta_or_tsc)) + data
    p = struct.pack('<iQ', len(data), delta_or_tsc)
    if ver >= 4:
        p += struct.pack('<H', cpu)
    return meta(5, p) + data


def typed(delta, t, data):
    return meta(8, struct.pack('<iiH', len(data), delta, t)) + data


def fdr(ver, out):
    hdr = struct.pack('<HHIQ', ver, 1, 3, 2500000000) + struct.pack('<Q', 512) + b'\0' * 8

    def buf(tid, pid, sec, tsc0, body):
        recs = meta(0, struct.pack('<i', tid)) + meta(4, struct.pack('<QI', sec, 500))
        if ver >= 3:
            recs += meta(9, struct.pack('<i', pid))
        recs += meta(2, struct.pack('<HQ', 3, tsc0)) + body
        if ver == 1:
            recs += meta(1)
            return recs + b'\0' * (512 - len(recs))
        return meta(7, struct.pack('<Q', len(recs))) + recs

    base = 10**12
    body = (func(0, 1, 10) + func(3, 2, 5) + meta(6, struct.pack('<Q', 77)) +
            meta(6, struct.pack('<Q', 2**63)) + func(1, 2, 7) + func(0, 3, 3) + func(2, 3, 4) +
            func(1, 1, 9))
    if ver >= 5:
        body += custom(ver, 2, 0, b"it's") + typed(3, 7, b'typed') + func(0, 4, 1)
    elif ver >= 3:
        body += custom(ver, base + 90, 3, b'null') + func(0, 4, 100)
    body += meta(3, struct.pack('<Q', base + 5000)) + func(1, 4, 11)
    b2 = func(0, 5, 3) + func(0, 6, 4) + func(1, 6, 4) + func(1, 5, 6)
    b3 = func(0, 1, 20) + func(1, 1, 30)
    data = (hdr + buf(201, 200, 10, base, body) + buf(202, 200, 10, base + 3, b2) +
            buf(201, 200, 11, base + 6000, b3))
    open(os.path.join(out, 'fdr-v%d.xray' % ver), 'wb').write(data)


def basic(ver, out):
    hdr = struct.pack('<HHIQ', ver, 0, 3, 3000000000) + b'\0' * 16

    def rec(kind, fid, tsc, tid, pid, cpu=2):
        return struct.pack('<HBBiQII', 0, cpu, kind, fid, tsc, tid, pid if ver >= 3 else 0) + b'\0' * 8

    def arg(fid, tid, pid, value):
        return struct.pack('<HxxiIIQ', 1, fid, tid, pid if ver >= 3 else 0, value) + b'\0' * 8

    t = 5 * 10**9
    recs = (rec(0, 1, t + 10, 301, 300) + rec(3, 2, t + 20, 301, 300) + arg(2, 301, 300, 42) +
            rec(0, 3, t + 15, 302, 300) + rec(1, 3, t + 40, 302, 300) +
            rec(1, 2, t + 30, 301, 300) + rec(2, 1, t + 50, 301, 300) +
            rec(0, 4, t + 5, 303, 300) + rec(1, 4, t + 60, 303, 300))
    open(os.path.join(out, 'basic-v%d.xray' % ver), 'wb').write(hdr + recs)


if __name__ == '__main__':
    out = sys.argv[1]
    for v in (1, 2, 3, 4, 5):
        fdr(v, out)
    for v in (1, 2, 3):
        basic(v, out)
