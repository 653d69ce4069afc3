#!/usr/bin/python3
"""The metadata table (trace_processor's keys) against what the trace's own tools say of it:
the recording machine's uname from `uftrace info`'s recorded output (kernel version, the
architecture uftrace was built for), the CTF metadata's env block (sysname, kernel_release,
kernel_version), `trace-cmd dump --options`' UNAME option (sysname nodename release machine),
`perf report --header-only` (os release, arch); trace_size_bytes the bytes of the trace's
files (os.walk), trace_type trace_processor's name of the format (proto, json, perf) or
traceglot's (uftrace, ctf, ftrace, xray).  Every key is key_type 'single', an integer in
int_value or a string in str_value, and no key appears that the sources do not give.
Usage: metadata.py TG KIND TRACE   (KIND: uftrace, ctf, ftrace, perf, perfetto, json, xray)"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys

TYPES = {"uftrace": "uftrace", "ctf": "ctf", "ftrace": "ftrace", "perf": "perf",
         "perfetto": "proto", "json": "json", "xray": "xray"}


def size_of(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            if os.path.isfile(p):
                total += os.path.getsize(p)
    return total


def uname_of(kind, trace):
    """The uname fields the trace's own tools report, or None to skip."""
    if kind == "uftrace":
        info = open(re.sub(r"\.data/?$", ".info.txt", trace)).read()
        kernel = re.search(r"# kernel version\s*: (\S+) (\S+)", info)
        arch = re.search(r"# program version\s*: \S+ \( (\S+)", info)
        return {"system_name": kernel.group(1), "system_release": kernel.group(2),
                "system_machine": arch.group(1)}
    if kind == "ctf":
        text = open(os.path.join(trace, "metadata"), "rb").read().decode("latin-1")
        out = {}
        for key, name in (("sysname", "system_name"), ("kernel_release", "system_release"),
                          ("kernel_version", "system_version")):
            m = re.search(r'\b%s = "([^"]*)";' % key, text)
            if m:
                out[name] = m.group(1)
        return out
    if kind == "ftrace":
        if not shutil.which("trace-cmd"):
            return None
        p = subprocess.run(["trace-cmd", "dump", "--options", trace], capture_output=True,
                           text=True)
        m = re.search(r"\[Option UNAME, \d+ bytes\]\n(\S+) \S+ (\S+) (\S+)", p.stdout)
        return {"system_name": m.group(1), "system_release": m.group(2),
                "system_machine": m.group(3)} if m else {}
    if kind == "perf":
        if not shutil.which("perf"):
            return None
        p = subprocess.run(["perf", "report", "--header-only", "-i", trace],
                           capture_output=True, text=True)
        rel = re.search(r"# os release : (\S+)", p.stdout)
        arch = re.search(r"# arch : (\S+)", p.stdout)
        out = {}
        if rel:  # perf.data is Linux's
            out.update(system_name="Linux", system_release=rel.group(1))
        if arch:
            out["system_machine"] = arch.group(1)
        return out
    return {}


def main():
    tg, kind, trace = sys.argv[1], sys.argv[2], sys.argv[3]
    if not os.path.exists(trace):
        print("SKIP: %s is absent" % trace)
        return 77
    uname = uname_of(kind, trace)
    if uname is None:
        print("SKIP: the %s tool is not installed" % kind)
        return 77
    want = dict(("%s|single||%s" % (k, v)).split("|", 1) for k, v in uname.items())
    want["trace_size_bytes"] = "single|%d|" % size_of(trace)
    want["trace_type"] = "single||%s" % TYPES[kind]
    p = subprocess.run([tg, "sql", "--format", "csv", trace, "-q",
                        "SELECT id, name, key_type, int_value, str_value FROM metadata"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL: %s" % p.stderr.strip())
        return 1
    rows = list(csv.reader(io.StringIO(p.stdout)))[1:]
    got = {r[1]: "|".join(r[2:]) for r in rows}
    failures = 0
    for key in sorted(set(want) | set(got)):
        if got.get(key) != want.get(key):
            failures += 1
            print("FAIL: %s: %r, expected %r" % (key, got.get(key), want.get(key)))
    ids = [int(r[0]) for r in rows]
    if ids != list(range(len(rows))) or len(got) != len(rows):
        failures += 1
        print("FAIL: ids %s, names %s (one row per key, ids from 0)" % (ids, [r[1] for r in rows]))
    one = subprocess.run([tg, "sql", "--format", "csv", trace, "-q",
                          "SELECT name FROM metadata WHERE id = 1"], capture_output=True, text=True)
    if len(rows) > 1 and one.stdout.splitlines()[1:] != [rows[1][1]]:
        failures += 1
        print("FAIL: the lookup of id 1: %r" % one.stdout)
    print("%d keys, %d failed" % (len(want), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
