#!/usr/bin/python3
"""bench/pairs.py - whole runs of two commands in alternating pairs, as a user feels them.

Instruction counts cannot see the kernel (page faults, madvise, system calls); wall time
can, but on a shared machine it moves with the load.  So two commands are compared by
alternating whole runs, A B A B, after a warm-up, and the figures are medians over the pairs
(load hits both alike; the pairwise ratio cancels what it does to both).  Each run is
measured by the kernel: wall time (a nanosecond clock around spawn and wait), user and
system time, minor faults and peak RSS (wait4's rusage).  The warm-up run of each command
writes its output to a file whose md5 is kept, so equal outputs are checked on the same
runs; the timed runs write to /dev/null, so the disk does not time itself.  The measuring is done by
bench/runstat.c (a small process forks the command, so peak RSS is the command's own), which
this script builds once with cc beside the cached inputs ($TG_BENCH_OUT).

  pairs.py run NAME [--pairs N] [--warmup W] [--goal G] [--json FILE] :: A CMD... :: B CMD...
      A and B are the labels ("traceglot", "uftrace"; "old", "new").  Appends one JSON
      record to FILE (or prints it) and prints a one-line summary on stderr.
  pairs.py peers FILE     the table traceglot against the peers (ratio = peer / traceglot)
  pairs.py compare FILE   the regression table (ratio = new / old; above 1.03 is slower)
  pairs.py once [-o OUT] CMD...   one run, output to OUT or /dev/null: "WALL MAXRSS_KB CPU"

bench/timing.sh wraps these for the bench scripts; bench/run prints `peers`, bench/compare
prints `compare`.  Standard library only (Debian's /usr/bin/python3 or any other)."""
import hashlib
import json
import os
import statistics
import sys
import subprocess
import tempfile


SLOWER = 1.03  # new/old above this on a case: the change is slower (issue 24)
RSS_SLACK = 1.10  # new peak RSS above old * this: hungrier


def runstat():
    """bench/runstat.c built once (beside the cached inputs) and rebuilt when it changes."""
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "runstat.c")
    cache = os.environ.get("TG_BENCH_OUT") or os.path.join(here, "out")
    exe = os.path.join(cache, "runstat")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(cache, exist_ok=True)
        cc = os.environ.get("CC", "cc")
        if os.spawnvp(os.P_WAIT, cc, [cc, "-O2", "-o", exe + ".tmp", src]) != 0:
            sys.exit("pairs.py: cannot build %s with %s" % (exe, cc))
        os.replace(exe + ".tmp", exe)
    return exe


def run_once(cmd, out_path=None):
    """One whole run of cmd through runstat; returns its measures and exit status."""

    p = subprocess.run([runstat(), out_path or os.devnull, *cmd], stdout=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, check=False)
    f = p.stdout.split()
    if p.returncode != 0 or len(f) != 6:
        sys.exit("pairs.py: runstat failed on %s" % " ".join(cmd))
    if int(f[5]) == 127:
        sys.exit("pairs.py: cannot run %s" % cmd[0])
    return {"wall": int(f[0]) / 1e9, "user": int(f[1]) / 1e6, "sys": int(f[2]) / 1e6,
            "minflt": int(f[3]), "rss_kb": int(f[4]), "status": int(f[5])}


def md5_of(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def summary(runs):
    med = lambda k: statistics.median(r[k] for r in runs)
    return {"wall": med("wall"), "user": med("user"), "sys": med("sys"),
            "minflt": med("minflt"), "rss_kb": max(r["rss_kb"] for r in runs),
            "walls": [round(r["wall"], 4) for r in runs]}


def cmd_run(argv):
    name, opts, cmds = None, {"pairs": 7, "warmup": 1, "goal": None, "json": None}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "::":
            cmds.append([])
        elif cmds:
            cmds[-1].append(a)
        elif a.startswith("--") and a[2:] in opts:
            opts[a[2:]] = argv[i + 1]
            i += 1
        elif name is None:
            name = a
        else:
            sys.exit("pairs.py run: unexpected %r" % a)
        i += 1
    if name is None or len(cmds) != 2 or min(len(c) for c in cmds) < 2:
        sys.exit(__doc__)
    pairs, warmup = int(opts["pairs"]), max(1, int(opts["warmup"]))
    (la, *ca), (lb, *cb) = cmds
    load0 = os.getloadavg()[0]
    tmp = tempfile.mkdtemp(prefix="tg-pairs.")
    try:
        first = []
        for k, cmd in enumerate((ca, cb)):  # warm-up; the first run of each is checked
            path = os.path.join(tmp, "out%d" % k)
            r = run_once(cmd, path)
            first.append((r["status"], md5_of(path), os.path.getsize(path)))
            os.unlink(path)
        for _ in range(warmup - 1):
            run_once(ca)
            run_once(cb)
        ra, rb = [], []
        for _ in range(pairs):  # A B A B ...
            ra.append(run_once(ca))
            rb.append(run_once(cb))
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    ratios = [b["wall"] / a["wall"] for a, b in zip(ra, rb) if a["wall"] > 0]
    rec = {"name": name, "pairs": pairs, "warmup": warmup,
           "goal": float(opts["goal"]) if opts["goal"] else None,
           "load": [round(load0, 1), round(os.getloadavg()[0], 1)],
           "a": dict(label=la, cmd=ca, status=first[0][0], md5=first[0][1], bytes=first[0][2],
                     **summary(ra)),
           "b": dict(label=lb, cmd=cb, status=first[1][0], md5=first[1][1], bytes=first[1][2],
                     **summary(rb)),
           "ratio": statistics.median(ratios) if ratios else 0.0,
           "ratios": [round(r, 3) for r in ratios]}
    line = json.dumps(rec)
    if opts["json"]:
        with open(opts["json"], "a") as f:
            f.write(line + "\n")
    else:
        print(line)
    a, b = rec["a"], rec["b"]
    print("%s: %s %.3f s, %s %.3f s, %s/%s %.3f (median of %d pairs), peak RSS %.1f / %.1f MB, "
          "%s, load %.1f-%.1f" % (name, la, a["wall"], lb, b["wall"], lb, la, rec["ratio"], pairs,
                                  a["rss_kb"] / 1024, b["rss_kb"] / 1024, same(rec), *rec["load"]),
          file=sys.stderr)


def same(rec):
    a, b = rec["a"], rec["b"]
    if a["md5"] == b["md5"]:
        return "same output (md5 %s, %d bytes)" % (a["md5"][:8], a["bytes"])
    return "OUTPUTS DIFFER (%d / %d bytes; exit %d / %d)" % (a["bytes"], b["bytes"], a["status"],
                                                           b["status"])


def records(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def mb(kb):
    return "%.1f" % (kb / 1024)


def secs(s):
    return "%.3f s" % s if s < 10 else "%.2f s" % s


def loads(recs):
    lo = min(min(r["load"]) for r in recs)
    hi = max(max(r["load"]) for r in recs)
    return "%.1f-%.1f" % (lo, hi)


def cmd_peers(path):
    recs = records(path)
    if not recs:
        return
    print("| case | traceglot | peer | ratio (goal) | user + sys: traceglot / peer "
          "| minor faults | peak RSS MB | output |")
    print("|---|---|---|---|---|---|---|---|")
    for r in recs:
        a, b, g = r["a"], r["b"], r["goal"]
        goal = "" if not g else " (>= %gx: %s)" % (g, "met" if r["ratio"] >= g else "NOT MET")
        print("| %s | %s | %s %s | %.1fx%s | %.3f + %.3f / %.3f + %.3f | %d / %d | %s / %s | %s |" %
              (r["name"], secs(a["wall"]), b["label"], secs(b["wall"]), r["ratio"], goal,
               a["user"], a["sys"], b["user"], b["sys"], a["minflt"], b["minflt"],
               mb(a["rss_kb"]), mb(b["rss_kb"]), "identical" if a["md5"] == b["md5"] else
               same(r)))
    print("\nWall time, user/system time and minor faults: medians of %s alternating pairs "
          "(traceglot, peer) after a warm-up; ratio: the median of the pairs' peer/traceglot "
          "wall ratios; peak RSS: the largest of the runs; load average %s during the runs." %
          ("/".join(sorted({str(r["pairs"]) for r in recs})), loads(recs)))


def cmd_compare(path):
    recs = records(path)
    if not recs:
        return
    print("| case | old | new | new/old | verdict | user + sys old / new | minor faults old / new "
          "| peak RSS MB old / new | output |")
    print("|---|---|---|---|---|---|---|---|---|")
    slower = hungrier = differ = 0
    for r in recs:
        a, b, q = r["a"], r["b"], r["ratio"]
        verdict = "SLOWER" if q > SLOWER else "faster" if q < 1 / SLOWER else "same"
        slower += q > SLOWER
        rss = "%s / %s" % (mb(a["rss_kb"]), mb(b["rss_kb"]))
        if b["rss_kb"] > a["rss_kb"] * RSS_SLACK:
            rss += " (HUNGRIER: +%.0f%%)" % ((b["rss_kb"] / a["rss_kb"] - 1) * 100)
            hungrier += 1
        differ += a["md5"] != b["md5"]
        print("| %s | %s | %s | %.3f | %s | %.3f / %.3f | %d / %d | %s | %s |" %
              (r["name"], secs(a["wall"]), secs(b["wall"]), q, verdict, a["user"] + a["sys"],
               b["user"] + b["sys"], a["minflt"], b["minflt"], rss,
               "same" if a["md5"] == b["md5"] else same(r)))
    print("\nMedians of %s alternating pairs (old, new) after a warm-up; new/old: the median "
          "of the pairs' wall ratios (above %.2f: slower); load average %s during the runs.  "
          "%d case(s) slower, %d hungrier (peak RSS > +%d%%), %d with different output." %
          ("/".join(sorted({str(r["pairs"]) for r in recs})), SLOWER, loads(recs), slower,
           hungrier, round((RSS_SLACK - 1) * 100), differ))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    verb, rest = sys.argv[1], sys.argv[2:]
    if verb == "run":
        cmd_run(rest)
    elif verb == "peers" and len(rest) == 1:
        cmd_peers(rest[0])
    elif verb == "compare" and len(rest) == 1:
        cmd_compare(rest[0])
    elif verb == "once" and rest:
        path = None
        if rest[0] == "-o" and len(rest) > 2:
            path, rest = rest[1], rest[2:]
        r = run_once(rest, path)
        print("%.4f %d %.2f" % (r["wall"], r["rss_kb"], r["user"] + r["sys"]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
