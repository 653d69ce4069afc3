#!/bin/bash
# run.sh BUILD_DIR SECONDS [TARGET...] - runs the libFuzzer targets of BUILD_DIR (configured
# with -DTG_FUZZ=ON -DTG_SANITIZE=ON and clang-14: `make fuzz` does both) for SECONDS each,
# one after the other, and prints a table: target, seconds run, executions, findings.
#
# Per target, under FUZZ_WORK (default BUILD_DIR/fuzz):
#   seeds/T     the target's seeds (it cuts them from tests/data itself, TG_FUZZ_SEEDS=DIR),
#               and for XRay and CTF 2 also inputs the real tools write here: logs recorded
#               by the XRay runtime from the fixtures' program, a -g -O0 build of it for the
#               instrumentation map (DWARF lines), the synthetic logs of every layout version
#               (tests/xray/gen_synthetic.py), the CTF 2 trace of make-ctf2-optional.py
#   corpus/T    what libFuzzer found interesting, kept between runs
#   findings/T  crashes, leaks, timeouts (an input over 1 s of CPU), out-of-memory inputs (RSS over
#               2 GB, or one malloc over 512 MB): each one is a bug to fix, then kept in
#               tests/fuzz/regressions/T/ (ctest replays them, also under ASan and UBSan)
#   logs/T.log  libFuzzer's output (FUZZ_LOGS to put them elsewhere)
# The dictionary tests/fuzz/dict/T.dict (T without "fuzz_") is used when there is one.
# FUZZ_KEEP_GOING=1 restarts a run that stopped on a finding, for the seconds left (several
# findings are collected in one run); FUZZ_FLAGS adds libFuzzer flags; FUZZ_BIN runs the targets from
# another folder (a copy, while the build goes on).  Exit 1 when a run found
# something or did not run.
set -u
build=$(cd "${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}" && pwd)
secs=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
bin=${FUZZ_BIN:-$build/tests/fuzz}
work=${FUZZ_WORK:-$build/fuzz}
logs=${FUZZ_LOGS:-$work/logs}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < "$bin/fuzz-targets.txt"
fi
mkdir -p "$logs"

# Inputs the real tools write, for the targets that have a tool here (best effort).
extra_seeds() {
    local t=$1 seeds=$2 tmp
    tmp=$(mktemp -d)
    case $t in
    fuzz_xray_basic | fuzz_xray_fdr)
        /usr/bin/python3 "$here/../xray/gen_synthetic.py" "$tmp" > /dev/null 2>&1 &&
            for f in "$tmp"/*.xray; do
                case ${f##*/} in basic*) [ "$t" = fuzz_xray_basic ] ;; *) [ "$t" = fuzz_xray_fdr ] ;; esac &&
                    cp "$f" "$seeds/synthetic-${f##*/}"
            done
        if [ -x "$bin/xray-app/xray_app" ]; then
            cp "$bin/xray-app/xray_app" "$tmp/app"
            if [ "$t" = fuzz_xray_fdr ]; then
                (cd "$tmp" && XRAY_OPTIONS="xray_logfile_base=$tmp/live-" ./app fdr 2 2> /dev/null)
            else
                (cd "$tmp" && XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic xray_logfile_base=$tmp/live-" \
                    XRAY_BASIC_OPTIONS=func_duration_threshold_us=0 ./app basic 2 2> /dev/null)
            fi
            for f in "$tmp"/live-*; do [ -f "$f" ] && cp "$f" "$seeds/live-${t#fuzz_xray_}"; done
        fi ;;
    fuzz_xray_instr_map)
        if XRAY_APP_CFLAGS="-g -O0" bash "$here/../xray/build-app.sh" "$tmp" > /dev/null 2>&1; then
            { printf '\000'; cat "$tmp/xray_app"; } > "$seeds/xray_app-g-O0"
        fi ;;
    esac
    rm -rf "$tmp"
}

total_found=0 status=0
rows=()
for t in "${targets[@]}"; do
    exe=$bin/$t
    if [ ! -x "$exe" ]; then
        echo "run.sh: $exe not built (configure with -DTG_FUZZ=ON)" >&2
        status=1
        continue
    fi
    seeds=$work/seeds/$t corpus=$work/corpus/$t findings=$work/findings/$t
    mkdir -p "$corpus" "$findings"
    if [ ! -d "$seeds" ]; then
        mkdir -p "$seeds"
        TG_FUZZ_SEEDS=$seeds "$exe" > /dev/null || echo "run.sh: $t wrote no seeds" >&2
        extra_seeds "$t" "$seeds"
    fi
    dict=()
    [ -f "$here/dict/${t#fuzz_}.dict" ] && dict=(-dict="$here/dict/${t#fuzz_}.dict")
    marker=$(mktemp)
    start=$(date +%s) execs=0 rc=0
    : > "$logs/$t.log"
    # plain mode stops at the first finding; keep-going restarts it for the time left
    while :; do
        left=$((secs - ($(date +%s) - start)))
        [ "$left" -gt 0 ] || break
        # shellcheck disable=SC2086
        "$exe" -max_total_time="$left" -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=512 \
            -print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" ${FUZZ_FLAGS:-} \
            "$corpus" "$seeds" > "$logs/$t.run.log" 2>&1 &
        pid=$!
        wait $pid
        rc=$?
        rm -rf "/tmp/tg-fuzz-$pid" # the harness's copy, left behind when the run crashed
        n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$logs/$t.run.log" | grep -o '[0-9]*$')
        # a run cut short by a finding prints no stats: count what its last status line says
        [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$logs/$t.run.log" | tail -1 | tr -d '#')
        cat "$logs/$t.run.log" >> "$logs/$t.log"
        rm -f "$logs/$t.run.log"
        execs=$((execs + ${n:-0}))
        echo "=== exit $rc after $(($(date +%s) - start)) s" >> "$logs/$t.log"
        [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && [ "$rc" -ne 0 ] || break
    done
    ran=$(($(date +%s) - start))
    # libFuzzer's timeout counts wall time: on a loaded machine (fuzzing under nice) an input
    # can pass 1 s without being slow.  A timeout counts when the input, run again alone,
    # takes over 1 s of CPU time; the others are kept apart in findings/T/under-load/.
    for f in $(find "$findings" -maxdepth 1 -type f -name 'timeout-*' -newer "$marker"); do
        cpu=$( { TIMEFORMAT='%U %S'; time "$exe" -timeout=30 -runs=1 "$f" > /dev/null 2>&1; } 2>&1 |
            awk '{ print ($1 + $2 > 1) ? "slow" : "fast" }')
        if [ "$cpu" = fast ]; then
            mkdir -p "$findings/under-load"
            mv "$f" "$findings/under-load/"
            echo "run.sh: $t: ${f##*/} takes under 1 s of CPU alone: not counted" >> "$logs/$t.log"
        fi
    done
    found=$(find "$findings" -maxdepth 1 -type f -newer "$marker" | wc -l)
    rm -f "$marker"
    total_found=$((total_found + found))
    if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
        status=1
    fi
    rows+=("$(printf '%-24s %8s %12s %9s' "$t" "$ran" "${execs:-?}" "$found")")
    echo "${rows[-1]}   (log: $logs/$t.log)"
done
echo
printf '%-24s %8s %12s %9s\n' target seconds executions findings
printf '%s\n' "${rows[@]}"
[ "$total_found" -eq 0 ] || echo "findings are in $work/findings/: fix each, keep it in tests/fuzz/regressions/TARGET/"
exit $status
