#!/usr/bin/env bash
# json-output.sh - `info --format json`, `stats --format json` and `stats --diff --format json` are one JSON document that
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
tg_done
