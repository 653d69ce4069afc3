#!/usr/bin/env python3
"""fgraph_nesting.py SLICES_CSV CHROME_JSON FOLDED - checks that the calls of a function_graph
trace.dat nest, and that the viewers' outputs draw the calls SQL's slice table holds.

  SLICES_CSV   `traceglot sql --format csv FILE -q "select s.id, s.ts, s.dur, s.depth,
               s.parent_id, s.name, s.self_dur, s.track_id, t.tid from slice s join
               thread_track using ... "` (columns id,ts,dur,depth,parent_id,name,self_dur,
               track_id,tid)
  CHROME_JSON  `traceglot convert --to chrome FILE`
  FOLDED       `traceglot convert --to folded FILE`

Checks, each over every call:
  - no two slices of one track at one depth overlap (the calls a recording begun inside
    once sat at depth 0 beside the calls inside them);
  - a slice at depth d > 0 has a parent at depth d - 1 on its track that holds it, and a
    slice at depth 0 has none;
  - Chrome's "B"/"E" pairs (paired per thread in time order, as a viewer sorts them) are
    the slices: name, begin and end, to the printed nanosecond;
  - the folded stacks' self times summed per thread and leaf function are SQL's self_dur
    summed the same way.
Prints what it compared; exit 1 with the first differences otherwise."""
import collections
import csv
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        rows = list(csv.DictReader(f))
    fails = []
    by_id = {r['id']: r for r in rows}
    level = collections.defaultdict(list)
    for r in rows:
        ts, dur = int(r['ts']), int(r['dur'])
        if dur < 0:
            continue
        level[(r['track_id'], r['depth'])].append((ts, ts + dur, r['name'], r['id']))
        depth, parent = int(r['depth']), r['parent_id']
        if depth == 0 and parent:
            fails.append('slice %s %s at depth 0 has parent %s' % (r['id'], r['name'], parent))
        if depth > 0:
            p = by_id.get(parent)
            if not p:
                fails.append('slice %s %s at depth %d: no parent row (%r)'
                             % (r['id'], r['name'], depth, parent))
            elif (int(p['depth']) != depth - 1 or p['track_id'] != r['track_id'] or
                  int(p['ts']) > ts or (int(p['dur']) >= 0 and
                                        int(p['ts']) + int(p['dur']) < ts + dur)):
                fails.append('slice %s %s [%d, %d] depth %d not inside its parent %s %s '
                             '[%s +%s] depth %s' % (r['id'], r['name'], ts, ts + dur, depth,
                                                    p['id'], p['name'], p['ts'], p['dur'],
                                                    p['depth']))
    overlaps = 0
    for key, spans in level.items():
        spans.sort()
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                overlaps += 1
                if overlaps <= 3:
                    fails.append('track %s depth %s: %s %s [%d, %d] overlaps %s %s [%d, %d]'
                                 % (key + a[3:1:-1] + a[:2] + b[3:1:-1] + b[:2]))

    # Chrome: pair B and E per thread, sorted by time as the viewers sort them (stable: at
    # one time, the order written)
    with open(sys.argv[2]) as f:
        events = json.load(f)['traceEvents']
    per_tid = collections.defaultdict(list)
    for i, e in enumerate(events):
        if e.get('ph') in ('B', 'E'):
            ns = int(round(float(e['ts']) * 1000))
            per_tid[e['tid']].append((ns, i, e['ph'], e['name']))
    chrome = []
    for tid, evs in per_tid.items():
        stack = []
        for ns, _, ph, name in sorted(evs):
            if ph == 'B':
                stack.append((name, ns))
            elif stack:
                bname, begin = stack.pop()
                chrome.append((str(tid), bname, begin, ns))
            else:
                fails.append('chrome: tid %s: "E" of %s at %d with no "B" open' % (tid, name, ns))
    sql = [(r['tid'], r['name'], int(r['ts']), int(r['ts']) + int(r['dur']))
           for r in rows if int(r['dur']) >= 0]
    want, got = collections.Counter(sql), collections.Counter(chrome)
    if want != got:
        fails.append('chrome: sql only %s; chrome only %s'
                     % (sorted((want - got).items())[:3], sorted((got - want).items())[:3]))

    folded = collections.Counter()
    for line in open(sys.argv[3]):
        path, _, value = line.rstrip('\n').rpartition(' ')
        frames = path.split(';')
        folded[(frames[0].replace('thread-', ''), frames[-1])] += int(value)
    selfs = collections.Counter()
    for r in rows:
        if int(r['dur']) >= 0:
            selfs[(r['tid'], r['name'])] += int(r['self_dur'])
    selfs = +selfs
    if selfs != +folded:
        fails.append('folded self: sql only %s; folded only %s'
                     % (sorted((selfs - folded).items())[:3], sorted((folded - selfs).items())[:3]))
    if fails:
        print('; '.join(fails[:6]))
        return 1
    print('%d slices nest (%d below depth 0), chrome and folded agree'
          % (len(rows), sum(1 for r in rows if int(r['depth']) > 0)))
    return 0


sys.exit(main())
