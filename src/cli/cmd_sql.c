/* cmd_sql.c - `traceglot sql`: SQL over the traces' tables (tg_sql_open, tg_sql_run).
 *
 * Each -q is run in order (-q @FILE reads the SQL from FILE); without -q, standard input is
 * read: on a terminal as a prompt, one statement per line, as sqlite3 gives one; otherwise
 * as one SQL text.  Rows go to standard output in --format table, csv, json or
 * perfetto (trace_processor_shell's).  Bad SQL is a
 * usage error (exit 2, SQLite's message); damage met in the traces is printed after the
 * rows it let through (exit 1). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of f, NUL-terminated, or NULL. */
static char *slurp(FILE *f)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    if (s)
        s[n] = 0;
    return s;
}

/* Runs one SQL text (or @FILE); the first failure's exit code, printed. */
static int run_text(struct sqlite3 *db, const char *text, const char *format, tg_buf *out)
{
    char *owned = NULL;
    if (text[0] == '@') {
        FILE *f = fopen(text + 1, "r");
        if (!f || !(owned = slurp(f))) {
            fprintf(stderr, "traceglot sql: cannot read %s\n", text + 1);
            if (f)
                fclose(f);
            return 2;
        }
        fclose(f);
        text = owned;
    }
    tg_error *err = NULL;
    int rc = tg_sql_run(db, text, format, out, &err);
    free(owned);
    if (tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    return rc < 0 ? cli_finish(rc, err) : 0;
}

/* The prompt: one statement per line, each run as it is entered. */
static int prompt(struct sqlite3 *db, const char *format, tg_buf *out)
{
    char *line = NULL;
    size_t cap = 0;
    int status = 0;
    for (;;) {
        fputs("traceglot> ", stdout);
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0)
            break;
        if (line[strspn(line, " \t\r\n")] == 0)
            continue;
        status = run_text(db, line, format, out);
    }
    fputc('\n', stdout);
    free(line);
    return status;
}

int cli_run_sql(struct cli_args *a)
{
    const char *format = tg_options_get(a->opts, "format");
    if (format && strcmp(format, "table") != 0 && strcmp(format, "csv") != 0 &&
        strcmp(format, "json") != 0 && strcmp(format, "perfetto") != 0) {
        fprintf(stderr, "traceglot sql: unknown format '%s' (table, csv, json, perfetto)\n",
                format);
        return 2;
    }
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    struct sqlite3 *db = NULL;
    tg_error *err = NULL;
    if (tg_sql_open(set, a->filter, a->opts, &db, &err) < 0) {
        tg_close(set);
        return cli_finish(TG_ERR_NOMEM, err);
    }
    tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
    int status = out ? 0 : 1;
    const char *queries = tg_options_get(a->opts, "query");
    if (!out) {
        fprintf(stderr, "traceglot: error: out of memory\n");
    } else if (queries) {
        char *all = strdup(queries);
        for (char *q = all, *next; q && status == 0; q = next) {
            next = strchr(q, CLI_APART);
            if (next)
                *next++ = 0;
            status = run_text(db, q, format, out);
        }
        free(all);
    } else if (isatty(STDIN_FILENO)) {
        status = prompt(db, format, out);
    } else {
        char *text = slurp(stdin);
        status = text ? run_text(db, text, format, out) : 1;
        free(text);
    }
    /* the rows before the damage are out; now the damage */
    const tg_error *damage = tg_sql_errors(db);
    for (const tg_error *e = damage; e; e = tg_error_next(e))
        fprintf(stderr, "traceglot: error: %s\n", tg_error_message(e));
    if (damage && status == 0)
        status = 1;
    tg_buf_free(out);
    tg_sql_close(db);
    tg_close(set);
    return status;
}
