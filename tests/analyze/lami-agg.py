#!/usr/bin/python3
"""lami-agg.py KIND < LAMI - the figures sql-agree.sh compares with SQL written by hand, from
the LAMI document (`traceglot analyze NAME --format json`) of a log, top or freq view:
  sched  each latency row (schedlog, schedtop) by its wakee: tid,count,min,max,sum
  irq    each interrupt row (irqlog): hard|soft,nr,count,min,max,sum
  io     each system call row (iolog, iolatencytop) by lttng-analyses' category of its call
         (Open, Read, Write, Sync): kind,count,min,max,sum
  freq   each distribution table (schedfreq, irqfreq; freq-io: iolatencyfreq's system call
         tables): count,min,max (its first bucket's lower bound, its last one's upper bound)"""
import json
import sys

KINDS = {
    "Open": ("open", "openat", "socket", "dup", "dup2", "dup3", "fcntl"),
    "Read": ("read", "recvmsg", "recvfrom", "readv", "pread", "pread64", "preadv"),
    "Write": ("write", "sendmsg", "sendto", "writev", "pwrite", "pwrite64", "pwritev"),
    "Sync": ("sync", "sync_file_range", "fsync", "fdatasync"),
}


def cells(row, cls):
    return [c for c in row if isinstance(c, dict) and c.get("class") == cls]


def main():
    kind = sys.argv[1]
    doc = json.load(sys.stdin)
    groups = {}
    out = []
    for table in doc["results"]:
        if kind.startswith("freq"):
            c = table["class"]
            title = c.get("title", "") if isinstance(c, dict) else c
            if kind == "freq-io" and not title.endswith(("[open]", "[read]", "[write]", "[sync]")):
                continue  # a disk's block requests
            if table["data"]:
                rows = table["data"]
                out.append("%d,%d,%d" % (sum(r[2]["value"] for r in rows),
                                         round(rows[0][0]["value"]), round(rows[-1][1]["value"])))
            continue
        for row in table["data"]:
            if kind == "sched":
                key = cells(row, "process")[0]["tid"]
                d = cells(row, "duration")[0]["value"]
            elif kind == "irq":
                irq = cells(row, "irq")[0]
                key = "%s,%d" % ("hard" if irq["hard"] else "soft", irq["nr"])
                r = cells(row, "time-range")[0]
                d = r["end"]["value"] - r["begin"]["value"]
            else:
                call = cells(row, "syscall")[0]["name"]
                key = next((k for k, calls in KINDS.items() if call in calls), None)
                d = cells(row, "duration")[0]["value"]
                if key is None:
                    continue
            g = groups.setdefault(key, [0, None, None, 0])
            g[0] += 1
            g[1] = d if g[1] is None else min(g[1], d)
            g[2] = d if g[2] is None else max(g[2], d)
            g[3] += d
    for key, (n, lo, hi, total) in groups.items():
        out.append("%s,%d,%d,%d,%d" % (key, n, lo, hi, total))
    print("\n".join(sorted(out)))


main()
