#!/bin/bash
# errors.sh - how `traceglot sql` answers: its CSV and table outputs are sqlite3's
# (`sqlite3 -csv -header`, `sqlite3 -box`) for the same rows, byte for byte; JSON parses, with
# numbers as numbers; bad SQL exits 2 with SQLite's message; a damaged trace gives the rows
# before the damage, then the error, and exit 1; -q @FILE and several -q run in order.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd sqlite3
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
d=$TG_TEST_DATA/uftrace/threads.data
[ -d "$d" ] || tg_skip "no fixtures"

q="SELECT 1 AS a, 'x,y' AS b, NULL AS c, 1.5 AS d, '' AS e, 'q\"z' AS f, ' sp' AS g, 1e20 AS h,
          0.1 AS i, 'é' AS j, 'a'||char(9)||'b' AS k, -3 AS l
   UNION ALL SELECT 22, 'longer text', 'c', 2, 'e', 'f', 'g', 'h', 'i', 'jj', 'k', NULL"
sqlite3 -csv -header :memory: "$q" >"$TG_TMP/csv"
tg_check "csv = sqlite3 -csv -header" "$TG_TMP/csv" "$TG" sql --format csv "$d" -q "$q"
sqlite3 -box :memory: "$q" >"$TG_TMP/box"
tg_check "table = sqlite3 -box" "$TG_TMP/box" "$TG" sql "$d" -q "$q"
tg_run "$TG" sql --format json "$d" -q "SELECT name, count(*) AS n, sum(dur) AS total, avg(dur) AS mean
                                        FROM slice GROUP BY name ORDER BY name"
if /usr/bin/python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert rows and all(isinstance(r["n"], int) and isinstance(r["mean"], float) for r in rows)
' "$TG_TMP/out"; then tg_pass "json: one array of objects, numbers as numbers"; else tg_fail "json"; fi

tg_check_status "bad SQL: exit 2" 2 "$TG" sql "$d" -q "SELEC name FROM slice"
grep -q 'near "SELEC": syntax error' "$TG_TMP/err" && tg_pass "bad SQL: SQLite's message" ||
    tg_fail "bad SQL: SQLite's message" "$(cat "$TG_TMP/err")"
tg_check_status "no such table: exit 2" 2 "$TG" sql "$d" -q "SELECT * FROM no_such_table"
tg_check_status "unknown format: exit 2" 2 "$TG" sql --format xml "$d" -q "SELECT 1"

printf 'SELECT 1 AS one;\nSELECT 2 AS two;\n' >"$TG_TMP/q.sql"
printf 'one\n1\ntwo\n2\nthree\n3\n' >"$TG_TMP/want"
tg_check "-q @FILE and several -q, in order" "$TG_TMP/want" \
    "$TG" sql --format csv "$d" -q @"$TG_TMP/q.sql" -q "SELECT 3 AS three"
printf 'SELECT 4 AS four' | "$TG" sql --format csv "$d" >"$TG_TMP/stdin.out" 2>&1
printf 'four\n4\n' >"$TG_TMP/want"
tg_same "SQL from standard input" "$TG_TMP/want" "$TG_TMP/stdin.out"

# damage: a truncated thread file; the events before it are rows, then the error, exit 1
cp -r "$d" "$TG_TMP/damaged.data"
f=$(ls -S "$TG_TMP"/damaged.data/*.dat | head -1)
truncate -s $(($(stat -c %s "$f") / 2 + 5)) "$f"
tg_check_status "damaged: exit 1" 1 "$TG" sql --format csv "$TG_TMP/damaged.data" \
    -q "SELECT count(*) FROM ftrace_event" -q "SELECT count(*) FROM slice"
rows=$(sed -n 2p "$TG_TMP/out")
whole=$("$TG" sql --format csv "$d" -q "SELECT count(*) FROM ftrace_event" | tail -1)
if [ "$rows" -gt 0 ] && [ "$rows" -lt "$whole" ]; then
    tg_pass "damaged: the $rows events before the damage (of $whole)"
else
    tg_fail "damaged: the events before the damage" "$rows rows of $whole"
fi
grep -q "$(basename "$f"): offset 0x.*truncated" "$TG_TMP/err" && tg_pass "damaged: the error names file and offset" ||
    tg_fail "damaged: the error" "$(cat "$TG_TMP/err")"
[ "$(grep -c "error:" "$TG_TMP/err")" = 1 ] && tg_pass "damaged: the error once for two scans" ||
    tg_fail "damaged: the error once" "$(cat "$TG_TMP/err")"
tg_done
