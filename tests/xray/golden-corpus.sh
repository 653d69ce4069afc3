#!/bin/bash
# golden-corpus.sh - traceglot's llvm-xray-compatible outputs against llvm-xray 14's own
# outputs recorded in the corpus (gen/xray: basic and FDR logs of the same program and its
# instrumented binary).  SKIP when the corpus is absent.  With KIND (basic or fdr: the build
# registers one test per log), only that log.
. "$(dirname "$0")/../lib.sh"
dir=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}/gen/xray
[ -f "$dir/xray-app-visible" ] || { echo "SKIP: corpus gen/xray not found ($dir)"; exit 77; }
bin=$dir/xray-app-visible
out=$TG_TMP
fail=0
check() { # name expected command...
    local name=$1 exp=$2
    shift 2
    if "$@" > "$out/got" 2> "$out/err" && cmp -s "$out/got" "$exp"; then
        echo "ok   $name"
    else
        echo "FAIL $name"; diff "$exp" "$out/got" | head -5; head -3 "$out/err"; fail=1
    fi
}
for k in ${1:-basic fdr}; do
    log=$dir/$k-visible.xray
    check "$k yaml" "$dir/$k-visible.yaml" "$TG" cat --style=xray-yaml --instr-map "$bin" "$log"
    check "$k account" "$dir/$k-visible.account.txt" "$TG" report --style=xray -k --instr-map "$bin" "$log"
    check "$k account count dsc" "$dir/$k-visible.account-count.txt" \
        "$TG" report --style=xray -k --sort=count --sortorder=dsc --instr-map "$bin" "$log"
done
exit $fail
