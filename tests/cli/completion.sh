#!/usr/bin/env bash
# completion.sh - the shell completions `traceglot completion bash|zsh` writes (and make
# install installs) complete what the program declares: commands, options, the registered
# --style and --to names, choices, trace paths.  Bash's is run as bash runs it on <TAB>, once
# with Debian's bash-completion loaded and once without it; zsh's is checked for syntax.
. "$(dirname "$0")/../lib.sh"

tg_run "$TG" completion bash || tg_fail "completion bash" "exit $?"
cp "$TG_TMP/out" "$TG_TMP/traceglot.bash"
mkdir -p "$TG_TMP/trees/fib.data" "$TG_TMP/trees/other"

# complete WITH_BASH_COMPLETION LINE: the words bash offers for LINE (ending at the cursor)
complete_line() {
    local with=$1 line=$2
    bash --norc --noprofile -c '
        if [ "$1" = 1 ]; then . /usr/share/bash-completion/bash_completion || exit 3; fi
        . "$2"
        COMP_LINE=$3 COMP_POINT=${#3}
        read -ra COMP_WORDS <<<"$3"
        [[ $3 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        cd "$4" && _traceglot traceglot "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
        sh "$with" "$TG_TMP/traceglot.bash" "$line" "$TG_TMP/trees"
}

expect() { # NAME WITH LINE EXPECTED
    local got
    got=$(complete_line "$2" "$3")
    if [ "$got" = "$4" ]; then tg_pass "$1"; else tg_fail "$1" "got '$got', expected '$4'"; fi
}

converters=$("$TG" convert --help | sed -n 's/.*--to FORMAT *target format: \(.*\) (default.*/\1/p;s/.*--to FORMAT *target format: \(.*\)$/\1/p' | tr -d ',')
[ -n "$converters" ] || tg_fail "convert --help lists the targets"
want_to="$(printf '%s\n' $converters | sort | tr '\n' ' ')"

withs="0"
if [ -f /usr/share/bash-completion/bash_completion ]; then withs="1 0"; else
    echo "note: bash-completion is not installed: checked without its helpers only"; fi
for w in $withs; do
    label=$([ "$w" = 1 ] && echo "bash-completion" || echo "plain bash")
    expect "$label: traceglot con<TAB>" "$w" "traceglot con" "convert "
    expect "$label: traceglot convert --to <TAB>" "$w" "traceglot convert --to " "$want_to"
    expect "$label: --to=pe<TAB>" "$w" "traceglot convert --to=pe" "perfetto "
    expect "$label: report --style <TAB>" "$w" "traceglot report --style " \
        "$(printf '%s\n' $("$TG" report --help | sed -n 's/.*--style NAME *the report style: \(.*\) (default.*/\1/p' | tr -d ',') | sort | tr '\n' ' ')"
    expect "$label: a choice" "$w" "traceglot cat --clock-align " "auto none realtime "
    expect "$label: an option" "$w" "traceglot cat --plugin-o" "--plugin-option "
    expect "$label: trace paths" "$w" "traceglot cat fi" "fib.data "
    expect "$label: help COMMAND" "$w" "traceglot help rep" "replay report "
done

# every option --help lists is offered after -- on some command line
for c in info cat stats convert replay report sql; do
    missing=""
    for o in $("$TG" $c --help | sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z][a-z0-9-]*\).*/\2/p'); do
        case " $(complete_line 0 "traceglot $c $o") " in *" $o "*) ;; *) missing="$missing $o" ;; esac
    done
    if [ -z "$missing" ]; then tg_pass "$c: every option completes"; else
        tg_fail "$c: every option completes" "not offered:$missing"; fi
done

tg_run "$TG" completion zsh || tg_fail "completion zsh" "exit $?"
if command -v zsh >/dev/null; then
    if zsh -n "$TG_TMP/out" 2>"$TG_TMP/zsh-err"; then tg_pass "zsh completion parses"; else
        tg_fail "zsh completion parses" "$(head -5 "$TG_TMP/zsh-err")"; fi
else
    echo "note: zsh is not installed: its completion's syntax not checked"
fi
grep -q "'--to=\[target format" "$TG_TMP/out" && tg_pass "zsh completion has --to" ||
    tg_fail "zsh completion has --to"
tg_check_status "completion of an unknown shell" 2 "$TG" completion fish
tg_done
