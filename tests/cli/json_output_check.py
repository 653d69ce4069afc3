"""json_output_check.py - does a command's --format json document carry the numbers its text
prints? One reader per command (stats, info, stats-diff, report, report-diff, graph), each
parsing the text table as the peer or traceglot prints it and the JSON with json.load (which
fails on trailing data: one document per run).

Usage: json_output_check.py KIND TEXT JSON; exit 0 when they agree, else the first difference.
"""
import json
import re
import sys
from decimal import Decimal


def check(cond, what):
    if not cond:
        sys.exit(what)


def ns(seconds):
    """The text's seconds as integer nanoseconds."""
    return int(Decimal(seconds) * 1000000000)


def time_units(ns):
    """uftrace's split of a time into (whole, thousandths, unit)."""
    limit, units = [1000, 1000, 1000, 60, 24, 0x7fffffff], ["us", "ms", " s", " m", " h"]
    d, idx, small = ns, 0, 0
    while idx < 5:
        small, d = d % limit[idx], d // limit[idx]
        if d < limit[idx + 1]:
            break
        idx += 1
    return d, small, units[min(idx, 4)]


def uftrace_time(ns, blank=" " * 10):
    """uftrace's "  1.234 ms" (10 columns); zero prints as blank."""
    if ns == 0:
        return blank
    d, small, unit = time_units(ns)
    if d > 999:
        d = small = 999
    return "%3d.%03d %s" % (d, small, unit)


def uftrace_diff_time(a, b):
    """uftrace report --diff's change of a time, its sign as uftrace prints it: "-" when the
    time grew (see report_diff.c)."""
    if a == b:
        return "%11s" % "0 us"
    d, small, unit = time_units(abs(b - a))
    indent = 0 if d >= 100 else 1 if d >= 10 else 2
    return " " * indent + ("-" if b > a else "+") + "%d.%03d %s" % (d, small, unit)


def check_stats(text, doc):
    rows = doc["events"]
    body = text[1:-1]
    check(len(rows) == len(body), f"{len(rows)} rows, text has {len(body)}")
    for row, line in zip(rows, body):
        m = re.match(r"^(.*\S)\s+(\d+) +(\S+) +(\S+) +(\S+)$", line)
        check(m, f"cannot read text row {line!r}")
        name, count, first, last, rate = m.groups()
        check(row["event"] == name, f"{row['event']!r} != {name!r}")
        check(type(row["count"]) is int and row["count"] == int(count), f"{name}: count")
        check(row["first_ns"] == ns(first) and row["last_ns"] == ns(last), f"{name}: times")
        if rate == "-":
            check(row["rate_per_s"] is None, f"{name}: rate should be null")
        else:
            check(isinstance(row["rate_per_s"], float) and f"{row['rate_per_s']:.1f}" == rate,
                  f"{name}: rate {row['rate_per_s']} != {rate}")
    m = re.match(r"^total: (\d+) events, (\d+) lost$", text[-1])
    check(m and doc["total"] == {"events": int(m[1]), "lost": int(m[2])}, "total")


def check_info(text, doc):
    blocks, cur = [], None
    for line in text:
        if line.startswith("trace:        "):
            cur = {"path": line[14:], "classes": []}
            blocks.append(cur)
        elif cur is not None and line.startswith("format:       "):
            cur["format"] = line[14:]
        elif cur is not None and line.startswith("streams:      "):
            cur["streams"] = int(line[14:])
        elif cur is not None and line.startswith("events:       "):
            cur["events"] = int(line[14:].split()[0])
        elif cur is not None and "events" in cur and "done" not in cur and re.match(r"^ +\d+  ", line):
            n, name = line.strip().split("  ", 1)
            cur["classes"].append({"name": name.strip(), "count": int(n)})
        elif cur is not None and "events" in cur:
            cur["done"] = True
    traces = doc["traces"]
    check(len(traces) == len(blocks), f"{len(traces)} traces, text has {len(blocks)}")
    for t, b in zip(traces, blocks):
        check(t["path"] == b["path"], f"path {t['path']}")
        check(f"{t['format']} {t['version']}" == b["format"], f"format {t['format']}")
        check(len(t["streams"]) == b["streams"], f"{b['path']}: streams")
        check(t["events"] == b["events"], f"{b['path']}: events {t['events']} != {b['events']}")
        check(t["classes"] == b["classes"], f"{b['path']}: classes differ")


def check_stats_diff(text, doc):
    runs = [l.split(": ")[-1] for l in text[:2]]        # "15 events, 0 lost, 0.000012094 s"
    for key, line in zip(("other", "path"), runs):
        ev, lost = int(line.split()[0]), int(line.split()[2])
        check((doc[key]["events"], doc[key]["lost"]) == (ev, lost), f"{key}: {doc[key]} {line}")
    rows = [l.rsplit(None, 6) for l in text[3:]]
    check(len(rows) == len(doc["events"]), f"{len(rows)} text rows, {len(doc['events'])} in JSON")
    num = lambda s: None if s == "-" else int(s)
    for (name, o, p, ch, pc, orate, prate), r in zip(rows, doc["events"]):
        check(r["event"] == name.strip() and r["other"] == num(o) and r["path"] == num(p), r)
        check(r["change"] == int(ch), r)
        if pc in ("new", "gone"):
            check(r["status"] == pc, r)
        elif pc != "-":
            check("%+.1f%%" % r["percent"] == pc, (r, pc))
        for rate, key in ((orate, "other_rate_per_s"), (prate, "path_rate_per_s")):
            check((rate == "-" and r[key] is None) or "%.1f" % r[key] == rate, (r, rate))


REPORT_KEYS = {"Total time": "total_ns", "Total avg": "total_avg_ns", "Total min": "total_min_ns",
               "Total max": "total_max_ns", "Self time": "self_ns", "Self avg": "self_avg_ns",
               "Self min": "self_min_ns", "Self max": "self_max_ns", "Calls": "calls",
               "Size": "size"}
COUNTS = ("calls", "size")


def header_columns(line):
    names = [h.strip() for h in re.split(r"\s{2,}", line) if h.strip()]
    return [REPORT_KEYS[h.replace(" (diff)", "")] for h in names if h != "Function"]


def check_report(text, doc):
    cols = header_columns(text[0])
    rows = doc["functions"]
    check(len(rows) == len(text) - 2, f"{len(rows)} rows, text has {len(text) - 2}")
    for r, line in zip(rows, text[2:]):
        check(sorted(r) == sorted(cols + ["function"]), (sorted(r), cols))
        cells = "".join("  " + ("%10d" % r[c] if c in COUNTS else uftrace_time(r[c])) for c in cols)
        want = cells + "  " + r["function"]
        check(want == line, (want, line))


def check_report_diff(text, doc):
    """The text of `report --diff --diff-policy full[,percent]` (uftrace's own table): both
    runs' values and the change of each row as uftrace prints them."""
    runs = [l for l in text if re.match(r"^#  \[\d\] (base|diff): ", l)]
    check(len(runs) == 2, f"runs: {runs}")
    for line, key in zip(runs, ("base", "diff")):
        paths, frm = line.split(": ", 1)[1].split("\t(from ")
        check(doc[key]["paths"] == paths.split(","), (key, doc[key], paths))
        check(doc[key]["from"] == frm[:-1], (key, doc[key], frm))
    head = next(i for i, l in enumerate(text) if l.rstrip().endswith("Function"))
    cols = header_columns(text[head])
    rows, body = doc["functions"], text[head + 2:]
    check(len(rows) == len(body), f"{len(rows)} rows, text has {len(body)}")
    for r, line in zip(rows, body):
        want = ""
        for c in cols:
            a, b = r["base"][c], r["diff"][c]
            check(r["change"][c] == b - a, (r["function"], c, r["change"]))
            pct = r.get("change_percent", {}).get(c)
            if "change_percent" in r:
                check((pct is None) == (a == 0 or b == 0), (r["function"], c, pct))
            if c in COUNTS:
                want += "    %9d  %9d  " % (a, b) + ("%+9d" % (b - a) if b != a else "%9s" % "+0")
                continue
            want += "   " + uftrace_time(a, "%10s" % "-") + "  " + uftrace_time(b, "%10s" % "-") + "  "
            if "change_percent" not in r:
                want += uftrace_diff_time(a, b)
            elif pct is None:
                want += "%7s " % "N/A"
            else:
                want += "%+7.2f%%" % max(-999.99, min(999.99, pct))
        check(line == want + "   " + r["function"], (want + "   " + r["function"], line))


def check_graph(text, doc):
    m = re.match(r"^# Function Call Graph for '(.*)' \(session: (\w+)\)$", text[0])
    check(m and (doc["function"], doc["session"]) == m.groups(), (text[0], doc["function"]))
    bts = [l for l in text if l.startswith(" backtrace #")]
    check(len(bts) == len(doc["backtraces"]), (bts, doc["backtraces"]))
    for line, b in zip(bts, doc["backtraces"]):
        check(line.endswith("hit %d, time %s" % (b["hit"], uftrace_time(b["time_ns"]))), (line, b))
    nodes = [l for l in text if re.match(r"^ .* : [ |+-]*\(\d+\) ", l)]
    flat = []

    def walk(n):
        flat.append(n)
        for c in n["children"]:
            walk(c)

    walk(doc["graph"])
    check(len(flat) == len(nodes), (len(flat), len(nodes)))
    for n, line in zip(flat, nodes):
        want = "  %s  %s  %12x : " % (uftrace_time(n["total_ns"]), uftrace_time(n["self_ns"]),
                                      n["address"])
        check(line.startswith(want), (want, line))
        m = re.search(r"\((\d+)\) (.*)$", line)
        check((int(m[1]), m[2]) == (n["calls"], n["function"]), (line, n))


def xray_line(r, sign=""):
    """llvm-xray account's row: "%9d %10llu [%9.6f, ...] %9.6f  " (a change: signed)."""
    f = "%" + sign + "9.6f"
    nums = [r[k] for k in ("min_s", "median_s", "p90_s", "p99_s", "max_s")]
    return ("[" + ", ".join(f % v for v in nums) + "] " + f % r["sum_s"] + "  ")


def check_xray_account(text, doc):
    check(text[0].startswith("Functions with latencies: "), text[0])
    body = text[2:]
    check(len(body) == len(doc["functions"]), f"{len(doc['functions'])} rows, text {len(body)}")
    for r, line in zip(doc["functions"], body):
        want = "%9d %10d " % (r["funcid"], r["count"]) + xray_line(r)
        check(line == want + r["location"] + ": " + r["function"], (want, line))


def check_xray_diff(text, doc):
    body = text[2:]
    rows = doc["functions"]
    check(len(body) == 2 * len(rows), f"{len(rows)} functions, text has {len(body)} lines")
    for i, f in enumerate(rows):
        line, change = body[2 * i], body[2 * i + 1]
        shown = f["path"] or f["other"]
        want = "%9d %10d " % (shown["funcid"], shown["count"]) + xray_line(shown)
        check(line == want + shown["location"] + ": " + shown["function"], (want, line))
        what = "(change)" if f["path"] and f["other"] else \
            "(only in PATH)" if f["path"] else "(only in OTHER)"
        c = f["change"]
        want = "%9s %+10d " % ("", c["count"]) + xray_line(c, "+") + what
        check(change == want, (want, change))
        for k in ("count", "min_s", "median_s", "p90_s", "p99_s", "max_s", "sum_s"):
            p = f["path"][k] if f["path"] else 0
            o = f["other"][k] if f["other"] else 0
            check(c[k] == p - o, (f["function"], k, c[k], p, o))


def check_perf_report(text, doc):
    """perf report --stdio -g none's sections: each entry's percentages from its periods and
    its keys as the text shows them (spaces between columns aside)."""
    m = re.search(r"^# Total Lost Samples: (\d+)$", "\n".join(text), re.M)
    check(m and int(m[1]) == doc["lost_samples"], "lost samples")
    heads = [i for i, l in enumerate(text) if l.startswith("# Samples: ")]
    check(len(heads) == len(doc["events"]), f"{len(heads)} sections, {len(doc['events'])} events")
    for i, e in zip(heads, doc["events"]):
        m = re.match(r"^# Samples: (\d+)(.) of event '(.*)'$", text[i])
        check(m and m[3] == e["event"], (text[i], e["event"]))
        n = e["samples"]
        for unit in "KMG":
            if n <= 1000:
                break
            n //= 1000
        check(int(m[1]) == n, (text[i], e["samples"]))
        check(text[i + 1] == "# Event count (approx.): %d" % e["event_count"], text[i + 1])
        body = []
        for line in text[i + 6:]:
            if not line.strip():
                break
            body.append(line)
        check(len(body) == len(e["entries"]), f"{e['event']}: {len(body)} lines, {len(e['entries'])}")
        for line, x in zip(body, e["entries"]):
            want = ""
            if "children_period" in x:
                want += "  %7.2f%%" % x["children_percent"]
            want += "  %7.2f%%" % x["self_percent"]
            total = e["event_count"]
            check(abs(x["self_percent"] - (100.0 * x["self_period"] / total if total else 0)) < 1e-9, x)
            keys = []
            if "command" in x:
                keys.append(x["command"])
            if "pid" in x:
                keys.append("%d:%s" % (x["pid"], x["pid_command"]))
            if "shared_object" in x:
                keys.append(x["shared_object"] or "[unknown]")
            if "symbol" in x:
                keys.append("[%s] %s" % (x["level"], x["symbol"] if x["symbol"] is not None
                                         else "0x%016x" % x["address"] if x["address"]
                                         else "0" * 16))
            check(line.startswith(want), (want, line))
            check(" ".join(line[len(want):].split()) == " ".join(" ".join(keys).split()),
                  (keys, line))


KINDS = {"stats": check_stats, "info": check_info, "stats-diff": check_stats_diff,
         "report": check_report, "report-diff": check_report_diff, "graph": check_graph,
         "xray-account": check_xray_account, "xray-diff": check_xray_diff,
         "perf-report": check_perf_report}

if __name__ == "__main__":
    kind, text_path, json_path = sys.argv[1:]
    KINDS[kind](open(text_path).read().splitlines(), json.load(open(json_path)))
