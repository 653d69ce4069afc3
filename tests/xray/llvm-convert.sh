#!/bin/bash
# llvm-convert.sh - llvm-xray's convert and fdr-dump command lines, typed to traceglot as
# an llvm-xray user types them, against llvm-xray 14's outputs recorded by
# record-options.sh: each case of llvm-convert.cases on both XRay fixtures (`traceglot
# convert -f yaml|trace_event` with -symbolize, -instr_map, -sort, -demangle, -output in
# LLVM's spellings; `traceglot fdr-dump`, which reads a basic-mode log as FDR records as
# llvm-xray does and stops where it stops), and fdr-dump of the damaged logs of
# fdr-dump-damaged.cases: the same stdout, exit status and stderr past each tool's prefix
# ("llvm-xray: ", "traceglot: error: ").  -o FILE writes the same bytes there; the corpus's
# logs give llvm-xray's own trace_event JSON and YAML; what traceglot cannot do as asked
# (-f raw, -sort=false, -no-demangle with -symbolize, fdr-dump -verify) is refused by name.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=$TG_TEST_DATA/xray
tg_need_dir "$data/options"
. "$here/recorded-app.sh"
xray_recorded_app "$TG_TMP/b" || tg_skip "$xray_app_why"
MAP=$TG_TMP/b/xray_app
cd "$data" || exit 1

# compare NAME BASE: stdout, exit status and stderr of the last tg_run against BASE.*
compare() {
    local name=$1 base=$2 rc=$3 exp=$2.out want_rc=0 why=""
    [ -f "$base.same" ] && exp=${base%.*}.$(cat "$base.same").out
    [ -f "$base.rc" ] && want_rc=$(cat "$base.rc")
    [ "$rc" = "$want_rc" ] || why="exit $rc, llvm-xray $want_rc: $(head -c 300 "$TG_TMP/err")"
    [ -z "$why" ] && ! cmp -s "$exp" "$TG_TMP/out" &&
        why="stdout differs: $(diff "$exp" "$TG_TMP/out" | head -5)"
    if [ -f "$base.err" ]; then
        sed 's/^llvm-xray: //' "$base.err" > "$TG_TMP/want-err"
    else
        : > "$TG_TMP/want-err"
    fi
    sed 's/^traceglot: error: //' "$TG_TMP/err" > "$TG_TMP/got-err"
    [ -z "$why" ] && ! cmp -s "$TG_TMP/want-err" "$TG_TMP/got-err" &&
        why="stderr differs: $(diff "$TG_TMP/want-err" "$TG_TMP/got-err" | head -5)"
    if [ -z "$why" ]; then tg_pass "$name"; else tg_fail "$name" "$why"; fi
}

for k in basic fdr; do
    while read -r name sub args; do
        case $name in '#'* | '') continue ;; esac
        args=${args//\$MAP/$MAP}
        # shellcheck disable=SC2086
        tg_run "$TG" "$sub" $args "$k.xray"
        compare "$k $sub ${args//$MAP/BIN}" "options/$k.$name" $?
    done < "$here/llvm-convert.cases"
    # -o FILE, -output=FILE: the same bytes in FILE, nothing on stdout
    for o in "-o $TG_TMP/te.json" "-output=$TG_TMP/te.json"; do
        rm -f "$TG_TMP/te.json"
        # shellcheck disable=SC2086
        tg_run "$TG" convert -f trace_event -y -m "$MAP" $o "$k.xray"
        if [ $? = 0 ] && [ ! -s "$TG_TMP/out" ]; then
            exp=options/$k.convert-te-symbolize.out
            [ -f "options/$k.convert-te-symbolize.same" ] &&
                exp=options/$k.$(cat "options/$k.convert-te-symbolize.same").out
            tg_same "$k convert ${o%%[ =]*} FILE" "$exp" "$TG_TMP/te.json"
        else
            tg_fail "$k convert ${o%%[ =]*} FILE" "$(head -c 300 "$TG_TMP/err")"
        fi
    done
done
bash "$here/damaged-logs.sh" "$data" "$TG_TMP" "$here/fdr-dump-damaged.cases" || exit 1
while read -r name _; do
    case $name in '#'* | '') continue ;; esac
    tg_run "$TG" fdr-dump "$TG_TMP/$name.xray"
    compare "fdr-dump $name" "options/fdr-dump.$name" $?
done < "$here/fdr-dump-damaged.cases"

# the corpus's logs, with llvm-xray's own trace_event JSON and YAML beside them
dir=$TG_CORPUS/gen/xray
if [ -d "$dir" ]; then
    for k in basic fdr; do
        tg_check "corpus $k-visible -f trace_event -y" "$dir/$k-visible.trace_event.json" \
            "$TG" convert -f trace_event -symbolize -instr_map "$dir/xray-app-visible" \
            "$dir/$k-visible.xray"
        tg_check "corpus $k-visible -f yaml -y" "$dir/$k-visible.yaml" \
            "$TG" convert -output-format=yaml -y -m "$dir/xray-app-visible" "$dir/$k-visible.xray"
    done
else
    echo "note: the corpus's gen/xray is missing: not compared"
fi

# what traceglot cannot do as asked: refused by name, exit 2
tg_said "convert -f raw refused" 2 "-output-format=raw" "$TG" convert -f raw fdr.xray
tg_said "convert -f csv refused" 2 "takes yaml or trace_event" "$TG" convert -f csv fdr.xray
tg_said "convert -sort=false refused" 2 "-sort=false" "$TG" convert -f yaml -sort=false fdr.xray
tg_said "convert -no-demangle -y refused" 2 "-no-demangle is not honoured" \
    "$TG" convert -f yaml -y -no-demangle -m "$MAP" fdr.xray
tg_said "convert -f yaml -x refused" 2 "unknown option -x" "$TG" convert -f yaml -x fdr.xray
tg_said "convert -f yaml of two logs refused" 2 "one LOG only" \
    "$TG" convert -f yaml fdr.xray basic.xray
tg_said "fdr-dump -verify refused" 2 "-verify" "$TG" fdr-dump -verify fdr.xray
tg_said "fdr-dump of a missing log" 1 "cannot open" "$TG" fdr-dump "$TG_TMP/no-such.xray"
tg_done
