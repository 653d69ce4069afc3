/* cli_options.c - the subcommands and the few options that are the command line's own.
 *
 * Every other option is declared in the library by what takes it: a format, a style, a
 * converter, a report style or a command (tg_option_declared; see "Options" in
 * docs/design-notes.md).  The parser offers a command the options of opening, of the
 * command and of every style or converter it can run, and refuses, naming the style, one
 * that the chosen style does not take. */
#include "cli.h"

/* stack's styles: llvm-xray's only (tg_stack) */
static const char *stack_style_name(size_t i) { return i == 0 ? "xray" : NULL; }
static const char *fleet_folders_name(size_t i) { return i < 2 ? (i ? "each" : "one") : NULL; }

const struct cli_option cli_options[] = {
    {"help", 'h', NULL, CMD_ALL, "show this help"},
    {"style", 0, "NAME", CMD_CAT, "the text style", tg_print_style_name},
    {"style", 0, "NAME", CMD_REPORT, "the report style", tg_report_style_name},
    {"style", 0, "NAME", CMD_GRAPH, "the graph style", tg_graph_style_name},
    {"component", 'c', "NAME", CMD_CAT,
     "babeltrace2's spelling of the style: its sink component sink.text.pretty "
     "(--style=babeltrace) or sink.text.details (--style=babeltrace-details)"},
    {"to", 0, "FORMAT", CMD_CONVERT, "target format", tg_converter_name},
    {"style", 0, "NAME", CMD_STACK, "the stack style", stack_style_name},
    {"diff", 0, "OTHER", CMD_REPORT | CMD_CONVERT | CMD_STATS,
     "compare with the run OTHER (any format; functions and events match by name): report as "
     "uftrace report --diff, convert --to svg or folded, stats"},
    {"diff-instr-map", 0, "BINARY", CMD_REPORT | CMD_CONVERT | CMD_STATS,
     "--diff of XRay logs: the instrumented binary of OTHER (default: --instr-map)"},
    {"scheduler", 0, "ADDR", CMD_FLEET,
     "a running dask-scheduler (tcp://HOST:8786); none: a LocalCluster of this machine's cores"},
    {"workers", 0, "N", CMD_FLEET, "the LocalCluster's workers (default: the cores)"},
    {"folders", 0, "HOW", CMD_FLEET,
     "a folder holding several traces: one (one trace merged on one timeline, as sql opens "
     "it; the default) or each (one task per trace in it)",
     fleet_folders_name},
    {"follow", 0, NULL, CMD_CAT,
     "keep printing the events a tracer adds to PATH (a CTF trace of a running LTTng session), "
     "in time order, until Ctrl-C"},
    {"progress", 0, NULL, CMD_ALL & ~(CMD_SQL | CMD_FLEET),
     "show a progress line on stderr (bytes read of the input, events, rate, time left) even "
     "when stderr is not a terminal (default: on a terminal, after a second)"},
    {"no-progress", 0, NULL, CMD_ALL & ~(CMD_SQL | CMD_FLEET),
     "no progress line, even on a terminal"},
    {"data", 'd', "DIR", CMD_REPLAY | CMD_REPORT | CMD_GRAPH | CMD_INFO | CMD_DUMP,
     "the trace, as uftrace's -d/--data names it (uftrace graph -d DIR FUNC: the argument after "
     "is FUNC); not under --style=xray, whose -d is -deduce-sibling-calls",
     NULL, "uftrace"},
    {"chrome", 0, NULL, CMD_DUMP,
     "refused (exit 2): uftrace dump --chrome's JSON carries the dumping uftrace's version and "
     "the info file's time, not the recording's; convert --to chrome draws the same calls"},
    {"flame-graph", 0, NULL, CMD_DUMP,
     "refused (exit 2): uftrace dump --flame-graph's sampled counts are not followed yet; "
     "convert --to folded gives every stack with its time"},
    {"graphviz", 0, NULL, CMD_DUMP,
     "refused (exit 2): uftrace dump --graphviz's DOT graph is not followed yet; graph prints "
     "the call graph as uftrace graph does"},
    {"input", 'i', "FILE", CMD_CAT,
     "with --style=trace-cmd: the trace, as trace-cmd report -i names it", NULL, "trace-cmd"},
    {0},
};

const struct cli_command_info cli_commands[] = {
    {"info", CMD_INFO, "traceglot info [options] PATH...",
     "format and version, clock, streams, event classes, time range and counts, and the "
     "format's own information",
     "traceglot info examples/fib.uftrace.data", TG_OWNER_COMMAND, NULL},
    {"cat", CMD_CAT, "traceglot cat [options] PATH...",
     "print every event, time-ordered, one line each (--style for a peer tool's text)",
     "traceglot cat --style=trace-cmd trace.dat", TG_OWNER_PRINT_STYLE, "native"},
    {"stats", CMD_STATS, "traceglot stats [--diff OTHER] [options] PATH...",
     "one row per event class: count, first and last time, rate", "traceglot stats ust-trace/",
     TG_OWNER_COMMAND, NULL},
    {"convert", CMD_CONVERT, "traceglot convert --to chrome|ctf|uftrace [-o OUT] PATH...",
     "convert to another format (Chrome Trace Event JSON for Perfetto / chrome://tracing); "
     "`convert -f yaml|trace_event [-y] [-m BINARY] [-o FILE] LOG`: llvm-xray convert's own "
     "command line",
     "traceglot convert --to chrome -o trace.json uftrace.data", TG_OWNER_CONVERTER, NULL},
    {"replay", CMD_REPLAY, "traceglot replay [options] PATH...",
     "the function-call timeline of a function trace, as uftrace replay prints it",
     "traceglot replay -f time,tid,duration uftrace.data", TG_OWNER_COMMAND, NULL},
    {"report", CMD_REPORT,
     "traceglot report [--style=uftrace|xray] [--diff OTHER] [options] PATH...",
     "time spent per function (uftrace report; --style=xray: llvm-xray account)",
     "traceglot report --style=xray --instr-map ./app xray-log.app.XXXX", TG_OWNER_REPORT_STYLE,
     "uftrace"},
    {"graph", CMD_GRAPH, "traceglot graph [--style=uftrace|xray] [options] PATH... [FUNC]",
     "the function call graph, as uftrace graph prints it; with FUNC its backtraces and what "
     "it calls (--style=xray: llvm-xray graph's DOT digraph)",
     "traceglot graph uftrace.data main", TG_OWNER_GRAPH_STYLE, "uftrace"},
    {"stack", CMD_STACK, "traceglot stack [--style=xray] [options] PATH...",
     "call stacks of a function trace, as llvm-xray stack prints them: the top 10 by leaf "
     "time and count, or every stack for flamegraph.pl (-all-stacks -stack-format=flame)",
     "traceglot stack --style=xray -instr_map=./app -aggregate-threads xray-log.app.XXXX",
     TG_OWNER_COMMAND, NULL},
    {"dump", CMD_DUMP, "traceglot dump [-d DIR] [PATH]",
     "the records of a uftrace recording file by file, as uftrace dump prints them (its "
     "header, each task's records with their argument bytes, kernel and perf records)",
     "traceglot dump -d uftrace.data", TG_OWNER_COMMAND, NULL},
    {"analyze", CMD_ANALYZE, "traceglot analyze NAME [options] PATH...",
     "lttng-analyses' answers on a kernel trace (NAME: cputop, schedstats, schedtop, schedlog, "
     "schedfreq, irqstats, irqlog, irqfreq, syscallstats, memtop), as lttng-NAME prints them; "
     "--format json: LAMI",
     "traceglot analyze cputop --limit 5 lttng-kernel-trace/", TG_OWNER_COMMAND, NULL},
    {"sql", CMD_SQL, "traceglot sql [options] PATH... -q SQL",
     "ask anything in SQL over Perfetto's tables (slice, thread, sched_slice, ftrace_event, "
     "args, ...); no -q: sqlite3's shell on standard input (.tables, .schema, .mode, "
     ".headers, .timer, .output, .read, .help, .quit; statements over several lines)",
     "traceglot sql uftrace.data -q 'SELECT name, count(*), sum(dur) FROM slice GROUP BY name'",
     TG_OWNER_COMMAND, NULL},
    {"fleet", CMD_FLEET, "traceglot fleet [--scheduler tcp://HOST:8786] -q SQL PATH...",
     "one SQL question over many traces (paths, globs, @FILE or a file listing them), one "
     "Dask task per trace, the rows with a trace column first",
     "traceglot fleet -q 'SELECT name, count(*) FROM ftrace_event GROUP BY name' 'runs/*.dat'",
     TG_OWNER_COMMAND, NULL},
    {0},
};
