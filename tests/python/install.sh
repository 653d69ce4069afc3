#!/bin/bash
# install.sh - the binding as `make install` puts it: the build installed under a DESTDIR, where
# Debian's python3 looks under PREFIX (PREFIX/lib/python3.X/dist-packages, or
# lib/python3/dist-packages for /usr), imports the installed package, whose extension loads
# the installed libtraceglot (its relative RUNPATH), not the build's, and reads a trace as the
# CLI does.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/py.sh"
tg_need_cmd cmake
dest=$TG_TMP/dest
tg_run env DESTDIR="$dest" cmake --install "$TG_BUILD_DIR" &&
    tg_pass "cmake --install (DESTDIR)" || tg_fail "cmake --install" "$(tail -3 "$TG_TMP/err")"
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$TG_BUILD_DIR/CMakeCache.txt")
pydir=$(sed -n 's/^TG_PYTHON_DIR:[A-Z]*=//p' "$TG_BUILD_DIR/CMakeCache.txt")
site=$dest$prefix/$pydir
if [ "$prefix" = /usr ] || [ "$prefix" = /usr/local ]; then
    "$TG_PYTHON" -c 'import sys; print("\n".join(sys.path))' | grep -qx "$prefix/$pydir" &&
        tg_pass "Debian's python3 looks in $prefix/$pydir" ||
        tg_fail "python3's path" "$prefix/$pydir is not on it"
fi
trace=$TG_TEST_DATA/uftrace/args.data
want=$("$TG" stats "$trace" | tail -1)
cd "$TG_TMP" || exit 1
PYTHONPATH="$site" tg_run tg_py -c '
import sys, traceglot
ts = traceglot.open(sys.argv[1])
n = sum(1 for e in ts.events() if e.kind != "lost")
libs = {l.split()[-1] for l in open("/proc/self/maps") if "libtraceglot" in l}
print(traceglot.__file__)
print(" ".join(sorted(libs)))
print("total: %d events" % n)
' "$trace"
if grep -q "^$site/traceglot/__init__.py$" "$TG_TMP/out"; then
    tg_pass "the installed package is imported"
else
    tg_fail "the installed package" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -5)"
fi
libs=$(sed -n 2p "$TG_TMP/out")
case $libs in
"$dest$prefix"/*) tg_pass "its extension loads the installed libtraceglot ($libs)" ;;
*) tg_fail "the installed libtraceglot" "loaded: $libs" ;;
esac
case $want in
"$(sed -n 3p "$TG_TMP/out")"*) tg_pass "the installed binding reads the events traceglot stats counts" ;;
*) tg_fail "events" "$(sed -n 3p "$TG_TMP/out") vs $want" ;;
esac
tg_done
