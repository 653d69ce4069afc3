#!/bin/bash
# damaged.sh - damaged LTTng 0.x traces: a clear error naming the tracefile and the offset,
# the events before the damage (and the other tracefiles) still printed, exit status 1, no
# crash or hang.  Cases: a truncated tracefile, a block whose sizes do not add up, a marker
# format that does not parse, an event id without a marker, a first block without the magic.
# Copies of the hand-made fixtures, and of the corpus trace when it is there.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
D=${TG_TEST_DATA:?}/lttng0
[ -d "$D/flight" ] || { echo "SKIP: fixtures missing in $D"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to damage the copies"; exit 77; }
tmp=$TG_TMP
fail=0

fresh() { rm -rf "$tmp/t"; cp -r "$1" "$tmp/t"; chmod -R u+w "$tmp/t"; echo "$tmp/t"; }
poke() { python3 -c "import sys
f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2], 0)); f.write(bytes.fromhex(sys.argv[3]))" "$@"; }
# expect NAME PATTERN MIN_LINES -- CMD...
expect() {
    local name=$1 pattern=$2 min=$3
    shift 4
    timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines=$(wc -l <"$tmp/out")
    if grep -q "Sanitizer\|runtime error" "$tmp/err"; then
        echo "FAIL $name: sanitizer report:"; head -20 "$tmp/err"; fail=$((fail + 1))
    elif [ "$rc" != 1 ]; then
        echo "FAIL $name: exit status $rc (expected 1)"; head -5 "$tmp/err"; fail=$((fail + 1))
    elif ! grep -q -- "$pattern" "$tmp/err"; then
        echo "FAIL $name: no '$pattern' in the error:"; head -5 "$tmp/err"; fail=$((fail + 1))
    elif [ "$lines" -lt "$min" ]; then
        echo "FAIL $name: only $lines lines before the damage (expected >= $min)"; fail=$((fail + 1))
    else
        echo "ok   $name: $(head -1 "$tmp/err")"
    fi
}

# flight: kernel_0 holds 4 blocks of 256 bytes, 5 events of 8 bytes each (id 0, "n %u")
t=$(fresh "$D/flight"); truncate -s 600 "$t/kernel_0"
expect "truncated tracefile" "kernel_0: offset 0x200: block 2: block of 256 bytes runs past the end" 12 -- "$TG" cat --style=lttv "$t"
t=$(fresh "$D/flight"); poke "$t/kernel_0" 0x134 00020000  # block 1: lost_size 512 > block size
expect "block sizes do not add up" "kernel_0: offset 0x134: block 1: lost size 512 leaves no room" 17 -- "$TG" cat "$t"
t=$(fresh "$D/flight"); poke "$t/kernel_0" 0x147 28       # block 1, 1st event: id 5
expect "event id without a marker" "kernel_0: offset 0x144: .*event id 5 has no marker" 7 -- "$TG" cat "$t"
t=$(fresh "$D/flight"); poke "$t/metadata_0" 0x10 00000000
expect "no magic in metadata" "metadata_0: offset 0x0: no LTTng magic" 0 -- "$TG" stats "$t"
t=$(fresh "$D/flight"); poke "$t/kernel_0" 0x110 00000000  # block 1 (file order) loses its magic
expect "block without magic" "kernel_0: offset 0x100: block 1: no LTTng magic" 17 -- "$TG" cat "$t"
t=$(fresh "$D/smp8"); off=$(grep -abo 'a #8u%llu b #4d%d' "$t/metadata_1" | head -1 | cut -d: -f1)
poke "$t/metadata_1" $((off + 3)) 25            # "a #%%u..." : no size, no letter
expect "marker format that does not parse" "metadata_1: offset 0x.*marker kernel.wide: format .* does not parse" 20 -- "$TG" cat --style=lttv "$t"

C=${TG_CORPUS:-}/lttng0/trace-15316events-2.5
if [ -d "$C" ]; then
    t=$(fresh "$C"); truncate -s 10000 "$t/kernel_0"
    expect "corpus: truncated kernel_0" "kernel_0: offset 0x0: block 0: block of 24576 bytes runs past the end" 14000 -- "$TG" cat --style=lttv "$t"
    t=$(fresh "$C"); off=$(grep -abo 'pid %d start %lu end' "$t/metadata_0" | head -1 | cut -d: -f1)
    poke "$t/metadata_0" $((off + 5)) 71          # "pid %q ..."
    expect "corpus: vm_map format does not parse" "marker vm_state.vm_map: format" 5000 -- "$TG" cat --style=lttv "$t"
    t=$(fresh "$C"); poke "$t/fs_0" 0x34 ffff0000   # data size > block size
    expect "corpus: fs_0 sizes" "fs_0: offset 0x34: block 0: data size 65535 is outside" 14000 -- "$TG" cat "$t"
else
    echo "(corpus cases skipped: no $C)"
fi
[ $fail = 0 ] && echo "all damaged cases pass"
exit $((fail > 0))
