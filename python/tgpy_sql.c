/* tgpy_sql.c - SQL in Python: ts.sql() rows, ts.sql(format=) text, and the fleet's formatting
 * of rows gathered from many traces.
 *
 * Queries run on the library's database (tg_sql_open): the set keeps one, over a set of its
 * own (tg_set_reopen), for the queries without options of their own, so a TEMP table made by
 * one query is there for the next; a query with its own filter gets a database for itself.
 * Rows are read with SQLite's own calls on that handle.  format_rows loads rows into an
 * in-memory SQLite table and runs tg_sql_run over it, so the fleet prints the bytes
 * `traceglot sql` prints for the same rows. */
#include "tgpy.h"

#include <stdint.h>
#include <string.h>

/* ---- the database a query runs on --------------------------------------------------------- */

static int has_options(PyObject *extra)
{
    return extra && extra != Py_None && PyObject_Length(extra) > 0;
}

int tgpy_query_open(tgpy_set *s, PyObject *extra, struct tgpy_query *q)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    memset(q, 0, sizeof *q);
    tg_error *err = NULL;
    if (!has_options(extra)) {
        if (s->busy) {
            PyErr_SetString(PyExc_RuntimeError, "a query is running on this trace set");
            return -1;
        }
        if (!s->db) {
            if (!s->db_set && !(s->db_set = tg_set_reopen(s->set, &err)))
                return tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_NOMEM, err, NULL), -1;
            if (tg_sql_open(s->db_set, s->filter, s->opts, &s->db, &err) < 0)
                return tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_NOMEM, err, NULL), -1;
        }
        q->db = s->db;
        q->owner = s;
        s->busy = 1;
        return 0;
    }
    if (!(q->set = tgpy_set_open_with(s, extra, &q->o, &q->f)))
        return -1;
    if (tg_sql_open(q->set, q->f, q->o, &q->db, &err) < 0) {
        tg_close(q->set);
        tg_options_free(q->o);
        tg_filter_free(q->f);
        return tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_NOMEM, err, NULL), -1;
    }
    return 0;
}

void tgpy_query_close(struct tgpy_query *q)
{
    if (q->owner) {
        q->owner->busy = 0;
        return;
    }
    tg_sql_close(q->db);
    tg_close(q->set);
    tg_options_free(q->o);
    tg_filter_free(q->f);
}

/* The error of a failed step: the damage the tables met, or SQLite's message (the query's
 * fault when SQLite says SQLITE_ERROR, else reading failed). */
PyObject *tgpy_raise_step(tgpy_state *st, sqlite3 *db, int rc, PyObject *partial)
{
    const tg_error *damage = tg_sql_errors(db);
    if (damage)
        return tgpy_raise_list(st, TG_ERR_FORMAT, damage, partial);
    return tgpy_raise_text(st, rc == SQLITE_ERROR ? TG_ERR_USAGE : TG_ERR_IO, sqlite3_errmsg(db),
                           partial);
}

/* ---- texts ---------------------------------------------------------------------------------- */

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * UINT64_C(1099511628211);
    return h;
}

/* A str of p[0..n): the cached one when the same text came before in its slot. */
PyObject *tgpy_cached_text(struct tgpy_text_cache *c, const char *p, size_t n)
{
    PyObject **slot = c ? &c->slot[hash_bytes(p, n) % TGPY_TEXT_SLOTS] : NULL;
    if (slot && *slot) {
        Py_ssize_t len;
        const char *have = PyUnicode_AsUTF8AndSize(*slot, &len);
        if (have && (size_t)len == n && memcmp(have, p, n) == 0) {
            Py_INCREF(*slot);
            return *slot;
        }
        PyErr_Clear();
    }
    PyObject *s = PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
    if (s && slot) {
        Py_INCREF(s);
        Py_XSETREF(*slot, s);
    }
    return s;
}

void tgpy_text_cache_clear(struct tgpy_text_cache *c)
{
    for (int i = 0; i < TGPY_TEXT_SLOTS; i++)
        Py_CLEAR(c->slot[i]);
}

PyObject *tgpy_column_value(sqlite3_stmt *st, int i, struct tgpy_text_cache *c)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: return PyLong_FromLongLong(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT: return PyFloat_FromDouble(sqlite3_column_double(st, i));
    case SQLITE_TEXT: {
        const char *p = (const char *)sqlite3_column_text(st, i);
        return tgpy_cached_text(c, p ? p : "", (size_t)sqlite3_column_bytes(st, i));
    }
    case SQLITE_BLOB: {
        const void *p = sqlite3_column_blob(st, i);
        return PyBytes_FromStringAndSize(p, sqlite3_column_bytes(st, i));
    }
    default: Py_RETURN_NONE;
    }
}

/* ---- ts.sql: rows ----------------------------------------------------------------------------- */

static PyObject *names_of(sqlite3_stmt *st)
{
    int n = sqlite3_column_count(st);
    PyObject *names = PyList_New(n);
    for (int i = 0; names && i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        PyObject *s = PyUnicode_FromString(name ? name : "");
        if (!s)
            Py_CLEAR(names);
        else
            PyList_SET_ITEM(names, i, s);
    }
    return names;
}

/* Steps st to its end, appending its rows (tuples) to rows.  SQLite's status. */
static int read_rows(sqlite3_stmt *st, PyObject *rows, struct tgpy_text_cache *cache)
{
    int n = sqlite3_column_count(st), rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        PyObject *row = PyTuple_New(n);
        for (int i = 0; row && i < n; i++) {
            PyObject *v = tgpy_column_value(st, i, cache);
            if (!v)
                Py_CLEAR(row);
            else
                PyTuple_SET_ITEM(row, i, v);
        }
        if (!row || PyList_Append(rows, row) < 0) {
            Py_XDECREF(row);
            return -1;
        }
        Py_DECREF(row);
    }
    return rc;
}

/* _Set.sql(query, options) -> (columns, rows): every statement runs; the rows are the last
 * row-returning statement's.  Damage: traceglot.Error with partial = (columns, rows). */
PyObject *tgpy_set_sql(tgpy_set *s, PyObject *args)
{
    const char *sql;
    PyObject *extra;
    if (!PyArg_ParseTuple(args, "sO", &sql, &extra))
        return NULL;
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    struct tgpy_query q;
    if (tgpy_query_open(s, extra, &q) < 0)
        return NULL;
    PyObject *names = PyList_New(0), *rows = PyList_New(0), *result = NULL;
    struct tgpy_text_cache *cache = PyMem_Calloc(1, sizeof *cache);
    const char *tail = sql;
    int rc = SQLITE_DONE, failed = !names || !rows || !cache;
    while (!failed && tail && *tail) {
        sqlite3_stmt *stmt = NULL;
        if (sqlite3_prepare_v2(q.db, tail, -1, &stmt, &tail) != SQLITE_OK) {
            tgpy_raise_text(st, TG_ERR_USAGE, sqlite3_errmsg(q.db), NULL);
            failed = 2;
            break;
        }
        if (!stmt)
            continue;
        if (sqlite3_column_count(stmt) > 0) {
            Py_XSETREF(names, names_of(stmt));
            Py_XSETREF(rows, PyList_New(0));
            if (!names || !rows) {
                sqlite3_finalize(stmt);
                failed = 1;
                break;
            }
        }
        rc = read_rows(stmt, rows, cache);
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE) {
            failed = rc < 0 ? 1 : 3;
            break;
        }
    }
    PyObject *partial = names && rows ? PyTuple_Pack(2, names, rows) : NULL;
    if (failed == 3)
        tgpy_raise_step(st, q.db, rc, partial);
    else if (!failed && tg_sql_errors(q.db))
        tgpy_raise_list(st, TG_ERR_FORMAT, tg_sql_errors(q.db), partial);
    else if (!failed)
        result = partial ? (Py_INCREF(partial), partial) : NULL;
    Py_XDECREF(partial);
    Py_XDECREF(names);
    Py_XDECREF(rows);
    if (cache) {
        tgpy_text_cache_clear(cache);
        PyMem_Free(cache);
    }
    tgpy_query_close(&q);
    return result;
}

/* _Set.sql_text(query, format, options) -> str: tg_sql_run's table, csv or json. */
PyObject *tgpy_set_sql_text(tgpy_set *s, PyObject *args)
{
    const char *sql, *format;
    PyObject *extra;
    if (!PyArg_ParseTuple(args, "ssO", &sql, &format, &extra))
        return NULL;
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    struct tgpy_query q;
    if (tgpy_query_open(s, extra, &q) < 0)
        return NULL;
    tg_buf *out = tg_buf_new();
    tg_error *err = NULL;
    int rc = TG_ERR_NOMEM;
    if (out) {
        Py_BEGIN_ALLOW_THREADS rc = tg_sql_run(q.db, sql, format, out, &err);
        Py_END_ALLOW_THREADS
    }
    PyObject *text =
        out ? PyUnicode_DecodeUTF8(tg_buf_data(out), (Py_ssize_t)tg_buf_len(out), "surrogateescape")
            : NULL;
    tg_buf_free(out);
    PyObject *result = NULL;
    if (rc < 0)
        tgpy_raise(st, rc, err, text);
    else if (tg_sql_errors(q.db))
        tgpy_raise_list(st, TG_ERR_FORMAT, tg_sql_errors(q.db), text);
    else
        result = text ? (Py_INCREF(text), text) : NULL;
    Py_XDECREF(text);
    tgpy_query_close(&q);
    return result;
}

/* ---- rows from many traces, formatted as traceglot sql formats them -------------------------- */

static int bind_value(sqlite3_stmt *st, int i, PyObject *v)
{
    if (v == Py_None)
        return sqlite3_bind_null(st, i);
    if (PyBool_Check(v) || PyLong_Check(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow)
            return x == -1 && PyErr_Occurred() ? -1 : sqlite3_bind_int64(st, i, x);
        v = PyObject_Str(v); /* wider than SQLite's integers: its text */
        if (!v)
            return -1;
        Py_ssize_t n;
        const char *p = PyUnicode_AsUTF8AndSize(v, &n);
        int rc = p ? sqlite3_bind_text(st, i, p, (int)n, SQLITE_TRANSIENT) : -1;
        Py_DECREF(v);
        return rc;
    }
    if (PyFloat_Check(v))
        return sqlite3_bind_double(st, i, PyFloat_AS_DOUBLE(v));
    if (PyBytes_Check(v))
        return sqlite3_bind_blob(st, i, PyBytes_AS_STRING(v), (int)PyBytes_GET_SIZE(v),
                                 SQLITE_TRANSIENT);
    PyObject *s = PyUnicode_Check(v) ? (Py_INCREF(v), v) : PyObject_Str(v);
    PyObject *b = s ? PyUnicode_AsEncodedString(s, "utf-8", "surrogateescape") : NULL;
    Py_XDECREF(s);
    if (!b)
        return -1;
    int rc =
        sqlite3_bind_text(st, i, PyBytes_AS_STRING(b), (int)PyBytes_GET_SIZE(b), SQLITE_TRANSIENT);
    Py_DECREF(b);
    return rc;
}

static int exec_ok(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* "name" with its quotes doubled */
static void put_quoted(tg_buf *b, const char *s)
{
    tg_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            tg_buf_putc(b, '"');
        tg_buf_putc(b, *s);
    }
    tg_buf_putc(b, '"');
}

/* The three texts: CREATE TABLE rows(c0, c1, ...), INSERT INTO rows VALUES(?, ...) and
 * SELECT c0 AS "name", ... FROM rows ORDER BY rowid (the names as given, even repeated). */
static int row_sql(PyObject *cols, tg_buf *create, tg_buf *insert, tg_buf *select)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cols);
    tg_buf_puts(create, "CREATE TABLE rows(");
    tg_buf_puts(insert, "INSERT INTO rows VALUES(");
    tg_buf_puts(select, "SELECT ");
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PySequence_Fast_GET_ITEM(cols, i);
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (!s) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "column names must be str");
            return -1;
        }
        tg_buf_printf(create, "%sc%zd", i ? ", " : "", i);
        tg_buf_puts(insert, i ? ", ?" : "?");
        tg_buf_printf(select, "%sc%zd AS ", i ? ", " : "", i);
        put_quoted(select, s);
    }
    tg_buf_putc(create, ')');
    tg_buf_putc(insert, ')');
    tg_buf_puts(select, " FROM rows ORDER BY rowid");
    return 0;
}

/* Inserts every row of rows (an iterable of sequences of n values). */
static int insert_rows(sqlite3 *db, sqlite3_stmt *ins, PyObject *rows, Py_ssize_t n)
{
    PyObject *it = PyObject_GetIter(rows), *row;
    if (!it)
        return -1;
    while ((row = PyIter_Next(it)) != NULL) {
        PyObject *vals = PySequence_Fast(row, "a row must be a sequence");
        Py_DECREF(row);
        if (!vals)
            break;
        int bad = PySequence_Fast_GET_SIZE(vals) != n;
        if (bad)
            PyErr_Format(PyExc_ValueError, "a row of %zd values for %zd columns",
                         PySequence_Fast_GET_SIZE(vals), n);
        for (Py_ssize_t i = 0; !bad && i < n; i++)
            bad = bind_value(ins, (int)i + 1, PySequence_Fast_GET_ITEM(vals, i)) != SQLITE_OK;
        Py_DECREF(vals);
        if (bad || sqlite3_step(ins) != SQLITE_DONE) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_RuntimeError, "sqlite: %s", sqlite3_errmsg(db));
            break;
        }
        sqlite3_reset(ins);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* format_rows(columns, rows, format) -> str */
PyObject *tgpy_format_rows(PyObject *module, PyObject *args)
{
    PyObject *names, *rows;
    const char *format;
    if (!PyArg_ParseTuple(args, "OOs", &names, &rows, &format))
        return NULL;
    tgpy_state *st = tgpy_state_of_module(module);
    PyObject *cols = PySequence_Fast(names, "columns must be a sequence of str");
    if (!cols)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cols);
    tg_buf *create = tg_buf_new(), *insert = tg_buf_new(), *select = tg_buf_new();
    tg_buf *out = tg_buf_new();
    sqlite3 *db = NULL;
    sqlite3_stmt *ins = NULL;
    PyObject *result = NULL;
    if (!create || !insert || !select || !out) {
        PyErr_NoMemory();
    } else if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "no columns");
    } else if (row_sql(cols, create, insert, select) == 0) {
        if (sqlite3_open(":memory:", &db) != SQLITE_OK || exec_ok(db, tg_buf_data(create)) < 0 ||
            exec_ok(db, "BEGIN") < 0 ||
            sqlite3_prepare_v2(db, tg_buf_data(insert), -1, &ins, NULL) != SQLITE_OK) {
            PyErr_Format(PyExc_RuntimeError, "sqlite: %s", db ? sqlite3_errmsg(db) : "no memory");
        } else if (insert_rows(db, ins, rows, n) == 0) {
            tg_error *err = NULL;
            int rc = exec_ok(db, "COMMIT");
            if (rc == 0)
                rc = tg_sql_run(db, tg_buf_data(select), format, out, &err);
            if (rc < 0)
                tgpy_raise(st, rc, err, NULL);
            else
                result = PyUnicode_DecodeUTF8(tg_buf_data(out), (Py_ssize_t)tg_buf_len(out),
                                              "surrogateescape");
        }
    }
    sqlite3_finalize(ins);
    sqlite3_close(db);
    tg_buf_free(create);
    tg_buf_free(insert);
    tg_buf_free(select);
    tg_buf_free(out);
    Py_DECREF(cols);
    return result;
}
