#!/bin/bash
# ctf2.sh - CTF 2 (JSON metadata) traces of the corpus.
#
# - Every twin in ctf/ctf2 (the data-stream bytes of a ctf/babeltrace/succeed trace with the
#   metadata rewritten as CTF 2) prints with --style=babeltrace exactly its twin's
#   babeltrace2 text (T.babeltrace2.txt, babeltrace2 2.0.4 on the CTF 1.8 twin).
# - CTF2-vl-ints (variable-length integers) prints the values an independent LEB128 decoder
#   (below, in Python, reading the stream bytes) finds.
# - The native cat, stats, info and convert work on every CTF 2 trace.
# SKIP when the corpus is absent.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
dir=$root/ctf/ctf2
[ -d "$dir" ] || { echo "SKIP: corpus ctf/ctf2 not found ($dir)"; exit 77; }
export TZ=UTC
out=$TG_TMP
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
for exp in "$dir"/*.babeltrace2.txt; do
    t=${exp%.babeltrace2.txt}
    [ -d "$t" ] || continue
    if timeout 60 "$TG" cat --style=babeltrace "$t" > "$out/got" 2> "$out/err" &&
        cmp -s "$out/got" "$exp"; then
        ok "${t##*/}"
    else
        bad "${t##*/}"; diff "$exp" "$out/got" | head -4 | cut -c1-300; head -3 "$out/err"
    fi
done

vl=$dir/CTF2-vl-ints
if [ -d "$vl" ] && command -v python3 >/dev/null; then
    # the payload's member names in metadata order, then LEB128 over the stream bytes
    python3 - "$vl" > "$out/vl.exp" <<'PY'
import json, sys
d = sys.argv[1]
frags = [f for f in open(d + "/metadata", encoding="utf-8").read().split("\x1e") if f.strip()]
ev = [json.loads(f) for f in frags if json.loads(f)["type"] == "event-record-class"][0]
data = open(d + "/stream", "rb").read()
pos, parts = 0, []
for m in ev["payload-field-class"]["member-classes"]:
    v = shift = 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    if "signed" in m["field-class"]["type"] and "unsigned" not in m["field-class"]["type"]:
        if b & 0x40:
            v -= 1 << shift
        v = (v + (1 << 63)) % (1 << 64) - (1 << 63)  # as a 64-bit value
    parts.append("%s = %d" % (m["name"], v))
print("%s: { %s }" % (ev["name"], ", ".join(parts)))
PY
    if timeout 60 "$TG" cat --style=babeltrace "$vl" > "$out/got" 2> "$out/err" &&
        cmp -s "$out/got" "$out/vl.exp"; then
        ok "CTF2-vl-ints values"
    else
        bad "CTF2-vl-ints values"; diff "$out/vl.exp" "$out/got" | head -4; head -3 "$out/err"
    fi
fi

for t in "$dir"/*/; do
    t=${t%/}
    [ -f "$t/metadata" ] || continue
    n=${t##*/}
    for cmd in cat stats info; do
        if timeout 60 "$TG" $cmd "$t" > "$out/got" 2> "$out/err" && [ -s "$out/got" ]; then
            ok "$n $cmd"
        else
            bad "$n $cmd"; head -3 "$out/err"
        fi
    done
    if timeout 60 "$TG" convert --to chrome --force -o "$out/c.json" "$t" 2> "$out/err" &&
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/c.json"; then
        ok "$n convert --to chrome"
    else
        bad "$n convert --to chrome"; head -3 "$out/err"
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
