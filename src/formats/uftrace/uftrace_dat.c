/* uftrace_dat.c - one thread's TID.dat file as a stream of events.
 *
 * The file is a sequence of 16-byte records (a 64-bit timestamp, then a 64-bit word packing
 * type:2, more:1, magic:3, depth:10, address:48), each optionally followed by a payload when
 * `more` is set: argument or return values laid out by the function's spec, or an event's
 * 16-bit length and bytes.  The file is mapped and decoded in place.  Symbols and specs are
 * looked up through a small direct-mapped cache keyed by address, because a trace calls the
 * same few hundred functions millions of times.  A record whose magic is wrong, or whose
 * payload runs past the end, stops the stream with an error naming the file and offset; the
 * records before it have been delivered. */
#include "formats/uftrace/uftrace_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UFT_CACHE_SIZE 512

struct uft_sym_cache {
    uint64_t addr;
    const tg_symbol *sym;
    struct uft_module *mod;
    const struct uft_argspec *spec[2]; /* arguments, return value */
    uint8_t state;                     /* 0 empty, 1 symbol resolved, 3 + specs resolved */
};

struct uft_dat {
    struct uft_data *d;
    tg_trace *t;
    char *path;
    tg_map map;
    tg_window win; /* over map: a thread's file is read once, front to back */
    int tid, pid;
    size_t pos;
    size_t fast_end; /* records before this were checked in bulk: common ones (see scan_run) */
    bool stopped;
    struct uft_sym_cache cache[UFT_CACHE_SIZE];
};

static struct uft_sym_cache *lookup(struct uft_dat *s, uint64_t addr, int64_t ts, bool specs)
{
    struct uft_sym_cache *c = &s->cache[(addr ^ (addr >> 9)) % UFT_CACHE_SIZE];
    if (!c->state || c->addr != addr) {
        c->addr = addr;
        c->sym = uft_resolve(s->d, s->t, s->tid, ts, addr, &c->mod);
        c->spec[0] = c->spec[1] = NULL;
        c->state = 1;
    }
    if (specs && c->state == 1) {
        c->spec[0] = uft_spec_for(s->d, c->mod, c->sym, false);
        c->spec[1] = uft_spec_for(s->d, c->mod, c->sym, true);
        c->state = 3;
    }
    return c;
}

static int dat_stop(struct uft_dat *s, tg_error **err, int status, uint64_t off, const char *fmt,
                    const char *arg)
{
    s->stopped = true;
    return tg_err_at(err, (tg_status)status, s->path, off, fmt, arg);
}

/* A record the end of the file cuts: damage, or in a growing directory the part uftrace has
 * not written yet (the stream ends before it, without error). */
static int dat_cut(struct uft_dat *s, tg_error **err, uint64_t off, const char *fmt,
                   const char *arg)
{
    if (s->d->growing) {
        s->stopped = true;
        return 0;
    }
    return dat_stop(s, err, TG_ERR_FORMAT, off, fmt, arg);
}

/* Everything but the common record (see dat_next): payloads, events, lost records, big
 * endian data, damage, page release.  Kept apart so the common path stays a leaf. */
__attribute__((noinline)) static int dat_next_slow(tg_stream *st, tg_event *ev, tg_error **err)
{
    struct uft_dat *s = st->priv;
    struct uft_data *d = s->d;
    const uint8_t *base = s->map.data;
    size_t size = s->map.size, pos = s->pos;
    if (s->stopped)
        return 0;
    if (pos >= size)
        return 0;
    if (size - pos < 16) {
        char what[32];
        snprintf(what, sizeof what, "%zu", size - pos);
        return dat_cut(s, err, pos,
                       "truncated record: %s bytes left, expected a 16-byte record header", what);
    }
    const uint8_t *p = base + pos;
    uint64_t time = d->big_endian ? tg_be64(p) : tg_le64(p);
    uint64_t w = d->big_endian ? tg_be64(p + 8) : tg_le64(p + 8);
    unsigned type = (unsigned)(w & 3), more = (unsigned)((w >> 2) & 1);
    unsigned magic = (unsigned)((w >> 3) & 7), depth = (unsigned)((w >> 6) & 0x3ff);
    uint64_t addr = w >> 16;
    if (magic != UFT_RECORD_MAGIC) {
        char what[64];
        snprintf(what, sizeof what, "%u", magic);
        return dat_stop(s, err, TG_ERR_FORMAT, pos + 8,
                        "bad record magic %s: expected 5 (damaged or not a uftrace record)", what);
    }
    ev->ts = (int64_t)time;
    ev->tid = s->tid;
    ev->pid = s->pid;
    ev->offset = pos;
    ev->depth = (int32_t)depth;
    ev->addr = addr;
    ev->data = NULL;
    ev->size = 0;
    ev->auxp = NULL;
    ev->aux[0] = more;
    size_t payload = 0;
    switch (type) {
    case UFT_ENTRY:
    case UFT_EXIT:
        ev->cls = type == UFT_ENTRY ? d->cls_entry : d->cls_exit;
        if (more) {
            struct uft_sym_cache *c = lookup(s, addr, ev->ts, true);
            const struct uft_argspec *spec = c->spec[type == UFT_EXIT];
            if (!spec) {
                char what[160];
                snprintf(what, sizeof what, "%s", c->sym ? c->sym->name : "an unknown address");
                return dat_stop(s, err, TG_ERR_FORMAT, pos,
                                "record of %s carries arguments, but no argument spec for it "
                                "was found in info or .dbg",
                                what);
            }
            long n =
                uft_payload_size(spec, type == UFT_EXIT, p + 16, size - pos - 16, d->big_endian);
            if (n < 0)
                return dat_cut(s, err, pos + 16,
                               "truncated record: argument data of %s runs past the end of "
                               "the file",
                               c->sym ? c->sym->name : "a function");
            payload = (size_t)n;
            ev->auxp = spec;
        }
        break;
    case UFT_EVENT:
        ev->cls = d->cls_event;
        for (size_t i = 0; i < d->n_user_events; i++)
            if (d->user_events[i].id == addr)
                ev->auxp = &d->user_events[i];
        tg_event_class *builtin = uft_builtin_class(d, addr);
        if (builtin) {
            ev->cls = builtin;
            ev->aux[1] = ev->aux[2] = ev->aux[3] = 0;
        }
        if (more) {
            if (size - pos - 16 < 2)
                return dat_cut(s, err, pos + 16, "%s",
                               "truncated record: event data length missing");
            size_t len = d->big_endian ? tg_be16(p + 16) : tg_le16(p + 16);
            payload = (len + 2 + 7) / 8 * 8;
            if (payload > size - pos - 16)
                return dat_cut(s, err, pos + 16, "%s",
                               "truncated record: event data runs past the end of the file");
            if (builtin)
                uft_builtin_values(d, p + 18, len, ev);
        }
        break;
    default:
        ev->cls = d->cls_lost;
        ev->lost = addr;
        break;
    }
    if (payload) {
        ev->data = p + 16;
        ev->size = payload;
    }
    s->pos = pos + 16 + payload;
    tg_window_at(&s->win, s->pos);
    return 1;
}

/* Checks the records from s->pos on in bulk - little-endian, magic right, no payload, an
 * entry or exit, inside the current release window - and sets s->fast_end past the last of
 * that run (at most UFT_RUN_RECORDS of them, so the run is still in cache when it is
 * decoded).  Those records are then decoded without any check; 0: none at pos. */
#define UFT_RUN_RECORDS 2048
static size_t scan_run(struct uft_dat *s)
{
    size_t pos = s->pos, lim = s->map.size;
    if (s->stopped || s->d->big_endian || pos >= lim)
        return 0;
    if (lim > s->win.next) /* the slow path moves the window */
        lim = s->win.next;
    if (lim - pos > (size_t)UFT_RUN_RECORDS * 16)
        lim = pos + (size_t)UFT_RUN_RECORDS * 16;
    const uint8_t *base = s->map.data;
    size_t p = pos;
    while (p + 16 <= lim && (tg_le64(base + p + 8) & 0x3e) == (UFT_RECORD_MAGIC << 3))
        p += 16;
    s->fast_end = p;
    return p - pos;
}

/* The common record, already checked by scan_run - decoded here without a stack frame;
 * anything else goes the slow way. */
static int dat_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    struct uft_dat *s = st->priv;
    size_t pos = s->pos;
    if (__builtin_expect(pos >= s->fast_end, 0) && !scan_run(s))
        return dat_next_slow(st, ev, err);
    const uint8_t *p = s->map.data + pos;
    uint64_t w = tg_le64(p + 8);
    const struct uft_data *d = s->d;
    ev->ts = (int64_t)tg_le64(p);
    ev->cls = (w & 1) ? d->cls_exit : d->cls_entry;
    ev->tid = s->tid;
    ev->pid = s->pid;
    ev->offset = pos;
    ev->depth = (int32_t)((w >> 6) & 0x3ff);
    ev->addr = w >> 16;
    ev->data = NULL;
    ev->size = 0;
    ev->auxp = NULL;
    ev->aux[0] = 0;
    s->pos = pos + 16;
    return 1;
}

/* next_batch: common records (as scan_run checks them) decoded in one loop, checked as they
 * go; it stops at the first other record, which next() then reads. */
static size_t dat_next_batch(tg_stream *st, tg_event *evs, size_t max)
{
    struct uft_dat *s = st->priv;
    const struct uft_data *d = s->d;
    size_t pos = s->pos, lim = s->map.size;
    if (s->stopped || d->big_endian)
        return 0;
    if (lim > s->win.next) /* the slow path moves the window */
        lim = s->win.next;
    if (pos + 16 > lim)
        return 0;
    size_t n = (lim - pos) / 16;
    if (n > max)
        n = max;
    const uint8_t *p = s->map.data + pos;
    const tg_event_class *c_entry = d->cls_entry, *c_exit = d->cls_exit;
    int32_t tid = s->tid, pid = s->pid;
    size_t i;
    for (i = 0; i < n; i++, p += 16) {
        uint64_t w = tg_le64(p + 8);
        if ((w & 0x3e) != (UFT_RECORD_MAGIC << 3))
            break;
        if ((i & 3) == 0) /* the next page early: the file comes from memory, not cache */
            __builtin_prefetch(p + 2048);
        tg_event *ev = &evs[i];
        ev->ts = (int64_t)tg_le64(p);
        ev->cls = (w & 1) ? c_exit : c_entry;
        ev->tid = tid;
        ev->pid = pid;
        ev->offset = pos + i * 16;
        ev->depth = (int32_t)((w >> 6) & 0x3ff);
        ev->addr = w >> 16;
        ev->data = NULL;
        ev->size = 0;
        ev->auxp = NULL;
        ev->aux[0] = 0;
    }
    s->pos = pos + i * 16;
    return i;
}

static const char *dat_func_name(const tg_event *ev)
{
    struct uft_dat *s = ev->stream->priv;
    const struct uft_sym_cache *c = lookup(s, ev->addr, ev->ts, false);
    return c->sym ? c->sym->name : NULL;
}

/* The module the sid-*.map (or a DLOP line) gives the address: the PLT entry of a library
 * call is the calling module's, as `uftrace replay -f module` says. */
static const char *dat_func_module(const tg_event *ev)
{
    struct uft_dat *s = ev->stream->priv;
    const struct uft_sym_cache *c = lookup(s, ev->addr, ev->ts, false);
    return c->mod ? c->mod->path : NULL;
}

/* The symbol with uftrace's size (the distance to the next symbol of its .sym file). */
static int dat_func_symbol(const tg_event *ev, tg_func_symbol *out)
{
    struct uft_dat *s = ev->stream->priv;
    const tg_symbol *sym = lookup(s, ev->addr, ev->ts, false)->sym;
    memset(out, 0, sizeof *out);
    if (!sym)
        return 0;
    out->name = sym->name;
    out->addr = sym->addr;
    out->size = sym->size;
    out->flags = sym->type == 'P' ? TG_FUNC_PLT : 0;
    return 1;
}

static bool is_ret(const tg_event *ev)
{
    return ev->cls == ((struct uft_dat *)ev->stream->priv)->d->cls_exit;
}

static int dat_render(const tg_event *ev, tg_buf *out)
{
    struct uft_dat *s = ev->stream->priv;
    struct uft_data *d = s->d;
    if (uft_builtin_render(d, ev, out))
        return 1;
    if (ev->cls == d->cls_event) {
        const struct uft_user_event *ue = ev->auxp;
        if (ue)
            tg_buf_puts(out, ue->name);
        else
            tg_buf_printf(out, "user_event:%u", (unsigned)ev->addr);
        return 1;
    }
    if (!ev->auxp || !ev->size)
        return 0;
    const struct uft_sym_cache *c = lookup(s, ev->addr, ev->ts, false);
    uft_args_render(d, s->t, s->tid, ev->ts, c->mod, ev->auxp, is_ret(ev), ev->data, ev->size, out);
    return 1;
}

static size_t dat_field_count(const tg_event *ev, tg_scope scope)
{
    const struct uft_data *d = ((struct uft_dat *)ev->stream->priv)->d;
    if (ev->cls != d->cls_entry && ev->cls != d->cls_exit)
        return uft_builtin_field_count(d, ev, scope);
    if (!ev->auxp)
        return 0;
    bool ret = is_ret(ev);
    if ((scope == TG_SCOPE_RETURN) != ret ||
        (scope != TG_SCOPE_RETURN && scope != TG_SCOPE_PAYLOAD))
        return 0;
    return uft_args_count(ev->auxp, ret);
}

static int dat_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const struct uft_data *d = ((struct uft_dat *)ev->stream->priv)->d;
    if (ev->cls != d->cls_entry && ev->cls != d->cls_exit)
        return uft_builtin_field(d, ev, scope, i, out);
    if (i >= dat_field_count(ev, scope))
        return TG_ERR_USAGE;
    int rc = uft_args_field(ev->auxp, is_ret(ev), ev->data, ev->size, i, out);
    /* a pointer to a function is labelled with its name, as uftrace prints it (&name) */
    if (rc >= 0 && (out->flags & TG_VALF_POINTER) && out->v.u) {
        struct uft_dat *s = ev->stream->priv;
        const tg_symbol *sym = uft_resolve(s->d, s->t, s->tid, ev->ts, out->v.u, NULL);
        if (sym) {
            out->label = sym->name;
            out->flags |= TG_VALF_SYMBOLIC;
        }
    }
    return rc;
}

static void dat_destroy(tg_stream *st)
{
    struct uft_dat *s = st->priv;
    if (!s)
        return;
    tg_map_close(&s->map);
    free(s->path);
    free(s);
    st->priv = NULL;
}

static int dat_rewind(tg_stream *st, tg_error **err)
{
    (void)err;
    struct uft_dat *s = st->priv;
    s->pos = 0;
    tg_window_init(&s->win, s->map.data, s->map.size, true);
    s->fast_end = 0;
    s->stopped = false;
    return 0;
}

static const struct tg_stream_ops uft_dat_ops = {
    .rewind = dat_rewind,
    .next = dat_next,
    .next_batch = dat_next_batch,
    .field_count = dat_field_count,
    .field = dat_field,
    .render = dat_render,
    .func_name = dat_func_name,
    .func_module = dat_func_module,
    .func_symbol = dat_func_symbol,
    .destroy = dat_destroy,
    .reads_alone = true, /* a thread's file (uftrace report reads them at once) */
};

int uft_dat_stream_add(tg_trace *t, struct uft_data *d, struct uft_task *task, tg_error **err)
{
    char name[32];
    snprintf(name, sizeof name, "%d.dat", task->tid);
    struct uft_dat *s = calloc(1, sizeof *s);
    if (!s)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    s->path = tg_path_join(d->dir, name);
    if (!s->path) {
        free(s);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    int rc = tg_map_open(&s->map, s->path, err);
    if (rc < 0) {
        free(s->path);
        free(s);
        return rc;
    }
    tg_window_init(&s->win, s->map.data, s->map.size, true);
    s->d = d;
    s->t = t;
    s->tid = task->tid;
    s->pid = task->pid;
    task->has_dat = true;
    if (!tg_trace_add_stream(t, &uft_dat_ops, name, -1, task->tid, s)) {
        tg_map_close(&s->map);
        free(s->path);
        free(s);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    return 0;
}
