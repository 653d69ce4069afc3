#!/bin/bash
# golden-fixtures.sh - the project's own XRay fixtures (tests/data/xray, recorded by
# record-fixtures.sh with clang-14 and llvm-xray 14) against traceglot.  The instrumented
# binary is rebuilt from tests/xray/xray_app.cpp; when the rebuild differs from the one the
# fixtures were recorded with (another compiler), the test is skipped.  With KIND (fdr or
# basic: the build registers one test per log), only that log.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=${TG_TEST_DATA:-$here/../data}/xray
[ -f "$data/fdr.xray" ] || { echo "SKIP: no fixtures in $data"; exit 77; }
out=$TG_TMP
bash "$here/build-app.sh" "$out/b" > "$out/build.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$out/build.log"; exit 77; }
[ $rc -ne 0 ] && { echo "SKIP: cannot build the workload"; cat "$out/build.log"; exit 77; }
if [ "$(cd "$out/b" && sha256sum xray_app)" != "$(cat "$data/xray_app.sha256")" ]; then
    echo "SKIP: the rebuilt xray_app differs from the one the fixtures were recorded with"
    exit 77
fi
bin=$out/b/xray_app
fail=0
check() {
    local name=$1 exp=$2
    shift 2
    if "$@" > "$out/got" 2> "$out/err" && cmp -s "$out/got" "$exp"; then
        echo "ok   $name"
    else
        echo "FAIL $name"; diff "$exp" "$out/got" | head -5; head -3 "$out/err"; fail=1
    fi
}
for k in ${1:-fdr basic}; do
    log=$data/$k.xray
    check "$k yaml" "$data/$k.yaml" "$TG" cat --style=xray-yaml --instr-map "$bin" "$log"
    check "$k yaml, no map" "$data/$k.nomap.yaml" "$TG" cat --style=xray-yaml "$log"
    check "$k account" "$data/$k.account.txt" "$TG" report --style=xray -k --instr-map "$bin" "$log"
    check "$k account count dsc" "$data/$k.account-count-dsc.txt" \
        "$TG" report --style=xray -k --sort=count --sortorder=dsc --instr-map "$bin" "$log"
    check "$k account sum asc" "$data/$k.account-sum-asc.txt" \
        "$TG" report --style=xray -k --sort=sum --sortorder=asc --instr-map "$bin" "$log"
    check "$k account, no map" "$data/$k.account-nomap.txt" "$TG" report --style=xray -k "$log"
done
exit $fail
