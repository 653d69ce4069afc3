/* cli_sql_shell.c - `traceglot sql` without -q: the shell sqlite3 users know, reading
 * standard input from a terminal or a pipe.
 *
 * A line that starts with "." where no statement is pending is a dot command (.tables,
 * .schema, .mode, .headers, .timer, .output, .read, .help, .quit, as sqlite3 spells them);
 * other lines gather into a statement until SQLite says it is complete (a ";" outside
 * strings, comments and triggers), which then runs.  On a terminal the lines are read with
 * libedit (line editing, and a history kept in ~/.traceglot_history) where it was found at
 * build time, with a prompt, and "...>" while a statement goes on over several lines.
 *
 * An error is printed and the shell goes on, as sqlite3 does; the exit status is the first
 * error's (2: bad SQL or a bad dot command, 1: the trace could not be read). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#ifdef TG_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#define SHELL_ARGS_MAX 8

struct shell {
    struct sqlite3 *db;
    char mode[16]; /* table, csv, json, list, perfetto */
    int headers;   /* -1: the mode's own (csv yes, list no) */
    int timer;
    int csv_crlf; /* .mode csv was given (sqlite3's rows end with CRLF there) */
    tg_buf *out;
    int out_fd; /* -1: standard output */
    int status;
    int quit;
    int depth; /* of .read */
};

/* ---- running SQL ---------------------------------------------------------------------- */

static double seconds_of(struct timeval tv) { return (double)tv.tv_sec + tv.tv_usec / 1e6; }

static void note_status(struct shell *sh, int rc)
{
    if (rc && !sh->status)
        sh->status = rc;
}

static void run_sql(struct shell *sh, const char *sql)
{
    char format[40];
    int rows = strcmp(sh->mode, "csv") == 0 || strcmp(sh->mode, "list") == 0;
    /* .mode csv ends rows with CRLF, as sqlite3's (the --format csv given alone: "\n") */
    snprintf(format, sizeof format, "%s%s%s", sh->mode,
             !rows || sh->headers < 0 ? ""
             : sh->headers            ? ",header"
                                      : ",noheader",
             rows && sh->csv_crlf && strcmp(sh->mode, "csv") == 0 ? ",crlf" : "");
    struct timespec t0, t1;
    struct rusage r0, r1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    getrusage(RUSAGE_SELF, &r0);
    tg_error *err = NULL;
    int rc = tg_sql_run(sh->db, sql, format, sh->out, &err);
    if (tg_buf_flush(sh->out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    note_status(sh, rc < 0 ? cli_finish(rc, err) : 0);
    if (sh->timer) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        getrusage(RUSAGE_SELF, &r1);
        double real = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        /* sqlite3's own line */
        printf("Run Time: real %.3f user %f sys %f\n", real,
               seconds_of(r1.ru_utime) - seconds_of(r0.ru_utime),
               seconds_of(r1.ru_stime) - seconds_of(r0.ru_stime));
        fflush(stdout);
    }
}

/* The rows of a query as the shell's lines (for .tables and .schema), through a list run
 * into memory. */
static char *query_lines(struct shell *sh, const char *sql)
{
    tg_buf *b = tg_buf_new();
    if (!b)
        return NULL;
    tg_error *err = NULL;
    char *text = NULL;
    if (tg_sql_run(sh->db, sql, "list", b, &err) >= 0 && (text = malloc(tg_buf_len(b) + 1))) {
        memcpy(text, tg_buf_data(b), tg_buf_len(b));
        text[tg_buf_len(b)] = 0;
    }
    tg_error_free(err);
    tg_buf_free(b);
    return text;
}

/* ---- the dot commands ------------------------------------------------------------------ */

static const struct dot_help {
    const char *name, *args, *help;
} dot_commands[] = {
    {"exit", "?CODE?", "leave the shell with exit status CODE"},
    {"headers", "on|off", "column names before the rows (csv and list modes)"},
    {"help", "", "this list"},
    {"mode", "MODE", "rows as: box or table, csv, json, list, perfetto"},
    {"output", "?FILE?", "rows into FILE (created or truncated), or again to standard output"},
    {"quit", "", "leave the shell"},
    {"read", "FILE", "read the SQL and dot commands of FILE"},
    {"schema", "?TABLE?", "the columns of the tables (a LIKE pattern: those it matches)"},
    {"tables", "?PATTERN?", "the names of the tables and views (a LIKE pattern: those it matches)"},
    {"timer", "on|off", "the time each statement took"},
    {NULL, NULL, NULL},
};

static int dot_error(struct shell *sh, const char *fmt, const char *arg)
{
    fprintf(stderr, "Error: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    note_status(sh, 2);
    return 0;
}

/* "on", "yes", "1" / "off", "no", "0": 1 / 0, else -1. */
static int on_off(const char *s)
{
    if (!strcasecmp(s, "on") || !strcasecmp(s, "yes") || !strcmp(s, "1"))
        return 1;
    if (!strcasecmp(s, "off") || !strcasecmp(s, "no") || !strcmp(s, "0"))
        return 0;
    return -1;
}

/* pattern as an SQL string literal into b ('' doubled). */
static void put_literal(tg_buf *b, const char *pattern)
{
    tg_buf_putc(b, '\'');
    for (const char *p = pattern; *p; p++) {
        if (*p == '\'')
            tg_buf_putc(b, '\'');
        tg_buf_putc(b, *p);
    }
    tg_buf_putc(b, '\'');
}

/* The names of the tables and views (those LIKE pattern), sorted, one a line. */
static char *table_names(struct shell *sh, const char *pattern)
{
    tg_buf *b = tg_buf_new();
    if (!b)
        return NULL;
    tg_buf_puts(b, "SELECT name FROM (SELECT column1 AS name FROM (VALUES ");
    for (size_t i = 0; tg_sql_table_name(i); i++) {
        tg_buf_puts(b, i ? ",(" : "(");
        put_literal(b, tg_sql_table_name(i));
        tg_buf_puts(b, ")");
    }
    tg_buf_puts(b, ") UNION SELECT name FROM sqlite_temp_schema WHERE type IN ('table','view') "
                   "UNION SELECT name FROM sqlite_schema WHERE type IN ('table','view'))");
    if (pattern) {
        tg_buf_puts(b, " WHERE name LIKE ");
        put_literal(b, pattern);
    }
    tg_buf_puts(b, " ORDER BY name");
    char *lines = query_lines(sh, tg_buf_data(b));
    tg_buf_free(b);
    return lines;
}

/* Splits lines (modified) into at most max names; their count. */
static size_t split_lines(char *lines, char **names, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *l = strtok_r(lines, "\n", &save); l && n < max;
         l = strtok_r(NULL, "\n", &save))
        names[n++] = l;
    return n;
}

/* .tables: the names in columns, as sqlite3 prints them (each padded to the widest, as many
 * as fit in 80 characters, filled down each column). */
static void dot_tables(struct shell *sh, const char *pattern)
{
    char *lines = table_names(sh, pattern);
    if (!lines)
        return;
    char *names[1024];
    size_t n = split_lines(lines, names, 1024), width = 0;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) > width)
            width = strlen(names[i]);
    size_t cols = 80 / (width + 2) ? 80 / (width + 2) : 1;
    size_t rows = (n + cols - 1) / cols;
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols && c * rows + r < n; c++) {
            int last = c + 1 == cols || (c + 1) * rows + r >= n;
            if (last)
                tg_buf_puts(sh->out, names[c * rows + r]);
            else
                tg_buf_printf(sh->out, "%-*s", (int)width + 2, names[c * rows + r]);
        }
        tg_buf_putc(sh->out, '\n');
    }
    tg_buf_flush(sh->out);
    free(lines);
}

/* .schema: a view's own SQL; a table of the trace as the virtual table it is, with its
 * columns and their types. */
static void dot_schema(struct shell *sh, const char *pattern)
{
    char *lines = table_names(sh, pattern);
    if (!lines)
        return;
    char *names[1024];
    size_t n = split_lines(lines, names, 1024);
    for (size_t i = 0; i < n; i++) {
        tg_buf *q = tg_buf_new();
        if (!q)
            break;
        tg_buf_puts(q, "SELECT sql FROM (SELECT sql, name FROM sqlite_temp_schema UNION ALL "
                       "SELECT sql, name FROM sqlite_schema) WHERE name = ");
        put_literal(q, names[i]);
        char *sql = query_lines(sh, tg_buf_data(q));
        if (sql && sql[0]) {
            size_t n = strlen(sql);
            tg_buf_printf(sh->out, "%.*s;\n", (int)(n - (sql[n - 1] == '\n')), sql);
        } else {
            tg_buf_reset(q);
            tg_buf_puts(q,
                        "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info(");
            put_literal(q, names[i]);
            tg_buf_puts(q, ")");
            char *cols = query_lines(sh, tg_buf_data(q));
            tg_buf_printf(sh->out, "CREATE VIRTUAL TABLE %s USING %s(%.*s);\n", names[i], names[i],
                          cols ? (int)strcspn(cols, "\n") : 0, cols ? cols : "");
            free(cols);
        }
        free(sql);
        tg_buf_free(q);
    }
    tg_buf_flush(sh->out);
    free(lines);
}

static void dot_help(struct shell *sh)
{
    for (const struct dot_help *d = dot_commands; d->name; d++) {
        char head[64];
        snprintf(head, sizeof head, ".%s %s", d->name, d->args);
        tg_buf_printf(sh->out, "%-22s %s\n", head, d->help);
    }
    tg_buf_puts(sh->out, "Other lines are SQL, run when a statement ends with \";\".\n");
    tg_buf_flush(sh->out);
}

static const char *const modes[] = {"box", "csv", "json", "list", "perfetto", "table", NULL};

static void dot_mode(struct shell *sh, const char *mode)
{
    for (size_t i = 0; modes[i]; i++)
        if (strcmp(modes[i], mode) == 0) {
            snprintf(sh->mode, sizeof sh->mode, "%s", strcmp(mode, "box") == 0 ? "table" : mode);
            sh->csv_crlf = strcmp(mode, "csv") == 0;
            return;
        }
    tg_nearest n;
    tg_nearest_init(&n, mode);
    for (size_t i = 0; modes[i]; i++)
        tg_nearest_offer(&n, modes[i]);
    char near[200];
    if (tg_nearest_say(&n, "", near, sizeof near))
        fprintf(stderr,
                "Error: mode should be one of: box csv json list perfetto table (did you "
                "mean %s?)\n",
                near);
    else
        fprintf(stderr, "Error: mode should be one of: box csv json list perfetto table\n");
    note_status(sh, 2);
}

static void dot_output(struct shell *sh, const char *path)
{
    int fd = STDOUT_FILENO;
    if (path && strcmp(path, "stdout") != 0 &&
        (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
        fprintf(stderr, "Error: cannot open \"%s\": %s\n", path, strerror(errno));
        note_status(sh, 1);
        return;
    }
    tg_buf *out = tg_buf_new_fd(fd);
    if (!out) {
        if (fd != STDOUT_FILENO)
            close(fd);
        return;
    }
    tg_buf_flush(sh->out);
    tg_buf_free(sh->out);
    if (sh->out_fd >= 0)
        close(sh->out_fd);
    sh->out = out;
    sh->out_fd = fd == STDOUT_FILENO ? -1 : fd;
}

static void shell_read(struct shell *sh, FILE *in, int interactive);

static void dot_read(struct shell *sh, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "Error: cannot open \"%s\"\n", path);
        note_status(sh, 1);
        return;
    }
    if (sh->depth >= 16) {
        fprintf(stderr, "Error: .read nested too deeply at \"%s\"\n", path);
        note_status(sh, 2);
    } else {
        sh->depth++;
        shell_read(sh, f, 0);
        sh->depth--;
    }
    fclose(f);
}

/* Splits line into words (quotes '...' and "..." keep spaces); their count. */
static int split_words(char *line, char **argv, int max)
{
    int argc = 0;
    for (char *p = line; *p && argc < max;) {
        p += strspn(p, " \t\r\n");
        if (!*p)
            break;
        char quote = *p == '\'' || *p == '"' ? *p++ : 0;
        argv[argc++] = p;
        while (*p && (quote ? *p != quote : !strchr(" \t\r\n", *p)))
            p++;
        if (*p)
            *p++ = 0;
    }
    return argc;
}

static void dot_command(struct shell *sh, char *line)
{
    char *argv[SHELL_ARGS_MAX];
    int argc = split_words(line + strspn(line, " \t") + 1, argv, SHELL_ARGS_MAX);
    if (argc == 0)
        return;
    const char *cmd = argv[0], *arg = argc > 1 ? argv[1] : NULL;
    if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "q") == 0) {
        sh->quit = 1;
    } else if (strcmp(cmd, "exit") == 0) {
        sh->quit = 1;
        if (arg)
            sh->status = atoi(arg);
    } else if (strcmp(cmd, "help") == 0) {
        dot_help(sh);
    } else if (strcmp(cmd, "tables") == 0) {
        dot_tables(sh, arg);
    } else if (strcmp(cmd, "schema") == 0) {
        dot_schema(sh, arg);
    } else if (strcmp(cmd, "mode") == 0 && arg) {
        dot_mode(sh, arg);
    } else if (strcmp(cmd, "mode") == 0) {
        tg_buf_printf(sh->out, "current output mode: %s\n", sh->mode);
        tg_buf_flush(sh->out);
    } else if ((strcmp(cmd, "headers") == 0 || strcmp(cmd, "header") == 0) && arg &&
               on_off(arg) >= 0) {
        sh->headers = on_off(arg);
    } else if (strcmp(cmd, "timer") == 0 && arg && on_off(arg) >= 0) {
        sh->timer = on_off(arg);
    } else if (strcmp(cmd, "output") == 0 || strcmp(cmd, "o") == 0) {
        dot_output(sh, arg);
    } else if (strcmp(cmd, "read") == 0 && arg) {
        dot_read(sh, arg);
    } else {
        tg_nearest n;
        tg_nearest_init(&n, cmd);
        for (const struct dot_help *d = dot_commands; d->name; d++)
            tg_nearest_offer(&n, d->name);
        char near[200];
        if (tg_nearest_say(&n, ".", near, sizeof near))
            fprintf(stderr,
                    "Error: unknown command or invalid arguments:  \"%s\" (did you mean %s?). "
                    "Enter \".help\" for help\n",
                    cmd, near);
        else
            dot_error(sh, "unknown command or invalid arguments:  \"%s\". Enter \".help\" for help",
                      cmd);
        note_status(sh, 2);
    }
}

/* ---- reading lines ----------------------------------------------------------------------- */

/* The next line (malloc'd, without its newline), or NULL at the end of input. */
static char *read_line(FILE *in, int interactive, int continued)
{
    const char *prompt = continued ? "      ...> " : "traceglot> ";
#ifdef TG_HAVE_LIBEDIT
    if (interactive) {
        char *line = readline(prompt);
        if (line && line[strspn(line, " \t")])
            add_history(line);
        return line;
    }
#endif
    if (interactive) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, in);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n && line[n - 1] == '\n')
        line[n - 1] = 0;
    return line;
}

static void shell_read(struct shell *sh, FILE *in, int interactive)
{
    char *pending = NULL;
    size_t len = 0;
    char *line;
    while (!sh->quit && (line = read_line(in, interactive, len > 0)) != NULL) {
        if (len == 0 && line[strspn(line, " \t")] == '.') {
            dot_command(sh, line);
        } else if (len > 0 || line[strspn(line, " \t\r")]) {
            size_t n = strlen(line);
            char *grown = realloc(pending, len + n + 2);
            if (!grown) {
                free(line);
                break;
            }
            pending = grown;
            memcpy(pending + len, line, n);
            len += n;
            pending[len++] = '\n';
            pending[len] = 0;
            if (tg_sql_complete(pending)) {
                run_sql(sh, pending);
                len = 0;
            }
        }
        free(line);
    }
    /* a last statement without ";" runs as sqlite3 runs it */
    if (len > 0 && !sh->quit)
        run_sql(sh, pending);
    free(pending);
    if (interactive && !sh->quit)
        fputc('\n', stdout);
}

int cli_sql_shell(struct sqlite3 *db, const char *format, int interactive)
{
    struct shell sh = {.db = db, .headers = -1, .out_fd = -1};
    snprintf(sh.mode, sizeof sh.mode, "%s", format ? format : "table");
    if (!(sh.out = tg_buf_new_fd(STDOUT_FILENO))) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        return 1;
    }
    char history[4096] = "";
#ifdef TG_HAVE_LIBEDIT
    const char *home = getenv("HOME");
    if (interactive && home && *home) {
        snprintf(history, sizeof history, "%s/.traceglot_history", home);
        read_history(history);
    }
#endif
    shell_read(&sh, stdin, interactive);
#ifdef TG_HAVE_LIBEDIT
    if (history[0])
        write_history(history);
#endif
    (void)history;
    tg_buf_flush(sh.out);
    tg_buf_free(sh.out);
    if (sh.out_fd >= 0)
        close(sh.out_fd);
    return sh.status;
}
