#!/usr/bin/python3
"""count-events.py trace-cmd|babeltrace2 FILE - per event name, how many events a peer tool's
output holds, as CSV "name,n" sorted by name's bytes: what `traceglot sql --format csv -q
"SELECT name, count(*) AS n FROM ftrace_event GROUP BY name ORDER BY name"` prints.
  trace-cmd:   `trace-cmd report` text, one line per event ("comm-pid [cpu] ts: name: ..."),
               a lost-events line ("CPU:N [LOST n EVENTS]") counted as "lost"
  babeltrace2: `babeltrace2 -c sink.text.details --params=with-metadata=false,compact=true`,
               one "Event `name` (id)" line per event, a "Discarded events" line counted as
               "lost events" """
import re
import sys
from collections import Counter

TRACE_CMD = re.compile(r"^.*-\d+\s+\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:\s+([^\s:]+):")
TRACE_CMD_LOST = re.compile(r"^CPU:\d+ \[(?:\d+ )?EVENTS DROPPED\]|^CPU:\d+ \[LOST \d+ EVENTS\]")
DETAILS = re.compile(r"^(?:\[[^\]]*\] )*\{[^}]*\} Event `(.*)` \(")
DETAILS_LOST = re.compile(r"^(?:\[[^\]]*\] )*\{[^}]*\} Discarded events")


def csv_field(s):
    return '"%s"' % s.replace('"', '""') if (not s or re.search(r'[\x00- ",\x7f-\U0010ffff]', s)) else s


def main():
    tool, path = sys.argv[1], sys.argv[2]
    counts = Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if tool == "trace-cmd":
                m = TRACE_CMD.match(line)
                if m:
                    counts[m.group(1)] += 1
                elif TRACE_CMD_LOST.match(line):
                    counts["lost"] += 1
            else:
                m = DETAILS.match(line)
                if m:
                    counts[m.group(1)] += 1
                elif DETAILS_LOST.match(line):
                    counts["lost events"] += 1
    print("name,n")
    for name in sorted(counts, key=lambda s: s.encode()):
        print("%s,%d" % (csv_field(name), counts[name]))


main()
