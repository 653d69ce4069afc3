#!/bin/bash
# llvm-extract.sh - `traceglot extract` against llvm-xray 14's extract: the instrumentation
# map of the XRay fixtures' binary as YAML, with each option of llvm-extract.cases (recorded
# by record-options.sh in tests/data/xray/options/extract.NAME.out); -o FILE writes it there;
# the corpus's instrumented binary against llvm-xray itself when it is installed (a 16-line
# answer: no recording needed); a binary without a map and an unknown option are refused.
# The binary is rebuilt (build-app.sh) and must be the recorded one.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=$TG_TEST_DATA/xray
tg_need_dir "$data/options"
. "$here/recorded-app.sh"
xray_recorded_app "$TG_TMP/b" || tg_skip "$xray_app_why"
MAP=$TG_TMP/b/xray_app
while read -r name args; do
    case $name in '#'* | '') continue ;; esac
    # shellcheck disable=SC2086
    tg_check "extract $args" "$data/options/extract.$name.out" "$TG" extract $args "$MAP"
done < "$here/llvm-extract.cases"
# -o FILE and -output=FILE: the same YAML in the file, nothing on stdout
for o in "-o $TG_TMP/map.yaml" "-output=$TG_TMP/map.yaml" "--output $TG_TMP/map.yaml"; do
    rm -f "$TG_TMP/map.yaml"
    # shellcheck disable=SC2086
    if tg_run "$TG" extract -s $o "$MAP" && [ ! -s "$TG_TMP/out" ]; then
        tg_same "extract -s ${o%%[ =]*}" "$data/options/extract.symbolize.out" "$TG_TMP/map.yaml"
    else
        tg_fail "extract -s ${o%%[ =]*}" "exit $? or output on stdout: $(head -c 200 "$TG_TMP/err")"
    fi
done
bin=$TG_CORPUS/gen/xray/xray-app-visible
if [ -f "$bin" ] && command -v llvm-xray > /dev/null; then
    for o in "" "-s" "-s --no-demangle"; do
        # shellcheck disable=SC2086
        llvm-xray extract $o "$bin" > "$TG_TMP/want"
        # shellcheck disable=SC2086
        tg_check "corpus extract $o" "$TG_TMP/want" "$TG" extract $o "$bin"
    done
else
    echo "note: the corpus's xray-app-visible or llvm-xray is missing: not compared"
fi
tg_said "extract of a missing file" 1 "cannot open" "$TG" extract "$TG_TMP/no-such-binary"
tg_said "extract of an ELF file without a map" 1 "no xray_instr_map section" "$TG" extract \
    /bin/sh
tg_said "extract -x refused by name" 2 "unknown option -x" "$TG" extract -x "$MAP"
tg_said "extract of two binaries refused" 2 "one BINARY only" "$TG" extract "$MAP" "$MAP"
tg_done
