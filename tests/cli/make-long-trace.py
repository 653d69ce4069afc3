#!/usr/bin/python3
"""make-long-trace.py SRC DST N - a uftrace data directory that takes traceglot a while to
read: SRC (the project's example recording) copied to DST with one thread's records repeated
N times, each copy moved past the previous one in time.  For the tests of what happens while
a command runs (the progress line, a signal during a conversion); 16 bytes per record, so
N = 60000 makes about 50 MB."""
import shutil
import sys

import numpy as np

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.copytree(src, dst)
tid = max((p for p in __import__("os").listdir(src) if p.endswith(".dat") and p[0].isdigit()),
          key=lambda p: __import__("os").path.getsize(f"{src}/{p}"))
recs = np.fromfile(f"{src}/{tid}", dtype="<u8").reshape(-1, 2)
span = int(recs[-1, 0] - recs[0, 0]) + 1000
out = np.tile(recs, (n, 1))
out[:, 0] += np.repeat(np.arange(n, dtype=np.uint64) * np.uint64(span), len(recs))
out.tofile(f"{dst}/{tid}")
