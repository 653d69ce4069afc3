/* tgpy_events.c - events in Python: the pass over a set (_Events, what ts.events() returns)
 * and the Event objects it hands out.
 *
 * The pass reads the merged, filtered events in batches (tg_iter_next_batch), so the cost of
 * an event in Python is the cost of its object: ts, name, cpu, tid, pid and kind are copied
 * into it (the name is one str per event class, from a small direct-mapped cache, never made
 * per event); everything else (fields, contexts, function, the tracer's own text) is decoded
 * from the library's event only when asked.  The library's event lasts until the pass
 * reads on, and a CTF stream's batches are one event long, so an Event's decoded attributes
 * are promised until the next event is taken: when the pass moves on, the Event it handed
 * out last is detached.  A plain pass forgets the library's event (asking such an Event for
 * its fields then raises traceglot.Error saying why); a pass with keep=True decodes every
 * attribute of an Event still held elsewhere before moving on, so a list of Events answers
 * everything later (at the cost of decoding each).  fields, context and retval are Fields
 * (tgpy_fields.c): mappings over the Event decoding a field when asked, no dict per event; one
 * still held when the pass moves on is decoded whole first, on a plain pass too.  An Event
 * dropped in the loop costs no decoding either way.  Damage: the events before it, then traceglot.Error with every error
 * the pass met. */
#include "tgpy.h"

#include <stdint.h>
#include <string.h>

#define BATCH 256
#define NAME_SLOTS 64

#define TGPY_GONE                                                                                  \
    "the pass has moved on from this event: read its fields in the loop, or keep events with "     \
    "ts.events(keep=True)"

struct name_slot {
    const tg_event_class *cls;
    PyObject *name;
};

typedef struct tgpy_iter {
    PyObject_HEAD tgpy_state *st;
    tgpy_set *owner; /* keeps the options the pass's set was opened with alive */
    tg_set *set;
    tg_filter *filter;
    tg_iter *it;
    int trace_clock, keep, done;
    size_t n, pos;
    const tg_event *evs[BATCH];
    tgpy_event *last; /* the Event handed out last, while it is attached */
    struct name_slot names[NAME_SLOTS];
} tgpy_iter;

/* ---- values ---------------------------------------------------------------------------------- */

static PyObject *text_of(const char *p, size_t n)
{
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
}

/* A text array or sequence (bytes meant as text): the text up to its first NUL. */
static PyObject *text_array(const tg_value *v)
{
    char small[256] = {0};
    char *buf = v->count <= sizeof small ? small : PyMem_Malloc(v->count);
    if (!buf)
        return PyErr_NoMemory();
    size_t n = 0;
    for (size_t i = 0; i < v->count; i++) {
        tg_value c;
        if (tg_value_child(v, i, &c) < 0)
            break;
        char b = (char)(c.type == TG_VAL_SINT ? c.v.s : (int64_t)c.v.u);
        if (b == 0)
            break;
        buf[n++] = b;
    }
    PyObject *s = text_of(buf, n);
    if (buf != small)
        PyMem_Free(buf);
    return s;
}

PyObject *tgpy_value(const tg_value *v, int depth)
{
    if (depth > 64) {
        PyErr_SetString(PyExc_RecursionError, "field nested too deeply");
        return NULL;
    }
    switch (v->type) {
    case TG_VAL_SINT: return PyLong_FromLongLong(v->v.s);
    case TG_VAL_UINT: return PyLong_FromUnsignedLongLong(v->v.u);
    case TG_VAL_FLOAT: return PyFloat_FromDouble(v->v.f);
    case TG_VAL_STRING: return text_of(v->v.str.ptr, v->v.str.len);
    case TG_VAL_BYTES: return PyBytes_FromStringAndSize(v->v.str.ptr, (Py_ssize_t)v->v.str.len);
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE: {
        if (v->flags & TG_VALF_TEXT)
            return text_array(v);
        PyObject *list = PyList_New((Py_ssize_t)v->count);
        for (size_t i = 0; list && i < v->count; i++) {
            tg_value c;
            PyObject *item = NULL;
            if (tg_value_child(v, i, &c) < 0) {
                item = Py_None;
                Py_INCREF(item);
            } else {
                item = tgpy_value(&c, depth + 1);
            }
            if (!item)
                Py_CLEAR(list);
            else
                PyList_SET_ITEM(list, (Py_ssize_t)i, item);
        }
        return list;
    }
    case TG_VAL_STRUCT:
    case TG_VAL_VARIANT: {
        PyObject *d = PyDict_New();
        for (size_t i = 0; d && i < v->count; i++) {
            tg_value c;
            if (tg_value_child(v, i, &c) < 0)
                continue;
            PyObject *item = tgpy_value(&c, depth + 1);
            if (!item || PyDict_SetItemString(d, c.name ? c.name : "", item) < 0)
                Py_CLEAR(d);
            Py_XDECREF(item);
        }
        return d;
    }
    default: Py_RETURN_NONE;
    }
}

PyObject *tgpy_scope_dict(const tg_event *ev, tg_scope scope, PyObject *into)
{
    PyObject *d = into ? into : PyDict_New();
    size_t n = d ? tg_event_field_count(ev, scope) : 0;
    for (size_t i = 0; d && i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) < 0)
            continue;
        PyObject *item = tgpy_value(&v, 0);
        if (!item || PyDict_SetItemString(d, v.name ? v.name : "", item) < 0)
            Py_CLEAR(d);
        Py_XDECREF(item);
    }
    return d;
}

/* ---- Event ------------------------------------------------------------------------------------ */

enum lazy {
    L_FIELDS,
    L_CONTEXT,
    L_RETVAL,
    L_TRACE,
    L_FUNC,
    L_ADDR,
    L_DEPTH,
    L_TEXT,
    L_OFFSET,
    L_LOST,
    L_COUNT
};
static const char *const lazy_names[L_COUNT] = {
    "fields", "context", "retval", "trace", "func", "addr", "depth", "text", "offset", "lost",
};

static PyObject *none_or(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return text_of(s, strlen(s));
}

/* Decodes attribute what of the library's event. */
static PyObject *decode(const tg_event *ev, enum lazy what)
{
    switch (what) {
    case L_FIELDS: return tgpy_scope_dict(ev, TG_SCOPE_PAYLOAD, NULL);
    case L_CONTEXT: {
        PyObject *d = tgpy_scope_dict(ev, TG_SCOPE_STREAM_CONTEXT, NULL);
        return d ? tgpy_scope_dict(ev, TG_SCOPE_EVENT_CONTEXT, d) : NULL;
    }
    case L_RETVAL: return tgpy_scope_dict(ev, TG_SCOPE_RETURN, NULL);
    case L_TRACE: {
        const tg_trace *t = tg_event_trace(ev);
        return none_or(t ? tg_trace_path(t) : NULL);
    }
    case L_FUNC: return none_or(tg_event_func_name(ev));
    case L_ADDR: return PyLong_FromUnsignedLongLong(tg_event_func_addr(ev));
    case L_DEPTH: return PyLong_FromLong(tg_event_depth(ev));
    case L_TEXT: {
        tg_buf *b = tg_buf_new();
        if (!b)
            return PyErr_NoMemory();
        int rc = tg_event_render(ev, b);
        PyObject *s =
            rc > 0 ? text_of(tg_buf_data(b), tg_buf_len(b)) : (Py_INCREF(Py_None), Py_None);
        tg_buf_free(b);
        return s;
    }
    case L_OFFSET: return PyLong_FromUnsignedLongLong(tg_event_offset(ev));
    default: return PyLong_FromUnsignedLongLong(tg_event_lost_count(ev));
    }
}

PyObject *tgpy_event_gone(tgpy_event *e)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(e));
    return st ? tgpy_raise_text(st, TG_ERR_USAGE, TGPY_GONE, NULL) : NULL;
}

/* fields, context and retval: a Fields over the Event (no dict made until one is asked) */
static PyObject *event_fields(tgpy_event *e, enum lazy what)
{
    static const tg_scope payload[] = {TG_SCOPE_PAYLOAD};
    static const tg_scope context[] = {TG_SCOPE_STREAM_CONTEXT, TG_SCOPE_EVENT_CONTEXT};
    static const tg_scope retval[] = {TG_SCOPE_RETURN};
    if (!e->ev && !(e->kept && PyDict_GetItemString(e->kept, lazy_names[what])))
        return tgpy_event_gone(e);
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(e));
    if (!st)
        return NULL;
    return what == L_FIELDS    ? tgpy_fields_new(st, e, lazy_names[what], payload, 1)
           : what == L_CONTEXT ? tgpy_fields_new(st, e, lazy_names[what], context, 2)
                               : tgpy_fields_new(st, e, lazy_names[what], retval, 1);
}

static int is_mapping(enum lazy what)
{
    return what == L_FIELDS || what == L_CONTEXT || what == L_RETVAL;
}

static PyObject *event_lazy(tgpy_event *e, enum lazy what)
{
    if (is_mapping(what))
        return event_fields(e, what);
    PyObject *v = e->kept ? PyDict_GetItemString(e->kept, lazy_names[what]) : NULL;
    if (v) {
        Py_INCREF(v);
        return v;
    }
    if (!e->ev)
        return tgpy_event_gone(e);
    if (!e->kept && !(e->kept = PyDict_New()))
        return NULL;
    v = decode(e->ev, what);
    if (v && PyDict_SetItemString(e->kept, lazy_names[what], v) < 0)
        Py_CLEAR(v);
    return v;
}

/* Before the library's event goes away: decode what is still to be asked (only the
 * mappings, when the Event is not kept), then forget it. */
static int event_detach(tgpy_event *e, int mappings_only)
{
    int rc = 0;
    if (!e->kept && !(e->kept = PyDict_New()))
        rc = -1;
    for (int w = 0; w < L_COUNT && rc == 0; w++) {
        if ((mappings_only && !is_mapping((enum lazy)w)) ||
            PyDict_GetItemString(e->kept, lazy_names[w]))
            continue;
        PyObject *v = decode(e->ev, (enum lazy)w);
        rc = v && PyDict_SetItemString(e->kept, lazy_names[w], v) == 0 ? 0 : -1;
        Py_XDECREF(v);
    }
    e->ev = NULL;
    return rc;
}

static void event_dealloc(tgpy_event *e)
{
    PyTypeObject *tp = Py_TYPE(e);
    Py_XDECREF(e->name);
    Py_XDECREF(e->kept);
    PyObject_Free(e);
    Py_DECREF(tp);
}

#define LAZY_GETTER(fn, what)                                                                      \
    static PyObject *fn(tgpy_event *e, void *unused) { return event_lazy(e, what); }
LAZY_GETTER(ev_fields, L_FIELDS)
LAZY_GETTER(ev_context, L_CONTEXT)
LAZY_GETTER(ev_retval, L_RETVAL)
LAZY_GETTER(ev_trace, L_TRACE)
LAZY_GETTER(ev_func, L_FUNC)
LAZY_GETTER(ev_addr, L_ADDR)
LAZY_GETTER(ev_depth, L_DEPTH)
LAZY_GETTER(ev_text, L_TEXT)
LAZY_GETTER(ev_offset, L_OFFSET)
LAZY_GETTER(ev_lost, L_LOST)

static PyObject *ev_ts(tgpy_event *e, void *unused) { return PyLong_FromLongLong(e->ts); }
static PyObject *ev_cpu(tgpy_event *e, void *unused) { return PyLong_FromLong(e->cpu); }
static PyObject *ev_tid(tgpy_event *e, void *unused) { return PyLong_FromLong(e->tid); }
static PyObject *ev_pid(tgpy_event *e, void *unused) { return PyLong_FromLong(e->pid); }
static PyObject *ev_name(tgpy_event *e, void *unused)
{
    Py_INCREF(e->name);
    return e->name;
}
static PyObject *ev_kind(tgpy_event *e, void *unused)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(e));
    if (!st)
        return NULL;
    PyObject *k = st->kind[e->kind >= 0 && e->kind < TGPY_KINDS ? e->kind : 0];
    Py_INCREF(k);
    return k;
}

static PyGetSetDef event_getset[] = {
    {"ts", (getter)ev_ts, NULL, "time in ns on the set's timeline", NULL},
    {"name", (getter)ev_name, NULL, "the event class's name", NULL},
    {"cpu", (getter)ev_cpu, NULL, "cpu, -1 when unknown", NULL},
    {"tid", (getter)ev_tid, NULL, "thread id, -1 when unknown", NULL},
    {"pid", (getter)ev_pid, NULL, "process id, -1 when unknown", NULL},
    {"kind", (getter)ev_kind, NULL, "generic, func_entry, func_exit, lost, sched_out, ...", NULL},
    {"fields", (getter)ev_fields, NULL,
     "the payload's fields (a Fields mapping: each decoded on access)", NULL},
    {"context", (getter)ev_context, NULL, "the stream and event context fields (a Fields mapping)",
     NULL},
    {"retval", (getter)ev_retval, NULL, "return values of a function exit (a Fields mapping)",
     NULL},
    {"trace", (getter)ev_trace, NULL, "the path of the trace it came from", NULL},
    {"func", (getter)ev_func, NULL, "function traces: the function's name, or None", NULL},
    {"addr", (getter)ev_addr, NULL, "function traces: the function's address", NULL},
    {"depth", (getter)ev_depth, NULL, "function traces: the call depth recorded, or -1", NULL},
    {"text", (getter)ev_text, NULL, "the event as its own tracer renders it, or None", NULL},
    {"offset", (getter)ev_offset, NULL, "byte offset of the record in its file", NULL},
    {"lost", (getter)ev_lost, NULL, "lost events: how many were lost (0 when unknown)", NULL},
    {NULL},
};

static PyObject *event_repr(tgpy_event *e)
{
    return PyUnicode_FromFormat("<Event ts=%lld name=%R cpu=%d tid=%d>", (long long)e->ts, e->name,
                                (int)e->cpu, (int)e->tid);
}

/* ev["field"]: a payload field */
static PyObject *event_item(tgpy_event *e, PyObject *key)
{
    PyObject *fields = event_lazy(e, L_FIELDS);
    if (!fields)
        return NULL;
    PyObject *v = PyObject_GetItem(fields, key);
    Py_DECREF(fields);
    return v;
}

static PyType_Slot event_slots[] = {
    {Py_tp_doc, "one event: ts, name, cpu, tid, pid, kind; fields and the rest decoded on "
                "access"},
    {Py_tp_dealloc, event_dealloc},
    {Py_tp_getset, event_getset},
    {Py_tp_repr, event_repr},
    {Py_mp_subscript, event_item},
    {0, NULL},
};

PyType_Spec tgpy_event_spec = {"traceglot.Event", sizeof(tgpy_event), 0, Py_TPFLAGS_DEFAULT,
                               event_slots};

/* ---- the pass ----------------------------------------------------------------------------------- */

/* The pass moves on: the Event handed out last is detached (decoded first with keep, when
 * someone still holds it).  -1 when decoding failed (the exception is set). */
static int iter_leave(tgpy_iter *it)
{
    tgpy_event *e = it->last;
    int rc = 0;
    if (!e)
        return 0;
    it->last = NULL;
    if (Py_REFCNT(e) > 1) {
        if (it->keep || e->views > 0)
            rc = event_detach(e, !it->keep);
        e->ev = NULL;
    }
    Py_DECREF(e);
    return rc;
}

static PyObject *class_name(tgpy_iter *it, const tg_event_class *c)
{
    struct name_slot *s = &it->names[((uintptr_t)c * UINT64_C(0x9E3779B97F4A7C15)) >> 58];
    if (s->name && s->cls == c)
        return s->name;
    const char *n = c ? tg_event_class_name(c) : "";
    PyObject *name = text_of(n, strlen(n));
    if (!name)
        return NULL;
    Py_XSETREF(s->name, name);
    s->cls = c;
    return name;
}

static PyObject *iter_next(tgpy_iter *it)
{
    if (iter_leave(it) < 0)
        return NULL;
    if (it->pos == it->n) {
        if (it->done)
            return NULL;
        int n = it->it ? tg_iter_next_batch(it->it, it->evs, BATCH) : 0;
        if (n <= 0) {
            it->done = 1;
            it->n = it->pos = 0;
            const tg_error *errs = it->it ? tg_iter_errors(it->it) : NULL;
            if (errs)
                return tgpy_raise_list(it->st, TG_ERR_FORMAT, errs, NULL);
            return NULL;
        }
        it->n = (size_t)n;
        it->pos = 0;
    }
    const tg_event *ev = it->evs[it->pos++];
    const tg_event_class *c = tg_event_class_of(ev);
    PyObject *name = class_name(it, c);
    if (!name)
        return NULL;
    tgpy_event *e = PyObject_New(tgpy_event, it->st->event);
    if (!e)
        return NULL;
    e->ev = ev;
    e->kept = NULL;
    e->views = 0;
    e->name = name;
    Py_INCREF(name);
    e->ts = it->trace_clock ? tg_event_trace_time_ns(ev) : tg_event_time_ns(ev);
    e->kind = c ? (int)tg_event_class_kind(c) : 0;
    e->cpu = tg_event_cpu(ev);
    e->tid = tg_event_tid(ev);
    e->pid = tg_event_pid(ev);
    it->last = e;
    Py_INCREF(e);
    return (PyObject *)e;
}

static void iter_free_all(tgpy_iter *it)
{
    iter_leave(it);
    it->n = it->pos = 0;
    if (it->it)
        tg_iter_free(it->it);
    it->it = NULL;
    if (it->set)
        tg_close(it->set);
    it->set = NULL;
    tg_filter_free(it->filter);
    it->filter = NULL;
}

static void iter_dealloc(tgpy_iter *it)
{
    PyTypeObject *tp = Py_TYPE(it);
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    iter_free_all(it);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    for (int i = 0; i < NAME_SLOTS; i++)
        Py_CLEAR(it->names[i].name);
    Py_XDECREF(it->owner);
    tp->tp_free(it);
    Py_DECREF(tp);
}

static PyObject *iter_close(tgpy_iter *it, PyObject *unused)
{
    iter_free_all(it);
    it->done = 1;
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *iter_self(PyObject *self)
{
    Py_INCREF(self);
    return self;
}

static PyMethodDef iter_methods[] = {
    {"close", (PyCFunction)iter_close, METH_NOARGS, "stop the pass and let its set go"},
    {NULL},
};

static PyType_Slot iter_slots[] = {
    {Py_tp_doc, "a pass over the merged, filtered events of a trace set"},
    {Py_tp_dealloc, iter_dealloc},
    {Py_tp_iter, iter_self},
    {Py_tp_iternext, iter_next},
    {Py_tp_methods, iter_methods},
    {0, NULL},
};

PyType_Spec tgpy_iter_spec = {"traceglot._Events", sizeof(tgpy_iter), 0, Py_TPFLAGS_DEFAULT,
                              iter_slots};

PyObject *tgpy_events_new(tgpy_set *s, PyObject *extra, int trace_clock, int keep)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    if (!st)
        return NULL;
    tgpy_iter *it = (tgpy_iter *)PyType_GenericAlloc(st->iter, 0);
    if (!it)
        return NULL;
    it->st = st;
    it->owner = s;
    Py_INCREF(s);
    it->trace_clock = trace_clock;
    it->keep = keep;
    /* the filter: the set's and the call's (the options only check the keys) */
    tg_options *o = tg_options_new();
    it->filter = tg_filter_new();
    if (!o || !it->filter) {
        tg_options_free(o);
        Py_DECREF(it);
        return PyErr_NoMemory();
    }
    int rc = tgpy_options_fill(st, s->pairs, o, it->filter);
    if (rc == 0)
        rc = tgpy_options_fill(st, extra, o, it->filter);
    tg_options_free(o);
    if (rc < 0) {
        Py_DECREF(it);
        return NULL;
    }
    tg_error *err = NULL;
    it->set = tg_set_reopen(s->set, &err);
    if (it->set)
        it->it = tg_iter_new(it->set, it->filter, &err);
    if (it->it &&
        tg_iter_follow_threads(it->it) < 0) { /* a kernel trace's events get their thread */
        tg_iter_free(it->it);
        it->it = NULL;
    }
    if (!it->it) {
        Py_DECREF(it);
        return tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_NOMEM, err, NULL);
    }
    if (trace_clock)
        tg_iter_use_trace_clocks(it->it);
    return (PyObject *)it;
}
