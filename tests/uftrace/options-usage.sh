#!/bin/bash
# options-usage.sh - uftrace's options that uftrace refuses are usage errors (exit 2) with
# uftrace's reason: an unknown sort key ("invalid sort key: KEY", uftrace exits 255), an
# unknown report field, --avg-total with --avg-self.
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
usage "report --avg-total --avg-self" "--avg-total and --avg-self" report --avg-total --avg-self
tg_done
