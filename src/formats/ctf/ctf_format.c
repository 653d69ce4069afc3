/* ctf_format.c - TG_FORMAT(ctf): finding CTF traces, opening them, describing them.
 *
 * A CTF trace is a directory holding a `metadata` file and stream files.  An LTTng session
 * folder holds several (kernel/, ust/uid/N/64-bit/, ust/pid/...): opening it opens every
 * trace below it into the same set (tg_set_open_child), so their events merge by time.
 * Opening runs the metadata passes, then reads every stream file's packet headers once
 * (sizes validated before any event is read, as babeltrace2 does) and groups files of one
 * stream instance (tracefile rotation) into one stream. */
#include "formats/ctf/ctf_live.h"
#include "formats/ctf/ctf_stream.h"
#include "io/byte_reader.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CTF_MAX_DISCOVERY_DEPTH 6
#define CTF_MAX_TRACES 4096

extern const struct tg_format tg_format_ctf;

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p, off_t *size)
{
    struct stat st;
    if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (size)
        *size = st.st_size;
    return true;
}

static bool dir_has_metadata(const char *dir)
{
    char *p = tg_path_join(dir, "metadata");
    bool ok = p && is_file(p, NULL);
    free(p);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of dir (malloc'ed array of malloc'ed strings). */
static char **list_dir(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **v = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (tg_grow(&v, &cap, *n + 1, sizeof *v) < 0)
            break;
        if (!(v[*n] = strdup(e->d_name)))
            break;
        (*n)++;
    }
    closedir(d);
    if (*n)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Trace directories under dir (dir itself excluded), depth-first in name order. */
static void find_traces(const char *dir, int depth, char ***out, size_t *n, size_t *cap)
{
    if (depth > CTF_MAX_DISCOVERY_DEPTH || *n >= CTF_MAX_TRACES)
        return;
    size_t ne;
    char **names = list_dir(dir, &ne);
    for (size_t i = 0; i < ne; i++) {
        char *sub = tg_path_join(dir, names[i]);
        if (!sub)
            continue;
        if (!is_dir(sub)) {
            free(sub);
            continue;
        }
        if (dir_has_metadata(sub)) {
            if (tg_grow(out, cap, *n + 1, sizeof **out) < 0) {
                free(sub);
                break;
            }
            (*out)[(*n)++] = sub;
        } else {
            find_traces(sub, depth + 1, out, n, cap);
            free(sub);
        }
    }
    free_list(names, ne);
}

static int ctf_probe(const tg_probe_input *in)
{
    if (in->is_dir) {
        if (dir_has_metadata(in->path))
            return 80;
        char **v = NULL;
        size_t n = 0, cap = 0;
        find_traces(in->path, 0, &v, &n, &cap);
        free_list(v, n);
        return n ? 60 : 0;
    }
    const char *b = strrchr(in->path, '/');
    b = b ? b + 1 : in->path;
    if (strcmp(b, "metadata") != 0)
        return 0;
    if (in->head_len >= 4 && (tg_le32(in->head) == 0x75D11D57u || tg_be32(in->head) == 0x75D11D57u))
        return 90;
    if (in->head_len >= 6 && !memcmp(in->head, "/* CTF", 6))
        return 90;
    return 30;
}

static tg_event_kind class_kind(const char *name)
{
    if (!strcmp(name, "lttng_ust_cyg_profile:func_entry") ||
        !strcmp(name, "lttng_ust_cyg_profile_fast:func_entry"))
        return TG_KIND_FUNC_ENTRY;
    if (!strcmp(name, "lttng_ust_cyg_profile:func_exit") ||
        !strcmp(name, "lttng_ust_cyg_profile_fast:func_exit"))
        return TG_KIND_FUNC_EXIT;
    if (!strncmp(name, "lttng_ust_statedump:", 20) || !strncmp(name, "lttng_statedump_", 16))
        return TG_KIND_STATEDUMP;
    return TG_KIND_GENERIC;
}

/* A function exit whose payload declares no address (lttng_ust_cyg_profile_fast:func_exit
 * has none: the fast probe records the entry's address only). */
static bool exit_without_address(const tg_event_class *c)
{
    if (c->kind != TG_KIND_FUNC_EXIT)
        return false;
    const tg_field_type *p = c->schema[TG_SCOPE_PAYLOAD];
    for (size_t i = 0; p && i < p->n_members; i++)
        if (p->members[i].name && strcmp(p->members[i].name, "addr") == 0)
            return false;
    return true;
}

static int cmp_file(const void *a, const void *b)
{
    const ctf_file *x = a, *y = b;
    if (x->first_ts != y->first_ts)
        return x->first_ts < y->first_ts ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* A clock whose offset puts a file's first packet past what signed 64-bit ns from the
 * origin hold (babeltrace2 2.0.4: "Cannot convert clock cycles to nanoseconds from origin",
 * and nothing read): its times count from the offset instead, said once.  A time that
 * overflows later is damage, as there (the reader reports it). */
static void clock_check(ctf_trace *tr, const ctf_file *f)
{
    ctf_clock *ck = f->sc ? f->sc->clock : NULL;
    if (!ck || ck->from_offset || ctf_clock_ns_fits(ck, f->first_ts))
        return;
    ck->from_offset = true;
    if (!ctf_clock_ns_fits(ck, f->first_ts)) {
        ck->from_offset = false; /* past int64 even without the offset: damage */
        return;
    }
    tg_trace_warn(tr->trace,
                  "%s: clock '%s': its offset (offset_s = %lld, offset = %llu) puts the times "
                  "past what signed 64-bit ns from the origin hold (babeltrace2: \"Cannot "
                  "convert clock cycles to nanoseconds from origin\"): times are counted from "
                  "the clock's offset instead",
                  f->path, ck->name, (long long)ck->offset_s, (unsigned long long)ck->offset);
}

static bool stream_after(const tg_stream *a, const tg_stream *b)
{
    return a->class_id != b->class_id ? a->class_id > b->class_id : a->id > b->id;
}

static int add_streams(tg_trace *t, ctf_trace *tr, tg_error **err)
{
    size_t ne;
    char **names = list_dir(tr->dir, &ne);
    ctf_file *files = ne ? calloc(ne, sizeof *files) : NULL;
    size_t nf = 0;
    int rc = 0;
    for (size_t i = 0; i < ne && rc >= 0; i++) {
        if (!strcmp(names[i], "metadata"))
            continue;
        char *p = tg_path_join(tr->dir, names[i]);
        off_t size = 0;
        if (!p || !is_file(p, &size) || size == 0) {
            free(p);
            continue;
        }
        files[nf].path = p;
        rc = ctf_scan_file(tr, &files[nf], err);
        nf++;
    }
    free_list(names, ne);
    for (size_t i = 0; i < nf && rc >= 0; i++)
        clock_check(tr, &files[i]);
    bool *used = nf ? calloc(nf, sizeof *used) : NULL;
    for (size_t i = 0; i < nf && rc >= 0; i++) {
        if (used[i])
            continue;
        /* gather the files of the same stream instance */
        size_t cnt = 0;
        for (size_t j = i; j < nf; j++)
            if (!used[j] &&
                (j == i || (files[i].has_instance && files[j].has_instance &&
                            files[j].sc == files[i].sc && files[j].instance == files[i].instance)))
                cnt++;
        ctf_dstream *ds = calloc(1, sizeof *ds);
        ctf_file *grp = calloc(cnt, sizeof *grp);
        uint64_t *regs = calloc(tr->meta.n_regs ? tr->meta.n_regs : 1, sizeof *regs);
        if (!ds || !grp || !regs) {
            free(ds);
            free(grp);
            free(regs);
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
        size_t k = 0;
        for (size_t j = i; j < nf; j++)
            if (!used[j] && (j == i || (files[i].has_instance && files[j].has_instance &&
                                        files[j].sc == files[i].sc &&
                                        files[j].instance == files[i].instance))) {
                grp[k++] = files[j];
                files[j].path = NULL;
                used[j] = true;
            }
        qsort(grp, cnt, sizeof *grp, cmp_file);
        ds->tr = tr;
        ds->sc = grp[0].sc;
        ds->files = grp;
        ds->n_files = cnt;
        ds->d.regs = regs;
        const char *name = strrchr(grp[0].path, '/');
        tg_stream *st =
            tg_trace_add_stream(t, &ctf_stream_ops, name ? name + 1 : grp[0].path, -1, -1, ds);
        if (!st) {
            ctf_dstream_free(ds);
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        } else {
            /* babeltrace2's ids: the instance id, else the trace's streams without one in
             * order (its src.ctf.fs counts them across the stream classes) */
            st->has_ids = true;
            st->class_id = ds->sc->id;
            st->id = grp[0].has_instance ? grp[0].instance : (uint64_t)-1;
        }
    }
    for (size_t i = 0; i < nf; i++)
        free(files[i].path);
    free(files);
    free(used);
    uint64_t next_id = 0;
    for (size_t i = 0; i < t->n_streams && rc >= 0; i++) {
        tg_stream *st = t->streams[i];
        if (st->id == (uint64_t)-1)
            st->id = next_id++;
    }
    /* babeltrace2's muxer takes messages of equal times in the order of its source's ports,
     * by stream class id and stream id (stream_2 before stream_10): the merge's tie-break
     * (the streams' index) follows it */
    if (rc >= 0 && t->n_streams > 1) {
        size_t n = t->n_streams, first = t->streams[0]->index;
        for (size_t a = 1; a < n; a++)
            for (size_t b = a; b > 0 && stream_after(t->streams[b - 1], t->streams[b]); b--) {
                tg_stream *x = t->streams[b - 1];
                t->streams[b - 1] = t->streams[b];
                t->streams[b] = x;
            }
        for (size_t i = 0; i < n; i++)
            t->streams[i]->index = first + i;
    }
    return rc;
}

static int open_one(tg_trace *t, const char *dir, const tg_options *opts, tg_error **err)
{
    ctf_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = tr;
    tr->trace = t;
    tr->dir = tg_arena_strdup(&t->arena, dir);
    ctf_meta *m = &tr->meta;
    m->arena = &t->arena;
    m->trace = t;
    char *mp = tg_path_join(dir, "metadata");
    if (!mp)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    m->path = tg_arena_strdup(&t->arena, mp);
    free(mp);
    char *text = NULL;
    size_t len = 0;
    TG_TRY(ctf_metadata_text(m->path, &text, &len, &m->packetized, err));
    ctf_tokens toks = {0};
    int rc;
    if (ctf2_is_metadata(text, len)) {
        rc = ctf2_parse(text, len, m, err);
    } else {
        rc = ctf_lex(text, len, &t->arena, &toks, m->path, err);
        if (rc >= 0)
            rc = ctf_parse(&toks, m, err);
    }
    free(text);
    free(toks.v);
    if (rc >= 0)
        rc = ctf_resolve(m, err);
    if (rc >= 0)
        rc = ctf_validate(m, err);
    if (rc >= 0)
        rc = ctf_compile(m, err);
    if (rc < 0)
        return rc;
    tg_trace_set_version(t, m->ctf2 ? "2" : "1.8");
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        for (size_t j = 0; j < s->n_events; j++) {
            ctf_event_decl *e = s->events[j];
            e->cls = tg_trace_add_class(t, e->name, e->id, class_kind(e->name));
            if (!e->cls)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            e->cls->fmt_data = e;
            e->cls->has_log_level = e->has_loglevel;
            e->cls->log_level = (int)e->loglevel;
            e->cls->emf_uri = e->emf_uri;
        }
        TG_TRY(ctf_schema_attach(m, s, err));
        for (size_t j = 0; j < s->n_events; j++)
            s->events[j]->cls->exit_ends_top = exit_without_address(s->events[j]->cls);
    }
    tr->lost_cls = tg_trace_add_class(t, "lost events", UINT64_MAX, TG_KIND_LOST);
    if (!tr->lost_cls)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    static const char *const msg_names[5] = {"stream beginning", "stream end", "packet beginning",
                                             "packet end", "lost packets"};
    for (int k = 0; k < 5; k++) {
        tg_event_class *c = tg_arena_alloc(&t->arena, sizeof *c);
        if (!c)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        memset(c, 0, sizeof *c);
        c->name = msg_names[k];
        c->id = UINT64_MAX;
        c->kind = (tg_event_kind)(TG_KIND_STREAM_BEGIN + k);
        c->trace = t;
        c->number = SIZE_MAX;
        tr->msg_cls[k] = c;
    }
    TG_TRY(ctf_func_setup(t, tr, opts));
    if (ctf_debuginfo_setup(tr, opts) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    TG_TRY(add_streams(t, tr, err));
    /* after the streams: a clock may count from its offset (clock_check) */
    if (ctf_attrs_fill(t, m) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int ctf_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    if (!is_dir(path)) {
        /* the metadata file itself: open its directory */
        char *dir = strdup(path);
        if (!dir)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            strcpy(dir, ".");
        int rc = open_one(t, dir, opts, err);
        free(dir);
        return rc;
    }
    if (dir_has_metadata(path))
        return open_one(t, path, opts, err);
    char **v = NULL;
    size_t n = 0, cap = 0;
    find_traces(path, 0, &v, &n, &cap);
    if (!n) {
        free(v);
        return tg_err_at(err, TG_ERR_FORMAT, path, TG_NO_OFFSET,
                         "no CTF trace (no directory with a metadata file) found");
    }
    int rc = open_one(t, v[0], opts, err);
    if (rc >= 0)
        t->path = tg_arena_strdup(&t->arena, v[0]);
    for (size_t i = 1; i < n && rc >= 0; i++)
        if (!tg_set_open_child(t->set, &tg_format_ctf, v[i], opts, err))
            rc = TG_ERR_FORMAT;
    free_list(v, n);
    return rc;
}

const char *ctf_env_string(const ctf_meta *m, const char *key)
{
    for (size_t i = 0; i < m->n_env; i++)
        if (!strcmp(m->env[i].key, key) && !m->env[i].is_int)
            return m->env[i].s;
    return NULL;
}

static void put_uuid(tg_buf *out, const uint8_t *u)
{
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            tg_buf_putc(out, '-');
        tg_buf_printf(out, "%02x", u[i]);
    }
}

static int ctf_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    const ctf_trace *tr = t->priv;
    const ctf_meta *m = &tr->meta;
    tg_buf_printf(out, "CTF version: %u.%u%s\n", m->major, m->minor,
                  m->packetized ? " (packetized metadata)" : "");
    tg_buf_puts(out, "byte order: ");
    tg_buf_puts(out, m->big_endian ? "be\n" : "le\n");
    if (m->has_uuid) {
        tg_buf_puts(out, "uuid: ");
        put_uuid(out, m->uuid);
        tg_buf_putc(out, '\n');
    }
    for (size_t i = 0; i < m->n_env; i++) {
        const ctf_env *e = &m->env[i];
        if (e->is_int)
            tg_buf_printf(out, "env.%s = %lld\n", e->key, (long long)e->i);
        else
            tg_buf_printf(out, "env.%s = \"%s\"\n", e->key, e->s ? e->s : "");
    }
    for (size_t i = 0; i < m->n_clocks; i++) {
        const ctf_clock *c = m->clocks[i];
        tg_buf_printf(out, "clock %s: freq %llu Hz, offset %lld s + %llu cycles%s%s%s\n", c->name,
                      (unsigned long long)c->freq, (long long)c->offset_s,
                      (unsigned long long)c->offset, c->absolute ? ", absolute" : "",
                      c->description ? ", " : "", c->description ? c->description : "");
    }
    for (size_t i = 0; i < m->n_streams; i++) {
        const ctf_stream_decl *s = m->streams[i];
        tg_buf_printf(out, "stream class %llu: %zu event classes, clock %s\n",
                      (unsigned long long)s->id, s->n_events, s->clock ? s->clock->name : "none");
    }
    for (size_t i = 0; i < t->n_streams; i++) {
        const ctf_dstream *ds = t->streams[i]->priv;
        tg_buf_printf(out, "stream %s: class %llu, %zu file%s\n", t->streams[i]->name,
                      (unsigned long long)ds->sc->id, ds->n_files, ds->n_files == 1 ? "" : "s");
    }
    return 0;
}

static int ctf_render_part(const tg_trace *t, const char *part, tg_buf *out, tg_error **err)
{
    const ctf_trace *tr = t->priv;
    if (strcmp(part, "babeltrace-details-uuid") == 0) { /* the trace's UUID, when it has one */
        const uint8_t *u = tr->meta.uuid;
        if (!tr->meta.has_uuid)
            return 0;
        tg_buf_printf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                      u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
                      u[12], u[13], u[14], u[15]);
        return 1;
    }
    if (strcmp(part, "babeltrace2-metadata-info") == 0)
        return ctf_metadata_info(t, out, err);
    if (strcmp(part, "babeltrace2-trace-infos") == 0)
        return ctf_trace_infos(t, out, err);
    if (strcmp(part, "babeltrace-details") != 0)
        return 0;
    int rc = ctf_details_render(t, out);
    return rc == TG_ERR_NOMEM ? tg_err(err, rc, "out of memory") : rc;
}

static void ctf_close(tg_trace *t)
{
    ctf_trace *tr = t->priv;
    if (!tr)
        return;
    ctf_meta *m = &tr->meta;
    for (size_t i = 0; i < m->n_streams; i++)
        free(m->streams[i]->events);
    free(m->streams);
    free(m->events);
    free(m->clocks);
    free(m->env);
    ctf_func_free(tr);
    ctf_debuginfo_free(tr);
    free(tr);
    t->priv = NULL;
}

/* debug-info, debug-info-target-prefix and debug-info-full-path are read at open too
 * (ctf_debuginfo.c) and declared by the babeltrace style, the one that prints them. */
static const tg_option_decl ctf_options[] = {
    {"debug-info-dir", TG_OPT_TEXT, "/usr/lib/debug",
     "LTTng-UST function traces: debug files by build id under DIR/.build-id, by debug link "
     "under DIR",
     "DIR"},
    {"params", TG_OPT_TEXT, NULL,
     "net:// (lttng-live): session-not-found-action=continue|fail|end, as babeltrace2's "
     "--params (default continue: wait for the session to appear)",
     "PARAMS"},
    {0},
};

TG_FORMAT(ctf) = {
    .name = "ctf",
    .options = ctf_options,
    .live_record = ctf_live_record,
    .live_list = ctf_live_list,
    .probe = ctf_probe,
    .open = ctf_open,
    .describe = ctf_describe,
    .render_part = ctf_render_part,
    .close = ctf_close,
};
