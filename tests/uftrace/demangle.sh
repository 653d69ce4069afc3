#!/bin/bash
# demangle.sh - C++ (and legacy Rust) names as uftrace 0.13's own demangler prints them, not a
# full demangler's: `_GLOBAL__sub_I_` before the demangled rest, ABI tags as a name part
# (`store::version::cxx11`), no template arguments, uftrace's names of the standard
# abbreviations (`std::basic_ostream::_M_insert`, `std::basic_string<>`), `$_N` lambdas,
# `__vtable__`-style special names, and the mangled name itself where uftrace's walk fails.
# The fixture cxxnames.data (record-fixtures.sh) shows the common cases in every command
# (golden-fixtures/cxxnames: replay, report, graph, info); here uftrace runs live on copies of
# it whose functions bear the names of demangle-names.txt (rename-symbols.py), one copy per
# as many names as the program has functions: 1,453 names, real ones (the functions of a C++ program
# using the standard library's templates, compiled -O0 and -O2, and exports of libstdc++ and
# LLVM 14), cuts and one-letter changes of them, clone suffixes and symbol versions, and
# names made for the special forms.  replay on every copy, report and report --diff on the
# first.  Names on which uftrace's walk never ends (it loops on a name cut inside a template
# argument list) are not in the list; on those traceglot must end, printing the name as is.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
src=$TG_TEST_DATA/uftrace/cxxnames.data
tg_need_dir "$src"
names=$TG_TESTS/uftrace/demangle-names.txt
rename=$TG_TESTS/uftrace/rename-symbols.py
total=$(grep -cv '^#' "$names")
k=0
while [ "$k" -lt "$total" ]; do
    next=$(/usr/bin/python3 "$rename" "$src" "$TG_TMP/r.data" "$names" "$k") || exit 1
    label="names $((k + 1))-$next"
    if ! timeout -s KILL 60 uftrace replay -d "$TG_TMP/r.data" >"$TG_TMP/peer" 2>"$TG_TMP/peer.err"; then
        tg_fail "$label" "uftrace replay did not finish: $(head -c 200 "$TG_TMP/peer.err")"
    else
        tg_check "$label: replay" "$TG_TMP/peer" "$TG" replay "$TG_TMP/r.data"
    fi
    if [ "$k" = 0 ]; then
        timeout -s KILL 60 uftrace report -d "$TG_TMP/r.data" >"$TG_TMP/peer" 2>/dev/null
        tg_check "$label: report" "$TG_TMP/peer" "$TG" report "$TG_TMP/r.data"
        # against itself: every name on both sides (traceglot's diff of two runs that share no
        # function lists them otherwise than uftrace: not this test's matter)
        cp -r "$TG_TMP/r.data" "$TG_TMP/r2.data"
        timeout -s KILL 60 uftrace report -d "$TG_TMP/r.data" --diff "$TG_TMP/r2.data" \
            >"$TG_TMP/peer" 2>/dev/null
        tg_check "$label: report --diff" "$TG_TMP/peer" \
            "$TG" report "$TG_TMP/r.data" --diff "$TG_TMP/r2.data"
    fi
    k=$next
done
# names uftrace loops on for ever, or crashes on (_ZNE, written as nothing at all): traceglot
# ends and prints them as they are
for i in $(seq 40); do printf '%s\n' _ZNSt7codecvtIDiD _ZN1AIiDiD _ZSt3maxIDnD _ZNE; done >"$TG_TMP/endless.txt"
/usr/bin/python3 "$rename" "$src" "$TG_TMP/e.data" "$TG_TMP/endless.txt" 0 >/dev/null || exit 1
if tg_run "$TG" replay "$TG_TMP/e.data"; then
    missing=$(for n in _ZNSt7codecvtIDiD _ZN1AIiDiD _ZSt3maxIDnD _ZNE; do
        grep -qF " $n()" "$TG_TMP/out" || echo "$n"
    done)
    [ -z "$missing" ] && tg_pass "names uftrace loops or crashes on: printed as they are" ||
        tg_fail "names uftrace loops or crashes on" "not printed as they are: $missing"
else
    tg_fail "names uftrace loops or crashes on" "exit $?: $(head -c 200 "$TG_TMP/err")"
fi
tg_done
