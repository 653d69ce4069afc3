/* trace_set.c - opening paths into a trace set: format detection, traces, streams.
 *
 * tg_open probes each path with every registered format (by content: magic numbers, the
 * files a directory holds) and lets the most confident one open it.  A format may open
 * further traces into the same set (tg_set_open_child), e.g. the several traces of an LTTng
 * session folder.  Streams are numbered across the whole set in the order they are added;
 * that number is the merge's tie-break. */
#include "core/input_spool.h"
#include "core/set_internal.h"
#include "core/cursor.h"
#include "core/grow.h"
#include "core/file_input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TG_PROBE_HEAD 4096

static void trace_free(tg_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_streams; i++) {
        tg_stream *s = t->streams[i];
        if (s->ops && s->ops->destroy)
            s->ops->destroy(s);
        free(s);
    }
    if (t->format && t->format->close)
        t->format->close(t);
    free(t->streams);
    free(t->classes);
    free(t->env);
    free(t->tasks);
    free(t->cpu_infos);
    free(t->arg_sets);
    tg_trace_profile_free(t);
    free(t->build_ids);
    free(t->tracks);
    tg_symtab_free(&t->symbols);
    tg_arena_free(&t->arena);
    free(t);
}

static tg_trace *trace_new(tg_set *set, const struct tg_format *fmt, const char *path)
{
    tg_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tg_arena_init(&t->arena);
    tg_symtab_init(&t->symbols);
    t->format = fmt;
    t->set = set;
    t->process.pid = -1;
    t->path = tg_arena_strdup(&t->arena, path);
    if (!t->path) {
        trace_free(t);
        return NULL;
    }
    return t;
}

static int set_push(tg_set *set, tg_trace *t)
{
    TG_TRY(tg_grow(&set->traces, &set->cap_traces, set->n_traces + 1, sizeof *set->traces));
    set->traces[set->n_traces++] = t;
    return 0;
}

tg_trace *tg_set_open_child(tg_set *set, const struct tg_format *fmt, const char *path,
                            const tg_options *opts, tg_error **err)
{
    tg_trace *t = trace_new(set, fmt, path);
    if (!t || set_push(set, t) < 0) {
        trace_free(t);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (fmt->open(t, path, opts, err) < 0) {
        set->n_traces--;
        trace_free(t);
        return NULL;
    }
    return t;
}

bool tg_probe_dir_has(const char *dir, const char *name_glob)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL)
        found = fnmatch(name_glob, e->d_name, 0) == 0;
    closedir(d);
    return found;
}

const struct tg_format *tg_format_find(const char *name)
{
    for (size_t i = 0; i < tg_n_formats; i++)
        if (strcmp(tg_formats[i]->name, name) == 0)
            return tg_formats[i];
    return NULL;
}

const char *tg_format_name(size_t i) { return i < tg_n_formats ? tg_formats[i]->name : NULL; }

const struct tg_format *tg_detect_format(const char *path, int *score, tg_error **err)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot open: %s", strerror(errno));
        return NULL;
    }
    uint8_t head[TG_PROBE_HEAD];
    tg_probe_input in = {.path = path, .is_dir = S_ISDIR(st.st_mode), .head = head};
    if (in.is_dir) {
        /* a folder the user may not list would look like no trace at all */
        DIR *d = opendir(path);
        if (!d) {
            tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot read the folder: %s",
                      strerror(errno));
            return NULL;
        }
        closedir(d);
    } else {
        int fd = open(path, O_RDONLY);
        if (fd < 0) {
            tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot open for reading: %s",
                      strerror(errno));
            return NULL;
        }
        ssize_t n = read(fd, head, sizeof head);
        int why = errno;
        close(fd);
        if (n < 0) {
            tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot read: %s", strerror(why));
            return NULL;
        }
        in.head_len = (size_t)n;
    }
    const struct tg_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < tg_n_formats; i++) {
        int s = tg_formats[i]->probe(&in);
        if (s > best_score) {
            best_score = s;
            best = tg_formats[i];
        }
    }
    if (score)
        *score = best_score;
    if (!best)
        tg_err_at(err, TG_ERR_UNSUPPORTED, path, TG_NO_OFFSET,
                  "not a trace traceglot can read (expected a uftrace data directory, a CTF "
                  "trace, an ftrace trace.dat, an XRay log, an LTTng 0.x trace, a Perfetto "
                  "trace or a Chrome JSON trace)");
    return best;
}

tg_set *tg_open(const char *const *paths, size_t n, const tg_options *opts, tg_error **err)
{
    tg_set *set = calloc(1, sizeof *set);
    if (!set) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&set->readers_lock, NULL);
    set->opts = opts;
    set->paths = calloc(n ? n : 1, sizeof *set->paths);
    set->spool_fds = malloc((n ? n : 1) * sizeof *set->spool_fds);
    set->shown = calloc(n ? n : 1, sizeof *set->shown);
    for (size_t i = 0; set->paths && set->spool_fds && set->shown && i < n; i++) {
        set->spool_fds[i] = -1;
        if ((set->paths[i] = strdup(paths[i])))
            set->n_paths++;
    }
    if (set->n_paths != n) {
        tg_close(set);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char spooled[64];
        int copied = tg_spool_input(paths[i], &set->spool_fds[i], spooled, sizeof spooled, err);
        char *copy = copied > 0 ? strdup(spooled) : NULL;
        if (copied < 0 || (copied > 0 && !copy)) {
            if (copied > 0)
                tg_err(err, TG_ERR_NOMEM, "out of memory");
            tg_close(set);
            return NULL;
        }
        if (copy) { /* reopening (tg_set_reopen) reads the copy */
            set->shown[i] = strdup(strcmp(paths[i], "-") == 0 ? "standard input" : paths[i]);
            free(set->paths[i]);
            set->paths[i] = copy;
        }
        const char *path = set->paths[i];
        size_t first = set->n_traces;
        int opened = tg_open_folder_of_traces(set, path, opts, err);
        const struct tg_format *fmt = opened ? NULL : tg_detect_format(path, NULL, err);
        if (opened < 0 || (!opened && (!fmt || !tg_set_open_child(set, fmt, path, opts, err)))) {
            tg_set_name_inputs(set, err ? *err : NULL);
            tg_close(set);
            return NULL;
        }
        for (size_t k = first; k < set->n_traces; k++) /* the traces found under paths[i] */
            set->traces[k]->input_path = set->paths[i];
    }
    if (tg_timeline_align(set, opts, err) < 0) {
        tg_set_name_inputs(set, err ? *err : NULL);
        tg_close(set);
        return NULL;
    }
    return set;
}

void tg_close(tg_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n_traces; i++)
        trace_free(set->traces[i]);
    free(set->traces);
    tg_error_free(set->warnings);
    tg_error_free(set->run_warnings);
    free(set->unsure);
    for (size_t i = 0; i < set->n_paths; i++) {
        free(set->paths[i]);
        if (set->spool_fds[i] >= 0)
            close(set->spool_fds[i]);
        free(set->shown[i]);
    }
    free(set->paths);
    free(set->shown);
    free(set->spool_fds);
    pthread_mutex_destroy(&set->readers_lock);
    free(set);
}

void tg_trace_lock_set(tg_trace *t) { pthread_mutex_lock(&t->set->readers_lock); }

void tg_trace_unlock_set(tg_trace *t) { pthread_mutex_unlock(&t->set->readers_lock); }

void tg_set_name_inputs(const tg_set *set, tg_error *list)
{
    for (size_t i = 0; set && list && i < set->n_paths; i++)
        if (set->shown[i])
            tg_err_rename(list, set->paths[i], set->shown[i]);
}

/* The same paths opened again; a copy of standard input keeps its name in errors. */
tg_set *tg_set_reopen(const tg_set *set, tg_error **err)
{
    tg_set *twin = tg_open((const char *const *)set->paths, set->n_paths, set->opts, err);
    for (size_t i = 0; twin && i < set->n_paths; i++)
        if (set->shown[i])
            twin->shown[i] = strdup(set->shown[i]);
    if (!twin)
        tg_set_name_inputs(set, err ? *err : NULL);
    return twin;
}

bool tg_set_rereadable(const tg_set *set)
{
    for (size_t t = 0; t < set->n_traces; t++)
        for (size_t s = 0; s < set->traces[t]->n_streams; s++)
            if (!set->traces[t]->streams[s]->ops->rewind)
                return false;
    return true;
}

tg_event_class *tg_trace_add_class(tg_trace *t, const char *name, uint64_t id, tg_event_kind kind)
{
    if (tg_grow(&t->classes, &t->cap_classes, t->n_classes + 1, sizeof *t->classes) < 0)
        return NULL;
    tg_event_class *c = tg_arena_alloc(&t->arena, sizeof *c);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c); /* the arena's memory is not cleared: no flag left to chance */
    if (!(c->name = tg_arena_strdup(&t->arena, name)))
        return NULL;
    c->id = id;
    c->kind = kind;
    c->trace = t;
    c->index = t->n_classes;
    c->number = t->set->n_classes++;
    t->classes[t->n_classes++] = c;
    return c;
}

int tg_trace_add_slice_classes(tg_trace *t, const tg_event_class **begin,
                               const tg_event_class **end)
{
    *begin = tg_trace_add_class(t, "slice_begin", 0, TG_KIND_FUNC_ENTRY);
    *end = tg_trace_add_class(t, "slice_end", 1, TG_KIND_FUNC_EXIT);
    return *begin && *end ? 0 : TG_ERR_NOMEM;
}

tg_stream *tg_trace_add_stream(tg_trace *t, const struct tg_stream_ops *ops, const char *name,
                               int cpu, int tid, void *priv)
{
    if (tg_grow(&t->streams, &t->cap_streams, t->n_streams + 1, sizeof *t->streams) < 0)
        return NULL;
    tg_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->ops = ops;
    s->trace = t;
    s->name = tg_arena_strdup(&t->arena, name ? name : "");
    s->cpu = cpu;
    s->tid = tid;
    s->priv = priv;
    s->index = t->set->n_streams++;
    t->streams[t->n_streams++] = s;
    return s;
}

struct tg_trace_warning {
    struct tg_trace_warning *next;
    const char *text;
};

void tg_trace_warn(tg_trace *t, const char *fmt, ...)
{
    if (t->n_warnings >= 100)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct tg_trace_warning *w = tg_arena_alloc(&t->arena, sizeof *w);
    if (!w || !(w->text = tg_arena_strdup(&t->arena, msg)))
        return;
    struct tg_trace_warning **at = &t->warnings;
    while (*at)
        at = &(*at)->next;
    *at = w;
    t->n_warnings++;
}

size_t tg_trace_warning_count(const tg_trace *t) { return t->n_warnings; }

void tg_trace_set_symbols_missing(tg_trace *t, const char *why)
{
    if (!t->symbols_missing)
        t->symbols_missing = tg_arena_strdup(&t->arena, why);
    tg_trace_warn(t, "%s", why);
}

const char *tg_trace_symbols_missing(const tg_trace *t) { return t->symbols_missing; }

const char *tg_trace_warning(const tg_trace *t, size_t i)
{
    const struct tg_trace_warning *w = t->warnings;
    while (w && i--)
        w = w->next;
    return w ? w->text : NULL;
}

void tg_trace_set_version(tg_trace *t, const char *version)
{
    t->version = tg_arena_strdup(&t->arena, version);
}

size_t tg_set_trace_count(const tg_set *set) { return set->n_traces; }
tg_trace *tg_set_trace(const tg_set *set, size_t i)
{
    return i < set->n_traces ? set->traces[i] : NULL;
}
const char *tg_trace_path(const tg_trace *t) { return t->path; }
const char *tg_trace_input_path(const tg_trace *t)
{
    return t->input_path ? t->input_path : t->path;
}
const char *tg_trace_format(const tg_trace *t) { return t->format->name; }
const char *tg_trace_version(const tg_trace *t) { return t->version ? t->version : "unknown"; }
size_t tg_trace_stream_count(const tg_trace *t) { return t->n_streams; }
tg_stream *tg_trace_stream(const tg_trace *t, size_t i)
{
    return i < t->n_streams ? t->streams[i] : NULL;
}

int tg_trace_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    if (!t->format->describe)
        return 0;
    return t->format->describe(t, out, err);
}

int tg_trace_render(const tg_trace *t, const char *part, tg_buf *out, tg_error **err)
{
    if (!t->format->render_part)
        return 0;
    return t->format->render_part(t, part, out, err);
}

int tg_render_file(const char *format, const char *path, const char *part, tg_buf *out,
                   tg_error **err)
{
    const struct tg_format *f = tg_format_find(format);
    if (!f)
        return tg_err(err, TG_ERR_USAGE, "no format '%s'", format);
    if (!f->render_file)
        return 0;
    return f->render_file(path, part, out, err);
}

const char *tg_trace_symbol(const tg_trace *t, uint64_t addr)
{
    if (t->format->symbol)
        return t->format->symbol(t, addr);
    const tg_symbol *s = t->symbols.sorted ? tg_symtab_lookup(&t->symbols, addr) : NULL;
    return s ? s->name : NULL;
}

size_t tg_trace_class_count(const tg_trace *t) { return t->n_classes; }
const tg_event_class *tg_trace_class(const tg_trace *t, size_t i)
{
    return i < t->n_classes ? t->classes[i] : NULL;
}

const char *tg_stream_name(const tg_stream *s) { return s->name; }
int tg_stream_cpu(const tg_stream *s) { return s->cpu; }

bool tg_stream_end_time(const tg_stream *s, int64_t *ns)
{
    int64_t t;
    if (!s->ops->end_time || !s->ops->end_time((tg_stream *)s, &t) ||
        __builtin_add_overflow(t, s->shift_ns, ns))
        return false;
    return true;
}
int tg_stream_tid(const tg_stream *s) { return s->tid; }

bool tg_stream_ids(const tg_stream *s, uint64_t *class_id, uint64_t *id)
{
    if (s->has_ids) {
        *class_id = s->class_id;
        *id = s->id;
    }
    return s->has_ids;
}
tg_trace *tg_stream_trace(const tg_stream *s) { return s->trace; }
