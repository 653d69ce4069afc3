#!/bin/bash
# fgraph-callstack.sh - function_graph trace.dat files through the call-stack builder: the
# calls `traceglot convert --to chrome` draws are the calls trace-cmd reports.
#
# For each hand-built function_graph fixture (tests/ftrace/build-func-fixtures.py), the
# real trace-cmd's `report -O fgraph:tailprint` output committed beside it names every call
# with its duration: a leaf line "func();" or a closing "} /* func */".  The test reads those
# (name, duration) pairs and the Chrome JSON's B/E slices (each slice's E time minus its B
# time, per thread), and compares the two as multisets: same calls, same durations (to the
# nanosecond; trace-cmd prints whole microseconds once a duration has 7 digits, so those
# compare in whole microseconds).  Calls whose entry is before the trace's start (a "}"
# with no block open in its task) cannot be drawn and are not counted; calls whose exit is
# missing have no duration in trace-cmd's output.  A function without a symbol is its
# address in hex in both (the JSON writes 0x before it).  `replay`, `report` and `--to folded` must
# also run and print the fixture's functions.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
data=${TG_TEST_DATA:?}/ftrace
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
tmp=$TG_TMP
fail=0
n=0
for want in "$data"/fgraph-*.report-Ofgraph:tailprint.txt; do
    [ -f "$want" ] || continue
    base=${want%.report-Ofgraph:tailprint.txt}
    for dat in "$base"-v6.dat "$base"-v7.dat "$base"-v7zstd.dat; do
        [ -f "$dat" ] || continue
        name=$(basename "$dat")
        n=$((n + 1))
        if ! timeout 60 "$TG" convert --to chrome --force -o "$tmp/c.json" "$dat" 2> "$tmp/err"; then
            echo "FAIL $name: convert --to chrome: $(head -c 300 "$tmp/err")"
            fail=$((fail + 1))
            continue
        fi
        if ! python3 - "$want" "$tmp/c.json" > "$tmp/cmp" 2>&1 <<'PY'
import collections, json, re, sys

def ns(text):
    """trace-cmd's duration column -> (ns, exact)"""
    num = re.search(r'(\d+)(?:\.(\d{3}))? us', text)
    if num.group(2) is None:
        return int(num.group(1)) * 1000, False
    return int(num.group(1)) * 1000 + int(num.group(2)), True

want = []
opened = collections.defaultdict(int)  # per task: blocks "func() {" still open
for line in open(sys.argv[1]):
    task = re.match(r'\s*(\S+)\s+\[', line)
    task = task.group(1) if task else ''
    if re.search(r'funcgraph_entry:\s+\|\s*\S+\(\) \{', line):
        opened[task] += 1
        continue
    m = re.search(r'funcgraph_(entry|exit):\s+([+!#*@$ ]\s*)?(\d+(?:\.\d+)? us)\s+\|\s*(.*)$', line)
    if not m:
        continue
    body = m.group(4).strip()
    leaf = re.match(r'([^\s(]+)\(\);', body)
    close = re.match(r'\} /\* (\S+) \*/', body)
    fn = leaf.group(1) if leaf else close.group(1) if close else None
    if fn is None:
        continue
    if close:
        if opened[task] == 0:
            continue  # its entry is before the trace: a call no viewer can draw
        opened[task] -= 1
    want.append((fn, ns(m.group(3))))

events = json.load(open(sys.argv[2]))
if isinstance(events, dict):
    events = events.get('traceEvents', [])
stacks = collections.defaultdict(list)
got = []
for e in events:
    if e.get('ph') == 'B':
        stacks[e.get('tid')].append(e)
    elif e.get('ph') == 'E' and stacks[e.get('tid')]:
        b = stacks[e.get('tid')].pop()
        got.append((b['name'], round((e['ts'] - b['ts']) * 1000)))
    elif e.get('ph') == 'X':
        got.append((e['name'], round(e['dur'] * 1000)))
# a function without a symbol: trace-cmd prints its address in hex, the JSON with 0x
got = [(n[2:] if re.fullmatch(r'0x[0-9a-f]+', n) else n, d) for n, d in got]

def key(call, exact):
    name, d = call
    return (name, d if exact else d // 1000 * 1000)

exact_want = collections.Counter((f, d) for f, (d, ex) in want if ex)
rough_want = collections.Counter((f, d) for f, (d, ex) in want if not ex)
got_exact = collections.Counter(got)
missing = []
for c, k in exact_want.items():
    if got_exact[c] < k:
        missing.append((c, k - got_exact[c]))
    got_exact[c] -= min(k, got_exact[c])
rough_got = collections.Counter(key(c, False) for c, k in got_exact.items() for _ in range(k))
for c, k in rough_want.items():
    if rough_got[c] < k:
        missing.append((c, k - rough_got[c]))
print('%d calls reported by trace-cmd, %d slices in the Chrome JSON' % (len(want), len(got)))
if missing:
    print('calls of trace-cmd without a slice of that duration:', missing[:10])
    sys.exit(1)
PY
        then
            echo "FAIL $name: $(tail -2 "$tmp/cmp")"
            fail=$((fail + 1))
        else
            echo "ok   $name: $(tail -1 "$tmp/cmp")"
        fi
    done
    # the other consumers of the builder run and name the functions
    dat="$base"-v6.dat
    first=$(grep -o -m1 '[a-z_][a-z_0-9]*();' "$want" | tr -d '();')
    for cmd in "replay" "report" "convert --to folded"; do
        if ! timeout 60 "$TG" $cmd "$dat" > "$tmp/out" 2> "$tmp/err" ||
            ! grep -q -- "$first" "$tmp/out"; then
            echo "FAIL $(basename "$dat"): $cmd does not show $first: $(head -c 300 "$tmp/err")"
            fail=$((fail + 1))
        fi
    done
done
[ "$n" -gt 0 ] || { echo "SKIP: no function_graph fixtures in $data"; exit 77; }
[ "$fail" = 0 ] || { echo "$fail failure(s)"; exit 1; }
echo "all $n function_graph fixtures: Chrome slices = trace-cmd's calls"
