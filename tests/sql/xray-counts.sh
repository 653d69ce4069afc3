#!/bin/bash
# xray-counts.sh - the slice table's calls of XRay logs, against llvm-xray's own reading of
# them: per function, the completed calls (dur >= 0) are the function's exit records in
# `llvm-xray convert -output-format=yaml` (every exit of these logs ends a call), and, where
# `llvm-xray account` accounts the log without an error, its count column.  (On logs whose
# threads it cannot follow, account stops counting records after "Error processing record";
# traceglot's `report --style=xray` prints that, the slice table counts every call.)  Logs: the
# corpus's, with their binary, and the project's fixtures with the workload rebuilt.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd llvm-xray
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
q="SELECT name, count(*) AS n FROM slice WHERE dur >= 0 GROUP BY name ORDER BY name"

# yaml_exits YAML -> "name,n" per function: its function-exit and function-tail-exit records
yaml_exits() {
    /usr/bin/python3 - "$1" <<'PY'
import re, sys
from collections import Counter
c = Counter()
for line in open(sys.argv[1]):
    m = re.search(r"function: (?:'(.*)'|([^',]*)),.* kind: function-(tail-)?exit,", line)
    if m:
        c[m.group(1) if m.group(1) is not None else m.group(2)] += 1
print("name,n")
for k in sorted(c, key=lambda s: s.encode()):
    print('"%s",%d' % (k, c[k]) if re.search(r'[\s",\x7f-\uffff]', k) else "%s,%d" % (k, c[k]))
PY
}

# account_counts ACCOUNT.txt -> "name,n" from account's count and function columns
account_counts() {
    /usr/bin/python3 - "$1" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*\d+\s+(\d+) \[.*\]\s+\S+\s+\S+:\d+:\d+: (.*?)\s*$", line)
    if m:
        rows[m.group(2)] = int(m.group(1))
print("name,n")
for k in sorted(rows, key=lambda s: s.encode()):
    print('"%s",%d' % (k, rows[k]) if re.search(r'[\s",\x7f-\uffff]', k) else "%s,%d" % (k, rows[k]))
PY
}

check_log() { # NAME LOG BINARY
    local name=$1 log=$2 bin=$3
    if ! tg_run "$TG" sql --format csv --instr-map "$bin" "$log" -q "$q"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        return
    fi
    cp "$TG_TMP/out" "$TG_TMP/slice.csv"
    llvm-xray convert -output-format=yaml -symbolize -instr_map="$bin" "$log" >"$TG_TMP/log.yaml" 2>/dev/null
    yaml_exits "$TG_TMP/log.yaml" >"$TG_TMP/exits.csv"
    tg_same "$name: completed calls = llvm-xray's exit records" "$TG_TMP/exits.csv" "$TG_TMP/slice.csv"
    if llvm-xray account -instr_map="$bin" "$log" >"$TG_TMP/account.txt" 2>"$TG_TMP/account.err" &&
       ! grep -q "Error processing" "$TG_TMP/account.err"; then
        account_counts "$TG_TMP/account.txt" >"$TG_TMP/account.csv"
        tg_same "$name: completed calls = llvm-xray account's counts" "$TG_TMP/account.csv" "$TG_TMP/slice.csv"
    fi
}

n=0
c=$TG_CORPUS/gen/xray
if [ -f "$c/xray-app-visible" ]; then
    for log in "$c"/*.xray; do
        check_log "corpus $(basename "$log")" "$log" "$c/xray-app-visible"
        n=$((n + 1))
    done
fi
data=$TG_TEST_DATA/xray
. "$TG_TESTS/xray/recorded-app.sh"
if [ -f "$data/fdr.xray" ] && xray_recorded_app "$TG_TMP/b"; then
    for k in fdr basic; do
        check_log "fixture $k" "$data/$k.xray" "$TG_TMP/b/xray_app"
        n=$((n + 1))
    done
fi
[ "$n" -gt 0 ] || tg_skip "no XRay logs with their binary (corpus, or a rebuild of the fixtures' workload)"
tg_done
