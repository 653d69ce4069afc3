#!/bin/bash
# llvm-spellings.sh - report --style=xray takes llvm-xray account's own spellings, as LLVM's
# command-line parser reads them: -name=VALUE, -name VALUE, --name=VALUE, the one-letter
# aliases (-m BIN, -m=BIN, -s, -r, -p), and --instr_map; each prints the bytes llvm-xray
# printed for that option (tests/data/xray, recorded by record-fixtures.sh; -top=N: the
# recorded rows' first N, llvm-xray's count line unchanged).  A misspelt LLVM option, and an
# xray-style spelling given to another style, are usage errors (exit 2) naming the style;
# so are llvm-xray stack's refused combinations.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=$TG_TEST_DATA/xray
tg_need_dir "$data"
. "$here/recorded-app.sh"
xray_recorded_app "$TG_TMP/b" || tg_skip "$xray_app_why"
bin=$TG_TMP/b/xray_app
for k in fdr basic; do
    log=$data/$k.xray
    dsc=$data/$k.account-count-dsc.txt
    for args in "-sort=count -sortorder=dsc -instr_map=$bin" \
        "-sort count -sortorder dsc -instr_map $bin" \
        "--sort=count --sortorder=dsc --instr_map=$bin" \
        "-s count -r dsc -m $bin" "-s=count -r=dsc -m=$bin" \
        "--sort count -sortorder=dsc --instr-map $bin"; do
        # shellcheck disable=SC2086
        tg_check "$k: ${args//$bin/BIN}" "$dsc" "$TG" report --style=xray -k $args "$log"
    done
    tg_check "$k: -sort=sum -sortorder=asc -m BIN" "$data/$k.account-sum-asc.txt" \
        "$TG" report --style=xray -keep-going -sort=sum -sortorder=asc -m "$bin" "$log"
    for top in "-top=3" "-top 3" "-p 3" "-p=3" "--top=3"; do
        head -n 5 "$dsc" > "$TG_TMP/top3"
        # shellcheck disable=SC2086
        tg_check "$k: $top" "$TG_TMP/top3" \
            "$TG" report --style=xray -k -sort=count -sortorder=dsc -m "$bin" $top "$log"
    done
    tg_check "$k: -top=0 is every row" "$dsc" \
        "$TG" report --style=xray -k -sort=count -sortorder=dsc -m "$bin" -top=0 "$log"
done
log=$data/fdr.xray
refused() {
    local name=$1 want=$2
    shift 2
    tg_run "$@"
    local rc=$?
    if [ $rc = 2 ] && grep -qF -- "$want" "$TG_TMP/err"; then
        tg_pass "$name"
    else
        tg_fail "$name" "exit $rc, stderr: $(head -c 300 "$TG_TMP/err")"
    fi
}
refused "misspelt -sortx=count" "unknown option '-sortx=count' (did you mean -sort? the xray style takes LLVM's" \
    "$TG" report --style=xray -sortx=count "$log"
refused "misspelt -instr-mapp=BIN" "unknown option '-instr-mapp=$bin'" \
    "$TG" report --style=xray "-instr-mapp=$bin" "$log"
refused "-top=three" "'three' is not an integer" "$TG" report --style=xray -top=three "$log"
refused "-sortorder=up" "bad sortorder 'up'" "$TG" report --style=xray -sortorder=up "$log"
refused "-m with the uftrace style" "the uftrace style does not take -m (the xray style does" \
    "$TG" report -m "$bin" "$log"
refused "--instr_map with the uftrace style" "the uftrace style does not take --instr_map" \
    "$TG" report "--instr_map=$bin" "$log"
# uftrace's spelling, as its getopt reads it: -t op=3 (a time filter)
refused "-top=3 with the uftrace style is -t op=3" "invalid time given: op=3" \
    "$TG" report -top=3 "$log"
# stack: llvm-xray stack's own refusals of option combinations, with its words and its exit
# status 1 (llvm-options.cases has them too, against llvm-xray's recorded stderr), and its
# misspellings
stopped() {
    local name=$1 want=$2
    shift 2
    tg_run "$@"
    local rc=$?
    if [ $rc = 1 ] && grep -qxF -- "traceglot: error: $want" "$TG_TMP/err"; then
        tg_pass "$name"
    else
        tg_fail "$name" "exit $rc, stderr: $(head -c 300 "$TG_TMP/err")"
    fi
}
stopped "stack -all-stacks without a format" \
    "You must specify a non-human format when reporting with -all-stacks." \
    "$TG" stack --style=xray -all-stacks "$log"
stopped "stack -stack-format=flame without -all-stacks" \
    "Can't specify a non-human format without -all-stacks." \
    "$TG" stack --style=xray -stack-format=flame "$log"
stopped "stack -per-thread-stacks -aggregate-threads" \
    "Can't specify options for per thread reporting and reporting that aggregates threads." \
    "$TG" stack -per-thread-stacks -aggregate-threads "$log"
refused "stack -stack-formt=flame" "unknown option '-stack-formt=flame'" \
    "$TG" stack --style=xray -all -stack-formt=flame "$log"
refused "stack -aggregation-type=sum" "bad aggregation-type 'sum'" \
    "$TG" stack -all -stack-format=flame -aggregation-type=sum "$log"
refused "stack --style=uftrace" "unknown style 'uftrace' (known: xray)" \
    "$TG" stack --style=uftrace "$log"
refused "report --style=uftrace -k" "the uftrace style does not take" "$TG" report -k "$log"
tg_done
