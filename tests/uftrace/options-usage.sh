#!/bin/bash
# options-usage.sh - uftrace's options that uftrace refuses are usage errors (exit 2) with
# uftrace's reason: an unknown sort key ("invalid sort key: KEY", uftrace exits 255), an
# unknown report field, --avg-total with --avg-self; the filters' bad values.
. "$(dirname "$0")/../lib.sh"
d=$TG_TEST_DATA/uftrace/recursion.data
tg_need_dir "$d"
usage() { # NAME PATTERN ARGS...
    local name=$1 pattern=$2
    shift 2
    tg_check_status "$name" 2 "$TG" "$@" "$d"
    grep -qF -- "$pattern" "$TG_TMP/err" && tg_pass "$name: message" ||
        tg_fail "$name: message" "stderr lacks '$pattern': $(head -c 200 "$TG_TMP/err")"
}
usage "report -s foo" "invalid sort key: foo" report -s foo
usage "report -s total," "invalid sort key: total," report -s total,
usage "report --avg-total -s total-avg" "invalid sort key: total-avg" report --avg-total -s total-avg
usage "report --task -s call" "invalid sort key: call" report --task -s call
usage "report -f foo" "unknown field name 'foo'" report -f foo
usage "report -f none,total" "unknown field name 'none'" report -f none,total
usage "report --task -f total-avg" "unknown field name 'total-avg'" report --task -f total-avg
usage "report --task -D 2" "report --task takes none of uftrace's filters" report --task -D 2
usage "report --diff OTHER -F nosuch" "failed to set filter or trigger: nosuch" report --diff "$d" -F nosuch
usage "report --avg-total --avg-self" "--avg-total and --avg-self" report --avg-total --avg-self
usage "info --symbols" "info --symbols is not taken" info --symbols
# uftrace dump's views, refused by name
for v in chrome flame-graph graphviz; do
    usage "dump --$v" "dump: '--$v' is not taken" dump --$v
done
# the filters: a FUNC naming no function of the trace (uftrace says so and then ignores
# every filter), values uftrace refuses
for c in replay report; do
    usage "$c -F nosuch" "failed to set filter or trigger: nosuch" $c -F nosuch
    usage "$c -C nosuch" "failed to set filter or trigger: nosuch" $c -C nosuch
    usage "$c -D 0" "invalid depth given: 0" $c -D 0
    usage "$c -t 1000us" "invalid time given: 1000us" $c -t 1000us
    usage "$c -t 5parsecs" "invalid time given: 5parsecs" $c -t 5parsecs
    usage "$c -r 5us" "invalid time range: 5us" $c -r 5us
    usage "$c -t 1us -r 1us~" "--time-range cannot be used with --time-filter" $c -t 1us -r 1us~
    usage "$c --match perl -F main" "invalid match pattern: perl" $c --match perl -F main
done
tg_done
