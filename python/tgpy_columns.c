/* tgpy_columns.c - ts.columns(): a dict of columns filled in C, one typed buffer per column
 * (64-bit integers or doubles in a bytearray, which numpy takes without a copy; a list of
 * objects for text), from a SQL query's rows or, with no table, straight from the merged
 * events.  A column's type is its values': integers, then doubles when a real comes (an
 * integer column with NULLs is given as doubles with NaN, as pandas does), objects when a
 * text comes.  Repeated texts (names) are one str each, from a small direct-mapped cache per
 * column, not a new object per row. */
#include "tgpy.h"

#include <stdint.h>
#include <string.h>

#define EVENT_BATCH 256

/* ---- columns ------------------------------------------------------------------------------------ */

enum mode { M_NONE, M_INT, M_REAL, M_OBJ };

struct column {
    enum mode mode;
    size_t n, cap;   /* values, and room in buf (in values) */
    PyObject *buf;   /* bytearray of int64 or double */
    PyObject *list;  /* M_OBJ */
    PyObject *nulls; /* M_INT: bytearray, 1 where a value is NULL (made at the first) */
    struct tgpy_text_cache cache;
    const char *key[TGPY_TEXT_SLOTS]; /* event columns: the text's address in each slot */
};

static int64_t *ints(struct column *c) { return (int64_t *)PyByteArray_AS_STRING(c->buf); }
static double *reals(struct column *c) { return (double *)PyByteArray_AS_STRING(c->buf); }

static int room(struct column *c)
{
    if (c->n < c->cap)
        return 0;
    size_t cap = c->cap ? c->cap * 2 : 1024;
    if (!c->buf && !(c->buf = PyByteArray_FromStringAndSize(NULL, 0)))
        return -1;
    if (PyByteArray_Resize(c->buf, (Py_ssize_t)(cap * 8)) < 0)
        return -1;
    if (c->nulls && PyByteArray_Resize(c->nulls, (Py_ssize_t)cap) < 0)
        return -1;
    c->cap = cap;
    return 0;
}

static int mark_null(struct column *c, size_t i)
{
    if (!c->nulls) {
        if (!(c->nulls = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)c->cap)))
            return -1;
        memset(PyByteArray_AS_STRING(c->nulls), 0, c->cap);
    }
    PyByteArray_AS_STRING(c->nulls)[i] = 1;
    return 0;
}

static int is_null(struct column *c, size_t i)
{
    return c->nulls && PyByteArray_AS_STRING(c->nulls)[i];
}

/* M_INT -> M_REAL: NULLs become NaN */
static void to_real(struct column *c)
{
    for (size_t i = 0; i < c->n; i++)
        reals(c)[i] = is_null(c, i) ? Py_NAN : (double)ints(c)[i];
    Py_CLEAR(c->nulls);
    c->mode = M_REAL;
}

/* M_NONE/M_INT/M_REAL -> M_OBJ (M_NONE: c->n NULLs so far) */
static int to_obj(struct column *c)
{
    PyObject *list = PyList_New((Py_ssize_t)c->n);
    for (size_t i = 0; list && i < c->n; i++) {
        PyObject *v;
        if (c->mode == M_NONE || (c->mode == M_INT && is_null(c, i)))
            v = (Py_INCREF(Py_None), Py_None);
        else if (c->mode == M_INT)
            v = PyLong_FromLongLong(ints(c)[i]);
        else
            v = PyFloat_FromDouble(reals(c)[i]);
        if (!v)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    if (!list)
        return -1;
    c->list = list;
    Py_CLEAR(c->buf);
    Py_CLEAR(c->nulls);
    c->mode = M_OBJ;
    return 0;
}

/* M_NONE -> a typed mode, the NULLs so far filled in */
static int from_none(struct column *c, enum mode m)
{
    if (m == M_OBJ)
        return to_obj(c);
    size_t n = c->n;
    c->n = 0;
    c->mode = m;
    for (size_t i = 0; i < n; i++) {
        if (room(c) < 0)
            return -1;
        if (m == M_INT) {
            ints(c)[c->n] = 0;
            if (mark_null(c, c->n) < 0)
                return -1;
        } else {
            reals(c)[c->n] = Py_NAN;
        }
        c->n++;
    }
    return 0;
}

static int put_obj(struct column *c, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyList_Append(c->list, v);
    Py_DECREF(v);
    c->n++;
    return rc;
}

static int put_int(struct column *c, int64_t v)
{
    if (c->mode == M_NONE && from_none(c, M_INT) < 0)
        return -1;
    if (c->mode == M_OBJ)
        return put_obj(c, PyLong_FromLongLong(v));
    if (room(c) < 0)
        return -1;
    if (c->mode == M_INT)
        ints(c)[c->n] = v;
    else
        reals(c)[c->n] = (double)v;
    c->n++;
    return 0;
}

static int put_real(struct column *c, double v)
{
    if (c->mode == M_NONE && from_none(c, M_REAL) < 0)
        return -1;
    if (c->mode == M_INT)
        to_real(c);
    if (c->mode == M_OBJ)
        return put_obj(c, PyFloat_FromDouble(v));
    if (room(c) < 0)
        return -1;
    reals(c)[c->n++] = v;
    return 0;
}

static int put_null(struct column *c)
{
    switch (c->mode) {
    case M_NONE: c->n++; return 0;
    case M_OBJ: return put_obj(c, (Py_INCREF(Py_None), Py_None));
    case M_INT:
        if (room(c) < 0 || mark_null(c, c->n) < 0)
            return -1;
        ints(c)[c->n++] = 0;
        return 0;
    default: return put_real(c, Py_NAN);
    }
}

/* a text or other object: the column becomes one of objects */
static int put_any(struct column *c, PyObject *v)
{
    if (!v)
        return -1;
    if (c->mode != M_OBJ && (c->mode == M_NONE ? from_none(c, M_OBJ) : to_obj(c)) < 0) {
        Py_DECREF(v);
        return -1;
    }
    return put_obj(c, v);
}

static int put_text(struct column *c, const char *p, size_t n)
{
    return put_any(c, tgpy_cached_text(&c->cache, p, n));
}

/* The column as (code, payload): ('i', bytearray of int64), ('f', bytearray of double) or
 * ('o', list).  An integer column with NULLs is given as doubles with NaN. */
static PyObject *column_result(struct column *c)
{
    if (c->mode == M_NONE && to_obj(c) < 0)
        return NULL;
    if (c->mode == M_INT && c->nulls)
        to_real(c);
    if (c->mode == M_OBJ)
        return Py_BuildValue("(sO)", "o", c->list);
    if (!c->buf && !(c->buf = PyByteArray_FromStringAndSize(NULL, 0)))
        return NULL;
    if (PyByteArray_Resize(c->buf, (Py_ssize_t)(c->n * 8)) < 0)
        return NULL;
    return Py_BuildValue("(sO)", c->mode == M_INT ? "i" : "f", c->buf);
}

static void column_free(struct column *c)
{
    Py_CLEAR(c->buf);
    Py_CLEAR(c->list);
    Py_CLEAR(c->nulls);
    tgpy_text_cache_clear(&c->cache);
}

static PyObject *columns_result(struct column *cols, Py_ssize_t n, PyObject *names)
{
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list && i < n; i++) {
        PyObject *r = column_result(&cols[i]);
        PyObject *t = r ? PyTuple_Pack(2, PyList_GET_ITEM(names, i), r) : NULL;
        Py_XDECREF(r);
        if (!t)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static int is_identifier(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* SELECT "a", b + 1 FROM "table" WHERE ...: names that are identifiers are quoted, others
 * are expressions as written. */
static char *select_text(PyObject *names, const char *table, const char *where)
{
    size_t len = strlen(table) * 2 + (where ? strlen(where) : 0) + 64;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
        const char *n = PyUnicode_AsUTF8(PyList_GET_ITEM(names, i));
        if (!n)
            return NULL;
        len += strlen(n) * 2 + 4;
    }
    char *sql = PyMem_Malloc(len), *p = sql;
    if (!sql)
        return (char *)PyErr_NoMemory();
    p += sprintf(p, "SELECT ");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
        const char *n = PyUnicode_AsUTF8(PyList_GET_ITEM(names, i));
        p += sprintf(p, i ? ", %s%s%s" : "%s%s%s", is_identifier(n) ? "\"" : "", n,
                     is_identifier(n) ? "\"" : "");
    }
    p += sprintf(p, " FROM ");
    if (is_identifier(table))
        p += sprintf(p, "\"%s\"", table);
    else
        p += sprintf(p, "%s", table);
    if (where && *where)
        p += sprintf(p, " WHERE %s", where);
    return sql;
}

static PyObject *columns_sql(tgpy_set *s, PyObject *names, const char *table, const char *where,
                             PyObject *extra)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    Py_ssize_t n = PyList_GET_SIZE(names);
    char *sql = select_text(names, table, where);
    if (!sql)
        return NULL;
    struct tgpy_query q;
    if (tgpy_query_open(s, extra, &q) < 0) {
        PyMem_Free(sql);
        return NULL;
    }
    sqlite3_stmt *stmt = NULL;
    PyObject *result = NULL;
    struct column *cols = PyMem_Calloc((size_t)n + 1, sizeof *cols);
    if (!cols) {
        PyErr_NoMemory();
    } else if (sqlite3_prepare_v2(q.db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        tgpy_raise_text(st, TG_ERR_USAGE, sqlite3_errmsg(q.db), NULL);
    } else {
        int rc, ok = 1;
        while (ok && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int i = 0; ok && i < (int)n; i++) {
                struct column *c = &cols[i];
                switch (sqlite3_column_type(stmt, i)) {
                case SQLITE_INTEGER: ok = put_int(c, sqlite3_column_int64(stmt, i)) == 0; break;
                case SQLITE_FLOAT: ok = put_real(c, sqlite3_column_double(stmt, i)) == 0; break;
                case SQLITE_TEXT:
                    ok = put_text(c, (const char *)sqlite3_column_text(stmt, i),
                                  (size_t)sqlite3_column_bytes(stmt, i)) == 0;
                    break;
                case SQLITE_BLOB: ok = put_any(c, tgpy_column_value(stmt, i, NULL)) == 0; break;
                default: ok = put_null(c) == 0; break;
                }
            }
        }
        if (ok) {
            PyObject *partial = columns_result(cols, n, names);
            if (rc != SQLITE_DONE)
                tgpy_raise_step(st, q.db, rc, partial);
            else if (tg_sql_errors(q.db))
                tgpy_raise_list(st, TG_ERR_FORMAT, tg_sql_errors(q.db), partial);
            else
                result = partial ? (Py_INCREF(partial), partial) : NULL;
            Py_XDECREF(partial);
        }
    }
    sqlite3_finalize(stmt);
    for (Py_ssize_t i = 0; cols && i < n; i++)
        column_free(&cols[i]);
    PyMem_Free(cols);
    PyMem_Free(sql);
    tgpy_query_close(&q);
    return result;
}

/* ---- columns straight from the events ------------------------------------------------------------ */

enum ecol { E_TS, E_CPU, E_TID, E_PID, E_DEPTH, E_ADDR, E_OFFSET, E_NAME, E_KIND, E_FUNC, E_TRACE };
static const char *const ecol_names[] = {"ts",     "cpu",  "tid",  "pid",  "depth", "addr",
                                         "offset", "name", "kind", "func", "trace"};

/* A str for a text the library keeps at a stable address while the pass runs (class names,
 * symbols, paths), cached by that address. */
static PyObject *pointer_text(struct column *c, const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    size_t i = (size_t)(((uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    PyObject **slot = &c->cache.slot[i];
    if (*slot && c->key[i] == s) {
        Py_INCREF(*slot);
        return *slot;
    }
    PyObject *v = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
    if (v) {
        Py_INCREF(v);
        Py_XSETREF(*slot, v);
        c->key[i] = s;
    }
    return v;
}

static int event_value(tgpy_state *st, struct column *c, enum ecol which, const tg_event *ev)
{
    switch (which) {
    case E_TS: return put_int(c, tg_event_time_ns(ev));
    case E_CPU: return put_int(c, tg_event_cpu(ev));
    case E_TID: return put_int(c, tg_event_tid(ev));
    case E_PID: return put_int(c, tg_event_pid(ev));
    case E_DEPTH: return put_int(c, tg_event_depth(ev));
    case E_ADDR: return put_int(c, (int64_t)tg_event_func_addr(ev));
    case E_OFFSET: return put_int(c, (int64_t)tg_event_offset(ev));
    case E_NAME: return put_any(c, pointer_text(c, tg_event_name(ev)));
    case E_KIND: {
        unsigned k = (unsigned)tg_event_kind_of(ev);
        PyObject *s = st->kind[k < TGPY_KINDS ? k : 0];
        Py_INCREF(s);
        return put_any(c, s);
    }
    case E_FUNC: return put_any(c, pointer_text(c, tg_event_func_name(ev)));
    default: {
        const tg_trace *t = tg_event_trace(ev);
        return put_any(c, pointer_text(c, t ? tg_trace_path(t) : NULL));
    }
    }
}

static PyObject *columns_events(tgpy_set *s, PyObject *names, PyObject *extra)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    Py_ssize_t n = PyList_GET_SIZE(names);
    enum ecol *which = PyMem_Calloc((size_t)n + 1, sizeof *which);
    struct column *cols = PyMem_Calloc((size_t)n + 1, sizeof *cols);
    PyObject *result = NULL;
    if (!which || !cols) {
        PyMem_Free(which);
        PyMem_Free(cols);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n && !PyErr_Occurred(); i++) {
        const char *name = PyUnicode_AsUTF8(PyList_GET_ITEM(names, i));
        int k = -1;
        for (int j = 0; name && j < (int)(sizeof ecol_names / sizeof *ecol_names); j++)
            if (strcmp(name, ecol_names[j]) == 0)
                k = j;
        if (name && k < 0)
            PyErr_Format(PyExc_ValueError,
                         "no event column '%s' (ts, name, cpu, tid, pid, kind, func, addr, depth, "
                         "offset, trace; or give table= for a SQL table's columns)",
                         name);
        which[i] = (enum ecol)k;
    }
    tg_options *o = NULL;
    tg_filter *f = NULL;
    tg_set *set = PyErr_Occurred() ? NULL : tgpy_set_open_with(s, extra, &o, &f);
    tg_error *err = NULL;
    tg_iter *it = set ? tg_iter_new(set, f, &err) : NULL;
    if (it && tg_iter_follow_threads(it) < 0) { /* a kernel trace's events get their thread */
        tg_iter_free(it);
        it = NULL;
    }
    if (set && !it)
        tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_NOMEM, err, NULL);
    if (it) {
        const tg_event *evs[EVENT_BATCH];
        int got, ok = 1;
        while (ok && (got = tg_iter_next_batch(it, evs, EVENT_BATCH)) > 0)
            for (Py_ssize_t i = 0; ok && i < n; i++)
                for (int e = 0; ok && e < got; e++)
                    ok = event_value(st, &cols[i], which[i], evs[e]) == 0;
        if (ok) {
            PyObject *partial = columns_result(cols, n, names);
            if (partial && tg_iter_errors(it))
                tgpy_raise_list(st, TG_ERR_FORMAT, tg_iter_errors(it), partial);
            else
                result = partial ? (Py_INCREF(partial), partial) : NULL;
            Py_XDECREF(partial);
        }
        tg_iter_free(it);
    }
    if (set)
        tg_close(set);
    tg_options_free(o);
    tg_filter_free(f);
    for (Py_ssize_t i = 0; i < n; i++)
        column_free(&cols[i]);
    PyMem_Free(cols);
    PyMem_Free(which);
    return result;
}

/* _Set.columns(names, table, where, options) -> [(name, (code, payload))] */
PyObject *tgpy_set_columns(tgpy_set *s, PyObject *args)
{
    PyObject *names, *extra;
    const char *table, *where;
    if (!PyArg_ParseTuple(args, "O!zzO", &PyList_Type, &names, &table, &where, &extra))
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++)
        if (!PyUnicode_Check(PyList_GET_ITEM(names, i))) {
            PyErr_SetString(PyExc_TypeError, "column names must be str");
            return NULL;
        }
    if (!table)
        return columns_events(s, names, extra);
    return columns_sql(s, names, table, where, extra);
}
