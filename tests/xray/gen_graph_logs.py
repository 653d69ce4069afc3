#!/usr/bin/env python3
"""gen_graph_logs.py OUTDIR - writes small XRay basic-mode logs whose records stress what
llvm-xray graph does beyond a well-formed run: exits below the top of the stack (sibling
calls, -deduce-sibling-calls), exits with no entry at all (-keep-going), records out of TSC
order in the file and ties of TSC across threads (llvm-xray sorts the records stably by
TSC), function id 0 (the graph's root), a call of zero cycles (llvm's "min == 0" rule), a
function that never returns, tail exits and a log without a cycle frequency (times left in
cycles).  The test runs llvm-xray graph on them, so the expected outputs come from the real
tool."""
import os
import struct
import sys


def header(freq):
    return struct.pack('<HHIQ', 3, 0, 3, freq) + b'\0' * 16


def rec(kind, fid, tsc, tid, pid=500, cpu=1):
    return struct.pack('<HBBiQII', 0, cpu, kind, fid, tsc, tid, pid) + b'\0' * 8


ENTER, EXIT, TAIL, ENTER_ARG = 0, 1, 2, 3


def program(t):
    r = []
    # thread 11: a sibling call: 3 is left open when 1 exits (an exit below the top)
    r += [(ENTER, 1, t + 10, 11), (ENTER, 2, t + 20, 11), (EXIT, 2, t + 30, 11),
          (ENTER, 2, t + 40, 11), (ENTER, 3, t + 45, 11), (EXIT, 1, t + 90, 11)]
    # thread 12: the same TSCs as thread 11 (ties keep the file's order), a zero-cycle call,
    # a tail exit and an argument entry
    r += [(ENTER, 1, t + 10, 12), (ENTER_ARG, 4, t + 20, 12), (EXIT, 4, t + 20, 12),
          (ENTER, 4, t + 30, 12), (TAIL, 4, t + 55, 12), (EXIT, 1, t + 90, 12)]
    # thread 13: records in the file out of TSC order; function 0 calls 5
    r += [(ENTER, 0, t + 100, 13), (EXIT, 5, t + 170, 13), (ENTER, 5, t + 120, 13),
          (EXIT, 0, t + 200, 13), (ENTER, 6, t + 210, 13), (ENTER, 7, t + 220, 13),
          (EXIT, 7, t + 260, 13)]  # 6 never returns
    # thread 14: an exit with no entry anywhere on the stack, then a regular call
    r += [(ENTER, 2, t + 300, 14), (EXIT, 9, t + 310, 14), (EXIT, 2, t + 330, 14),
          (ENTER, 3, t + 340, 14), (EXIT, 3, t + 345, 14)]
    return r


def write(path, freq, recs):
    data = header(freq) + b''.join(rec(k, f, ts, tid) for k, f, ts, tid in recs)
    open(path, 'wb').write(data)


if __name__ == '__main__':
    out = sys.argv[1]
    t = 7 * 10**9
    recs = program(t)
    write(os.path.join(out, 'graph-irregular.xray'), 2000000000, recs)
    write(os.path.join(out, 'graph-nofreq.xray'), 0, recs)
    # only what -keep-going needs: siblings deduced, no exit without any entry
    write(os.path.join(out, 'graph-siblings.xray'), 2000000000,
          [x for x in recs if x[3] != 14])
