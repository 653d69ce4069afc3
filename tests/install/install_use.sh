#!/usr/bin/env bash
# install_use.sh CMAKE BUILD_DIR CC - installs the build into a temporary prefix and builds
# and runs a program that uses only what was installed (traceglot.h, traceglot.pc, the
# shared library).
TG_NO_CLI=1
. "$(dirname "$0")/../lib.sh"
set -eu
cmake=$1 build=$2 cc=$3
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed"; exit 77; }
tmp=$TG_TMP
"$cmake" --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/traceglot include/traceglot.h lib/pkgconfig/traceglot.pc; do
    [ -e "$tmp/prefix/$f" ] || { echo "FAIL: $f was not installed"; exit 1; }
done
cat > "$tmp/use.c" <<'C'
#include <traceglot.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    tg_error *err = NULL;
    tg_set *set = tg_open((const char *const *)argv + 1, (size_t)argc - 1, NULL, &err);
    if (set || !strstr(tg_error_message(err), "not a trace traceglot can read"))
        return 1;
    tg_error_free(err);
    printf("ok\n");
    return 0;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
"$cc" "$tmp/use.c" -o "$tmp/use" $(pkg-config --cflags --libs traceglot) -Wl,-rpath,"$tmp/prefix/lib"
echo "not a trace" > "$tmp/junk"
"$tmp/use" "$tmp/junk"
"$tmp/prefix/bin/traceglot" --version
echo "1 passed, 0 failed"
