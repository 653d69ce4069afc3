#!/bin/bash
# check-include.sh CC MISSING PROBE.c INCLUDE_DIR... - compile PROBE.c (syntax only) with
# exactly the include path a layer's object library gets.  MISSING "-": it must compile.
# Otherwise it must fail, and fail because MISSING is not found (gcc: "MISSING: No such
# file or directory", clang: "'MISSING' file not found"), not for some other reason.
TG_NO_CLI=1
. "$(dirname "$0")/../lib.sh"
cc=$1 missing=$2 probe=$3
shift 3
flags=(-std=gnu11 -fsyntax-only)
for d in "$@"; do flags+=("-I$d"); done
err=$("$cc" "${flags[@]}" "$probe" 2>&1)
rc=$?
echo "$ $(basename "$cc") ${flags[*]} $(basename "$probe")"
[ -n "$err" ] && echo "$err"
if [ "$missing" = - ]; then
    [ $rc -eq 0 ] && { echo "PASS: compiles"; exit 0; }
    echo "FAIL: the probe must compile with this layer's include path"; exit 1
fi
if [ $rc -eq 0 ]; then
    echo "FAIL: $missing was reachable: the layer rule is not enforced"; exit 1
fi
if grep -qF -e "$missing: No such file or directory" -e "'$missing' file not found" <<< "$err"; then
    echo "PASS: $missing is out of this layer's reach"; exit 0
fi
echo "FAIL: the probe failed, but not because $missing is missing"; exit 1
