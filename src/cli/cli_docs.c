/* cli_docs.c - what documents the commands: --help, `traceglot options` (the README's
 * Markdown tables) and the manual pages (`traceglot options --man DIR`: traceglot(1) and
 * traceglot-COMMAND(1), made by the build and installed by `make install`).
 *
 * All three walk the same options (cli_each_option: the command line's own and the library's
 * declarations), so they cannot drift from what the parser accepts; the prose around them is
 * the commands' summaries and the few paragraphs below. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct cli_extra_command cli_extra_commands[] = {
    {"help", "traceglot help [COMMAND]", "this list, or a command's options"},
    {"options", "traceglot options [COMMAND|common]",
     "the options each command takes, as Markdown tables"},
    {"extract", "traceglot extract [-s|--symbolize] [--no-demangle] [-o FILE] BINARY",
     "the XRay instrumentation map of an instrumented binary as YAML, as llvm-xray extract "
     "prints it",
     (const char *const[]){"-s, --symbolize",
                           "name each function from the binary's symbols (llvm-xray extract "
                           "-symbolize)",
                           "--demangle, --no-demangle",
                           "with --symbolize, C++ names demangled (the default) or kept "
                           "mangled (llvm-xray extract -demangle=false)",
                           "-o, --output FILE",
                           "write the YAML to FILE; - is standard output (llvm-xray extract "
                           "-output); LLVM's spellings -output=FILE and -o=FILE too",
                           NULL}},
    {"fdr-dump", "traceglot fdr-dump LOG",
     "every record of an XRay FDR-mode log in file order, as llvm-xray fdr-dump prints them "
     "(its -verify is refused)",
     (const char *const[]){"-h, --help", "this usage", NULL}},
    {"query",
     "traceglot query src.ctf.fs metadata-info|babeltrace.trace-infos -p 'path=\"DIR\"'|"
     "'inputs=[\"DIR\"]'",
     "babeltrace2 query's answers for the CTF trace in DIR: metadata-info (its TSDL text, "
     "decoded from packets) and babeltrace.trace-infos (its streams as port names, with "
     "their time ranges); other queries, several inputs and other parameters are refused",
     (const char *const[]){"-p, --params PARAMS",
                           "babeltrace2's parameters: path=\"DIR\" (metadata-info), "
                           "inputs=[\"DIR\"] (babeltrace.trace-infos)",
                           NULL}},
    {"run", "traceglot run -c NAME:CLASS [-p PARAMS] ... -x UPSTREAM:DOWNSTREAM ...",
     "babeltrace2 run's graphs of the components traceglot has: source.ctf.fs "
     "(inputs=[\"TRACE\",...]), filter.utils.muxer, filter.utils.trimmer (begin=, end=) and "
     "one sink: sink.text.pretty (no-delta, clock-seconds, clock-cycles, clock-date, "
     "clock-gmt), sink.text.details, sink.ctf.fs (path=\"DIR\") or sink.utils.dummy; "
     "another component or parameter is refused by name",
     (const char *const[]){"-c, --component NAME:CLASS", "a component of the graph",
                           "-p, --params PARAMS",
                           "the parameters of the -c before it, in babeltrace2's syntax",
                           "-x, --connect UPSTREAM:DOWNSTREAM", "a connection of the graph", NULL}},
    {"hist", "traceglot hist [-i FILE] [-P] [FILE]",
     "the call chains of a trace.dat that end in each function or event, most frequent "
     "first, as trace-cmd hist prints them",
     (const char *const[]){"-i FILE", "the trace.dat (default: trace.dat)", "-P",
                           "all pids as one histogram (<all pids>)", NULL}},
    {"completion", "traceglot completion bash|zsh",
     "the shell completion script (make install puts it where bash and zsh find it)"},
    {0},
};

/* ---- --help ---------------------------------------------------------------------------- */

static void help_row(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    (void)ctx;
    char left[96], label[160];
    int n = snprintf(left, sizeof left, "%s%c%s--%s%s%s", o->short_name ? "-" : " ",
                     o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
    char peer[128];
    cli_option_label(cmd, o, label, sizeof label);
    printf("  %s%*s%s%s", left, n < 28 ? 28 - n : 1, "", label, o->help);
    if (o->def)
        printf(" (default: %s)", o->def);
    cli_peer_spelling(cmd, o, peer, sizeof peer);
    if (peer[0])
        printf(" (also %s)", peer);
    printf("\n");
}

void cli_print_command_help(const struct cli_command_info *cmd)
{
    printf("usage: %s\n\n%s.\n\noptions:\n", cmd->synopsis, cmd->summary);
    cli_each_option(cmd, help_row, NULL);
    printf("\nexample:\n  %s\n", cmd->example);
}

/* ---- `traceglot options`: Markdown tables --------------------------------------------- */

/* Markdown text: a table cell's '|' escaped. */
static void put_cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            putchar('\\');
        putchar(*s);
    }
}

/* ctx: 1 for the common table (opening and the filters), 0 for a command's own */
static void markdown_row(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    char who[128] = "";
    if (strcmp(o->name, "help") == 0 || o->common != *(const int *)ctx)
        return;
    char peer[128];
    if (!o->own && o->styled)
        cli_who_takes(cmd, o->name, who, sizeof who);
    printf("| `--%s`", o->name);
    if (o->short_name)
        printf(", `-%c`", o->short_name);
    cli_peer_spelling(cmd, o, peer, sizeof peer);
    if (peer[0]) { /* the name only: the value is the next column */
        peer[strcspn(peer, "=")] = 0;
        printf(", `%s`", peer);
    }
    printf(" | ");
    if (o->arg) {
        putchar('`');
        put_cell(o->arg);
        putchar('`');
    }
    printf(" | %s | ", who);
    put_cell(o->help);
    if (o->def) {
        printf(" (default: `");
        put_cell(o->def);
        printf("`)");
    }
    printf(" |\n");
}

static int write_man(const char *dir);

int cli_run_options(int argc, char **argv)
{
    if (argc > 0 && strcmp(argv[0], "--man") == 0) {
        if (argc != 2) {
            fprintf(stderr, "usage: traceglot options --man DIR\n");
            return 2;
        }
        return write_man(argv[1]);
    }
    int printed = 0, common = argc > 0 && strcmp(argv[0], "common") == 0;
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        if (common ? c->id != CMD_CAT : argc > 0 && strcmp(argv[0], c->name) != 0)
            continue;
        if (argc == 0)
            printf("%s`traceglot %s`:\n\n", printed ? "\n" : "", c->name);
        printf("| option | value | %s | what it does |\n|---|---|---|---|\n",
               c->sink == TG_OWNER_COMMAND || common ? "" : cli_sink_word(c));
        cli_each_option(c, markdown_row, &common);
        printed = 1;
    }
    if (!printed) {
        fprintf(stderr, "traceglot options: unknown command '%s' (see traceglot --help)\n",
                argv[0]);
        return 2;
    }
    return 0;
}

/* ---- manual pages ----------------------------------------------------------------------- */

/* Text for roff: backslashes doubled as \e, a line never starting with '.' or '\''. */
static void roff(FILE *f, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        bol = *s == '\n';
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

static void man_header(FILE *f, const char *name, const char *summary)
{
    char upper[64];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof upper; i++)
        upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    upper[i] = 0;
    fprintf(f, ".\\\" Generated by `traceglot options --man` from the option declarations.\n");
    fprintf(f, ".TH %s 1 \"\" \"traceglot %s\" \"User Commands\"\n.nh\n.SH NAME\n", upper,
            TG_VERSION_STRING);
    roff(f, name);
    fputs(" \\- ", f);
    roff(f, summary);
    fputs("\n", f);
}

struct man_ctx {
    FILE *f;
    int common; /* which options: the common ones or the command's own */
};

static void man_option(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    struct man_ctx *m = ctx;
    if (o->common != m->common)
        return;
    char label[160];
    fputs(".TP\n", m->f);
    if (o->short_name)
        fprintf(m->f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", m->f);
    roff(m->f, o->name);
    fputs("\\fR", m->f);
    if (o->arg) {
        fputs(" \\fI", m->f);
        roff(m->f, o->arg);
        fputs("\\fR", m->f);
    }
    fputs("\n", m->f);
    cli_option_label(cmd, o, label, sizeof label);
    roff(m->f, label);
    roff(m->f, o->help);
    if (o->def) {
        fputs(" (default: ", m->f);
        roff(m->f, o->def);
        fputs(")", m->f);
    }
    char peer[128];
    cli_peer_spelling(cmd, o, peer, sizeof peer);
    if (peer[0]) {
        fputs(" (also ", m->f);
        roff(m->f, peer);
        fputs(")", m->f);
    }
    fputs(".\n", m->f);
}

static const char man_outputs[] =
    ".SH OUTPUT FILES\n"
    "A file or folder given with \\fB\\-o\\fR is written under a temporary name in its folder "
    "(\\fIOUT\\fR.tmp\\-XXXXXX) and renamed to \\fIOUT\\fR when it is whole. A failure (damaged "
    "input, a full disk, a folder that cannot be written) and SIGINT, SIGTERM, SIGHUP or "
    "SIGPIPE remove it: nothing is left behind. An existing file is replaced only with "
    "\\fB\\-\\-force\\fR; an existing folder never is. An output that is not a regular file "
    "(\\fB/dev/stdout\\fR, a pipe, a device) is written in place. Files and folders follow "
    "the umask. Errors name the path and the system's reason.\n";

static const char man_exit[] =
    ".SH EXIT STATUS\n"
    ".TP\n0\nsuccess (a \\fB\\-\\-cpu\\fR or \\fB\\-\\-tid\\fR the trace does not have is "
    "warned about)\n"
    ".TP\n1\ndamaged or unreadable input, or an output that could not "
    "be written (the events before the damage are printed first); report, replay, graph and "
    "convert \\-\\-to folded, svg or speedscope on a trace that holds no function calls (the "
    "message names the events it holds)\n"
    ".TP\n2\nusage error: unknown command, option, style, target, SQL table or event name "
    "(the nearest names are given: \\(lqdid you mean\\(rq), a bad value, an option the chosen "
    "style does not take\n";

static int page_main(FILE *f)
{
    man_header(f, "traceglot", "read, convert and analyse Linux trace files on one timeline");
    fputs(".SH SYNOPSIS\n\\fBtraceglot\\fR \\fICOMMAND\\fR [\\fIoptions\\fR] \\fIPATH\\fR...\n"
          ".br\n\\fBtraceglot help\\fR [\\fICOMMAND\\fR]\n.br\n\\fBtraceglot \\-V\\fR\n"
          ".SH DESCRIPTION\n",
          f);
    roff(f, "traceglot reads uftrace data directories, CTF traces (LTTng, barectf; CTF 1.8 and "
            "2), ftrace trace.dat files, LLVM XRay logs and LTTng 0.x traces, puts all their "
            "events on one timeline, prints them exactly as the tracers' own tools do, converts "
            "them for the viewers people use, and answers questions about them in SQL. Every "
            "command reads any of these formats (detected from the content); several paths are "
            "merged into one timeline; a folder holding traces of several formats is read as "
            "those traces given one by one. A PATH of - (standard input), /dev/stdin or a pipe "
            "is copied into an unlinked temporary file under TMPDIR and read from there. "
            "Damaged input is read up to the damage, then the damage is reported with its file "
            "and offset.\n");
    fputs(".SH COMMANDS\n", f);
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        fprintf(f, ".TP\n\\fBtraceglot\\-%s\\fR(1)\n", c->name);
        roff(f, c->summary);
        fputs(".\n", f);
    }
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++) {
        fputs(".TP\n\\fB", f);
        roff(f, e->synopsis);
        fputs("\\fR\n", f);
        roff(f, e->summary);
        fputs(".\n", f);
    }
    fputs(".SH COMMON OPTIONS\nEvery command takes the options of opening traces; all but "
          "\\fBinfo\\fR take the filters.\n",
          f);
    struct man_ctx m = {f, 1};
    cli_each_option(cli_command_find("cat"), man_option, &m);
    fputs(man_outputs, f);
    fputs(man_exit, f);
    fputs(".SH SEE ALSO\n", f);
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        fprintf(f, "\\fBtraceglot\\-%s\\fR(1)%s", c->name, c[1].name ? ", " : ",\n");
    fputs("\\fBuftrace\\fR(1), \\fBtrace\\-cmd\\fR(1), \\fBbabeltrace2\\fR(1), "
          "\\fBllvm\\-xray\\fR(1)\n",
          f);
    return 0;
}

/* sql's page: every table of the trace and its columns, one line each, from the
 * declarations the tables are made of (tg_sql_table_columns), so the page cannot drift. */
static void man_sql_tables(FILE *f)
{
    fputs(".SH TABLES\nThe tables a query reads, each with its columns and their types, one a "
          "line (as PRAGMA table_info(TABLE) lists them; the README says what each holds). The "
          "views raw (ftrace_event), sched (sched_slice with ts_end), counters (counter with "
          "its track's name and unit), instant (the slices of no duration) and thread_slice "
          "(the slices of thread tracks with their thread and process) are Perfetto's other "
          "names for the same rows.\n",
          f);
    for (size_t i = 0; tg_sql_table_name(i); i++) {
        fputs(".SS ", f);
        roff(f, tg_sql_table_name(i));
        fputs("\n.nf\n", f);
        const char *c = tg_sql_table_columns(i);
        while (*c) {
            size_t n = strcspn(c, ",");
            char column[128];
            snprintf(column, sizeof column, "%.*s", (int)n, c);
            roff(f, column);
            fputs("\n", f);
            c += n;
            while (*c == ',' || *c == ' ')
                c++;
        }
        fputs(".fi\n", f);
    }
    fputs(".SH FUNCTIONS\nPerfetto's functions: ancestor_slice(ID) and descendant_slice(ID) "
          "(tables of the slice table's columns: the slices above ID, the root first, and those "
          "below it, in id order), EXTRACT_ARG(ARG_SET_ID, KEY), TRACE_START(), TRACE_END(), "
          "TRACE_DUR(), STR_SPLIT(STR, DELIMITER, INDEX), HASH(VALUE, ...) (64-bit FNV-1a) and "
          "X REGEXP PATTERN.\n",
          f);
}

/* A command's page up to its description: NAME, SYNOPSIS, DESCRIPTION (the summary). */
static void page_head(FILE *f, const char *command, const char *synopsis, const char *summary)
{
    char name[64];
    snprintf(name, sizeof name, "traceglot-%s", command);
    man_header(f, name, summary);
    fputs(".SH SYNOPSIS\n", f);
    roff(f, synopsis);
    fputs("\n.SH DESCRIPTION\n", f);
    roff(f, summary);
    fputs(".\n", f);
}

static int page_command(FILE *f, const struct cli_command_info *cmd)
{
    char list[400];
    page_head(f, cmd->name, cmd->synopsis, cmd->summary);
    for (const struct cli_option *o = cli_options; o->name; o++)
        if ((o->commands & cmd->id) && o->values) {
            cli_values_join(o->values, list, sizeof list);
            fputs(".PP\n", f);
            fprintf(f, "\\fB\\-\\-%s\\fR chooses the %s: ", o->name, cli_sink_word(cmd));
            roff(f, list);
            if (cmd->sink_default) {
                fputs(" (default: ", f);
                roff(f, cmd->sink_default);
                fputs(")", f);
            }
            fputs(". An option of another style than the chosen one is refused.\n", f);
        }
    fputs(".SH OPTIONS\n", f);
    struct man_ctx m = {f, 0};
    cli_each_option(cmd, man_option, &m);
    fputs(".SH COMMON OPTIONS\n", f);
    m.common = 1;
    cli_each_option(cmd, man_option, &m);
    fputs(".SH EXAMPLE\n.nf\n", f);
    roff(f, cmd->example);
    fputs("\n.fi\n", f);
    if (cmd->id == CMD_CONVERT)
        fputs(man_outputs, f);
    if (cmd->id == CMD_SQL)
        man_sql_tables(f);
    fputs(man_exit, f);
    fputs(".SH SEE ALSO\n\\fBtraceglot\\fR(1)\n", f);
    return 0;
}

/* Writes DIR/traceglot.1 and DIR/traceglot-COMMAND.1 for every command. */
/* The page of a command outside the option tables (extract): its synopsis, summary and own
 * options. */
static int page_extra(FILE *f, const struct cli_extra_command *e)
{
    page_head(f, e->name, e->synopsis, e->summary);
    fputs(".SH OPTIONS\n", f);
    for (const char *const *o = e->man_options; o[0] && o[1]; o += 2) {
        fputs(".TP\n\\fB", f);
        roff(f, o[0]);
        fputs("\\fR\n", f);
        roff(f, o[1]);
        fputs(".\n", f);
    }
    fputs(".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\n", f);
    roff(f, "a binary that cannot be read or holds no XRay instrumentation map, or an output "
            "that could not be written\n");
    fputs(".TP\n2\nusage error: an unknown option, no binary or more than one\n", f);
    return ferror(f) ? -1 : 0;
}

/* One page into DIR: a command's (c), an extra command's (e) or, with neither, traceglot(1). */
static int write_page(const char *dir, const struct cli_command_info *c,
                      const struct cli_extra_command *e)
{
    char path[4096];
    const char *name = c ? c->name : e ? e->name : NULL;
    snprintf(path, sizeof path, "%s/traceglot%s%s.1", dir, name ? "-" : "", name ? name : "");
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "traceglot options: cannot create '%s': %s\n", path, strerror(errno));
        return 1;
    }
    int rc = c ? page_command(f, c) : e ? page_extra(f, e) : page_main(f);
    if (fclose(f) != 0 || rc) {
        fprintf(stderr, "traceglot options: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static int write_man(const char *dir)
{
    if (write_page(dir, NULL, NULL))
        return 1;
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        if (write_page(dir, c, NULL))
            return 1;
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++)
        if (e->man_options && write_page(dir, NULL, e))
            return 1;
    return 0;
}
