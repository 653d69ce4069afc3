/* cli.h - what the subcommands of the traceglot command share: the command table and the
 * few options that are the command line's own, parsing into the library's options and
 * filter, opening the paths, and turning a library status into an exit code (0 ok, 1 error
 * in the input, 2 usage).
 *
 * Every other option is declared in the library, by the format, style, converter or command
 * that takes it (tg_option_declared): the parser, --help and the README's option lists are
 * made from those declarations. */
#ifndef TG_CLI_H
#define TG_CLI_H

#include <stdbool.h>
#include "traceglot.h"

#include <stddef.h>
#include <stdint.h>

enum cli_command {
    CMD_INFO = 1,
    CMD_CAT = 2,
    CMD_STATS = 4,
    CMD_CONVERT = 8,
    CMD_REPLAY = 16,
    CMD_REPORT = 32,
    CMD_SQL = 64,
    CMD_GRAPH = 128,
    CMD_FLEET = 256,
    CMD_STACK = 512,
    CMD_ANALYZE = 1024,
    CMD_DUMP = 2048,
    CMD_ALL = 4095,
    CMD_FILTERING = CMD_CAT | CMD_STATS | CMD_CONVERT | CMD_REPLAY | CMD_REPORT | CMD_SQL |
                    CMD_GRAPH | CMD_FLEET,
};

/* The command line's own options: not kept in tg_options (they choose what runs). */
struct cli_option {
    const char *name;
    char short_name;   /* 0: none */
    const char *arg;   /* NULL: a flag; else the argument's name for --help */
    unsigned commands; /* enum cli_command bits */
    const char *help;
    /* the values the library registers for it (--style, --to: tg_print_style_name, ...), or
     * NULL; --help, the man pages and the completions list them */
    const char *(*values)(size_t i);
    /* taken only when the chosen style is this one (a peer's spelling that another style of
     * the command spells otherwise: uftrace's -d, llvm-xray's -d); NULL: always */
    const char *only_style;
};

struct cli_command_info {
    const char *name;
    enum cli_command id;
    const char *synopsis;
    const char *summary;
    const char *example;
    /* what runs: a style or converter chosen by --style/--to (sink_default when not given;
     * NULL: --to is required), or the command itself (TG_OWNER_COMMAND, named name) */
    tg_option_owner sink;
    const char *sink_default;
};

#define CLI_APART TG_OPT_APART /* between the texts of a TG_OPT_TEXTS option (SQL) */

extern const struct cli_option cli_options[];
extern const struct cli_command_info cli_commands[];

struct cli_args {
    const char *command; /* the subcommand's name, for messages */
    bool needs_calls;    /* it shows function calls: a trace that holds none is refused */
    const char *sink;    /* the chosen style or converter (--style, --to), or the command's name */
    const char *diff;    /* --diff OTHER: the run compared with (NULL: none) */
    const char *diff_instr_map; /* --diff-instr-map: OTHER's XRay binary */
    tg_options *opts;
    tg_filter *filter;
    const char *scheduler, *workers, *folders; /* fleet's --scheduler, --workers, --folders */
    char **paths;
    size_t n_paths;
    const char *func;      /* graph's FUNC argument, NULL: none */
    const char *data;      /* uftrace's -d DIR: the trace; the other arguments are FUNC */
    int open_exit;         /* cli_open's exit code when it fails (1 input, 2 usage) */
    int progress;          /* --progress 1, --no-progress -1, neither 0 (on a terminal) */
    bool style_pid;        /* the style takes its own --pid: not the filter's */
    struct cli_live *live; /* net:// paths read into scratch folders (cli_live.c) */
    bool live_show;        /* cat: a live session's events printed while it records */
    bool follow;           /* cat --follow */
};

/* Parses argv (after the subcommand name).  0: go on; 1: --help was printed (exit 0);
 * 2: usage error printed (exit 2). */
int cli_parse(const struct cli_command_info *cmd, int argc, char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
/* Opens the paths and prints the open's warnings; NULL after printing the error (exit code
 * in a->open_exit). */
tg_set *cli_open(struct cli_args *a);
/* Prints the set's and its traces' warnings on stderr (not with --quiet). */
void cli_print_warnings(const struct cli_args *a, const tg_set *set);
/* After the run: the --cpu and --tid values no event of the trace had (tg_set_run_warnings). */
void cli_print_run_warnings(const tg_set *set);
/* Prints err (every error of its list) as "traceglot: error: ..." and frees it; returns the
 * exit code for rc. */
int cli_finish(int rc, tg_error *err);
void cli_print_command_help(const struct cli_command_info *cmd);

/* A set none of whose traces can hold function calls: says so on stderr (what it holds, and
 * what the command needs) and returns 1 (the exit), else 0 (cli_calls.c). */
int cli_refuse_without_calls(const struct cli_args *a, tg_set *set);

/* A peer tool's command that traceglot does not have (uftrace's dump, trace-cmd's hist,
 * llvm-xray's extract, ...): refused on stderr naming whose it is and what traceglot offers
 * instead; 2 (the exit), or 0 when verb is no peer's (cli_peer_verbs.c). */
int cli_refuse_peer_verb(const char *verb);
/* `traceglot dump`: uftrace dump's listing of a uftrace recording's files (cli_dump.c). */
int cli_run_dump(struct cli_args *a);
/* `traceglot extract BINARY`: llvm-xray extract's YAML of the instrumentation map; reads
 * its own LLVM-spelled options (cli_extract.c).  The exit code. */
int cli_run_extract(int argc, char **argv);
/* `traceglot fdr-dump LOG`: llvm-xray fdr-dump's records of an FDR-mode log
 * (cli_fdr_dump.c).  The exit code. */
int cli_run_fdr_dump(int argc, char **argv);
/* `traceglot query src.ctf.fs metadata-info -p 'path="DIR"'`: babeltrace2 query's answer
 * (cli_bt_query.c).  The exit code. */
int cli_run_bt_query(int argc, char **argv);
/* An argument as LLVM's command line reads it (-name, --name, -name=VALUE): the name
 * without its dashes into name, its value after '=' in *value (NULL: none); returns name
 * (cli_peer_command.c). */
const char *cli_llvm_option_name(const char *arg, char *name, size_t size, const char **value);
/* A usage error of a command that takes a peer's command line: "traceglot CMD: WHY[ ARG]
 * (HINT)" on stderr; returns 2, the exit. */
int cli_peer_usage(const char *cmd, const char *why, const char *arg, const char *hint);
/* Do convert's arguments name llvm-xray's -output-format (-f)?  Then `traceglot convert`
 * is llvm-xray convert's command line, run by cli_run_xray_convert (cli_xray_convert.c):
 * the exit code. */
int cli_xray_convert_spelled(int argc, char **argv);
int cli_run_xray_convert(int argc, char **argv);
/* Does convert lack --to?  Then `traceglot convert` is babeltrace2's convert command line,
 * run by cli_run_bt_convert as cat --style=babeltrace or convert --to ctf
 * (cli_bt_convert.c): the exit code. */
int cli_bt_convert_spelled(int argc, char **argv);
int cli_run_bt_convert(int argc, char **argv);
/* `traceglot run -c NAME:CLASS -p PARAMS ... -x UP:DOWN`: babeltrace2 run's graphs of the
 * components traceglot has (cli_bt_run.c).  The exit code. */
int cli_run_bt_run(int argc, char **argv);
/* `traceglot hist [-i FILE] [-P] [FILE]`: trace-cmd hist's command line, run as cat
 * --style=trace-cmd-hist (cli_tc_hist.c).  The exit code. */
int cli_run_tc_hist(int argc, char **argv);
/* A traceglot command (verb and its arguments) parsed and run as the command line would
 * (main.c): the exit code. */
int cli_run_command(const char *verb, int argc, char **argv);

/* babeltrace2's component parameters (-p 'KEY=VALUE,...'), each as its key and its values'
 * texts (cli_bt_params.c). */
struct cli_bt_param {
    char *key;
    char **values;
    size_t n_values;
    bool array; /* [a, b, ...] */
};
struct cli_bt_params {
    struct cli_bt_param *items;
    size_t n;
};
/* Appends text's parameters to out: 0, or -1 when text is not babeltrace2's syntax. */
int cli_bt_params_parse(const char *text, struct cli_bt_params *out);
/* The parameter KEY (the last given), or NULL. */
const struct cli_bt_param *cli_bt_params_find(const struct cli_bt_params *ps, const char *key);
/* A boolean parameter's value (true/yes 1, false/no 0), -1 when it is not a boolean. */
int cli_bt_param_bool(const struct cli_bt_param *prm);
void cli_bt_params_free(struct cli_bt_params *ps);

/* ---- the catalog (cli_catalog.c): which options a command offers ---- */

/* One option as a command offers it: its own (cli_options.c) or a library declaration. */
struct cli_opt {
    const char *name;
    char short_name;
    const char *arg;  /* the value's name, NULL for a flag */
    const char *help; /* with the registered values of --style/--to */
    const char *def;  /* the default, or NULL */
    int common;       /* of opening or the filters (every command has them) */
    int styled;       /* declared by a style or converter (labelled with who takes it) */
    const struct cli_option *own;
    const tg_option_decl *decl;
};
typedef void (*cli_option_fn)(const struct cli_command_info *cmd, const struct cli_opt *o,
                              void *ctx);
/* Calls fn for each option cmd offers, once per name: its own first, then the library's. */
void cli_each_option(const struct cli_command_info *cmd, cli_option_fn fn, void *ctx);
/* Does cmd offer the declaration (owner, owner_name) at all (whatever style is chosen)? */
int cli_offers(const struct cli_command_info *cmd, tg_option_owner owner, const char *oname);
/* Does cmd, running sink (NULL: whatever it runs by default), take key? */
int cli_takes(const struct cli_command_info *cmd, const char *sink, const char *key);
/* Does sink (the chosen style of cmd) spell its options as LLVM's tools (TG_OPT_SINGLE_DASH)? */
int cli_single_dash(const struct cli_command_info *cmd, const char *sink);
/* The peer's own spelling of o for --help and the tables ("-instr_map=BINARY"), or "" when
 * it has none beside --name and -x. */
void cli_peer_spelling(const struct cli_command_info *cmd, const struct cli_opt *o, char *buf,
                       size_t size);
/* The value's name of a declaration for --help ("BINARY", "asc|dsc"), NULL for a flag. */
const char *cli_arg_name(const tg_option_decl *d);
/* "trace-cmd", "chrome, perfetto": the styles or converters of cmd that take key. */
void cli_who_takes(const struct cli_command_info *cmd, const char *key, char *buf, size_t size);
/* "style" or "converter": what --style/--to chooses for cmd. */
const char *cli_sink_word(const struct cli_command_info *cmd);
/* The label of a style's option in --help ("trace-cmd style: "), empty for the others. */
void cli_option_label(const struct cli_command_info *cmd, const struct cli_opt *o, char *buf,
                      size_t size);
/* values(0), values(1), ... joined with ", " (the registered styles, targets, ...). */
void cli_values_join(const char *(*values)(size_t i), char *buf, size_t size);
/* The command named name, or NULL. */
const struct cli_command_info *cli_command_find(const char *name);

/* ---- signals (cli_signals.c) ---- */

/* SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the outputs being written and end the command
 * by that signal. */
void cli_signals_install(void);
/* o is being written (-1: no slot left) / is committed or discarded. */
int cli_signals_watch(tg_output *o);
void cli_signals_unwatch(tg_output *o);
/* Until cli_signals_install is called again, the first ending signal only sets *flag (a
 * live session's reading ends; the command goes on with what arrived). */
void cli_signals_soft(volatile sig_atomic_t *flag);

/* ---- live sessions (cli_live.c) ---- */

/* Reads the net:// paths into scratch folders, which replace them: 0 go on; 1 nothing to
 * run (a relay's session list was printed, or an error: cli_live_finish says the exit). */
int cli_live_prepare(struct cli_args *a);
/* After the command: prints what failed while reading, removes the folders; the exit code. */
int cli_live_finish(struct cli_args *a, int rc);

/* ---- a live cat shown while the session records (cli_live_show.c) ---- */

struct cli_live_show;
/* Whether a's output can be shown as it comes: one path, in a style whose text of the first
 * events is the beginning of the whole text (the default, babeltrace, native), without
 * --begin/--end (the passes bound the events themselves). */
bool cli_live_show_fits(const struct cli_args *a);
/* For the scratch folder dir of a's one live path; NULL when out of memory or files. */
struct cli_live_show *cli_live_show_new(struct cli_args *a, const char *dir);
void cli_live_show_free(struct cli_live_show *s);
/* tg_live_params.complete: prints the events up to the session's new horizon. */
void cli_live_show_pass(void *ctx, const tg_live_horizon *h, size_t n);
/* `cat --follow`: prints the events up to where every stream of the trace at dir is whole;
 * true when events are left that a later pass may show without the files changing. */
bool cli_live_show_follow(struct cli_live_show *s);
/* A pass of cli_live_show_follow is not shown when the file name (under the folder) appeared
 * while it read: the tracer was ending the trace (uftrace's info comes with its symbol
 * tables) and the end shows the rest. */
void cli_live_show_guard(struct cli_live_show *s, const char *name);
/* After the reading: prints the rest of the events; the command's exit code. */
int cli_live_show_end(struct cli_live_show *s);

/* `cat --follow PATH` (cli_follow.c): the exit code. */
int cli_follow_run(struct cli_args *a);

/* ---- the progress line (cli_progress.c) ---- */

struct cli_progress {
    tg_set *set; /* NULL: no progress line */
    int64_t start_ns, drawn_ns;
    int every_call; /* TRACEGLOT_PROGRESS_EVERY: draw at each call back */
    int shown;
};
/* Shows the progress of the passes over set on stderr when a->progress or the terminal says
 * so; cli_progress_end erases it (pg lives as long as the command's call). */
void cli_progress_begin(struct cli_progress *pg, const struct cli_args *a, tg_set *set);
void cli_progress_end(struct cli_progress *pg);

/* ---- what documents the commands (cli_docs.c) ---- */

/* The commands beside those that read traces: help, options, completion. */
struct cli_extra_command {
    const char *name;
    const char *synopsis;
    const char *summary;
    /* its own options for its manual page, NULL-ended pairs of spelling and meaning (NULL:
     * no page of its own: help, options and completion are described in traceglot(1)) */
    const char *const *man_options;
};
extern const struct cli_extra_command cli_extra_commands[];
/* `traceglot completion bash|zsh`: the shell's completion script, made from the options. */
int cli_run_completion(int argc, char **argv);
/* `traceglot options [COMMAND|common]`: the options a command takes beside the common ones
 * (those of opening and the filters: `common`) as a Markdown table (the README's lists are
 * made with it, tools/readme-options.sh). */
int cli_run_options(int argc, char **argv);

int cli_run_info(struct cli_args *a);
int cli_run_graph(struct cli_args *a);
int cli_run_cat(struct cli_args *a);
int cli_run_stats(struct cli_args *a);
int cli_run_convert(struct cli_args *a);
int cli_run_replay(struct cli_args *a);
int cli_run_report(struct cli_args *a);
int cli_run_sql(struct cli_args *a);
/* The SQL shell on standard input (cli_sql_shell.c): dot commands, statements over several
 * lines; interactive: a terminal (prompt, line editing).  The exit status. */
int cli_sql_shell(struct sqlite3 *db, const char *format, int interactive);
int cli_run_stack(struct cli_args *a);
int cli_run_analyze(struct cli_args *a);
/* fleet: runs the Python package's traceglot.fleet (python3 -m traceglot.fleet) */
int cli_run_fleet(struct cli_args *a);

#endif
