/* tgpy.h - what the files of the Python extension (traceglot._traceglot) share: the module's
 * state (its types, the Error class, the event kinds' names), options and filters made from
 * Python values, and raising traceglot.Error from a library error.
 *
 * The extension is a layer of its own over the public header only (DESIGN.md: the binding is
 * thin, anything the CLI does Python does, nothing is computed in Python).  Its types are
 * heap types made from specs and its state hangs on the module, so nothing lives in
 * file-scope variables. */
#ifndef TGPY_H
#define TGPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "traceglot.h"

#include <sqlite3.h>

#define TGPY_KINDS 15 /* TG_KIND_GENERIC .. TG_KIND_COUNTER */

typedef struct tgpy_state {
    PyObject *error;      /* traceglot.Error */
    PyTypeObject *set;    /* _Set: the library's trace set, the options it was opened with */
    PyTypeObject *iter;   /* _Events: a merged, filtered pass over a set's events */
    PyTypeObject *event;  /* Event */
    PyTypeObject *fields; /* Fields: an Event's fields, decoded on access */
    PyObject *kind[TGPY_KINDS];
} tgpy_state;

tgpy_state *tgpy_state_of_type(PyTypeObject *type);
tgpy_state *tgpy_state_of_module(PyObject *module);

/* Options as the caller gave them: a sequence of (key, value) pairs of str, key spelt as the
 * library spells it ("instr-map"), values as the library reads them ("1", "a\nb").  The
 * filter keys (begin, end, events, tid, cpu) also set the filter, as the CLI does.  0, or -1
 * with traceglot.Error raised (unknown key: the library's message, with the nearest key). */
int tgpy_options_fill(tgpy_state *st, PyObject *pairs, tg_options *o, tg_filter *f);

/* Raises traceglot.Error for status rc and err's list (err may be NULL), with partial (may be
 * NULL: None) as what came before the damage; frees err.  Returns NULL. */
PyObject *tgpy_raise(tgpy_state *st, int rc, tg_error *err, PyObject *partial);
/* The same for a list the library keeps (tg_iter_errors, tg_sql_errors): not freed. */
PyObject *tgpy_raise_list(tgpy_state *st, int rc, const tg_error *errs, PyObject *partial);
/* The same with one message of our own (SQLite's). */
PyObject *tgpy_raise_text(tgpy_state *st, int rc, const char *message, PyObject *partial);

/* The set object: paths, the options and filter it was opened with, the set itself. */
typedef struct tgpy_set {
    PyObject_HEAD tg_set *set;
    tg_options *opts;
    tg_filter *filter;
    PyObject *paths;    /* list of str */
    PyObject *pairs;    /* the options given at open, as pairs */
    struct sqlite3 *db; /* the set's SQL database, made at the first query */
    tg_set *db_set;     /* the set it reads (reopened: independent of event passes) */
    int busy;           /* a query is running on db */
} tgpy_set;

/* A set opened from o's paths with the set's options and then extra (pairs; may be None), and
 * the filter of both: for a call with options of its own.  NULL with Error raised. */
tg_set *tgpy_set_open_with(tgpy_set *s, PyObject *extra, tg_options **o, tg_filter **f);

/* An Event (tgpy_events.c): what the pass copied into it, the library's event while the
 * pass is on it, and what was decoded before the pass moved on (keep=True). */
typedef struct tgpy_event {
    PyObject_HEAD int64_t ts;
    PyObject *name;     /* its class's name (shared) */
    const tg_event *ev; /* the library's event while its batch is current, else NULL */
    PyObject *kept;     /* what was decoded (a dict by attribute name), or NULL */
    int32_t cpu, tid, pid;
    int kind;
    int views; /* Fields alive over it: decoded into kept when the pass moves on */
} tgpy_event;

/* tgpy_events.c */
PyObject *tgpy_events_new(tgpy_set *s, PyObject *extra, int trace_clock, int keep);
extern PyType_Spec tgpy_iter_spec;
extern PyType_Spec tgpy_event_spec;
/* A value as a Python object: int, float, str, bytes, list, dict (a struct; a variant as
 * {option: value}).  NULL with an exception set. */
PyObject *tgpy_value(const tg_value *v, int depth);
/* The fields of one scope of ev as a dict (name -> value). */
PyObject *tgpy_scope_dict(const tg_event *ev, tg_scope scope, PyObject *into);
/* Raises traceglot.Error: the pass has moved on from e and nothing was kept.  NULL. */
PyObject *tgpy_event_gone(tgpy_event *e);

/* tgpy_fields.c: ev.fields, ev.context, ev.retval as a read-only mapping over the Event
 * (one or two scopes; attr: the attribute's name, its dict's key in e->kept). */
extern PyType_Spec tgpy_fields_spec;
PyObject *tgpy_fields_new(tgpy_state *st, tgpy_event *e, const char *attr, const tg_scope *scopes,
                          int nscopes);

/* tgpy_sql.c: queries.  A query runs on the set's own database when it has no options of its
 * own, else on one made for it; tgpy_query_open raises and returns -1 on failure. */
struct tgpy_query {
    sqlite3 *db;
    tg_set *set; /* of a database made for one call, else NULL */
    tg_options *o;
    tg_filter *f;
    tgpy_set *owner; /* busy while the query runs on the set's own database */
};
int tgpy_query_open(tgpy_set *s, PyObject *extra, struct tgpy_query *q);
void tgpy_query_close(struct tgpy_query *q);
/* The error of a failed step: the damage the tables met, or SQLite's message. */
PyObject *tgpy_raise_step(tgpy_state *st, sqlite3 *db, int rc, PyObject *partial);
/* Texts that repeat (names in a column) made once: a direct-mapped cache, each slot the last
 * str made for the texts that hash to it. */
#define TGPY_TEXT_SLOTS 256
struct tgpy_text_cache {
    PyObject *slot[TGPY_TEXT_SLOTS];
};
PyObject *tgpy_cached_text(struct tgpy_text_cache *c, const char *p, size_t n);
void tgpy_text_cache_clear(struct tgpy_text_cache *c);
/* Column i of st's row as int, float, str, bytes or None. */
PyObject *tgpy_column_value(sqlite3_stmt *st, int i, struct tgpy_text_cache *c);
PyObject *tgpy_set_sql(tgpy_set *s, PyObject *args);
PyObject *tgpy_set_sql_text(tgpy_set *s, PyObject *args);
PyObject *tgpy_format_rows(PyObject *module, PyObject *args);

/* tgpy_columns.c */
PyObject *tgpy_set_columns(tgpy_set *s, PyObject *args);

#endif
