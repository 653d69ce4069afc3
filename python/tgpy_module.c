/* tgpy_module.c - the extension module traceglot._traceglot: the module and its state, the
 * set object (_Set: open, the traces' attributes, the library's printers and analyses), the
 * options made from Python values, and traceglot.Error.
 *
 * Every call is one library call, as in the CLI: a printer, report or conversion opens the
 * paths again with the set's options and the call's own (tg_open, as `traceglot cat` does, so
 * an option read at open such as trace-cmd's raw works per call) and runs with the GIL
 * released; event passes and queries read sets of their own (tg_set_reopen), so several may
 * run at once.  Damage comes back as traceglot.Error after what was read before it (the
 * text, the rows, the events), with every error of the list. */
#include "tgpy.h"

#include <string.h>

static const char *const kind_names[TGPY_KINDS] = {
    "generic",
    "func_entry",
    "func_exit",
    "func_tail_exit",
    "lost",
    "task_fork",
    "task_exit",
    "task_exec",
    "sched_out",
    "sched_in",
    "sched_out_preempted",
    "task_name",
    "extern",
    "statedump",
    "counter",
};

static struct PyModuleDef tgpy_module_def;

tgpy_state *tgpy_state_of_module(PyObject *module)
{
    return (tgpy_state *)PyModule_GetState(module);
}

tgpy_state *tgpy_state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &tgpy_module_def);
    return m ? tgpy_state_of_module(m) : NULL;
}

/* ---- errors ------------------------------------------------------------------------------- */

static const char *status_name(int rc)
{
    switch (rc) {
    case TG_ERR_IO: return "io";
    case TG_ERR_FORMAT: return "format";
    case TG_ERR_UNSUPPORTED: return "unsupported";
    case TG_ERR_USAGE: return "usage";
    case TG_ERR_NOMEM: return "nomem";
    case TG_ERR_LIMIT: return "limit";
    default: return "error";
    }
}

/* Raises traceglot.Error with messages (a list of str, taken). */
static PyObject *raise_messages(tgpy_state *st, int rc, PyObject *list, PyObject *partial)
{
    if (PyList_GET_SIZE(list) == 0) {
        PyObject *m = PyUnicode_FromFormat("failed (%s)", status_name(rc));
        if (!m || PyList_Append(list, m) < 0) {
            Py_XDECREF(m);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(m);
    }
    PyObject *sep = PyUnicode_FromString("\n");
    PyObject *text = sep ? PyUnicode_Join(sep, list) : NULL;
    Py_XDECREF(sep);
    PyObject *exc = text ? PyObject_CallOneArg(st->error, text) : NULL;
    Py_XDECREF(text);
    if (exc) {
        PyObject *status = PyLong_FromLong(rc);
        PyObject *name = PyUnicode_FromString(status_name(rc));
        if (!status || !name || PyObject_SetAttrString(exc, "status", status) < 0 ||
            PyObject_SetAttrString(exc, "status_name", name) < 0 ||
            PyObject_SetAttrString(exc, "errors", list) < 0 ||
            PyObject_SetAttrString(exc, "partial", partial ? partial : Py_None) < 0)
            Py_CLEAR(exc);
        Py_XDECREF(status);
        Py_XDECREF(name);
    }
    Py_DECREF(list);
    if (exc) {
        PyErr_SetObject(st->error, exc);
        Py_DECREF(exc);
    }
    return NULL;
}

PyObject *tgpy_raise_list(tgpy_state *st, int rc, const tg_error *errs, PyObject *partial)
{
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    for (const tg_error *e = errs; e; e = tg_error_next(e)) {
        const char *msg = tg_error_message(e);
        PyObject *m = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
        if (!m || PyList_Append(list, m) < 0) {
            Py_XDECREF(m);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(m);
    }
    if (errs && rc >= 0)
        rc = tg_error_status(errs);
    return raise_messages(st, rc, list, partial);
}

PyObject *tgpy_raise_text(tgpy_state *st, int rc, const char *message, PyObject *partial)
{
    PyObject *m = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
    PyObject *list = m ? PyList_New(1) : NULL;
    if (!list) {
        Py_XDECREF(m);
        return NULL;
    }
    PyList_SET_ITEM(list, 0, m);
    return raise_messages(st, rc, list, partial);
}

PyObject *tgpy_raise(tgpy_state *st, int rc, tg_error *err, PyObject *partial)
{
    tgpy_raise_list(st, rc, err, partial);
    tg_error_free(err);
    return NULL;
}

/* ---- options ------------------------------------------------------------------------------ */

static int filter_put(tg_filter *f, const char *key, const char *value, tg_error **err)
{
    if (!f)
        return 0;
    if (strcmp(key, "begin") == 0)
        return tg_filter_set_begin(f, value, err);
    if (strcmp(key, "end") == 0)
        return tg_filter_set_end(f, value, err);
    if (strcmp(key, "events") == 0)
        return tg_filter_set_events(f, value, err);
    if (strcmp(key, "tid") == 0)
        return tg_filter_set_tids(f, value, err);
    if (strcmp(key, "cpu") == 0)
        return tg_filter_set_cpus(f, value, err);
    return 0;
}

int tgpy_options_fill(tgpy_state *st, PyObject *pairs, tg_options *o, tg_filter *f)
{
    if (!pairs || pairs == Py_None)
        return 0;
    PyObject *seq = PySequence_Fast(pairs, "options must be a sequence of (key, value) pairs");
    if (!seq)
        return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        const char *key, *value;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ss;an option is (key, value)",
                              &key, &value)) {
            Py_DECREF(seq);
            return -1;
        }
        tg_error *err = NULL;
        int rc = filter_put(f, key, value, &err);
        if (rc >= 0)
            rc = tg_options_put(o, key, value, &err);
        if (rc < 0) {
            Py_DECREF(seq);
            tgpy_raise(st, rc, err, NULL);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* ---- the set ------------------------------------------------------------------------------ */

/* paths (a list of str) as the C array tg_open takes; NULL with an exception set. */
static const char **path_array(PyObject *paths, Py_ssize_t *n)
{
    *n = PyList_GET_SIZE(paths);
    const char **a = PyMem_Calloc((size_t)*n + 1, sizeof *a);
    if (!a)
        return (const char **)PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < *n; i++)
        if (!(a[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(paths, i)))) {
            PyMem_Free(a);
            return NULL;
        }
    return a;
}

static tg_set *open_paths(tgpy_state *st, PyObject *paths, const tg_options *o)
{
    Py_ssize_t n;
    const char **a = path_array(paths, &n);
    if (!a)
        return NULL;
    tg_error *err = NULL;
    tg_set *set;
    Py_BEGIN_ALLOW_THREADS set = tg_open(a, (size_t)n, o, &err);
    Py_END_ALLOW_THREADS PyMem_Free(a);
    if (!set)
        tgpy_raise(st, err ? tg_error_status(err) : TG_ERR_FORMAT, err, NULL);
    return set;
}

tg_set *tgpy_set_open_with(tgpy_set *s, PyObject *extra, tg_options **o, tg_filter **f)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    *o = tg_options_new();
    *f = tg_filter_new();
    tg_set *set = NULL;
    if (!*o || !*f)
        PyErr_NoMemory();
    else if (tgpy_options_fill(st, s->pairs, *o, *f) == 0 &&
             tgpy_options_fill(st, extra, *o, *f) == 0)
        set = open_paths(st, s->paths, *o);
    if (!set) {
        tg_options_free(*o);
        tg_filter_free(*f);
        *o = NULL;
        *f = NULL;
    }
    return set;
}

static int set_init(tgpy_set *s, PyObject *args, PyObject *kw)
{
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    PyObject *paths, *pairs;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &paths, &pairs))
        return -1;
    if (PyList_GET_SIZE(paths) == 0) {
        PyErr_SetString(PyExc_TypeError, "open() needs at least one path");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(paths); i++)
        if (!PyUnicode_Check(PyList_GET_ITEM(paths, i))) {
            PyErr_SetString(PyExc_TypeError, "paths must be str");
            return -1;
        }
    if (s->set) {
        PyErr_SetString(PyExc_RuntimeError, "already open");
        return -1;
    }
    Py_XSETREF(s->paths, PyList_GetSlice(paths, 0, PyList_GET_SIZE(paths)));
    Py_INCREF(pairs);
    Py_XSETREF(s->pairs, pairs);
    if (!s->paths)
        return -1;
    if (!(s->opts = tg_options_new()) || !(s->filter = tg_filter_new())) {
        PyErr_NoMemory();
        return -1;
    }
    if (tgpy_options_fill(st, pairs, s->opts, s->filter) < 0)
        return -1;
    s->set = open_paths(st, s->paths, s->opts);
    return s->set ? 0 : -1;
}

static void set_close_all(tgpy_set *s)
{
    if (s->db)
        tg_sql_close(s->db);
    s->db = NULL;
    if (s->db_set)
        tg_close(s->db_set);
    s->db_set = NULL;
    if (s->set)
        tg_close(s->set);
    s->set = NULL;
}

static void set_dealloc(tgpy_set *s)
{
    PyTypeObject *tp = Py_TYPE(s);
    set_close_all(s);
    tg_options_free(s->opts);
    tg_filter_free(s->filter);
    Py_XDECREF(s->paths);
    Py_XDECREF(s->pairs);
    tp->tp_free(s);
    Py_DECREF(tp);
}

static int set_ready(tgpy_set *s)
{
    if (s->set)
        return 1;
    PyErr_SetString(PyExc_ValueError, "the trace set is closed");
    return 0;
}

static PyObject *set_close(tgpy_set *s, PyObject *unused)
{
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "a query is running on this trace set");
        return NULL;
    }
    set_close_all(s);
    Py_RETURN_NONE;
}

/* dict[key] = value, value a new reference (NULL: the failure goes on) */
static int put(PyObject *d, const char *key, PyObject *value)
{
    if (!value)
        return -1;
    int rc = PyDict_SetItemString(d, key, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, strlen(s), "replace");
}

static PyObject *trace_dict(const tg_trace *t)
{
    PyObject *d = PyDict_New();
    const tg_clock_info *c = tg_trace_clock(t);
    const tg_host_info *h = tg_trace_host(t);
    const tg_tracer_info *tr = tg_trace_tracer(t);
    const tg_process_info *p = tg_trace_process(t);
    if (!d || put(d, "path", str_or_none(tg_trace_path(t))) < 0 ||
        put(d, "format", str_or_none(tg_trace_format(t))) < 0 ||
        put(d, "version", str_or_none(tg_trace_version(t))) < 0 ||
        put(d, "clock", str_or_none(c ? c->name : NULL)) < 0 ||
        put(d, "clock_origin", str_or_none(tg_clock_origin_name(c ? c->origin : 0))) < 0 ||
        put(d, "clock_domain", str_or_none(tg_trace_clock_domain(t))) < 0 ||
        put(d, "alignment", str_or_none(tg_alignment_name(tg_trace_alignment(t)))) < 0 ||
        put(d, "shift_ns", PyLong_FromLongLong(tg_trace_shift_ns(t))) < 0 ||
        put(d, "host", str_or_none(h ? h->hostname : NULL)) < 0 ||
        put(d, "tracer", str_or_none(tr ? tr->name : NULL)) < 0 ||
        put(d, "tracer_version", str_or_none(tr ? tr->version : NULL)) < 0 ||
        put(d, "pid", PyLong_FromLongLong(p ? p->pid : -1)) < 0 ||
        put(d, "process", str_or_none(p ? p->name : NULL)) < 0 ||
        put(d, "streams", PyLong_FromSize_t(tg_trace_stream_count(t))) < 0) {
        Py_XDECREF(d);
        return NULL;
    }
    PyObject *env = PyDict_New();
    for (size_t i = 0; env && i < tg_trace_env_count(t); i++) {
        const tg_env_entry *e = tg_trace_env(t, i);
        if (put(env, e->key,
                e->is_integer ? PyLong_FromLongLong(e->integer) : str_or_none(e->value)) < 0)
            Py_CLEAR(env);
    }
    if (put(d, "env", env) < 0)
        Py_CLEAR(d);
    return d;
}

static PyObject *set_traces(tgpy_set *s, PyObject *unused)
{
    if (!set_ready(s))
        return NULL;
    size_t n = tg_set_trace_count(s->set);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *d = trace_dict(tg_set_trace(s->set, i));
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, d);
    }
    return list;
}

static int append_str(PyObject *list, const char *s)
{
    PyObject *w = str_or_none(s);
    int rc = w ? PyList_Append(list, w) : -1;
    Py_XDECREF(w);
    return rc;
}

/* The warnings the CLI prints after opening: the set's (traces left on their own times) and
 * each trace's reader's. */
static PyObject *set_warnings(tgpy_set *s, PyObject *unused)
{
    if (!set_ready(s))
        return NULL;
    PyObject *list = PyList_New(0);
    for (const tg_error *w = tg_set_warnings(s->set); list && w; w = tg_error_next(w))
        if (append_str(list, tg_error_message(w)) < 0)
            Py_CLEAR(list);
    for (size_t i = 0; list && i < tg_set_trace_count(s->set); i++) {
        const tg_trace *t = tg_set_trace(s->set, i);
        for (size_t k = 0; list && k < tg_trace_warning_count(t); k++)
            if (append_str(list, tg_trace_warning(t, k)) < 0)
                Py_CLEAR(list);
    }
    return list;
}

/* ---- printers, analyses, conversions -------------------------------------------------------- */

enum call { CALL_PRINT, CALL_REPORT, CALL_REPLAY, CALL_STATS, CALL_INFO, CALL_CONVERT };

/* _Set.call(what, style, options) -> str: tg_print, tg_report, tg_replay, tg_stats, tg_info or
 * tg_convert (a stream) into a buffer, as the CLI's command of that name writes it. */
static PyObject *set_call(tgpy_set *s, PyObject *args)
{
    static const char *const names[] = {"print", "report", "replay", "stats", "info", "convert"};
    const char *what, *style;
    PyObject *extra;
    if (!PyArg_ParseTuple(args, "szO", &what, &style, &extra) || !set_ready(s))
        return NULL;
    int call = -1;
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (strcmp(what, names[i]) == 0)
            call = i;
    if (call < 0) {
        PyErr_Format(PyExc_ValueError, "unknown call '%s'", what);
        return NULL;
    }
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    tg_options *o;
    tg_filter *f;
    tg_set *set = tgpy_set_open_with(s, extra, &o, &f);
    if (!set)
        return NULL;
    tg_buf *out = tg_buf_new();
    tg_error *err = NULL;
    int rc = TG_ERR_NOMEM;
    if (out) {
        Py_BEGIN_ALLOW_THREADS switch (call)
        {
        case CALL_PRINT: rc = tg_print(set, f, style ? style : "native", o, out, &err); break;
        case CALL_REPORT: rc = tg_report(set, f, style ? style : "uftrace", o, out, &err); break;
        case CALL_REPLAY: rc = tg_replay(set, f, o, out, &err); break;
        case CALL_STATS: rc = tg_stats(set, f, o, out, &err); break;
        case CALL_INFO: rc = tg_info(set, o, out, &err); break;
        default: rc = tg_convert(set, f, style ? style : "", o, out, &err); break;
        }
        Py_END_ALLOW_THREADS
    }
    PyObject *text = NULL;
    if (out) {
        if (call == CALL_CONVERT && style && strcmp(style, "perfetto") == 0)
            text = PyBytes_FromStringAndSize(tg_buf_data(out), (Py_ssize_t)tg_buf_len(out));
        else
            text = PyUnicode_DecodeUTF8(tg_buf_data(out), (Py_ssize_t)tg_buf_len(out),
                                        "surrogateescape");
    }
    tg_buf_free(out);
    tg_close(set);
    tg_options_free(o);
    tg_filter_free(f);
    if (rc < 0 || !out) {
        tgpy_raise(st, rc, err, text);
        Py_XDECREF(text);
        return NULL;
    }
    return text;
}

/* _Set.convert_to(to, path, options): a directory (ctf, uftrace) or file (sqlite) target
 * written at path by the library (under a temporary name, renamed at the end); a stream
 * target (chrome, perfetto, ...) written to the file at path.  Returns None. */
static PyObject *set_convert_to(tgpy_set *s, PyObject *args)
{
    const char *to, *path;
    PyObject *extra;
    if (!PyArg_ParseTuple(args, "ssO", &to, &path, &extra) || !set_ready(s))
        return NULL;
    tgpy_state *st = tgpy_state_of_type(Py_TYPE(s));
    int kind = tg_convert_writes_dir(to);
    if (kind < 0)
        return tgpy_raise(st, kind, NULL, NULL);
    tg_options *o;
    tg_filter *f;
    tg_set *set = tgpy_set_open_with(s, extra, &o, &f);
    if (!set)
        return NULL;
    tg_error *err = NULL;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS if (kind == 1) rc = tg_convert_dir(set, f, to, o, path, &err);
    else if (kind == 2) rc = tg_convert_file(set, f, to, o, path, &err);
    else
    {
        FILE *fp = fopen(path, "wb");
        tg_buf *out = fp ? tg_buf_new_fd(fileno(fp)) : NULL;
        if (!fp)
            rc = TG_ERR_IO;
        else if (!out)
            rc = TG_ERR_NOMEM;
        else
            rc = tg_convert(set, f, to, o, out, &err);
        if (out && tg_buf_flush(out) < 0 && rc >= 0)
            rc = TG_ERR_IO;
        tg_buf_free(out);
        if (fp && fclose(fp) != 0 && rc >= 0)
            rc = TG_ERR_IO;
    }
    Py_END_ALLOW_THREADS tg_close(set);
    tg_options_free(o);
    tg_filter_free(f);
    if (rc < 0) {
        if (!err && rc == TG_ERR_IO) {
            PyErr_Format(PyExc_OSError, "%s: cannot write the output file", path);
            return NULL;
        }
        return tgpy_raise(st, rc, err, NULL);
    }
    Py_RETURN_NONE;
}

static PyObject *set_events(tgpy_set *s, PyObject *args)
{
    PyObject *extra;
    int trace_clock = 0, keep = 0;
    if (!PyArg_ParseTuple(args, "O|pp", &extra, &trace_clock, &keep) || !set_ready(s))
        return NULL;
    return tgpy_events_new(s, extra, trace_clock, keep);
}

static PyObject *set_sql(tgpy_set *s, PyObject *args)
{
    return set_ready(s) ? tgpy_set_sql(s, args) : NULL;
}

static PyObject *set_sql_text(tgpy_set *s, PyObject *args)
{
    return set_ready(s) ? tgpy_set_sql_text(s, args) : NULL;
}

static PyObject *set_columns(tgpy_set *s, PyObject *args)
{
    return set_ready(s) ? tgpy_set_columns(s, args) : NULL;
}

static PyMethodDef set_methods[] = {
    {"traces", (PyCFunction)set_traces, METH_NOARGS, "each trace's attributes, as dicts"},
    {"warnings", (PyCFunction)set_warnings, METH_NOARGS, "warnings of opening"},
    {"call", (PyCFunction)set_call, METH_VARARGS, "call(what, style, options) -> text"},
    {"convert_to", (PyCFunction)set_convert_to, METH_VARARGS, "convert_to(to, path, options)"},
    {"events", (PyCFunction)set_events, METH_VARARGS, "events(filter_options, trace_clock, keep)"},
    {"sql", (PyCFunction)set_sql, METH_VARARGS, "sql(query, options) -> (columns, rows, errs)"},
    {"sql_text", (PyCFunction)set_sql_text, METH_VARARGS, "sql_text(query, format, options)"},
    {"columns", (PyCFunction)set_columns, METH_VARARGS, "columns(names, table, where, options)"},
    {"close", (PyCFunction)set_close, METH_NOARGS, "close the set"},
    {NULL},
};

static PyType_Slot set_slots[] = {
    {Py_tp_doc, "a trace set opened by the library (use traceglot.open)"},
    {Py_tp_init, set_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, set_dealloc},
    {Py_tp_methods, set_methods},
    {0, NULL},
};

static PyType_Spec set_spec = {"traceglot._traceglot._Set", sizeof(tgpy_set), 0, Py_TPFLAGS_DEFAULT,
                               set_slots};

/* ---- module functions ----------------------------------------------------------------------- */

static const char *owner_name(tg_option_owner o)
{
    switch (o) {
    case TG_OWNER_OPEN: return "open";
    case TG_OWNER_FORMAT: return "format";
    case TG_OWNER_COMMAND: return "command";
    case TG_OWNER_PRINT_STYLE: return "print-style";
    case TG_OWNER_CONVERTER: return "converter";
    case TG_OWNER_REPORT_STYLE: return "report-style";
    default: return "?";
    }
}

/* declared_options() -> [(name, type, default, help, owner, owner_name)]: the declarations the
 * keyword options of traceglot.open and the calls are checked against. */
static PyObject *declared_options(PyObject *module, PyObject *unused)
{
    static const char *const types[] = {"", "flag", "int", "choice", "text", "list", "texts"};
    PyObject *list = PyList_New(0);
    const tg_option_decl *d;
    tg_option_owner owner;
    const char *oname;
    for (size_t i = 0; list && (d = tg_option_declared(i, &owner, &oname)) != NULL; i++) {
        PyObject *t =
            Py_BuildValue("(sszzss)", d->name, d->type >= 1 && d->type <= 6 ? types[d->type] : "?",
                          d->def, d->help, owner_name(owner), oname);
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

static PyObject *nearest_option(PyObject *module, PyObject *args)
{
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key))
        return NULL;
    return str_or_none(tg_option_nearest(key));
}

/* converter_kind(to) -> 0 a stream, 1 a directory, 2 a file (tg_convert_writes_dir) */
static PyObject *converter_kind(PyObject *module, PyObject *args)
{
    const char *to;
    if (!PyArg_ParseTuple(args, "s", &to))
        return NULL;
    int kind = tg_convert_writes_dir(to);
    if (kind < 0) {
        PyObject *m = PyUnicode_FromFormat("no converter '%s' (chrome, perfetto, folded, "
                                           "speedscope, svg, ctf, uftrace, sqlite)",
                                           to);
        if (m)
            tgpy_raise_text(tgpy_state_of_module(module), kind, PyUnicode_AsUTF8(m), NULL);
        Py_XDECREF(m);
        return NULL;
    }
    return PyLong_FromLong(kind);
}

/* check_options(pairs): raises traceglot.Error for a key nobody declares or a bad value */
static PyObject *check_options(PyObject *module, PyObject *args)
{
    PyObject *pairs;
    if (!PyArg_ParseTuple(args, "O", &pairs))
        return NULL;
    tg_options *o = tg_options_new();
    tg_filter *f = tg_filter_new();
    int rc = o && f ? tgpy_options_fill(tgpy_state_of_module(module), pairs, o, f) : -1;
    if (!o || !f)
        PyErr_NoMemory();
    tg_options_free(o);
    tg_filter_free(f);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"check_options", check_options, METH_VARARGS, "check (key, value) option pairs"},
    {"converter_kind", converter_kind, METH_VARARGS, "0 stream, 1 directory, 2 file"},
    {"declared_options", declared_options, METH_NOARGS, "every option the library declares"},
    {"nearest_option", nearest_option, METH_VARARGS, "the declared key nearest to a key"},
    {"format_rows", tgpy_format_rows, METH_VARARGS,
     "format_rows(columns, rows, format) -> text, as traceglot sql --format prints them"},
    {NULL},
};

static int module_exec(PyObject *m)
{
    tgpy_state *st = tgpy_state_of_module(m);
    st->error = PyErr_NewExceptionWithDoc(
        "traceglot.Error",
        "A trace could not be read, or a call was refused.  str(e) holds every error (the "
        "whole cause chain of each, one per line); e.errors the list; e.status_name "
        "('format', 'io', 'usage', ...); e.partial what was read before the damage.",
        NULL, NULL);
    if (!st->error || PyModule_AddObjectRef(m, "Error", st->error) < 0)
        return -1;
    st->set = (PyTypeObject *)PyType_FromModuleAndSpec(m, &set_spec, NULL);
    st->iter = (PyTypeObject *)PyType_FromModuleAndSpec(m, &tgpy_iter_spec, NULL);
    st->event = (PyTypeObject *)PyType_FromModuleAndSpec(m, &tgpy_event_spec, NULL);
    st->fields = (PyTypeObject *)PyType_FromModuleAndSpec(m, &tgpy_fields_spec, NULL);
    if (!st->set || !st->iter || !st->event || !st->fields ||
        PyModule_AddObjectRef(m, "_Set", (PyObject *)st->set) < 0 ||
        PyModule_AddObjectRef(m, "_Events", (PyObject *)st->iter) < 0 ||
        PyModule_AddObjectRef(m, "Event", (PyObject *)st->event) < 0 ||
        PyModule_AddObjectRef(m, "Fields", (PyObject *)st->fields) < 0)
        return -1;
    for (int i = 0; i < TGPY_KINDS; i++)
        if (!(st->kind[i] = PyUnicode_InternFromString(kind_names[i])))
            return -1;
    return PyModule_AddStringConstant(m, "version", TG_VERSION_STRING);
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    tgpy_state *st = tgpy_state_of_module(m);
    Py_VISIT(st->error);
    Py_VISIT(st->set);
    Py_VISIT(st->iter);
    Py_VISIT(st->event);
    Py_VISIT(st->fields);
    return 0;
}

static int module_clear(PyObject *m)
{
    tgpy_state *st = tgpy_state_of_module(m);
    Py_CLEAR(st->error);
    Py_CLEAR(st->set);
    Py_CLEAR(st->iter);
    Py_CLEAR(st->event);
    Py_CLEAR(st->fields);
    for (int i = 0; i < TGPY_KINDS; i++)
        Py_CLEAR(st->kind[i]);
    return 0;
}

static void module_free(void *m) { module_clear((PyObject *)m); }

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef tgpy_module_def = {
    PyModuleDef_HEAD_INIT,
    "traceglot._traceglot",
    "libtraceglot's public API for the traceglot package",
    sizeof(tgpy_state),
    module_methods,
    module_slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__traceglot(void) { return PyModuleDef_Init(&tgpy_module_def); }
