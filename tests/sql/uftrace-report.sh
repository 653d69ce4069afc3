#!/bin/bash
# uftrace-report.sh - the slice table counts calls as `uftrace report` does, on every uftrace
# recording of the project's fixtures and the corpus: per function the number of slices is
# uftrace report's Calls, exactly; the total time (a recursive function's time counted once,
# at its outermost call; an unfinished call up to its thread's last record: end_ts - ts) and
# the self time print as uftrace prints them; and the plain `SELECT name, count(*), sum(dur)
# FROM slice GROUP BY name` gives uftrace's total for every function with no recursive and no
# unfinished call.  The expected text is `uftrace report` run live (else the report.txt it
# printed when the recording was made).
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
q="SELECT name, count(*) AS calls, sum(IIF(recursive, 0, end_ts - ts)) AS total,
          sum(self_dur) AS self, sum(dur) AS plain, max(recursive OR dur < 0) AS special
   FROM slice GROUP BY name"
n=0
for d in "$TG_TEST_DATA"/uftrace/*.data "$TG_TEST_DATA"/uftrace-kernel/kernel.data \
         "$TG_TESTS"/../examples/*.uftrace.data "$TG_CORPUS"/uftrace/*.data \
         "$TG_CORPUS"/gen/uftrace/*.data "$TG_CORPUS"/mixed/*.uftrace.data; do
    [ -f "$d/info" ] || continue
    name=${d#"$TG_CORPUS"/}
    name=${name#"$TG_TEST_DATA"/}
    if command -v uftrace >/dev/null && uftrace report -d "$d" >"$TG_TMP/report.txt" 2>/dev/null; then
        :
    elif [ -f "${d%.data}.report.txt" ]; then
        cp "${d%.data}.report.txt" "$TG_TMP/report.txt"
    else
        continue
    fi
    if ! tg_run "$TG" sql --format csv "$d" -q "$q"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    cp "$TG_TMP/out" "$TG_TMP/rows.csv"
    if tg_run /usr/bin/python3 "$TG_TESTS/sql/report-compare.py" "$TG_TMP/report.txt" "$TG_TMP/rows.csv"; then
        tg_pass "$name: $(cat "$TG_TMP/out")"
    else
        tg_fail "$name" "slice differs from uftrace report"
        head -20 "$TG_TMP/out"
    fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no uftrace recordings with a report"
tg_done
