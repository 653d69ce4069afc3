/* cli_options.c - the table of every command-line option and of the subcommands.
 *
 * Options are declared once here, with the subcommands that take them; the parser stores
 * each under its long name in the library's option bag, so a printer or format reads
 * "raw", "instr-map", ... directly.  To add an option: add a row. */
#include "cli.h"

const struct cli_option cli_options[] = {
    {"help", 'h', NULL, CMD_ALL, "show this help"},
    {"begin", 0, "T", CMD_FILTERING, "start at time T (seconds, or +1.5ms from the first event)"},
    {"end", 0, "T", CMD_FILTERING, "stop after time T (seconds, or +20us from the first event)"},
    {"events", 'e', "GLOBS", CMD_FILTERING, "only events whose name matches a glob (a,b*,sys:c)"},
    {"tid", 0, "N[,N]", CMD_FILTERING, "only these thread ids"},
    {"cpu", 0, "N[,N]", CMD_FILTERING, "only these cpus"},
    {"clock-align", 0, "MODE", CMD_ALL,
     "several traces on one timeline: auto (default), none (own times), realtime (wall clock)"},
    {"clock-offset", 0, "PATH=+T", CMD_ALL,
     "add T (+1.5ms, -20us, +3s) to the times of the traces from PATH on the timeline", 1},
    {"instr-map", 0, "BINARY", CMD_ALL, "XRay: the instrumented binary (xray_instr_map)"},
    {"style", 0, "NAME", CMD_CAT | CMD_REPORT,
     "cat: native, trace-cmd, babeltrace, xray-yaml, lttv; report: uftrace, xray"},
    {"raw", 'R', NULL, CMD_CAT, "trace-cmd style: raw fields (trace-cmd report -R)"},
    {"ns", 't', NULL, CMD_CAT, "trace-cmd style: nanosecond timestamps (trace-cmd report -t)"},
    {"plugin-option", 'O', "PLUGIN:OPT[=V]", CMD_CAT,
     "trace-cmd style: a plugin option as trace-cmd report -O (ftrace:parent=1); repeatable", 1},
    {"clock-seconds", 0, NULL, CMD_CAT, "babeltrace style: timestamps in seconds"},
    {"path-prefix", 0, "P", CMD_CAT, "lttv style: the trace path printed before each tracefile"},
    {"debug-info-dir", 0, "DIR", CMD_ALL,
     "LTTng-UST function traces: debug files by build id under DIR/.build-id, by debug link "
     "under DIR (default /usr/lib/debug)"},
    {"debug-info", 0, NULL, CMD_CAT,
     "babeltrace style: LTTng-UST events with ip and vpid contexts get debug_info { bin, func, "
     "src } (babeltrace2 --debug-info)"},
    {"debug-info-target-prefix", 0, "DIR", CMD_CAT,
     "babeltrace style, --debug-info: look for the traced binaries under DIR"},
    {"debug-info-full-path", 0, NULL, CMD_CAT,
     "babeltrace style, --debug-info: full paths of binaries and sources"},
    {"to", 0, "FORMAT", CMD_CONVERT,
     "target format: chrome, perfetto, folded, speedscope, svg, ctf, uftrace, sqlite"},
    {"output", 'o', "FILE", CMD_CONVERT,
     "write to FILE instead of standard output (a directory for ctf, uftrace; sqlite: the "
     "database file)"},
    {"split-size", 0, "SIZE", CMD_CONVERT,
     "perfetto: write FILE-0001.ext, FILE-0002.ext, ... of at most about SIZE each (100M, 1G)"},
    {"split-time", 0, "DURATION", CMD_CONVERT,
     "perfetto: a new part every DURATION of trace time (1s, 250ms)"},
    {"output-fields", 'f', "FIELDS", CMD_REPLAY | CMD_REPORT,
     "columns: replay time,tid,duration,...; report total,self,call,total-avg,...,size (as "
     "uftrace -f)"},
    {"kernel-full", 0, NULL, CMD_REPLAY | CMD_REPORT,
     "uftrace data recorded with -k: also the kernel functions outside user functions "
     "(as uftrace --kernel-full)"},
    {"sort", 's', "KEY[,KEY]", CMD_REPORT,
     "uftrace: total,self,call,func,total-avg,...,size; xray: funcid,count,min,med,90p,99p,max,"
     "sum,func"},
    {"sortorder", 0, "asc|dsc", CMD_REPORT, "xray: sort order"},
    {"avg-total", 0, NULL, CMD_REPORT, "uftrace: average, min and max of each total time"},
    {"avg-self", 0, NULL, CMD_REPORT, "uftrace: average, min and max of each self time"},
    {"task", 0, NULL, CMD_REPORT, "uftrace: one row per thread (uftrace report --task)"},
    {"threads", 0, NULL, CMD_REPORT, "uftrace: --task, as older uftrace names it"},
    {"query", 'q', "SQL", CMD_SQL,
     "run SQL (Perfetto's tables: slice, thread, ftrace_event, args, ...); @FILE reads it from "
     "FILE; repeatable",
     2},
    {"format", 0, "FORMAT", CMD_SQL,
     "rows as table (default), csv (as sqlite3 -csv -header), json"},
    {0},
};

const struct cli_command_info cli_commands[] = {
    {"info", CMD_INFO, "traceglot info [options] PATH...",
     "format and version, clock, streams, event classes, time range and counts, and the "
     "format's own information",
     "traceglot info examples/fib.uftrace.data"},
    {"cat", CMD_CAT, "traceglot cat [options] PATH...",
     "print every event, time-ordered, one line each (--style for a peer tool's text)",
     "traceglot cat --style=trace-cmd trace.dat"},
    {"stats", CMD_STATS, "traceglot stats [options] PATH...",
     "one row per event class: count, first and last time, rate", "traceglot stats ust-trace/"},
    {"convert", CMD_CONVERT, "traceglot convert --to chrome|ctf|uftrace [-o OUT] PATH...",
     "convert to another format (Chrome Trace Event JSON for Perfetto / chrome://tracing)",
     "traceglot convert --to chrome -o trace.json uftrace.data"},
    {"replay", CMD_REPLAY, "traceglot replay [options] PATH...",
     "the function-call timeline of a function trace, as uftrace replay prints it",
     "traceglot replay -f time,tid,duration uftrace.data"},
    {"report", CMD_REPORT, "traceglot report [--style=uftrace|xray] [options] PATH...",
     "time spent per function (uftrace report; --style=xray: llvm-xray account)",
     "traceglot report --style=xray --instr-map ./app xray-log.app.XXXX"},
    {"sql", CMD_SQL, "traceglot sql [options] PATH... -q SQL",
     "ask anything in SQL over Perfetto's tables (slice, thread, sched_slice, ftrace_event, "
     "args, ...); no -q on a terminal: a prompt",
     "traceglot sql uftrace.data -q 'SELECT name, count(*), sum(dur) FROM slice GROUP BY name'"},
    {0},
};
