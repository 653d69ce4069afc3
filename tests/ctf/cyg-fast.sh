#!/bin/bash
# cyg-fast.sh - an LTTng-UST cyg_profile_fast trace (record-cyg-fast.sh), whose func_exit
# carries no address: each exit ends the top frame of its thread.  Every consumer of the one
# call-stack builder must agree: report, replay, SQL's slice table and the Chrome JSON give
# the same calls (main 1, worker 2, mid 6, leaf 12; no "<0>"), the same totals and self
# times; `convert --to uftrace` carries them into uftrace data that uftrace's own report and
# replay print exactly as traceglot prints the CTF trace; babeltrace2's text is unchanged.
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/ctf
tg_need_dir "$data/cyg-fast"
cd "$data" || exit 1
dbg=(--debug-info-dir cyg-fast.debug)
TZ=UTC tg_check "babeltrace2 text" cyg-fast.babeltrace2.txt "$TG" cat --style=babeltrace cyg-fast
tg_run "$TG" report "${dbg[@]}" cyg-fast
cp "$TG_TMP/out" "$TG_TMP/report"
if grep -Eq '[[:space:]]1  main$' "$TG_TMP/report" && grep -Eq '[[:space:]]2  worker$' "$TG_TMP/report" &&
    grep -Eq '[[:space:]]6  mid$' "$TG_TMP/report" && grep -Eq '[[:space:]]12  leaf$' "$TG_TMP/report" &&
    [ "$(wc -l <"$TG_TMP/report")" = 6 ]; then
    tg_pass "report: every exit ends its thread's top frame"
else
    tg_fail "report" "$(cat "$TG_TMP/report")"
fi
tg_run "$TG" replay "${dbg[@]}" cyg-fast
cp "$TG_TMP/out" "$TG_TMP/replay"
if grep -q '<0>' "$TG_TMP/replay" || [ "$(grep -c '} /\* mid \*/' "$TG_TMP/replay")" != 6 ]; then
    tg_fail "replay" "$(head -20 "$TG_TMP/replay")"
else
    tg_pass "replay closes each frame with its own name"
fi
# SQL's slices: the report's calls, totals and self times (uftrace's us with 3 decimals)
tg_run "$TG" sql "${dbg[@]}" cyg-fast --format csv \
    -q "SELECT name, count(*), sum(dur), sum(self_dur) FROM slice GROUP BY name"
if /usr/bin/python3 - "$TG_TMP/report" "$TG_TMP/out" <<'PY'; then
import csv, sys
rep = {}
for line in open(sys.argv[1]).read().splitlines()[2:]:
    f = line.split()
    rep[f[-1]] = ("%s %s" % (f[0], f[1]), "%s %s" % (f[2], f[3]), int(f[4]))
rows = [r for r in csv.reader(open(sys.argv[2])) if r and r[0] != "name"]
sql = {r[0]: ("%.3f us" % (int(r[2]) / 1000), "%.3f us" % (int(r[3]) / 1000), int(r[1])) for r in rows}
if not rep or rep != sql:
    print("report %r\nsql    %r" % (rep, sql)); sys.exit(1)
PY
    tg_pass "sql slices = report (calls, total, self)"
else
    tg_fail "sql slices" "$(cat "$TG_TMP/out")"
fi
tg_run "$TG" convert --to chrome --force -o "$TG_TMP/c.json" "${dbg[@]}" cyg-fast
if /usr/bin/python3 -c '
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
n = collections.Counter(e["name"] for e in ev if e.get("ph") == "B")
e = collections.Counter(e["name"] for e in ev if e.get("ph") == "E")
want = {"main": 1, "worker": 2, "mid": 6, "leaf": 12}
sys.exit(0 if n == want and e == want else 1)' "$TG_TMP/c.json"; then
    tg_pass "chrome B/E = report's calls"
else
    tg_fail "chrome" "$(head -c 400 "$TG_TMP/c.json")"
fi
rm -rf "$TG_TMP/conv.data"
if tg_run "$TG" convert --to uftrace -o "$TG_TMP/conv.data" "${dbg[@]}" cyg-fast; then
    tg_check "report of the converted data" "$TG_TMP/report" "$TG" report "$TG_TMP/conv.data"
    if command -v uftrace >/dev/null; then
        uftrace report -d "$TG_TMP/conv.data" >"$TG_TMP/u-report" 2>&1
        tg_same "uftrace report of the converted data" "$TG_TMP/report" "$TG_TMP/u-report"
        uftrace replay -d "$TG_TMP/conv.data" >"$TG_TMP/u-replay" 2>&1
        tg_same "uftrace replay of the converted data" "$TG_TMP/replay" "$TG_TMP/u-replay"
    else
        echo "note: uftrace not installed, the converted data is not read by uftrace"
    fi
else
    tg_fail "convert --to uftrace" "$(head -c 300 "$TG_TMP/err")"
fi
tg_done
