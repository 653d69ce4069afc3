#!/usr/bin/env bash
# readme-options.sh - the README's option tables are the ones the library's declarations
# give (`traceglot options COMMAND`, written in by tools/readme-options.sh): an option added,
# renamed or re-documented in its declaration shows here until the README says the same.
. "$(dirname "$0")/../lib.sh"
readme="$TG_TESTS/../README.md"
[ -f "$readme" ] || tg_skip "no README.md"
cmds=$(sed -n 's/^<!-- options: \([a-z]*\) -->$/\1/p' "$readme")
[ -n "$cmds" ] || { tg_fail "README has option tables" "no <!-- options: COMMAND --> block"; tg_done; }
for c in $cmds; do
    awk -v c="$c" '$0 == "<!-- options: " c " -->" { on = 1; next }
                   /^<!-- \/options -->$/ { on = 0 } on' "$readme" > "$TG_TMP/readme-$c"
    tg_check "README options of $c" "$TG_TMP/readme-$c" "$TG" options "$c"
done
tg_done
