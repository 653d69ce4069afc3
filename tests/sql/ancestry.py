#!/usr/bin/python3
"""ancestor_slice(id) and descendant_slice(id) (trace_processor's table-valued functions)
against the slice tree computed here from the slice table's parent_id: the trace is exported
with `convert --to sqlite`, Python's sqlite3 reads its slice table, and for each slice (every
one, or an even sample of a big trace plus the deepest) the ancestors must be its parent chain,
root first, and the descendants every slice whose chain passes through it, in id order; each
row must be the slice table's row of that id, every column.  A NULL id gives no rows, an id
no slice has and an argument that is not an integer are errors, as in trace_processor, and
so is a call without its id.
Usage: ancestry.py TG TRACE"""
import csv
import io
import os
import sqlite3
import subprocess
import sys
import tempfile

SAMPLE = 150


def run(tg, trace, q):
    return subprocess.run([tg, "sql", "--format", "csv", trace, "-q", q], capture_output=True,
                          text=True)


def sql(tg, trace, q):
    p = run(tg, trace, q)
    if p.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (q, p.stderr.strip()))
    return list(csv.reader(io.StringIO(p.stdout)))[1:]


def text(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def main():
    tg, trace = sys.argv[1], sys.argv[2]
    if not os.path.exists(trace):
        print("SKIP: %s is absent" % trace)
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "t.db")
        p = subprocess.run([tg, "convert", "--to", "sqlite", "-o", db_path, trace],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL: convert --to sqlite: %s" % p.stderr.strip())
            return 1
        db = sqlite3.connect(db_path)
        cols = [r[1] for r in db.execute("PRAGMA table_info(slice)")]
        rows = {r[0]: [text(v) for v in r] for r in db.execute("SELECT * FROM slice ORDER BY id")}
        parent = dict(db.execute("SELECT id, parent_id FROM slice"))
        depth = dict(db.execute("SELECT id, depth FROM slice"))
        db.close()
    if not rows:
        print("FAIL: %s has no slices" % trace)
        return 1
    children = {}
    for i, pid in parent.items():
        if pid is not None:
            children.setdefault(pid, []).append(i)

    def ancestors(i):
        chain = []
        while parent[i] is not None:
            i = parent[i]
            chain.append(i)
        return chain[::-1]

    def descendants(i):
        out, todo = [], list(children.get(i, []))
        while todo:
            j = todo.pop()
            out.append(j)
            todo.extend(children.get(j, []))
        return sorted(out)

    ids = sorted(rows)
    if len(ids) > SAMPLE:
        step = len(ids) / SAMPLE
        chosen = {ids[int(k * step)] for k in range(SAMPLE)}
        chosen |= set(sorted(ids, key=lambda i: (-depth[i], i))[:10])
        chosen |= set(sorted(ids, key=lambda i: (-len(children.get(i, [])), i))[:10])
        ids = sorted(chosen)
    failures, checks = 0, 0
    id_list = ", ".join(str(i) for i in ids)
    for fn, want_of in (("ancestor_slice", ancestors), ("descendant_slice", descendants)):
        got = {}
        # each slice's rows in the order the function gives them
        for r in sql(tg, trace, "SELECT s.id, f.* FROM slice s JOIN %s(s.id) f WHERE s.id IN (%s)"
                     % (fn, id_list)):
            got.setdefault(int(r[0]), []).append(r[1:])
        total = 0
        for i in ids:
            want = [rows[j] for j in want_of(i)]
            total += len(want)
            checks += 1
            if got.get(i, []) != want:
                failures += 1
                print("FAIL: %s(%d): ids %s, expected %s" % (
                    fn, i, [int(r[0]) for r in got.get(i, [])], [int(r[0]) for r in want]))
                for g, w in zip(got.get(i, []), want):
                    if g != w:
                        print("  first differing row: %s\n  expected:            %s" % (
                            dict(zip(cols, g)), dict(zip(cols, w))))
                        break
        print("%s: %d slices, %d rows" % (fn, len(ids), total))
        # what a call without a slice gives
        missing = max(rows) + 1000
        checks += 3
        if sql(tg, trace, "SELECT count(*) FROM %s(NULL)" % fn) != [["0"]]:
            failures += 1
            print("FAIL: %s(NULL) is not empty" % fn)
        p = run(tg, trace, "SELECT * FROM %s(%d)" % (fn, missing))
        if p.returncode == 0 or "no row with id %d" % missing not in p.stderr:
            failures += 1
            print("FAIL: %s(%d): exit %d, %r" % (fn, missing, p.returncode, p.stderr.strip()))
        p = run(tg, trace, "SELECT * FROM %s" % fn)
        checks += 1
        if p.returncode == 0 or "%s needs the slice's id" % fn not in p.stderr:
            failures += 1
            print("FAIL: %s without its id: exit %d, %r" % (fn, p.returncode, p.stderr.strip()))
        p = run(tg, trace, "SELECT * FROM %s('a')" % fn)
        if p.returncode == 0 or "start id should be an integer" not in p.stderr:
            failures += 1
            print("FAIL: %s('a'): exit %d, %r" % (fn, p.returncode, p.stderr.strip()))
    print("%d checks, %d failed (%d slices in the trace)" % (checks, failures, len(rows)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
