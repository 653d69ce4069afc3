/* ctf_debuginfo.c - the babeltrace style with --debug-info: babeltrace2 2.0's
 * flt.lttng-utils.debug-info filter, as `babeltrace2 --debug-info` runs it.
 *
 * The filter sees the events in time order (after the muxer).  An event whose stream event
 * context has an unsigned 64-bit `ip` and a signed 32-bit `vpid` (and no `debug_info`)
 * gets a `debug_info` member at the end of that context: { bin, func, src }, resolved from
 * the statedump the filter has seen so far for that process: lttng_ust_statedump:bin_info
 * and lttng_ust_dl:dlopen / lttng_ust_lib:load map a module at a base address (ignored when
 * memsz is 0, the vDSO), build_id and debug_link say how to find its debug information,
 * lttng_ust_lib:unload forgets it, lttng_ust_statedump:start forgets the process's modules
 * and answers.  An address is resolved once per process (ctf_bininfo.c) and the answer
 * kept: later events at the same address print the same text even when a later build_id
 * would have changed it, as in babeltrace2.  Unresolved fields are "".  The filter's state
 * lives with the trace and follows the rendering order, so it holds for a `cat` that
 * prints every event of the trace, which is how babeltrace2 runs it. */
#include "core/hash.h"
#include "formats/ctf/ctf_bininfo.h"
#include "formats/ctf/ctf_stream.h"
#include "formats/ctf/ctf_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

typedef struct dbg_text {
    char *bin, *func, *src;
} dbg_text;

typedef struct dbg_proc {
    int64_t vpid;
    ctf_bin **bins;
    uint64_t *baddrs;
    size_t n_bins, cap_bins, cap_baddrs;
    tg_hash by_ip; /* ip -> index into texts */
    dbg_text *texts;
    size_t n_texts, cap_texts;
} dbg_proc;

struct ctf_debug_info {
    bool full_path;
    char *dir, *prefix;
    tg_hash by_vpid; /* vpid -> index into procs */
    dbg_proc *procs;
    size_t n_procs, cap_procs;
};

int ctf_debuginfo_setup(ctf_trace *tr, const tg_options *opts)
{
    if (!opts || !tg_options_flag(opts, "debug-info"))
        return 0;
    ctf_debug_info *di = calloc(1, sizeof *di);
    if (!di)
        return TG_ERR_NOMEM;
    tr->dbg = di;
    di->full_path = tg_options_flag(opts, "debug-info-full-path") != 0;
    const char *dir = tg_options_get(opts, "debug-info-dir");
    const char *prefix = tg_options_get(opts, "debug-info-target-prefix");
    if ((dir && !(di->dir = strdup(dir))) || (prefix && !(di->prefix = strdup(prefix))))
        return TG_ERR_NOMEM;
    return 0;
}

static void texts_clear(dbg_proc *p)
{
    for (size_t i = 0; i < p->n_texts; i++) {
        free(p->texts[i].bin);
        free(p->texts[i].func);
        free(p->texts[i].src);
    }
    p->n_texts = 0;
    tg_hash_clear(&p->by_ip);
}

static void bins_clear(dbg_proc *p)
{
    for (size_t i = 0; i < p->n_bins; i++)
        ctf_bin_free(p->bins[i]);
    p->n_bins = 0;
}

void ctf_debuginfo_free(ctf_trace *tr)
{
    ctf_debug_info *di = tr->dbg;
    if (!di)
        return;
    for (size_t i = 0; i < di->n_procs; i++) {
        dbg_proc *p = &di->procs[i];
        texts_clear(p);
        bins_clear(p);
        tg_hash_free(&p->by_ip);
        free(p->texts);
        free(p->bins);
        free(p->baddrs);
    }
    tg_hash_free(&di->by_vpid);
    free(di->procs);
    free(di->dir);
    free(di->prefix);
    free(di);
    tr->dbg = NULL;
}

static const ctf_field *member(const ctf_type *st, const char *name)
{
    for (size_t i = 0; st && i < st->n_fields; i++)
        if (!strcmp(st->fields[i].name, name))
            return &st->fields[i];
    return NULL;
}

/* Does the stream class's event context carry what the filter needs (babeltrace2's
 * is_event_common_ctx_dbg_info_compatible)? */
static bool compatible(const ctf_stream_decl *sc)
{
    const ctf_type *ctx = sc->event_context;
    if (!ctx || ctx->kind != CTF_T_STRUCT || member(ctx, "debug_info"))
        return false;
    const ctf_field *ip = member(ctx, "ip"), *vpid = member(ctx, "vpid");
    return ip && ip->type->kind == CTF_T_INT && !ip->type->is_signed && ip->type->size == 64 &&
           vpid && vpid->type->kind == CTF_T_INT && vpid->type->is_signed && vpid->type->size == 32;
}

static dbg_proc *proc_of(ctf_debug_info *di, int64_t vpid)
{
    uint64_t *row;
    int added = tg_hash_insert(&di->by_vpid, (uint64_t)vpid, &row);
    if (added < 0)
        return NULL;
    if (added) {
        if (tg_grow(&di->procs, &di->cap_procs, di->n_procs + 1, sizeof *di->procs) < 0)
            return NULL;
        dbg_proc *p = &di->procs[di->n_procs];
        memset(p, 0, sizeof *p);
        p->vpid = vpid;
        *row = di->n_procs++;
    }
    return &di->procs[*row];
}

static ssize_t bin_at(const dbg_proc *p, uint64_t baddr)
{
    for (size_t i = 0; i < p->n_bins; i++)
        if (p->baddrs[i] == baddr)
            return (ssize_t)i;
    return -1;
}

static char *str_of(const tg_value *v)
{
    char *s = malloc(v->v.str.len + 1);
    if (s) {
        memcpy(s, v->v.str.ptr, v->v.str.len);
        s[v->v.str.len] = 0;
    }
    return s;
}

static void on_bin(ctf_debug_info *di, dbg_proc *p, const tg_event *ev, bool has_pic)
{
    uint64_t memsz = 0, baddr = 0, pic = 1;
    tg_value path;
    if (!ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "memsz", &memsz) || memsz == 0 ||
        !ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "baddr", &baddr) ||
        !ctf_field_named(ev, TG_SCOPE_PAYLOAD, "path", &path) || path.type != TG_VAL_STRING)
        return;
    if (has_pic && !ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "is_pic", &pic))
        return;
    if (bin_at(p, baddr) >= 0)
        return;
    char *s = str_of(&path);
    ctf_bin *b = s ? ctf_bin_new(s, baddr, memsz, pic == 1, di->dir, di->prefix) : NULL;
    free(s);
    if (!b || tg_grow(&p->bins, &p->cap_bins, p->n_bins + 1, sizeof *p->bins) < 0 ||
        tg_grow(&p->baddrs, &p->cap_baddrs, p->n_bins + 1, sizeof *p->baddrs) < 0) {
        ctf_bin_free(b);
        return;
    }
    p->bins[p->n_bins] = b;
    p->baddrs[p->n_bins++] = baddr;
}

static void on_build_id(dbg_proc *p, const tg_event *ev)
{
    uint64_t baddr;
    tg_value v;
    if (!ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "baddr", &baddr))
        return;
    ssize_t i = bin_at(p, baddr);
    if (i < 0 || !ctf_field_named(ev, TG_SCOPE_PAYLOAD, "build_id", &v) ||
        (v.type != TG_VAL_ARRAY && v.type != TG_VAL_SEQUENCE))
        return;
    uint8_t id[256];
    size_t n = 0;
    for (; n < v.count && n < sizeof id; n++) {
        tg_value e;
        if (tg_value_child(&v, n, &e) < 0)
            return;
        id[n] = (uint8_t)e.v.u;
    }
    ctf_bin_set_build_id(p->bins[i], id, n);
}

static void on_debug_link(dbg_proc *p, const tg_event *ev)
{
    uint64_t baddr, crc;
    tg_value name;
    if (!ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "baddr", &baddr) ||
        !ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "crc", &crc) ||
        !ctf_field_named(ev, TG_SCOPE_PAYLOAD, "filename", &name) || name.type != TG_VAL_STRING)
        return;
    ssize_t i = bin_at(p, baddr);
    char *s = i >= 0 ? str_of(&name) : NULL;
    if (s)
        ctf_bin_set_debug_link(p->bins[i], s, (uint32_t)crc);
    free(s);
}

static void on_unload(dbg_proc *p, const tg_event *ev)
{
    uint64_t baddr;
    ssize_t i;
    if (!ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "baddr", &baddr) || (i = bin_at(p, baddr)) < 0)
        return;
    ctf_bin_free(p->bins[i]);
    memmove(&p->bins[i], &p->bins[i + 1], (p->n_bins - (size_t)i - 1) * sizeof *p->bins);
    memmove(&p->baddrs[i], &p->baddrs[i + 1], (p->n_bins - (size_t)i - 1) * sizeof *p->baddrs);
    p->n_bins--;
}

/* The statedump and library events update the process's modules (before the event's own
 * debug_info is resolved, as in babeltrace2). */
static void statedump(ctf_debug_info *di, dbg_proc *p, const tg_event *ev)
{
    const char *n = ev->cls->name;
    if (strncmp(n, "lttng_ust", 9) != 0)
        return;
    if (!strcmp(n, "lttng_ust_statedump:bin_info"))
        on_bin(di, p, ev, true);
    else if (!strcmp(n, "lttng_ust_dl:dlopen") || !strcmp(n, "lttng_ust_lib:load"))
        on_bin(di, p, ev, false);
    else if (!strcmp(n, "lttng_ust_statedump:start")) {
        bins_clear(p);
        texts_clear(p);
    } else if (!strcmp(n, "lttng_ust_statedump:debug_link"))
        on_debug_link(p, ev);
    else if (!strcmp(n, "lttng_ust_statedump:build_id"))
        on_build_id(p, ev);
    else if (!strcmp(n, "lttng_ust_lib:unload"))
        on_unload(p, ev);
}

/* babeltrace2's get_filename_from_path: the part after the last '/', unless the path ends
 * with one. */
static const char *short_path(const char *path)
{
    size_t n = strlen(path);
    if (!n || path[n - 1] == '/')
        return path;
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", a, b);
    return s;
}

/* The text for ip in process p: resolved once and kept; NULL when no module answers. */
static const dbg_text *resolve(ctf_debug_info *di, dbg_proc *p, uint64_t ip)
{
    uint64_t *row = tg_hash_find(&p->by_ip, ip);
    if (row)
        return &p->texts[*row];
    for (size_t i = 0; i < p->n_bins; i++) {
        ctf_bin *b = p->bins[i];
        if (!ctf_bin_has(b, ip))
            continue;
        ctf_bin_source s;
        if (!ctf_bin_lookup(b, ip, &s))
            return NULL;
        dbg_text t = {0};
        const char *path = ctf_bin_path(b);
        t.bin = join(di->full_path ? path : short_path(path), s.bin_loc);
        t.func = strdup(s.func ? s.func : "");
        if (s.src_path) {
            char line[32];
            snprintf(line, sizeof line, ":%" PRId64, (int64_t)s.line);
            t.src = join(di->full_path ? s.src_path : short_path(s.src_path), line);
        } else {
            t.src = strdup("");
        }
        free(s.func);
        free(s.src_path);
        free(s.bin_loc);
        int added;
        if (!t.bin || !t.func || !t.src ||
            tg_grow(&p->texts, &p->cap_texts, p->n_texts + 1, sizeof *p->texts) < 0 ||
            (added = tg_hash_insert(&p->by_ip, ip, &row)) < 0) {
            free(t.bin);
            free(t.func);
            free(t.src);
            return NULL;
        }
        *row = p->n_texts;
        p->texts[p->n_texts] = t;
        return &p->texts[p->n_texts++];
    }
    return NULL;
}

bool ctf_debuginfo_applies(const ctf_dstream *ds) { return ds->tr->dbg && compatible(ds->sc); }

void ctf_debuginfo_render(const tg_event *ev, tg_buf *w)
{
    ctf_dstream *ds = ev->stream->priv;
    ctf_debug_info *di = ds->tr->dbg;
    uint64_t vpid = 0, ip = 0;
    const dbg_text *t = NULL;
    if (ctf_field_uint(ev, TG_SCOPE_STREAM_CONTEXT, "vpid", &vpid) &&
        ctf_field_uint(ev, TG_SCOPE_STREAM_CONTEXT, "ip", &ip)) {
        dbg_proc *p = proc_of(di, (int64_t)vpid);
        if (p) {
            statedump(di, p, ev);
            t = resolve(di, p, ip);
        }
    }
    TG_BUF_LIT(w, ", debug_info = { bin = ");
    ctf_text_escaped(w, t ? t->bin : "", t ? strlen(t->bin) : 0);
    TG_BUF_LIT(w, ", func = ");
    ctf_text_escaped(w, t ? t->func : "", t ? strlen(t->func) : 0);
    TG_BUF_LIT(w, ", src = ");
    ctf_text_escaped(w, t ? t->src : "", t ? strlen(t->src) : 0);
    TG_BUF_LIT(w, " }");
}
