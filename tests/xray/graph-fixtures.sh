#!/bin/bash
# graph-fixtures.sh KIND - traceglot graph --style=xray against llvm-xray graph's outputs
# recorded on the project's own XRay fixture KIND (fdr or basic: one ctest case each) by
# record-fixtures.sh, one output per case of graph-cases.txt (the default, -keep-going with
# -deduce-sibling-calls, each label and colour option with each statistic, without the map).
# llvm-xray's edges and vertices come in llvm::DenseMap order: a hash map, but with fixed
# hashes of the function ids, so the order is the same on every run (checked live by
# graph-live.sh) and the outputs are compared byte for byte.  The instrumented binary is
# rebuilt (build-app.sh); a rebuild that differs from the recorded one skips the test.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?usage: graph-fixtures.sh fdr|basic}
data=$TG_TEST_DATA/xray
[ -f "$data/$kind.xray" ] || tg_skip "no fixtures in $data"
. "$here/recorded-app.sh"
xray_recorded_app "$TG_TMP/b" || tg_skip "$xray_app_why"
bin=$TG_TMP/b/xray_app
log=$data/$kind.xray
# llvm-xray's spellings (-name=value, -k) as traceglot's long ones (--name value, -k)
long() {
    for a in "$@"; do
        case $a in
        -?) printf '%s\n' "$a" ;;
        -*=*) k=${a%%=*}; printf -- '-%s\n%s\n' "$k" "${a#*=}" ;;
        -*) printf -- '-%s\n' "$a" ;;
        *) printf '%s\n' "$a" ;;
        esac
    done
}
# every case with llvm-xray's own command line (-instr_map=BIN -edge-label=sum ...)
while IFS=$'\t' read -r slug opts; do
    exp=$data/$kind.graph-$slug.dot
    [ -f "$exp" ] || { tg_fail "$slug" "no recording $exp (run record-fixtures.sh graph)"; continue; }
    map=(-instr_map="$bin")
    case $slug in nomap*) map=() ;; esac
    # shellcheck disable=SC2086
    tg_check "$kind $slug" "$exp" "$TG" graph --style=xray "${map[@]}" $opts "$log"
done < <(grep -v '^#' "$here/graph-cases.txt")
# the other spellings once: traceglot's long ones, LLVM's one-letter aliases
while IFS=$'\t' read -r slug opts; do
    # shellcheck disable=SC2086
    mapfile -t args < <(long $opts)
    tg_check "$kind $slug, long spellings" "$data/$kind.graph-$slug.dot" \
        "$TG" graph --style=xray --instr-map "$bin" "${args[@]}" "$log"
done < <(grep -E '^(keep-going-deduce|el-sum-cv-sum|vl-min-ce-max)	' "$here/graph-cases.txt")
tg_check "$kind -m -e -b (aliases)" "$data/$kind.graph-el-max-cv-max.dot" \
    "$TG" graph --style=xray -m "$bin" -e max -b max "$log"
tg_check "$kind -v -c (aliases)" "$data/$kind.graph-vl-count-ce-sum.dot" \
    "$TG" graph --style=xray -m "$bin" -v count -c sum "$log"
tg_check "$kind -k -d (aliases)" "$data/$kind.graph-keep-going-deduce.dot" \
    "$TG" graph --style=xray -m "$bin" -k -d "$log"
# -output FILE writes the same bytes there, nothing on stdout
tg_run "$TG" graph --style=xray -instr_map="$bin" -output="$TG_TMP/g.dot" \
    -edge-label=sum -color-vertices=sum "$log"
if [ -s "$TG_TMP/out" ]; then
    tg_fail "$kind -output FILE" "printed on stdout too"
else
    tg_same "$kind -output FILE" "$data/$kind.graph-el-sum-cv-sum.dot" "$TG_TMP/g.dot"
fi
tg_done
