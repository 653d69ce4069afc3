#!/bin/bash
# live.sh - records fresh XRay logs (FDR and basic) with clang-14's runtime and compares
# traceglot with llvm-xray on them: YAML conversion and accounting (its rows, and the records
# -keep-going skips as llvm-xray says them on stderr) under every sort key and
# order.  The workload is built twice: optimized without debug info, and with "-g -O0"
# (DWARF line locations; many more instrumented template functions to name).  SKIP when
# clang-14 or llvm-xray is missing.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
command -v llvm-xray >/dev/null || { echo "SKIP: llvm-xray not installed"; exit 77; }
out=$TG_TMP
fail=0
for flags in "" "-g -O0"; do
XRAY_APP_CFLAGS=$flags bash "$here/build-app.sh" "$out" || exit $?
bin=$out/xray_app
rm -f "$out"/fdr-xray_app.* "$out"/basic-xray_app.*
(cd "$out" && XRAY_OPTIONS="xray_logfile_base=$out/fdr-" ./xray_app fdr 7 2>/dev/null) || {
    echo "SKIP: the FDR run failed"; exit 77; }
(cd "$out" && XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic xray_logfile_base=$out/basic-" \
    XRAY_BASIC_OPTIONS=func_duration_threshold_us=0 ./xray_app basic 7 2>/dev/null)
echo "-- built with: ${flags:-(no extra flags)}"
for log in "$out"/fdr-xray_app.* "$out"/basic-xray_app.*; do
    [ -f "$log" ] || { echo "SKIP: no log recorded"; exit 77; }
    llvm-xray convert -output-format=yaml -symbolize -instr_map="$bin" "$log" > "$out/exp" 2>/dev/null
    "$TG" cat --style=xray-yaml --instr-map "$bin" "$log" > "$out/got" 2>&1
    cmp -s "$out/exp" "$out/got" && echo "ok   yaml $(basename "$log")" || {
        echo "FAIL yaml $(basename "$log")"; diff "$out/exp" "$out/got" | head -5; fail=1; }
    for key in funcid count min med 90p 99p max sum func; do
        for order in asc dsc; do
            # stdout and stderr (each record -keep-going skips, as llvm-xray says it)
            llvm-xray account -keep-going -instr_map="$bin" -sort=$key -sortorder=$order "$log" \
                > "$out/exp" 2>"$out/exp-err"
            "$TG" report --style=xray -k --instr-map "$bin" --sort=$key --sortorder=$order "$log" \
                > "$out/got" 2>"$out/got-err"
            cmp -s "$out/exp" "$out/got" && cmp -s "$out/exp-err" "$out/got-err" || {
                echo "FAIL account $key $order $(basename "$log")"; diff "$out/exp" "$out/got" | head -5
                diff "$out/exp-err" "$out/got-err" | head -5; fail=1; }
        done
    done
    [ $fail -eq 0 ] && echo "ok   account (all keys) $(basename "$log")"
done
done
# Small FDR buffers: a hundred blocks, more than 16 per thread, so llvm-xray's std::sort of a
# thread's blocks (and the account's first-record rule) really reorders them.
rm -f "$out"/fdr-xray_app.*
(cd "$out" && XRAY_APP_FDR_OPTIONS="buffer_size=4096 buffer_max=400" \
    XRAY_OPTIONS="xray_logfile_base=$out/fdr-" ./xray_app fdr 3000 2>/dev/null)
for log in "$out"/fdr-xray_app.*; do
    [ -f "$log" ] || continue
    llvm-xray convert -output-format=yaml -symbolize -instr_map="$bin" "$log" > "$out/exp" 2>/dev/null
    "$TG" cat --style=xray-yaml --instr-map "$bin" "$log" > "$out/got" 2>&1
    cmp -s "$out/exp" "$out/got" || { echo "FAIL yaml, many blocks"; fail=1; }
    for key in funcid count sum; do
        llvm-xray account -keep-going -instr_map="$bin" -sort=$key "$log" > "$out/exp" 2>"$out/exp-err"
        "$TG" report --style=xray -k --instr-map "$bin" --sort=$key "$log" > "$out/got" 2>"$out/got-err"
        cmp -s "$out/exp" "$out/got" && cmp -s "$out/exp-err" "$out/got-err" || {
            echo "FAIL account $key, many blocks"; diff "$out/exp-err" "$out/got-err" | head -5; fail=1; }
    done
    [ $fail -eq 0 ] && echo "ok   many small FDR buffers ($(stat -c %s "$log") bytes)"
done
exit $fail
