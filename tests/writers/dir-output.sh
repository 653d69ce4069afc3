#!/bin/bash
# dir-output.sh - directory outputs are never left half-written: a conversion that fails
# (damaged input, an existing target, a target that cannot be created) exits non-zero, says
# why, and leaves neither the target nor its temporary directory behind.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
src="$root/ctf/babeltrace/succeed/sequence"
ufs="$root/uftrace/oslab-ringbuf.data"
[ -d "$src" ] && [ -d "$ufs" ] || { echo "SKIP: corpus traces missing under $root"; exit 77; }
out=$TG_TMP
tg_at_exit 'chmod -R u+w "$out"; rm -rf "$out"'
fail=0
leftovers() { ls -d "$out"/$1.tmp-* 2> /dev/null; }
expect_fail() { # what target args...
    local what=$1 target=$2; shift 2
    if "$TG" convert "$@" -o "$out/$target" > /dev/null 2> "$out/err"; then
        echo "FAIL $what: exit 0"; fail=1
    elif ! grep -q "error" "$out/err"; then
        echo "FAIL $what: no error message"; fail=1
    fi
    if [ -n "$(leftovers "$target")" ]; then
        echo "FAIL $what: temporary directory left behind"; fail=1
    fi
}
for to in ctf uftrace; do
    input=$src; [ $to = uftrace ] && input=$ufs
    # damaged input: a truncated copy
    mkdir -p "$out/bad-$to"
    cp -r "$input"/. "$out/bad-$to/"
    for f in "$out/bad-$to"/*; do
        case "$f" in *metadata|*info|*.txt|*.map|*.sym|*.opts) ;; *) truncate -s 100 "$f" ;; esac
    done
    expect_fail "$to: damaged input" "dmg-$to" --to $to "$out/bad-$to"
    [ -e "$out/dmg-$to" ] && { echo "FAIL $to: damaged input left an output directory"; fail=1; }
    # an existing target is not overwritten
    mkdir "$out/exists-$to"; touch "$out/exists-$to/keep"
    expect_fail "$to: existing target" "exists-$to" --to $to "$input"
    [ -e "$out/exists-$to/keep" ] || { echo "FAIL $to: existing target was touched"; fail=1; }
    # a target in a directory that cannot be written
    mkdir "$out/ro-$to"; chmod a-w "$out/ro-$to"
    if [ "$(id -u)" != 0 ]; then
        expect_fail "$to: unwritable parent" "ro-$to/x" --to $to "$input"
    fi
    # and a good conversion leaves exactly the target
    "$TG" convert --to $to -o "$out/good-$to" "$input" || { echo "FAIL $to: good conversion failed"; fail=1; }
    [ -z "$(leftovers "good-$to")" ] || { echo "FAIL $to: temporary directory left after success"; fail=1; }
done
"$TG" convert --to ctf "$src" > /dev/null 2>&1 && { echo "FAIL: --to ctf without -o accepted"; fail=1; }
[ $fail = 0 ] && echo "ok: failures leave nothing behind"
exit $fail
