/* tgpy_fields.c - traceglot.Fields: what ev.fields, ev.context and ev.retval return, a
 * read-only mapping (name -> value) over the Event, decoded on access.
 *
 * A pass hands out an Event per event; building a dict of its fields for each (a str key and
 * a value per field, then the dict) was most of what a loop reading ev.fields cost, whether
 * it read one field or none.  A Fields is one small object holding its Event: ev.fields["x"]
 * (and `in`, get) decodes that one field from the library's event; everything that walks the
 * whole mapping (iteration, keys, values, items, len of two scopes, ==, repr) builds the dict
 * then, as a dict would answer.  A Fields still held when the pass moves on (a list of
 * ev.fields) is decoded whole then, as keep=True decodes an Event still held, and answers
 * from that; an Event held without its Fields forgets them on a plain pass (as before).  A mapping
 * as collections.abc.Mapping means it (the package registers it); dict(ev.fields) is a dict. */
#include "tgpy.h"

#include <string.h>

typedef struct tgpy_fields {
    PyObject_HEAD tgpy_event *owner;
    const char *attr; /* "fields", "context", "retval": its key in owner->kept */
    tg_scope scopes[2];
    int nscopes;
} tgpy_fields;

PyObject *tgpy_fields_new(tgpy_state *st, tgpy_event *e, const char *attr, const tg_scope *scopes,
                          int nscopes)
{
    tgpy_fields *f = PyObject_New(tgpy_fields, st->fields);
    if (!f)
        return NULL;
    f->owner = e;
    Py_INCREF(e);
    e->views++;
    f->attr = attr;
    f->nscopes = nscopes < 2 ? nscopes : 2;
    for (int i = 0; i < f->nscopes; i++)
        f->scopes[i] = scopes[i];
    return (PyObject *)f;
}

static void fields_dealloc(tgpy_fields *f)
{
    PyTypeObject *tp = Py_TYPE(f);
    if (f->owner)
        f->owner->views--;
    Py_XDECREF(f->owner);
    PyObject_Free(f);
    Py_DECREF(tp);
}

/* Where the values come from: 1 and *kept the dict keep=True decoded (borrowed), 0 the
 * library's event, -1 with traceglot.Error raised (the pass moved on). */
static int fields_source(tgpy_fields *f, PyObject **kept)
{
    tgpy_event *e = f->owner;
    *kept = e->kept ? PyDict_GetItemString(e->kept, f->attr) : NULL;
    if (*kept)
        return 1;
    if (e->ev)
        return 0;
    tgpy_event_gone(e);
    return -1;
}

/* The whole mapping as a new dict (the scopes in order: a later one's name wins). */
static PyObject *fields_dict(tgpy_fields *f)
{
    PyObject *kept;
    int src = fields_source(f, &kept);
    if (src < 0)
        return NULL;
    if (src == 1)
        return PyDict_Copy(kept);
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < f->nscopes; i++)
        d = tgpy_scope_dict(f->owner->ev, f->scopes[i], d);
    return d;
}

/* Field key of the library's event: a new reference, NULL with no exception when there is
 * none, NULL with one on error. */
static PyObject *fields_lookup(tgpy_fields *f, PyObject *key)
{
    PyObject *kept;
    int src = fields_source(f, &kept);
    if (src < 0)
        return NULL;
    if (src == 1) {
        PyObject *v = PyDict_GetItemWithError(kept, key);
        Py_XINCREF(v);
        return v;
    }
    if (!PyUnicode_Check(key))
        return NULL;
    Py_ssize_t len;
    const char *name = PyUnicode_AsUTF8AndSize(key, &len);
    if (!name)
        return NULL;
    if (len == 0 || strlen(name) != (size_t)len) { /* a nameless field's "" and the like */
        PyObject *d = fields_dict(f);
        PyObject *v = d ? PyDict_GetItemWithError(d, key) : NULL;
        Py_XINCREF(v);
        Py_XDECREF(d);
        return v;
    }
    for (int i = f->nscopes - 1; i >= 0; i--) {
        tg_value v;
        if (tg_event_field_by_name(f->owner->ev, f->scopes[i], name, &v) == 0)
            return tgpy_value(&v, 0);
    }
    return NULL;
}

static PyObject *fields_item(tgpy_fields *f, PyObject *key)
{
    PyObject *v = fields_lookup(f, key);
    if (!v && !PyErr_Occurred())
        PyErr_SetObject(PyExc_KeyError, key);
    return v;
}

static int fields_contains(tgpy_fields *f, PyObject *key)
{
    PyObject *v = fields_lookup(f, key);
    if (!v)
        return PyErr_Occurred() ? -1 : 0;
    Py_DECREF(v);
    return 1;
}

static Py_ssize_t fields_len(tgpy_fields *f)
{
    PyObject *kept;
    int src = fields_source(f, &kept);
    if (src < 0)
        return -1;
    if (src == 1)
        return PyDict_Size(kept);
    if (f->nscopes == 1) /* a scope's names are distinct */
        return (Py_ssize_t)tg_event_field_count(f->owner->ev, f->scopes[0]);
    PyObject *d = fields_dict(f);
    Py_ssize_t n = d ? PyDict_Size(d) : -1;
    Py_XDECREF(d);
    return n;
}

static PyObject *fields_get(tgpy_fields *f, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get(key, default=None)");
        return NULL;
    }
    PyObject *v = fields_lookup(f, args[0]);
    if (v || PyErr_Occurred())
        return v;
    v = nargs == 2 ? args[1] : Py_None;
    Py_INCREF(v);
    return v;
}

/* keys(), values(), items(), iter(): the dict's own, over the dict built now */
static PyObject *dict_call(tgpy_fields *f, const char *method)
{
    PyObject *d = fields_dict(f);
    if (!d)
        return NULL;
    PyObject *r = PyObject_CallMethod(d, method, NULL);
    Py_DECREF(d);
    return r;
}

static PyObject *fields_keys(tgpy_fields *f, PyObject *unused) { return dict_call(f, "keys"); }
static PyObject *fields_values(tgpy_fields *f, PyObject *unused) { return dict_call(f, "values"); }
static PyObject *fields_items(tgpy_fields *f, PyObject *unused) { return dict_call(f, "items"); }
static PyObject *fields_copy(tgpy_fields *f, PyObject *unused) { return fields_dict(f); }

/* fn applied to the whole mapping, built as a dict for it */
static PyObject *on_dict(tgpy_fields *f, PyObject *(*fn)(PyObject *))
{
    PyObject *d = fields_dict(f);
    if (!d)
        return NULL;
    PyObject *r = fn(d);
    Py_DECREF(d);
    return r;
}

static PyObject *fields_iter(tgpy_fields *f) { return on_dict(f, PyObject_GetIter); }
static PyObject *fields_repr(tgpy_fields *f) { return on_dict(f, PyObject_Repr); }

/* == and != as the dicts compare (with a dict, or another Fields) */
static PyObject *fields_compare(tgpy_fields *f, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !(PyDict_Check(other) || Py_TYPE(other) == Py_TYPE(f)))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *a = fields_dict(f);
    PyObject *b = !a                             ? NULL
                  : Py_TYPE(other) == Py_TYPE(f) ? fields_dict((tgpy_fields *)other)
                                                 : (Py_INCREF(other), other);
    PyObject *r = b ? PyObject_RichCompare(a, b, op) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

static PyMethodDef fields_methods[] = {
    {"get", (PyCFunction)(void (*)(void))fields_get, METH_FASTCALL,
     "get(key, default=None): the field's value, else default"},
    {"keys", (PyCFunction)fields_keys, METH_NOARGS, "the names (a dict's keys view)"},
    {"values", (PyCFunction)fields_values, METH_NOARGS, "the values (a dict's values view)"},
    {"items", (PyCFunction)fields_items, METH_NOARGS, "(name, value) pairs (a dict's view)"},
    {"copy", (PyCFunction)fields_copy, METH_NOARGS, "the fields as a new dict"},
    {NULL},
};

static PyType_Slot fields_slots[] = {
    {Py_tp_doc, "an event's fields (name -> value), decoded on access: a read-only mapping; "
                "dict(f) or f.copy() makes a dict"},
    {Py_tp_dealloc, fields_dealloc},
    {Py_tp_methods, fields_methods},
    {Py_tp_iter, fields_iter},
    {Py_tp_repr, fields_repr},
    {Py_tp_richcompare, fields_compare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_mp_subscript, fields_item},
    {Py_mp_length, fields_len},
    {Py_sq_contains, fields_contains},
    {0, NULL},
};

PyType_Spec tgpy_fields_spec = {"traceglot.Fields", sizeof(tgpy_fields), 0, Py_TPFLAGS_DEFAULT,
                                fields_slots};
