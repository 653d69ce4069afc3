# tests/python/py.sh - what the Python tests share, sourced after tests/lib.sh: Debian's
# python3 with the binding the build made (build/python), the modules a test needs, and, in
# the sanitizer build, the sanitizer runtimes loaded first into Python (the extension's
# library is instrumented; Python is not, so its leaks are not ours to count).
#   tg_py ARGS...          /usr/bin/python3 with the binding on its path
#   tg_need_py MODULE...   skip unless python3 imports each module
TG_BUILD_DIR=${TG_BUILD_DIR:-$tg_root/build}
TG_PYTHON=/usr/bin/python3
[ -x "$TG_PYTHON" ] || tg_skip "no $TG_PYTHON"
ls "$TG_BUILD_DIR"/python/traceglot/_traceglot*.so >/dev/null 2>&1 ||
    tg_skip "the Python binding is not built (Debian: python3-dev)"
export PYTHONPATH="$TG_BUILD_DIR/python${PYTHONPATH:+:$PYTHONPATH}"
tg_py_preload=""
if grep -q '^TG_SANITIZE:BOOL=ON' "$TG_BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
    tg_cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$TG_BUILD_DIR/CMakeCache.txt")
    tg_py_preload="$("$tg_cc" -print-file-name=libasan.so) $("$tg_cc" -print-file-name=libubsan.so)"
fi

tg_py() {
    if [ -n "$tg_py_preload" ]; then
        LD_PRELOAD="$tg_py_preload" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$TG_PYTHON" "$@"
    else
        "$TG_PYTHON" "$@"
    fi
}

tg_need_py() {
    local m
    for m in "$@"; do
        tg_py -c "import $m" 2>/dev/null || tg_skip "python3 cannot import $m"
    done
}

# Runs a Python check that prints "ok   NAME" / "FAIL NAME: why" lines: each counts.
tg_py_checks() {
    local line rc
    tg_run tg_py "$@"
    rc=$?
    while IFS= read -r line; do
        case $line in
        "ok   "*) tg_pass "${line#ok   }" ;;
        "FAIL "*) tg_fail "${line#FAIL }" ;;
        *) echo "$line" ;;
        esac
    done <"$TG_TMP/out"
    if [ "$rc" != 0 ] && ! grep -q '^FAIL ' "$TG_TMP/out"; then
        tg_fail "$1" "exit status $rc"
        tail -20 "$TG_TMP/err"
    fi
}
