/* sql_format.c - tg_sql_run: runs the statements of a text and writes their rows as a table,
 * CSV or JSON, the one formatter the CLI, the Python binding and the fleet share.
 *
 * "csv" is what `sqlite3 -csv -header` writes, byte for byte: values as SQLite's own text
 * (floats with 15 significant digits, NULL empty), a field quoted with "" doubled when it
 * is empty, holds the separator, a quote, a control character, a space or a byte above
 * 0x7e, rows ended by "\n".  "table" is `sqlite3 -box`'s frame (centered headers, values
 * left-aligned, NULL blank, tabs expanded; a newline in a value is a space, where sqlite3
 * breaks the cell); its column widths come from the first 1000 rows, so a long result
 * streams (a later wider value widens its row only).  "json" is one array of
 * objects per statement that returns rows, numbers as JSON numbers (floats with 17
 * significant digits), text escaped, NULL as null.  "perfetto" is what trace_processor_shell
 * prints for -Q (its diff tests' expected outputs): each statement with columns gives a
 * header of quoted names and its rows - strings in quotes as they are, integers bare, floats
 * as printf %f, NULL as "[NULL]", a blob as "<raw bytes>" - and result sets are separated by
 * a blank line; a statement with a column named suppress_query_output prints nothing.
 * "list" is sqlite3's list mode (the shell's .mode list): values as SQLite's text separated
 * by "|", NULL empty.  Flags after a comma: "header" or "noheader" after csv or list say
 * whether the column names come first (the shell's .headers; csv has them, list not, by
 * default), "crlf" ends csv rows with "\r\n" (the shell's .mode csv, as sqlite3's). */
#include "sql/sql_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SAMPLE 1000

enum sql_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_PERFETTO, FMT_LIST };

/* A format with its flags. */
struct sql_style {
    enum sql_format f;
    bool header;
    const char *eol; /* the end of a csv or list row */
};

/* ---- csv ----------------------------------------------------------------------------------- */

static void csv_field(tg_buf *out, const char *s, size_t n)
{
    bool quote = n == 0;
    for (size_t i = 0; i < n && !quote; i++) {
        unsigned char ch = (unsigned char)s[i];
        quote = ch <= 0x20 || ch == '"' || ch == ',' || ch >= 0x7f;
    }
    if (!quote) {
        tg_buf_put(out, s, n);
        return;
    }
    tg_buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            tg_buf_putc(out, '"');
        tg_buf_putc(out, s[i]);
    }
    tg_buf_putc(out, '"');
}

static void csv_header(sqlite3_stmt *st, tg_buf *out, char sep, const char *eol)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        if (i)
            tg_buf_putc(out, sep);
        if (sep == ',')
            csv_field(out, name ? name : "", name ? strlen(name) : 0);
        else
            tg_buf_puts(out, name ? name : "");
    }
    tg_buf_puts(out, eol);
}

static void csv_row(sqlite3_stmt *st, tg_buf *out, const char *eol)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        if (i)
            tg_buf_putc(out, ',');
        if (sqlite3_column_type(st, i) == SQLITE_NULL)
            continue;
        const char *s = (const char *)sqlite3_column_text(st, i);
        csv_field(out, s ? s : "", s ? (size_t)sqlite3_column_bytes(st, i) : 0);
    }
    tg_buf_puts(out, eol);
}

static void list_row(sqlite3_stmt *st, tg_buf *out, const char *eol)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        if (i)
            tg_buf_putc(out, '|');
        const char *s = (const char *)sqlite3_column_text(st, i);
        if (s)
            tg_buf_put(out, s, (size_t)sqlite3_column_bytes(st, i));
    }
    tg_buf_puts(out, eol);
}

/* ---- json ------------------------------------------------------------------------------------ */

static void json_row(sqlite3_stmt *st, tg_buf *out, bool first)
{
    int n = sqlite3_column_count(st);
    tg_buf_puts(out, first ? "[{" : ",\n{");
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        tg_buf_puts(out, i ? ",\"" : "\"");
        tg_text_json_escaped(out, name ? name : "", name ? strlen(name) : 0);
        tg_buf_puts(out, "\":");
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER: tg_buf_i64(out, sqlite3_column_int64(st, i)); break;
        case SQLITE_FLOAT: {
            double d = sqlite3_column_double(st, i);
            char text[40];
            if (isfinite(d)) { /* a float stays one: 431.0, not 431 */
                snprintf(text, sizeof text, "%.17g", d);
                tg_buf_puts(out, text);
                if (!strpbrk(text, ".e"))
                    tg_buf_puts(out, ".0");
            } else
                tg_buf_puts(out, "null");
            break;
        }
        case SQLITE_TEXT:
            tg_buf_putc(out, '"');
            tg_text_json_escaped(out, (const char *)sqlite3_column_text(st, i),
                                 (size_t)sqlite3_column_bytes(st, i));
            tg_buf_putc(out, '"');
            break;
        case SQLITE_BLOB: {
            const unsigned char *p = sqlite3_column_blob(st, i);
            int len = sqlite3_column_bytes(st, i);
            tg_buf_putc(out, '"');
            for (int k = 0; k < len; k++)
                tg_buf_printf(out, "%02x", p[k]);
            tg_buf_putc(out, '"');
            break;
        }
        default: tg_buf_puts(out, "null"); break;
        }
    }
    tg_buf_putc(out, '}');
}

/* ---- perfetto ------------------------------------------------------------------------------- */

static void perfetto_header(sqlite3_stmt *st, tg_buf *out)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        tg_buf_puts(out, i ? ",\"" : "\"");
        tg_buf_puts(out, name ? name : "");
        tg_buf_putc(out, '"');
    }
    tg_buf_putc(out, '\n');
}

static void perfetto_row(sqlite3_stmt *st, tg_buf *out)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        if (i)
            tg_buf_putc(out, ',');
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER: tg_buf_i64(out, sqlite3_column_int64(st, i)); break;
        case SQLITE_FLOAT: tg_buf_printf(out, "%f", sqlite3_column_double(st, i)); break;
        case SQLITE_TEXT:
            tg_buf_putc(out, '"');
            tg_buf_put(out, (const char *)sqlite3_column_text(st, i),
                       (size_t)sqlite3_column_bytes(st, i));
            tg_buf_putc(out, '"');
            break;
        case SQLITE_BLOB: tg_buf_puts(out, "\"<raw bytes>\""); break;
        default: tg_buf_puts(out, "\"[NULL]\""); break;
        }
    }
    tg_buf_putc(out, '\n');
}

/* Whether trace_processor_shell leaves the statement's result out. */
static bool perfetto_suppressed(sqlite3_stmt *st)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        if (name && strcmp(name, "suppress_query_output") == 0)
            return true;
    }
    return n == 0;
}

/* ---- table ----------------------------------------------------------------------------------- */

struct table {
    int n_cols;
    size_t *width;
    char **cells; /* the sampled rows' cells, row-major (NULL: SQL NULL) */
    char **row;   /* a row's cells after the sample */
    size_t n_rows, cap_rows;
};

/* s as a cell shows it (into out when not NULL), and its width: UTF-8 code points, a tab
 * up to the cell's next multiple of 8 columns, another control character a space, as
 * sqlite3 -box shows them (it breaks a cell at a newline; here it is one line). */
static size_t cell_text(tg_buf *out, const char *s)
{
    size_t w = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\t') {
            do {
                if (out)
                    tg_buf_putc(out, ' ');
                w++;
            } while (w & 7);
            continue;
        }
        if (out)
            tg_buf_putc(out, c < 0x20 || c == 0x7f ? ' ' : (char)c);
        w += (c & 0xc0) != 0x80;
    }
    return w;
}

static size_t text_width(const char *s) { return cell_text(NULL, s); }

static void rule(tg_buf *out, const struct table *t, const char *l, const char *m, const char *r)
{
    tg_buf_puts(out, l);
    for (int i = 0; i < t->n_cols; i++) {
        for (size_t k = 0; k < t->width[i] + 2; k++)
            tg_buf_puts(out, "\u2500");
        tg_buf_puts(out, i + 1 < t->n_cols ? m : r);
    }
    tg_buf_putc(out, '\n');
}

static void cells(tg_buf *out, const struct table *t, char *const *row, bool center)
{
    tg_buf_puts(out, "\u2502");
    for (int i = 0; i < t->n_cols; i++) {
        const char *s = row[i] ? row[i] : "";
        size_t w = text_width(s), pad = w < t->width[i] ? t->width[i] - w : 0;
        size_t left = center ? pad / 2 : 0;
        tg_buf_putc(out, ' ');
        tg_buf_pad(out, ' ', (int)left);
        cell_text(out, s);
        tg_buf_pad(out, ' ', (int)(pad - left));
        tg_buf_puts(out, " \u2502");
    }
    tg_buf_putc(out, '\n');
}

static int table_keep(struct table *t, sqlite3_stmt *st)
{
    if (tg_grow(&t->cells, &t->cap_rows, (t->n_rows + 1) * (size_t)t->n_cols, sizeof *t->cells) < 0)
        return TG_ERR_NOMEM;
    char **row = &t->cells[t->n_rows * (size_t)t->n_cols];
    for (int i = 0; i < t->n_cols; i++) {
        const char *s = (const char *)sqlite3_column_text(st, i);
        row[i] = s ? strdup(s) : NULL;
        if (s && !row[i])
            return TG_ERR_NOMEM;
        size_t w = row[i] ? text_width(row[i]) : 0;
        if (w > t->width[i])
            t->width[i] = w;
    }
    t->n_rows++;
    return 0;
}

static void table_flush(struct table *t, sqlite3_stmt *st, tg_buf *out)
{
    if (!t->n_rows)
        return;
    char **names = malloc((size_t)t->n_cols * sizeof *names);
    if (!names)
        return;
    for (int i = 0; i < t->n_cols; i++)
        names[i] = (char *)sqlite3_column_name(st, i);
    rule(out, t, "\u250c", "\u252c", "\u2510");
    cells(out, t, names, true);
    rule(out, t, "\u251c", "\u253c", "\u2524");
    free(names);
    for (size_t r = 0; r < t->n_rows; r++) {
        cells(out, t, &t->cells[r * (size_t)t->n_cols], false);
        for (int i = 0; i < t->n_cols; i++)
            free(t->cells[r * (size_t)t->n_cols + (size_t)i]);
    }
    t->n_rows = 0;
}

static void table_row(struct table *t, sqlite3_stmt *st, tg_buf *out)
{
    for (int i = 0; i < t->n_cols; i++)
        t->row[i] = (char *)sqlite3_column_text(st, i);
    cells(out, t, t->row, false);
}

/* ---- statements -------------------------------------------------------------------------------- */

static int format_of(const char *name, struct sql_style *sty)
{
    size_t len = name ? strcspn(name, ",") : 0;
    *sty = (struct sql_style){FMT_TABLE, true, "\n"};
    if (!name || (len == 5 && strncmp(name, "table", 5) == 0))
        sty->f = FMT_TABLE;
    else if (len == 3 && strncmp(name, "csv", 3) == 0)
        sty->f = FMT_CSV;
    else if (len == 4 && strncmp(name, "list", 4) == 0)
        sty->f = FMT_LIST, sty->header = false;
    else if (len == 4 && strncmp(name, "json", 4) == 0)
        sty->f = FMT_JSON;
    else if (len == 8 && strncmp(name, "perfetto", 8) == 0)
        sty->f = FMT_PERFETTO;
    else
        return -1;
    bool rows = sty->f == FMT_CSV || sty->f == FMT_LIST;
    for (const char *flag = name ? name + len : ""; *flag == ',';) {
        flag++;
        size_t n = strcspn(flag, ",");
        if (rows && n == 6 && strncmp(flag, "header", 6) == 0)
            sty->header = true;
        else if (rows && n == 8 && strncmp(flag, "noheader", 8) == 0)
            sty->header = false;
        else if (rows && n == 4 && strncmp(flag, "crlf", 4) == 0)
            sty->eol = "\r\n";
        else
            return -1;
        flag += n;
    }
    return 0;
}

/* A failing step: SQLite's message; a table's own failure (reading the trace) keeps its
 * status, anything else is the query's (bad SQL, a type error). */
static int step_failed(sqlite3 *sqlite, sql_db *db, tg_error **err)
{
    bool ours = db && db->message;
    int status = ours ? TG_ERR_IO : TG_ERR_USAGE;
    if (ours && strstr(db->message, "out of memory"))
        status = TG_ERR_NOMEM;
    return tg_err(err, status, "%s", sqlite3_errmsg(sqlite));
}

static int run_statement(sqlite3_stmt *st, const struct sql_style *sty, tg_buf *out,
                         sqlite3 *sqlite, sql_db *db, tg_error **err)
{
    enum sql_format f = sty->f;
    int n = sqlite3_column_count(st);
    struct table t = {.n_cols = n};
    if (f == FMT_TABLE && n &&
        (!(t.width = calloc((size_t)n, sizeof *t.width)) ||
         !(t.row = calloc((size_t)n, sizeof *t.row)))) {
        free(t.width);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    if (f == FMT_TABLE)
        for (int i = 0; i < n; i++)
            t.width[i] = text_width(sqlite3_column_name(st, i) ? sqlite3_column_name(st, i) : "");
    if ((f == FMT_CSV || f == FMT_LIST) && n && sty->header)
        csv_header(st, out, f == FMT_CSV ? ',' : '|', sty->eol);
    bool quiet = f == FMT_PERFETTO && perfetto_suppressed(st);
    if (f == FMT_PERFETTO && !quiet)
        perfetto_header(st, out);
    size_t rows = 0;
    int rc, status = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (f == FMT_CSV) {
            csv_row(st, out, sty->eol);
        } else if (f == FMT_LIST) {
            list_row(st, out, sty->eol);
        } else if (f == FMT_PERFETTO) {
            if (!quiet)
                perfetto_row(st, out);
        } else if (f == FMT_JSON) {
            json_row(st, out, rows == 0);
        } else if (rows < TABLE_SAMPLE) {
            if ((status = table_keep(&t, st)) < 0)
                break;
        } else {
            if (rows == TABLE_SAMPLE)
                table_flush(&t, st, out);
            table_row(&t, st, out);
        }
        rows++;
    }
    if (status < 0)
        tg_err(err, status, "out of memory");
    else if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        status = step_failed(sqlite, db, err);
    if (f == FMT_TABLE) {
        table_flush(&t, st, out);
        if (rows)
            rule(out, &t, "\u2514", "\u2534", "\u2518");
    }
    if (f == FMT_JSON && n)
        tg_buf_puts(out, rows ? "]\n" : "[]\n");
    for (size_t r = 0; r < t.n_rows * (size_t)t.n_cols; r++)
        free(t.cells[r]);
    free(t.cells);
    free(t.width);
    free(t.row);
    return status;
}

/* The result sets of several statements in "json": one document, an array of the arrays
 * (wrap), or the one array of a single statement. */
struct json_doc {
    bool wrap;
    size_t sets;
};

static int run_text(sqlite3 *sqlite, const char *sql, const struct sql_style *sty,
                    struct json_doc *doc, tg_buf *out, tg_error **err)
{
    enum sql_format f = sty->f;
    sql_db *db = sql_db_of(sqlite);
    const char *tail = sql;
    size_t printed = 0;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        if (db) {
            free(db->message);
            db->message = NULL;
        }
        if (sqlite3_prepare_v2(sqlite, tail, -1, &st, &tail) != SQLITE_OK)
            return sql_prepare_failed(sqlite, err);
        if (!st)
            continue; /* white space or a comment */
        if (f == FMT_PERFETTO && !perfetto_suppressed(st) && printed++)
            tg_buf_putc(out, '\n'); /* between result sets */
        if (f == FMT_JSON && doc->wrap && sqlite3_column_count(st))
            tg_buf_puts(out, doc->sets++ ? "," : "[");
        bool routed = sql_summary_route(sqlite, &st);
        int rc = run_statement(st, sty, out, sqlite, db, err);
        sqlite3_finalize(st);
        if (routed)
            sql_summary_end(sqlite);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int tg_sql_run(struct sqlite3 *sqlite, const char *sql, const char *format, tg_buf *out,
               tg_error **err)
{
    return tg_sql_run_texts(sqlite, &sql, 1, format, out, err);
}

/* The statements of text: complete ones (sqlite3_complete) and a last one without ";". */
static size_t count_statements(const char *text)
{
    size_t n = 0, len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy)
        return 2; /* as several: the document stays one */
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != ';')
            continue;
        memcpy(copy, text + from, i + 1 - from);
        copy[i + 1 - from] = 0;
        if (sqlite3_complete(copy)) {
            if (copy[strspn(copy, " \t\r\n;")])
                n++;
            from = i + 1;
        }
    }
    if (text[from + strspn(text + from, " \t\r\n")])
        n++;
    free(copy);
    return n;
}

int tg_sql_run_texts(struct sqlite3 *sqlite, const char *const *texts, size_t n, const char *format,
                     tg_buf *out, tg_error **err)
{
    struct sql_style sty;
    if (format_of(format, &sty) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "unknown output format '%s' (table, csv, json, perfetto, list)", format);
    struct json_doc doc = {.wrap = false};
    if (sty.f == FMT_JSON) {
        size_t statements = 0;
        for (size_t i = 0; i < n && statements < 2; i++)
            statements += count_statements(texts[i]);
        doc.wrap = statements > 1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc >= 0; i++)
        rc = run_text(sqlite, texts[i], &sty, &doc, out, err);
    if (doc.wrap)
        tg_buf_puts(out, doc.sets ? "]\n" : "[]\n");
    return rc;
}
