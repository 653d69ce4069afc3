#!/usr/bin/python3
"""Runs Perfetto's trace_processor diff tests (a folder per test: trace.pb or trace.json,
query.sql, expected.csv or expected.out; INDEX.tsv lists them) through
`traceglot sql --format perfetto TRACE -q @query.sql`, and compares as upstream does: leading
newlines dropped, every line stripped of surrounding white space.

Prints how many pass and, for each one that does not, why (the first differing line, or
traceglot's error).  The check fails when a test named in --expected (the tests known to
pass) no longer passes, or when one not named there now passes (add it: the list stays
true).  --update rewrites the list from this run.  Exit 77 (skip) when the folder is absent.
"""
import argparse
import os
import subprocess
import sys


def normalize(text):
    return [line.strip() for line in text.lstrip("\n").splitlines()]


def first_difference(want, got):
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else "<end>"
        g = got[i] if i < len(got) else "<end>"
        if w != g:
            return "line %d: expected %s, got %s" % (i + 1, w[:100], g[:100])
    return "same"


def run_one(tg, folder):
    trace = None
    for name in ("trace.pb", "trace.json"):
        if os.path.exists(os.path.join(folder, name)):
            trace = os.path.join(folder, name)
            break
    expected = None
    for name in ("expected.csv", "expected.out"):
        if os.path.exists(os.path.join(folder, name)):
            expected = os.path.join(folder, name)
            break
    if not trace or not expected:
        return False, "no trace or expected output in the folder"
    cmd = [tg, "sql", "--format", "perfetto", trace, "-q",
           "@" + os.path.join(folder, "query.sql")]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "timed out (60 s)"
    if p.returncode < 0 or p.returncode > 2:
        return False, "crashed (status %d)" % p.returncode
    got = normalize(p.stdout.decode("utf-8", "replace"))
    with open(expected, encoding="utf-8", errors="replace") as f:
        want = normalize(f.read())
    if got == want and p.returncode == 0:
        return True, ""
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return False, "exit %d: %s" % (p.returncode, (err[-1] if err else "")[:160])
    return False, first_difference(want, got)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tg", required=True)
    ap.add_argument("--tests", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("only", nargs="*", help="run only these tests")
    a = ap.parse_args()
    index = os.path.join(a.tests, "INDEX.tsv")
    if not os.path.exists(index):
        print("SKIP: no Perfetto diff tests at %s" % a.tests)
        return 77
    with open(index, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    head = rows[0]
    names = [dict(zip(head, r))["dir"] for r in rows[1:]
             if dict(zip(head, r)).get("core_only") == "yes"]
    if a.only:
        names = [n for n in names if n in a.only]
    with open(a.expected, encoding="utf-8") as f:
        listed = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    passed, failures = [], []
    for name in names:
        ok, why = run_one(a.tg, os.path.join(a.tests, name))
        if ok:
            passed.append(name)
        else:
            failures.append((name, why))
    for name, why in failures:
        print("not passing: %s: %s" % (name, why))
    print("perfetto diff tests: %d of %d pass" % (len(passed), len(names)))
    if a.update:
        with open(a.expected, "w", encoding="utf-8") as f:
            f.write("# Perfetto diff tests traceglot passes (tests/perfetto/diff_tests.py "
                    "--update rewrites it)\n")
            for name in sorted(passed):
                f.write(name + "\n")
        return 0
    status = 0
    for name, why in failures:
        if name in listed:
            print("FAIL: %s passed before and fails now: %s" % (name, why))
            status = 1
    for name in passed:
        if name not in listed:
            print("FAIL: %s passes now but is not in %s: add it" % (name, a.expected))
            status = 1
    if a.only:
        return status
    return status


if __name__ == "__main__":
    sys.exit(main())
