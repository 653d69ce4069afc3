#!/usr/bin/env bash
# install_use.sh CMAKE BUILD_DIR CC - installs the build into a temporary prefix and uses only
# what was installed, as a packager and a library user meet it:
#   - a program built with pkg-config against traceglot.h and the shared library runs;
#   - the same program links statically (`pkg-config --static --libs`: every library the
#     archive needs, json-c too) and runs;
#   - the header declares each function once (-Wredundant-decls) and names every format
#     tg_trace_format returns;
#   - every manual page renders with `man -l` (one per command, and traceglot(1));
#   - Debian's bash-completion finds the completion beside the installed command and
#     completes `traceglot con<TAB>`; zsh's is where zsh's vendor completions go.
# (Not in the sanitizer build: its library needs the sanitizer runtime in every program.)
TG_NO_CLI=1
. "$(dirname "$0")/../lib.sh"
set -u
cmake=$1 build=$2 cc=$3
command -v pkg-config >/dev/null || tg_skip "pkg-config is not installed"
tmp=$TG_TMP
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >/dev/null || { tg_fail "install"; tg_done; }
for f in bin/traceglot include/traceglot.h lib/pkgconfig/traceglot.pc lib/libtraceglot.a \
    share/man/man1/traceglot.1 share/bash-completion/completions/traceglot \
    share/zsh/vendor-completions/_traceglot; do
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

# manual pages: traceglot(1) and one per command, each rendered by man without a warning
if command -v man >/dev/null; then
    for c in "" $("$prefix/bin/traceglot" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
        case $c in help|options|completion) continue ;; esac
        page="$prefix/share/man/man1/traceglot${c:+-$c}.1"
        if [ ! -f "$page" ]; then tg_fail "man page traceglot${c:+-$c}(1)" "not installed"; continue; fi
        LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$tmp/man.txt" 2>"$tmp/man-err"
        if [ $? = 0 ] && [ ! -s "$tmp/man-err" ] && grep -q "^NAME" "$tmp/man.txt" &&
            grep -q "^ *traceglot${c:+-$c} *- " "$tmp/man.txt"; then
            tg_pass "man -l traceglot${c:+-$c}.1"
        else
            tg_fail "man -l traceglot${c:+-$c}.1" "$(head -5 "$tmp/man-err")"
        fi
        [ -n "$c" ] || continue
        missing="" # every option --help lists is in the page (both come from the declarations)
        for o in $("$prefix/bin/traceglot" $c --help | sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z][a-z0-9-]*\).*/\2/p'); do
            grep -q -e "$o\b" "$tmp/man.txt" || missing="$missing $o"
        done
        [ -z "$missing" ] && tg_pass "traceglot-$c(1) has every option of --help" ||
            tg_fail "traceglot-$c(1) has every option of --help" "missing:$missing"
    done
    grep -q -- "--raw" <(LC_ALL=C.UTF-8 man -l "$prefix/share/man/man1/traceglot-cat.1" 2>/dev/null) &&
        tg_pass "traceglot-cat(1) lists --raw" || tg_fail "traceglot-cat(1) lists --raw"
else
    echo "note: man is not installed (man-db): the pages were not rendered"
fi

# bash-completion's loader finds the completion under PREFIX/share, as it does for the
# default prefixes (/usr/local/share and /usr/share are its XDG_DATA_DIRS)
if [ -f /usr/share/bash-completion/bash_completion ]; then
    got=$(PATH="$prefix/bin:$PATH" XDG_DATA_DIRS="$prefix/share:/usr/local/share:/usr/share" \
        bash --norc --noprofile -c '
        . /usr/share/bash-completion/bash_completion
        __load_completion traceglot || exit 3
        COMP_WORDS=(traceglot con) COMP_CWORD=1 COMP_LINE="traceglot con" COMP_POINT=13
        $(complete -p traceglot | sed "s/.*-F \([^ ]*\) .*/\1/") traceglot con traceglot
        echo "${COMPREPLY[*]}"')
    [ "$got" = convert ] && tg_pass "bash-completion loads it: traceglot con<TAB>" ||
        tg_fail "bash-completion loads it: traceglot con<TAB>" "got '$got'"
else
    echo "note: bash-completion is not installed: its loader was not tried"
fi
tg_done
