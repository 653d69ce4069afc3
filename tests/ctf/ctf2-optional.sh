#!/bin/bash
# ctf2-optional.sh - CTF 2 optional fields (CTF2-SPEC-2.0), hand-made by make-ctf2-optional.py:
# a boolean selector and an integer selector with ranges, present and absent, followed by a
# field that shows decoding resumes at the right byte.  babeltrace2 2.0.4 reads no CTF 2
# ("Missing /* CTF major.minor signature ... Invalid metadata version"), so the expectation
# is the generator's own reading of the bytes it wrote, in the native text form; the
# babeltrace style and stats/info must also read the trace without error.  Also: a record
# class that takes no bits ends the stream with an error (a fuzzer finding).
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$TG_TMP
python3 "$here/make-ctf2-optional.py" "$work" || exit 1
t=$work/ctf2-optional
fail=0
if "$TG" cat "$t" > "$work/got" 2> "$work/err" &&
    cut -d' ' -f2- "$work/got" | cmp -s - "$work/ctf2-optional.expected"; then
    echo "ok   native cat: $(wc -l < "$work/got") events as the bytes say"
else
    echo "FAIL native cat"; cut -d' ' -f2- "$work/got" | diff "$work/ctf2-optional.expected" - | head -6
    head -3 "$work/err"; fail=1
fi
for cmd in "cat --style=babeltrace" stats info; do
    if $TG $cmd "$t" > "$work/out" 2> "$work/err" && [ -s "$work/out" ] && [ ! -s "$work/err" ]; then
        echo "ok   $cmd"
    else
        echo "FAIL $cmd"; head -3 "$work/err"; fail=1
    fi
done
# an event record class that takes no bits (no header, an empty payload: what the fuzzer
# made of this metadata) must end the stream with an error, not print events forever
z=$work/zero
mkdir -p "$z"
printf '\036{"type": "preamble", "version": 2}\n\036{"type": "trace-class"}\n\036{"type": "data-stream-class"}\n\036{"type": "event-record-class", "name": "e", "payload-field-class": {"type": "structure"}}\n' > "$z/metadata"
head -c 16 /dev/zero > "$z/stream"
timeout 20 "$TG" cat "$z" > "$work/out" 2> "$work/err"
rc=$?
if [ $rc = 1 ] && grep -q "takes no bits" "$work/err"; then
    echo "ok   a record of no bits: $(cat "$work/err")"
else
    echo "FAIL a record of no bits: exit $rc, $(wc -l < "$work/out") lines"; head -2 "$work/err"; fail=1
fi
exit $fail
