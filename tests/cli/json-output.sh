#!/usr/bin/env bash
# json-output.sh - `info --format json`, `stats --format json`, `stats --diff --format json`,
# `report --format json` and `graph --format json` are one JSON document that
# Python's json module parses, carrying the numbers the text prints: per event class the
# count, first and last time (the text's seconds = first_ns/last_ns) and rate, the total and
# lost counts; per trace the path, format and version, stream count, event count and classes.
# Checked on a uftrace recording, an ftrace trace.dat and a CTF trace (several formats, one
# document each), and on two traces merged.
. "$(dirname "$0")/../lib.sh"
ex="$TG_TESTS/../examples/fib.uftrace.data"
tg_need_dir "$ex"
traces=("$ex")
for t in "$TG_TEST_DATA/ftrace/all-events-v7.dat" "$TG_TEST_DATA/ctf/cyg"; do
    [ -e "$t" ] && traces+=("$t")
done

compare() { # NAME KIND TEXT JSON
    local why
    if why=$(/usr/bin/python3 - "$2" "$3" "$4" <<'PY' 2>&1); then tg_pass "$1"; else tg_fail "$1" "$why"; fi
import json, re, sys
from decimal import Decimal
kind, text_path, json_path = sys.argv[1:]
text = open(text_path).read().splitlines()
doc = json.load(open(json_path))          # one document: json.load fails on trailing data


def ns(seconds):                           # the text's seconds as integer nanoseconds
    return int(Decimal(seconds) * 1000000000)


def check(cond, what):
    if not cond:
        sys.exit(what)


if kind == "stats":
    rows = doc["events"]
    body = text[1:-1]
    check(len(rows) == len(body), f"{len(rows)} rows, text has {len(body)}")
    for row, line in zip(rows, body):
        m = re.match(r"^(.*\S)\s+(\d+) +(\S+) +(\S+) +(\S+)$", line)
        check(m, f"cannot read text row {line!r}")
        name, count, first, last, rate = m.groups()
        check(row["event"] == name, f"{row['event']!r} != {name!r}")
        check(type(row["count"]) is int and row["count"] == int(count), f"{name}: count")
        check(row["first_ns"] == ns(first) and row["last_ns"] == ns(last), f"{name}: times")
        if rate == "-":
            check(row["rate_per_s"] is None, f"{name}: rate should be null")
        else:
            check(isinstance(row["rate_per_s"], float) and f"{row['rate_per_s']:.1f}" == rate,
                  f"{name}: rate {row['rate_per_s']} != {rate}")
    m = re.match(r"^total: (\d+) events, (\d+) lost$", text[-1])
    check(m and doc["total"] == {"events": int(m[1]), "lost": int(m[2])}, "total")
else:
    blocks, cur = [], None
    for line in text:
        if line.startswith("trace:        "):
            cur = {"path": line[14:], "classes": []}
            blocks.append(cur)
        elif cur is not None and line.startswith("format:       "):
            cur["format"] = line[14:]
        elif cur is not None and line.startswith("streams:      "):
            cur["streams"] = int(line[14:])
        elif cur is not None and line.startswith("events:       "):
            cur["events"] = int(line[14:].split()[0])
        elif cur is not None and "events" in cur and "done" not in cur and re.match(r"^ +\d+  ", line):
            n, name = line.strip().split("  ", 1)
            cur["classes"].append({"name": name.strip(), "count": int(n)})
        elif cur is not None and "events" in cur:
            cur["done"] = True
    traces = doc["traces"]
    check(len(traces) == len(blocks), f"{len(traces)} traces, text has {len(blocks)}")
    for t, b in zip(traces, blocks):
        check(t["path"] == b["path"], f"path {t['path']}")
        check(f"{t['format']} {t['version']}" == b["format"], f"format {t['format']}")
        check(len(t["streams"]) == b["streams"], f"{b['path']}: streams")
        check(t["events"] == b["events"], f"{b['path']}: events {t['events']} != {b['events']}")
        check(t["classes"] == b["classes"], f"{b['path']}: classes differ")
PY
}

for t in "${traces[@]}"; do
    n=$(basename "$t")
    for cmd in stats info; do
        tg_run "$TG" $cmd "$t" && cp "$TG_TMP/out" "$TG_TMP/text" || tg_fail "$cmd $n (text)" "exit $?"
        if tg_run "$TG" $cmd --format json "$t"; then
            compare "$cmd --format json $n: the text's numbers" $cmd "$TG_TMP/text" "$TG_TMP/out"
        else
            tg_fail "$cmd --format json $n" "exit $?: $(head -c 300 "$TG_TMP/err")"
        fi
    done
done
if [ ${#traces[@]} -gt 1 ]; then
    "$TG" info "${traces[@]:0:2}" > "$TG_TMP/text" 2>/dev/null
    tg_run "$TG" info --format json "${traces[@]:0:2}"
    compare "info --format json of two traces" info "$TG_TMP/text" "$TG_TMP/out"
fi
tg_check_status "a format that is neither" 2 "$TG" stats --format yaml "$ex"
tg_check_status "sql's csv is not stats's" 2 "$TG" stats --format csv "$ex"
tg_check_status "nor info's" 2 "$TG" info --format table "$ex"
# stats --diff --format json: one document holding the text's numbers
a=$TG_TEST_DATA/ftrace/comm-idle-first-v6.dat b=$TG_TEST_DATA/ftrace/comm-task-first-v6.dat
if [ -f "$a" ] && [ -f "$b" ]; then
    "$TG" stats --diff "$a" "$b" > "$TG_TMP/text"
    if tg_run "$TG" stats --format json --diff "$a" "$b"; then
        if /usr/bin/python3 - "$TG_TMP/text" "$TG_TMP/out" <<'PY'
import json, sys
text = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
runs = [l.split(": ")[-1] for l in text[:2]]        # "15 events, 0 lost, 0.000012094 s"
for key, line in zip(("other", "path"), runs):
    ev, lost = int(line.split()[0]), int(line.split()[2])
    assert (doc[key]["events"], doc[key]["lost"]) == (ev, lost), (key, doc[key], line)
rows = [l.rsplit(None, 6) for l in text[3:]]
assert len(rows) == len(doc["events"]), (rows, doc["events"])
for (name, o, p, ch, pc, orate, prate), r in zip(rows, doc["events"]):
    num = lambda s: None if s == "-" else int(s)
    assert r["event"] == name.strip() and r["other"] == num(o) and r["path"] == num(p), r
    assert r["change"] == int(ch), r
    if pc in ("new", "gone"):
        assert r["status"] == pc, r
    elif pc != "-":
        assert "%+.1f%%" % r["percent"] == pc, (r, pc)
    for rate, key in ((orate, "other_rate_per_s"), (prate, "path_rate_per_s")):
        assert (rate == "-" and r[key] is None) or "%.1f" % r[key] == rate, (r, rate)
PY
        then tg_pass "stats --diff --format json: the text's numbers"
        else tg_fail "stats --diff --format json: the text's numbers" "$(head -c 400 "$TG_TMP/out")"; fi
    else
        tg_fail "stats --diff --format json" "exit $?: $(head -c 300 "$TG_TMP/err")"
    fi
fi
# report --format json (uftrace style): the table's rows in its order, each column's number
# in ns, the same as the text prints once formatted as uftrace formats a time
cat > "$TG_TMP/report.py" <<'PY'
import json, sys
text = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))          # one document
keys = {"Total time": "total_ns", "Total avg": "total_avg_ns", "Total min": "total_min_ns",
        "Total max": "total_max_ns", "Self time": "self_ns", "Self avg": "self_avg_ns",
        "Self min": "self_min_ns", "Self max": "self_max_ns", "Calls": "calls", "Size": "size"}
cols = [keys[h.strip()] for h in text[0].split("  ") if h.strip() and h.strip() != "Function"]


def uftrace_time(ns):                        # uftrace's "  1.234 ms" (10 columns)
    if ns == 0:
        return " " * 10
    limit, units = [1000, 1000, 1000, 60, 24, 0x7fffffff], ["us", "ms", " s", " m", " h"]
    d, idx = ns, 0
    while idx < 5:
        small, d = d % limit[idx], d // limit[idx]
        if d < limit[idx + 1]:
            break
        idx += 1
    idx = min(idx, 4)
    if d > 999:
        d = small = 999
    return "%3d.%03d %s" % (d, small, units[idx])


rows = doc["functions"]
assert len(rows) == len(text) - 2, (len(rows), len(text))
for r, line in zip(rows, text[2:]):
    assert sorted(r) == sorted(cols + ["function"]), (sorted(r), cols)
    cells = "".join("  " + ("%10d" % r[c] if c in ("calls", "size") else uftrace_time(r[c]))
                    for c in cols)
    want = cells + "  " + r["function"]
    assert want == line, (want, line)
PY
for fields in "" "-f all" "-f call,self-avg -s call"; do
    # shellcheck disable=SC2086
    "$TG" report $fields "$ex" > "$TG_TMP/text" 2>/dev/null
    # shellcheck disable=SC2086
    if tg_run "$TG" report --format json $fields "$ex"; then
        if why=$(/usr/bin/python3 "$TG_TMP/report.py" "$TG_TMP/text" "$TG_TMP/out" 2>&1); then
            tg_pass "report --format json $fields: the table's numbers"
        else
            tg_fail "report --format json $fields: the table's numbers" "$why"
        fi
    else
        tg_fail "report --format json $fields" "exit $?: $(head -c 300 "$TG_TMP/err")"
    fi
done
# graph --format json (uftrace style): the tree and the backtraces of the text, number for
# number, node for node in the text's order
cat > "$TG_TMP/graph.py" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))          # one document


def uftrace_time(ns):
    if ns == 0:
        return " " * 10
    limit, units = [1000, 1000, 1000, 60, 24, 0x7fffffff], ["us", "ms", " s", " m", " h"]
    d, idx = ns, 0
    while idx < 5:
        small, d = d % limit[idx], d // limit[idx]
        if d < limit[idx + 1]:
            break
        idx += 1
    idx = min(idx, 4)
    if d > 999:
        d = small = 999
    return "%3d.%03d %s" % (d, small, units[idx])


m = re.match(r"^# Function Call Graph for '(.*)' \(session: (\w+)\)$", text[0])
assert m and (doc["function"], doc["session"]) == m.groups(), (text[0], doc["function"])
bts = [l for l in text if l.startswith(" backtrace #")]
assert len(bts) == len(doc["backtraces"]), (bts, doc["backtraces"])
for line, b in zip(bts, doc["backtraces"]):
    assert line.endswith("hit %d, time %s" % (b["hit"], uftrace_time(b["time_ns"]))), (line, b)
nodes = [l for l in text if re.match(r"^ .* : [ |+-]*\(\d+\) ", l)]
flat = []


def walk(n):
    flat.append(n)
    for c in n["children"]:
        walk(c)


walk(doc["graph"])
assert len(flat) == len(nodes), (len(flat), len(nodes))
for n, line in zip(flat, nodes):
    want = "  %s  %s  %12x : " % (uftrace_time(n["total_ns"]), uftrace_time(n["self_ns"]),
                                  n["address"])
    assert line.startswith(want), (want, line)
    m = re.search(r"\((\d+)\) (.*)$", line)
    assert (int(m[1]), m[2]) == (n["calls"], n["function"]), (line, n)
PY
for fn in "" fib; do
    # shellcheck disable=SC2086
    "$TG" graph -f total,self,addr "$ex" $fn > "$TG_TMP/text" 2>/dev/null
    # shellcheck disable=SC2086
    if tg_run "$TG" graph --format json "$ex" $fn; then
        if why=$(/usr/bin/python3 "$TG_TMP/graph.py" "$TG_TMP/text" "$TG_TMP/out" 2>&1); then
            tg_pass "graph --format json $fn: the tree's numbers"
        else
            tg_fail "graph --format json $fn: the tree's numbers" "$why"
        fi
    else
        tg_fail "graph --format json $fn" "exit $?: $(head -c 300 "$TG_TMP/err")"
    fi
done
tg_done
