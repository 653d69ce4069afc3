#!/bin/bash
# graph-live.sh - traceglot graph --style=xray against llvm-xray graph run live on logs whose
# records go beyond a well-formed run (gen_graph_logs.py: sibling calls, exits with no entry,
# records out of TSC order, ties of TSC across threads, function id 0, a zero-cycle call, a
# function that never returns, no cycle frequency) and on the synthetic logs of every layout
# (gen_synthetic.py): the default and -deduce-sibling-calls / -keep-going, with labels and
# colours.  Where llvm-xray stops at an error (exit 1, no graph), traceglot must too.
# llvm-xray prints edges and vertices in llvm::DenseMap order; the hashes of function ids are
# fixed, so two runs print the same bytes: checked here first, then outputs compared byte for
# byte.  Also the refusals: a uftrace graph option with --style=xray, an xray one without it.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
tg_need_cmd llvm-xray
tg_need_cmd /usr/bin/python3
d=$TG_TMP/logs
mkdir -p "$d"
/usr/bin/python3 "$here/gen_graph_logs.py" "$d" || exit 1
/usr/bin/python3 "$here/gen_synthetic.py" "$d" || exit 1
# llvm-xray's spellings as traceglot's long ones
long() {
    for a in "$@"; do
        case $a in
        -?) printf '%s\n' "$a" ;;
        -*=*) k=${a%%=*}; printf -- '-%s\n%s\n' "$k" "${a#*=}" ;;
        -*) printf -- '-%s\n' "$a" ;;
        esac
    done
}
cases=("" "-deduce-sibling-calls" "-keep-going" "-d -k"
    "-k -edge-label=sum -color-edges=count -vertex-label=med -color-vertices=90p"
    "-d -k -edge-label=min -color-edges=min -vertex-label=count -color-vertices=min"
    "-d -k -edge-label=99p -color-edges=max -vertex-label=sum -color-vertices=sum")
for log in "$d"/*.xray; do
    b=$(basename "$log" .xray)
    llvm-xray graph -e sum -c max -v med -b count "$log" > "$TG_TMP/run1" 2>/dev/null
    llvm-xray graph -e sum -c max -v med -b count "$log" > "$TG_TMP/run2" 2>/dev/null
    tg_same "$b: llvm-xray graph prints the same order twice" "$TG_TMP/run1" "$TG_TMP/run2"
    for c in "${cases[@]}"; do
        # shellcheck disable=SC2086
        llvm-xray graph $c "$log" > "$TG_TMP/exp" 2>/dev/null
        st=$?
        # shellcheck disable=SC2086
        mapfile -t args < <(long $c)
        if [ $st -eq 0 ]; then
            tg_check "$b [$c]" "$TG_TMP/exp" "$TG" graph --style=xray "${args[@]}" "$log"
        else
            tg_check_status "$b [$c]: llvm-xray exits $st" $st "$TG" graph --style=xray \
                "${args[@]}" "$log"
            [ -s "$TG_TMP/out" ] && tg_fail "$b [$c]" "printed a graph where llvm-xray does not"
        fi
    done
done
log=$d/graph-irregular.xray
tg_check_status "uftrace's -f with --style=xray" 2 "$TG" graph --style=xray -f self "$log"
tg_check_status "a filter with --style=xray" 2 "$TG" graph --style=xray --tid 11 "$log"
tg_check_status "--edge-label without --style=xray" 2 "$TG" graph --edge-label sum "$log"
tg_check_status "an unknown statistic" 2 "$TG" graph --style=xray --edge-label avg "$log"
tg_check_status "FUNC with --style=xray" 2 "$TG" graph --style=xray "$log" main
tg_done
