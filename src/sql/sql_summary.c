/* sql_summary.c - the per-name summary: a GROUP BY name over slice or ftrace_event answered
 * from one row per name instead of every row through SQLite.
 *
 * `SELECT name, count(*), sum(dur) FROM slice GROUP BY name` (the report query) hands SQLite
 * millions of rows only for it to add them up per name; a third of the time goes to SQLite's
 * loop and the grouping.  SQLite lets a virtual table see the GROUP BY (sqlite3_vtab_distinct)
 * and the columns read, but not the aggregates, so the table itself cannot add up.  This file
 * looks at the statement's text instead: when it is exactly of the family
 *
 *     SELECT item, ... FROM slice|ftrace_event [[AS] t] GROUP BY [t.]name
 *            [ORDER BY term [ASC|DESC], ...] [LIMIT n] [;]
 *
 * where each item or ORDER BY term is the name column, count(*), or (slice) count, sum, min or
 * max of dur or self_dur, an alias or a result column number, it reads the table once through
 * its own scan (the same rows, the same filter, only the columns needed), keeps per name the
 * count, sums, minima and maxima, writes them to a temporary table (one row per name) and runs
 * the same statement rewritten over it: count(*) becomes sum of the counts, sum(dur) the sum
 * of the sums, min and max of the minima and maxima, each result column keeping the name SQLite
 * gave the original (its text).  The answers are those of the plain statement: the groups, their
 * order and every value; a sum that overflows 64 bits or a value that is no integer makes the
 * statement run plainly (SQLite then says what it says), as does every other shape (DISTINCT,
 * WHERE, HAVING, expressions, avg/total whose floating sums depend on row order, bare columns
 * whose value is a group's last row, a table or view shadowing the table, comments or
 * quoted names).  TG_SQL_PLAIN=1 turns the summary off (the tests compare both);
 * TG_SQL_SUMMARY_NOTE=1 says on stderr which statements took it. */
#include "core/grow.h"
#include "core/hash.h"
#include "sql/sql_internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_TABLE "tg_summary_by_name"
#define MAX_ITEMS 32
#define MAX_TOKENS 256

/* ---- the statement's tokens ---------------------------------------------------------------- */

struct token {
    const char *s;
    size_t n;
    char kind; /* 'w' word, '9' number, else the punctuation itself */
};

/* The tokens of text; false on anything the family has not (strings, quotes, comments, ...). */
static bool tokenize(const char *text, struct token *tok, size_t *n_tok)
{
    size_t n = 0;
    for (const char *p = text; *p;) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (n == MAX_TOKENS)
            return false;
        struct token *t = &tok[n++];
        t->s = p;
        if (isalpha((unsigned char)*p) || *p == '_') {
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            t->kind = 'w';
        } else if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)*p))
                p++;
            t->kind = '9';
            if (isalpha((unsigned char)*p) || *p == '.' || *p == '_')
                return false;
        } else if (strchr("(),.*;", *p)) {
            t->kind = *p++;
        } else {
            return false;
        }
        t->n = (size_t)(p - t->s);
    }
    *n_tok = n;
    return true;
}

static bool is_word(const struct token *t, const char *w)
{
    return t->kind == 'w' && strlen(w) == t->n && strncasecmp(t->s, w, t->n) == 0;
}

/* Words that end an item or cannot be an alias. */
static bool is_keyword(const struct token *t)
{
    static const char *const kw[] = {
        "select",  "from",      "where",    "group",   "by",      "order", "limit",  "having",
        "as",      "asc",       "desc",     "union",   "join",    "on",    "window", "offset",
        "collate", "nulls",     "distinct", "all",     "natural", "left",  "inner",  "cross",
        "except",  "intersect", "using",    "indexed", "not",     NULL};
    for (size_t i = 0; kw[i]; i++)
        if (is_word(t, kw[i]))
            return true;
    return false;
}

/* ---- the statement's shape ----------------------------------------------------------------- */

enum agg { AGG_NAME, AGG_COUNT, AGG_SUM, AGG_MIN, AGG_MAX };
enum { SUMMED_DUR, SUMMED_SELF, SUMMED_COUNT };
static const char *const summed_cols[SUMMED_COUNT] = {"dur", "self_dur"};

struct term {
    enum agg agg;
    int col;                /* SUMMED_*, for sum, min, max */
    size_t first, last;     /* its tokens */
    const struct token *as; /* its alias, or NULL */
};

struct shape {
    const struct token *tok;
    size_t n_tok, at;
    const sql_table *table;
    const struct token *table_name;
    const struct token *alias; /* the table's */
    struct term items[MAX_ITEMS];
    size_t n_items;
    struct {
        struct term t; /* agg AGG_NAME with first == last: an alias, a number or name */
        bool expr;
        size_t desc; /* the ASC/DESC token, or 0 */
    } order[MAX_ITEMS];
    size_t n_order;
    size_t limit; /* the LIMIT number's token, or 0 */
    bool uses[SUMMED_COUNT];
};

static const struct token *peek(const struct shape *sh)
{
    static const struct token end = {"", 0, 0};
    return sh->at < sh->n_tok ? &sh->tok[sh->at] : &end;
}

static bool take_word(struct shape *sh, const char *w)
{
    if (!is_word(peek(sh), w))
        return false;
    sh->at++;
    return true;
}

static bool take(struct shape *sh, char kind)
{
    if (peek(sh)->kind != kind)
        return false;
    sh->at++;
    return true;
}

/* [t.]column: the column's token, or NULL. */
static const struct token *column_ref(struct shape *sh)
{
    const struct token *t = peek(sh);
    if (t->kind != 'w' || is_keyword(t))
        return NULL;
    if (sh->alias && sh->at + 2 < sh->n_tok && sh->tok[sh->at + 1].kind == '.') {
        if (t->n != sh->alias->n || strncasecmp(t->s, sh->alias->s, t->n) != 0)
            return NULL;
        sh->at += 2;
        t = peek(sh);
        if (t->kind != 'w')
            return NULL;
    }
    sh->at++;
    return t;
}

/* An item's or ORDER BY term's expression: the name column or an aggregate of the family. */
static bool expression(struct shape *sh, struct term *term)
{
    term->first = sh->at;
    const struct token *t = peek(sh);
    static const char *const fns[] = {"count", "sum", "min", "max"};
    for (int f = 0; f < 4; f++) {
        if (!is_word(t, fns[f]) || sh->at + 1 >= sh->n_tok || sh->tok[sh->at + 1].kind != '(')
            continue;
        sh->at += 2;
        term->agg = (enum agg)(AGG_COUNT + f);
        if (f == 0 && take(sh, '*')) {
            term->last = sh->at;
            return take(sh, ')');
        }
        const struct token *col = column_ref(sh);
        if (!col || sh->table != &sql_table_slice)
            return false;
        term->col = -1;
        for (int k = 0; k < SUMMED_COUNT; k++)
            if (is_word(col, summed_cols[k]))
                term->col = k;
        if (term->col < 0)
            return false;
        sh->uses[term->col] = true;
        term->last = sh->at;
        return take(sh, ')');
    }
    const struct token *col = column_ref(sh);
    term->agg = AGG_NAME;
    term->last = sh->at - 1;
    return col && is_word(col, "name");
}

static bool parse(struct shape *sh)
{
    if (!take_word(sh, "select"))
        return false;
    /* the table first (an item's t.name needs its alias): find FROM at depth 0 */
    size_t from = sh->at;
    for (int depth = 0; from < sh->n_tok; from++) {
        depth += sh->tok[from].kind == '(' ? 1 : sh->tok[from].kind == ')' ? -1 : 0;
        if (depth == 0 && is_word(&sh->tok[from], "from"))
            break;
    }
    if (from + 1 >= sh->n_tok)
        return false;
    size_t items_at = sh->at;
    sh->at = from + 1;
    const struct token *name = sh->table_name = peek(sh);
    if (is_word(name, "slice"))
        sh->table = &sql_table_slice;
    else if (is_word(name, "ftrace_event"))
        sh->table = &sql_table_ftrace_event;
    else
        return false;
    sh->at++;
    bool as = take_word(sh, "as");
    if (peek(sh)->kind == 'w' && !is_keyword(peek(sh)))
        sh->alias = &sh->tok[sh->at++];
    else if (as)
        return false;
    size_t after_from = sh->at;
    sh->at = items_at;
    do {
        if (sh->n_items == MAX_ITEMS)
            return false;
        struct term *it = &sh->items[sh->n_items++];
        if (!expression(sh, it))
            return false;
        as = take_word(sh, "as");
        if (peek(sh)->kind == 'w' && !is_keyword(peek(sh)))
            it->as = &sh->tok[sh->at++];
        else if (as)
            return false;
    } while (take(sh, ','));
    if (sh->at != from)
        return false;
    sh->at = after_from;
    if (!take_word(sh, "group") || !take_word(sh, "by"))
        return false;
    const struct token *key = column_ref(sh);
    if (!key || !is_word(key, "name"))
        return false;
    if (take_word(sh, "order")) {
        if (!take_word(sh, "by"))
            return false;
        do {
            if (sh->n_order == MAX_ITEMS)
                return false;
            size_t at = sh->at;
            struct term *t = &sh->order[sh->n_order].t;
            bool expr = expression(sh, t);
            if (!expr) { /* an alias or a column number */
                sh->at = at;
                const struct token *w = peek(sh);
                if (w->kind != '9' && (w->kind != 'w' || is_keyword(w)))
                    return false;
                *t = (struct term){.agg = AGG_NAME, .first = at, .last = at};
                sh->at++;
            }
            sh->order[sh->n_order].expr = expr;
            sh->order[sh->n_order].desc =
                is_word(peek(sh), "asc") || is_word(peek(sh), "desc") ? sh->at++ : 0;
            sh->n_order++;
        } while (take(sh, ','));
    }
    if (take_word(sh, "limit")) {
        if (peek(sh)->kind != '9')
            return false;
        sh->limit = sh->at++;
    }
    take(sh, ';');
    return sh->at == sh->n_tok;
}

/* ---- the summary ------------------------------------------------------------------------- */

/* The names whose groups are found by their pointer (a power of two). */
#define RECENT_NAMES 256

struct group {
    char *name; /* NULL: the rows without a name */
    int64_t n;
    int64_t sum[SUMMED_COUNT], min[SUMMED_COUNT], max[SUMMED_COUNT];
};

struct summary {
    struct group *g;
    size_t n, cap;
    tg_hash index;
    /* the groups of the names met last, by where the name is (tables hand over interned
     * names: a pointer met again is the same name, found without hashing its text): the
     * row before's, then a recent one's */
    const char *last_s;
    size_t last_g;
    struct {
        const char *s;
        size_t g;
    } recent[RECENT_NAMES];
};

static int name_eq(const void *ctx, uint64_t value)
{
    const void *const *k = ctx;
    const struct summary *sm = k[0];
    const char *s = k[1];
    const char *have = sm->g[value].name;
    return s ? have && strcmp(have, s) == 0 : !have;
}

/* The group of name s (NULL: no name); NULL when out of memory. */
static struct group *group_of(struct summary *sm, const char *s, int len)
{
    if (s && s == sm->last_s && len < 0)
        return &sm->g[sm->last_g];
    size_t slot = ((uintptr_t)s >> 4 ^ (uintptr_t)s >> 12) & (RECENT_NAMES - 1);
    if (s && len < 0 && sm->recent[slot].s == s) {
        sm->last_s = s;
        sm->last_g = sm->recent[slot].g;
        return &sm->g[sm->last_g];
    }
    char *copy = NULL;
    if (s && len >= 0) { /* not NUL-terminated: compare a terminated copy */
        if (!(copy = strndup(s, (size_t)len)))
            return NULL;
        s = copy;
    }
    uint64_t h = s ? tg_hash_str(s) : 0;
    const void *key[2] = {sm, s};
    const uint64_t *found = tg_hash_find_by(&sm->index, h, name_eq, key);
    size_t at = found ? (size_t)*found : sm->n;
    if (!found) {
        uint64_t *value;
        if (tg_grow(&sm->g, &sm->cap, sm->n + 1, sizeof *sm->g) < 0 ||
            tg_hash_add(&sm->index, h, &value) < 0 || (s && !copy && !(copy = strdup(s)))) {
            free(copy);
            return NULL;
        }
        sm->g[at] = (struct group){.name = copy};
        for (int k = 0; k < SUMMED_COUNT; k++) {
            sm->g[at].min[k] = INT64_MAX;
            sm->g[at].max[k] = INT64_MIN;
        }
        copy = NULL;
        *value = at;
        sm->n++;
    }
    free(copy);
    sm->last_s = len < 0 ? s : NULL;
    sm->last_g = at;
    if (s && len < 0) {
        sm->recent[slot].s = s;
        sm->recent[slot].g = at;
    }
    return &sm->g[at];
}

static void summary_free(struct summary *sm)
{
    for (size_t i = 0; i < sm->n; i++)
        free(sm->g[i].name);
    free(sm->g);
    tg_hash_free(&sm->index);
}

/* The column of t named w, or -1. */
static int column_of(const sql_table *t, const char *w)
{
    for (int col = 0; col < t->n_cols; col++) {
        size_t n;
        const char *name = sql_column_name(t, col, &n);
        if (name && n == strlen(w) && strncmp(name, w, n) == 0)
            return col;
    }
    return -1;
}

/* Reads every row of the table once (its own scan, as SQLite's plain plan would) into sm.
 * 1 when every value summed is an integer and no sum overflows, 0 when the statement must
 * run plainly, or a negative status. */
static int summarize(sql_db *db, const struct shape *sh, struct summary *sm)
{
    const sql_table *t = sh->table;
    int name_col = t->col_name, col[SUMMED_COUNT];
    uint64_t cols = 1ull << name_col;
    for (int k = 0; k < SUMMED_COUNT; k++) {
        col[k] = sh->uses[k] ? column_of(t, summed_cols[k]) : -1;
        if (sh->uses[k] && col[k] < 0)
            return 0;
        if (col[k] >= 0)
            cols |= 1ull << col[k];
    }
    sql_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return TG_ERR_NOMEM;
    c->db = db;
    c->table = t;
    c->cols = cols;
    c->any_order = true; /* sums, minima and maxima of integers: any order gives them */
    sql_query_all(&c->q);
    int rc = t->filter(c);
    if (rc >= 0 && !c->eof)
        rc = t->next(c);
    int ok = 1;
    while (rc >= 0 && !c->eof && ok) {
        const sql_val *v = &c->row[name_col];
        struct group *g = v->type == SQLITE_TEXT   ? group_of(sm, v->u.s, v->copy ? v->len : -1)
                          : v->type == SQLITE_NULL ? group_of(sm, NULL, -1)
                                                   : NULL;
        if (!g) {
            ok = 0; /* a name that is no text (never: SQLite would compare it otherwise) */
            rc = v->type == SQLITE_TEXT || v->type == SQLITE_NULL ? TG_ERR_NOMEM : 0;
            break;
        }
        g->n++;
        for (int k = 0; k < SUMMED_COUNT && ok; k++) {
            if (col[k] < 0)
                continue;
            const sql_val *x = &c->row[col[k]];
            if (x->type != SQLITE_INTEGER || __builtin_add_overflow(g->sum[k], x->u.i, &g->sum[k]))
                ok = 0;
            g->min[k] = x->u.i < g->min[k] ? x->u.i : g->min[k];
            g->max[k] = x->u.i > g->max[k] ? x->u.i : g->max[k];
        }
        rc = t->next(c);
    }
    if (t->close)
        t->close(c);
    free(c->q.name);
    free(c);
    return rc < 0 ? 0 : ok; /* a failure: the plain statement meets and reports it */
}

/* ---- the statement over the summary ------------------------------------------------------ */

static void put_tokens(sqlite3_str *q, const struct shape *sh, size_t first, size_t last)
{
    const char *a = sh->tok[first].s, *b = sh->tok[last].s + sh->tok[last].n;
    sqlite3_str_append(q, a, (int)(b - a));
}

/* The summary's expression for a term: the name column, or the aggregate of its columns. */
static void put_term(sqlite3_str *q, const struct term *t)
{
    static const char *const col[SUMMED_COUNT] = {"dur", "self"};
    switch (t->agg) {
    case AGG_NAME: sqlite3_str_appendall(q, "name"); break;
    case AGG_COUNT: sqlite3_str_appendall(q, "sum(tg_n)"); break;
    case AGG_SUM: sqlite3_str_appendf(q, "sum(tg_sum_%s)", col[t->col]); break;
    case AGG_MIN: sqlite3_str_appendf(q, "min(tg_min_%s)", col[t->col]); break;
    case AGG_MAX: sqlite3_str_appendf(q, "max(tg_max_%s)", col[t->col]); break;
    }
}

static char *rewrite(const struct shape *sh)
{
    sqlite3_str *q = sqlite3_str_new(NULL);
    sqlite3_str_appendall(q, "SELECT ");
    for (size_t i = 0; i < sh->n_items; i++) {
        const struct term *it = &sh->items[i];
        if (i)
            sqlite3_str_appendall(q, ", ");
        put_term(q, it);
        if (it->as) {
            sqlite3_str_appendall(q, " AS ");
            sqlite3_str_append(q, it->as->s, (int)it->as->n);
        } else if (it->agg != AGG_NAME) { /* SQLite names it by its text */
            const char *a = sh->tok[it->first].s;
            const char *b = sh->tok[it->last].s + sh->tok[it->last].n;
            char *text = strndup(a, (size_t)(b - a));
            if (!text) {
                sqlite3_free(sqlite3_str_finish(q));
                return NULL;
            }
            sqlite3_str_appendf(q, " AS \"%w\"", text);
            free(text);
        }
    }
    sqlite3_str_appendall(q, " FROM temp." SUMMARY_TABLE " GROUP BY name");
    for (size_t i = 0; i < sh->n_order; i++) {
        sqlite3_str_appendall(q, i ? ", " : " ORDER BY ");
        if (sh->order[i].expr)
            put_term(q, &sh->order[i].t);
        else
            put_tokens(q, sh, sh->order[i].t.first, sh->order[i].t.last);
        if (sh->order[i].desc) {
            sqlite3_str_appendall(q, " ");
            put_tokens(q, sh, sh->order[i].desc, sh->order[i].desc);
        }
    }
    if (sh->limit) {
        sqlite3_str_appendall(q, " LIMIT ");
        put_tokens(q, sh, sh->limit, sh->limit);
    }
    return sqlite3_str_finish(q);
}

/* Whether w names, before the table, a temporary object of the connection, or in the main
 * schema anything but the table's own declaration (a table made after DROP TABLE slice). */
static bool shadowed(sqlite3 *sqlite, const struct token *w)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(sqlite,
                           "SELECT 1 FROM temp.sqlite_schema WHERE name = ?1 COLLATE NOCASE "
                           "UNION ALL SELECT 1 FROM main.sqlite_schema WHERE name = ?1 COLLATE "
                           "NOCASE AND sql NOT LIKE 'CREATE VIRTUAL TABLE ' || name || ' USING ' "
                           "|| name || '(%'",
                           -1, &st, NULL) != SQLITE_OK)
        return true;
    sqlite3_bind_text(st, 1, w->s, (int)w->n, SQLITE_TRANSIENT);
    bool found = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_finalize(st);
    return found;
}

static bool summary_word(const struct token *a)
{
    return a->kind == 'w' && a->n > 3 && strncasecmp(a->s, "tg_", 3) == 0;
}

/* Whether an alias could be taken for the grouping's name or a column of the summary, or an
 * ORDER BY word for such a column (the plain statement has none). */
static bool alias_clash(const struct shape *sh)
{
    for (size_t i = 0; i < sh->n_items; i++) {
        const struct token *a = sh->items[i].as;
        if (a && (is_word(a, "name") || summary_word(a)))
            return true;
    }
    for (size_t i = 0; i < sh->n_order; i++)
        if (!sh->order[i].expr && summary_word(&sh->tok[sh->order[i].t.first]))
            return true;
    return false;
}

/* The temporary table the rewritten statement reads.  SQLite's status. */
static int create_summary(sqlite3 *sqlite)
{
    return sqlite3_exec(sqlite,
                        "CREATE TEMP TABLE " SUMMARY_TABLE
                        "(name TEXT, tg_n INTEGER, tg_sum_dur INTEGER, tg_min_dur INTEGER, "
                        "tg_max_dur INTEGER, tg_sum_self INTEGER, tg_min_self INTEGER, "
                        "tg_max_self INTEGER)",
                        NULL, NULL, NULL);
}

/* The summary's rows into that table.  SQLite's status. */
static int write_summary(sqlite3 *sqlite, const struct summary *sm)
{
    sqlite3_stmt *ins = NULL;
    int rc = sqlite3_prepare_v2(
        sqlite, "INSERT INTO temp." SUMMARY_TABLE " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins,
        NULL);
    for (size_t i = 0; i < sm->n && rc == SQLITE_OK; i++) {
        const struct group *g = &sm->g[i];
        if (g->name)
            sqlite3_bind_text(ins, 1, g->name, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(ins, 1);
        sqlite3_bind_int64(ins, 2, g->n);
        for (int k = 0; k < SUMMED_COUNT; k++) {
            sqlite3_bind_int64(ins, 3 + 3 * k, g->sum[k]);
            sqlite3_bind_int64(ins, 4 + 3 * k, g->min[k]);
            sqlite3_bind_int64(ins, 5 + 3 * k, g->max[k]);
        }
        rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(sqlite);
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    return rc;
}

void sql_summary_end(struct sqlite3 *sqlite)
{
    sqlite3_exec(sqlite, "DROP TABLE IF EXISTS temp." SUMMARY_TABLE, NULL, NULL, NULL);
}

bool sql_summary_route(struct sqlite3 *sqlite, struct sqlite3_stmt **st)
{
    sql_db *db = sql_db_of(sqlite);
    const char *env = getenv("TG_SQL_PLAIN");
    const char *text = sqlite3_sql(*st);
    if (!db || !text || (env && *env && strcmp(env, "0") != 0) || !sqlite3_stmt_readonly(*st))
        return false;
    struct token tok[MAX_TOKENS];
    struct shape sh = {.tok = tok};
    if (!tokenize(text, tok, &sh.n_tok) || !parse(&sh) || alias_clash(&sh) ||
        shadowed(sqlite, sh.table_name))
        return false;
    /* the rewritten statement first (SQLite may refuse it: an ORDER BY word naming another
     * column of the table), then the pass */
    char *sql = rewrite(&sh);
    sqlite3_stmt *fast = NULL;
    sql_summary_end(sqlite);
    if (!sql || create_summary(sqlite) != SQLITE_OK ||
        sqlite3_prepare_v2(sqlite, sql, -1, &fast, NULL) != SQLITE_OK || !fast) {
        sqlite3_finalize(fast);
        sqlite3_free(sql);
        sql_summary_end(sqlite);
        return false;
    }
    struct summary sm = {0};
    bool routed = summarize(db, &sh, &sm) > 0 && write_summary(sqlite, &sm) == SQLITE_OK;
    if (routed) {
        sqlite3_finalize(*st);
        *st = fast;
        const char *note = getenv("TG_SQL_SUMMARY_NOTE");
        if (note && *note) /* for the tests: which statements took the summary */
            fprintf(stderr, "traceglot: sql: %s read per name: %s\n", sh.table->name, sql);
    } else { /* declined (or out of memory): the plain statement runs, and meets it */
        sqlite3_finalize(fast);
        sql_summary_end(sqlite);
    }
    sqlite3_free(sql);
    summary_free(&sm);
    return routed;
}
