#!/usr/bin/env bash
# install_use.sh CMAKE BUILD_DIR CC - installs the build into a temporary prefix and uses only
# what was installed, as a packager and a library user meet it:
#   - a program built with pkg-config against traceglot.h and the shared library runs;
#   - the same program links statically (`pkg-config --static --libs`: every library the
#     archive needs, json-c too) and runs;
#   - the header declares each function once (-Wredundant-decls) and names every format
#     tg_trace_format returns;
# (Not in the sanitizer build: its library needs the sanitizer runtime in every program.)
TG_NO_CLI=1
. "$(dirname "$0")/../lib.sh"
set -u
cmake=$1 build=$2 cc=$3
command -v pkg-config >/dev/null || tg_skip "pkg-config is not installed"
tmp=$TG_TMP
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >/dev/null || { tg_fail "install"; tg_done; }
for f in bin/traceglot include/traceglot.h lib/pkgconfig/traceglot.pc lib/libtraceglot.a; do
    [ -e "$prefix/$f" ] && tg_pass "installed $f" || tg_fail "installed $f"
done

cat > "$tmp/use.c" <<'C'
#include <traceglot.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--formats") == 0) {
        for (size_t i = 0; tg_format_name(i); i++)
            printf("%s\n", tg_format_name(i));
        return 0;
    }
    tg_error *err = NULL;
    tg_set *set = tg_open((const char *const *)argv + 1, (size_t)argc - 1, NULL, &err);
    if (set || !strstr(tg_error_message(err), "not a trace traceglot can read"))
        return 1;
    tg_error_free(err);
    printf("ok\n");
    return 0;
}
C
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "not a trace" > "$tmp/junk"
if "$cc" -Wall -Wextra -Wredundant-decls -Werror "$tmp/use.c" -o "$tmp/use" \
    $(pkg-config --cflags --libs traceglot) -Wl,-rpath,"$prefix/lib" 2>"$tmp/cc-err"; then
    tg_pass "the header compiles with -Wredundant-decls"
    tg_check "shared: the program runs" <(echo ok) "$tmp/use" "$tmp/junk"
else
    tg_fail "the header compiles with -Wredundant-decls" "$(head -20 "$tmp/cc-err")"
fi

# static: only the archive is there to link, so every library it needs must come from
# pkg-config --static
mkdir -p "$tmp/static/lib/pkgconfig"
cp "$prefix/lib/libtraceglot.a" "$tmp/static/lib/"
sed "s|^prefix=.*|prefix=$tmp/static|;s|^includedir=.*|includedir=$prefix/include|" \
    "$prefix/lib/pkgconfig/traceglot.pc" > "$tmp/static/lib/pkgconfig/traceglot.pc"
if PKG_CONFIG_PATH="$tmp/static/lib/pkgconfig" "$cc" "$tmp/use.c" -o "$tmp/use-static" \
    $(PKG_CONFIG_PATH="$tmp/static/lib/pkgconfig" pkg-config --static --cflags --libs traceglot) \
    2>"$tmp/cc-err"; then
    tg_pass "static link through pkg-config --static"
    tg_check "static: the program runs" <(echo ok) "$tmp/use-static" "$tmp/junk"
    if ldd "$tmp/use-static" | grep -q libtraceglot; then
        tg_fail "static: libtraceglot linked in" "$(ldd "$tmp/use-static" | grep traceglot)"
    else tg_pass "static: libtraceglot linked in"; fi
else
    tg_fail "static link through pkg-config --static" "$(grep -m5 -e 'undefined' -e error "$tmp/cc-err")"
fi

# every format the library reads is named where tg_trace_format is declared
if [ -x "$tmp/use" ]; then
    decl=$(awk '/\/\* The trace.s format:/,/tg_trace_format\(/' "$prefix/include/traceglot.h")
    for f in $("$tmp/use" --formats); do
        case "$decl" in *"\"$f\""*) tg_pass "header names format $f" ;;
        *) tg_fail "header names format $f" "not in: $decl" ;; esac
    done
fi
tg_run "$prefix/bin/traceglot" --version && tg_pass "traceglot --version" || tg_fail "traceglot --version"

tg_done
