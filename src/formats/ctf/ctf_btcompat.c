/* ctf_btcompat.c - what babeltrace2 2.0.4 prints for zero-length text sequences.
 *
 * babeltrace2 recycles event objects through a per-event-class pool (last in, first out),
 * and decoding a text sequence of length 0 does not clear the recycled string field: the
 * event shows the text of whichever earlier event last used that object.  Which object an
 * event gets depends on babeltrace2's graph: the CTF source hands out batches of up to 15
 * messages per data stream (stream beginning, packet beginning, events, packet end, stream
 * end), the muxer pulls a stream's next batch when its queue is empty and hands batches of
 * up to 15 messages, oldest first, to the text sink, which releases each event after
 * printing it.  This file replays that graph for one trace (as `babeltrace2 TRACE` runs it)
 * over a private reader of each stream, and records, per event, the text babeltrace2 shows
 * for its empty text sequences; ctf_render.c prints those.  Only traces whose metadata has
 * text sequences pay for the replay, and only up to a size limit. */
#include "formats/ctf/ctf_stream.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BT_BATCH 15
#define BT_MAX_TRACE_BYTES (512ull << 20)

enum { M_SB, M_PB, M_EV, M_PE, M_SE };

typedef struct sim_text {
    const ctf_step *st;
    bool zero;
    const char *s;
    uint32_t len;
} sim_text;

typedef struct sim_msg {
    uint8_t type;
    bool has_ts;
    int64_t ts;
    uint32_t cls;
    uint64_t serial;
    uint32_t t_first, t_n; /* texts of an event */
    uint32_t obj;          /* the event object it holds once pulled */
} sim_msg;

typedef struct sim_stream {
    sim_msg *m;
    size_t n, cap;
    size_t cursor, q_begin, q_end;
    bool ended;
    bool in_packet;
    bool end_has_ts;
    int64_t end_ts;
    ctf_quirk *quirks;
    size_t n_quirks, cap_quirks;
} sim_stream;

typedef struct sim_obj {
    sim_text *v;
    size_t n, cap;
} sim_obj;

typedef struct sim {
    tg_arena *arena;
    sim_stream *ss;
    size_t n_ss;
    sim_text *texts;
    size_t n_texts, cap_texts;
    sim_obj *objs;
    size_t n_objs, cap_objs;
    uint32_t **pool;   /* per class: stack of object ids */
    size_t *pool_n, *pool_cap;
    size_t n_classes;
    bool failed;
} sim;

#define GROW(arr, n, cap)                                                                       \
    ((n) < (cap) || grow_array((void **)&(arr), &(cap), sizeof *(arr)))

static bool grow_array(void **arr, size_t *cap, size_t size)
{
    size_t nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, nc * size);
    if (!p)
        return false;
    *arr = p;
    *cap = nc;
    return true;
}

static bool push_msg(sim *S, sim_stream *ss, sim_msg m)
{
    if (!GROW(ss->m, ss->n, ss->cap)) {
        S->failed = true;
        return false;
    }
    ss->m[ss->n++] = m;
    return true;
}

typedef struct hook_ctx {
    sim *S;
    sim_stream *ss;
} hook_ctx;

static void on_packet(void *vctx, const ctf_dstream *ds)
{
    hook_ctx *h = vctx;
    const ctf_clock *ck = ds->sc->clock;
    const ctf_dec *d = &ds->d;
    if (h->ss->in_packet)
        push_msg(h->S, h->ss, (sim_msg){.type = M_PE, .has_ts = h->ss->end_has_ts,
                                        .ts = h->ss->end_ts});
    bool hb = ck && (d->seen & (1u << CTF_M_TS_BEGIN));
    push_msg(h->S, h->ss, (sim_msg){.type = M_PB, .has_ts = hb,
                                    .ts = hb ? ctf_clock_ns(ck, d->ts_begin) : 0});
    h->ss->in_packet = true;
    h->ss->end_has_ts = ck && (d->seen & (1u << CTF_M_TS_END));
    h->ss->end_ts = h->ss->end_has_ts ? ctf_clock_ns(ck, d->ts_end) : 0;
}

static bool prog_has_text_seq(const ctf_prog *p)
{
    if (!p)
        return false;
    for (uint32_t i = 0; i < p->n; i++)
        if (p->steps[i].op == CTF_OP_TEXT_SEQUENCE)
            return true;
    return false;
}

/* Reads one stream privately and lists its babeltrace2 messages. */
static void collect(sim *S, tg_stream *s, sim_stream *ss)
{
    ctf_dstream *real = s->priv;
    ctf_dstream *ds = calloc(1, sizeof *ds);
    if (!ds) {
        S->failed = true;
        return;
    }
    ds->tr = real->tr;
    ds->sc = real->sc;
    ds->n_files = real->n_files;
    ds->files = calloc(ds->n_files, sizeof *ds->files);
    ds->d.regs = calloc(real->tr->meta.n_regs ? real->tr->meta.n_regs : 1, sizeof(uint64_t));
    if (!ds->files || !ds->d.regs) {
        ctf_dstream_free(ds);
        S->failed = true;
        return;
    }
    for (size_t i = 0; i < ds->n_files; i++) {
        ds->files[i] = real->files[i];
        ds->files[i].path = strdup(real->files[i].path);
    }
    hook_ctx h = {S, ss};
    ds->packet_hook = on_packet;
    ds->hook_ctx = &h;
    tg_stream tmp = *s;
    tmp.priv = ds;
    push_msg(S, ss, (sim_msg){.type = M_SB});
    const ctf_stream_decl *sc = ds->sc;
    for (;;) {
        tg_event ev;
        memset(&ev, 0, sizeof ev);
        ev.stream = &tmp;
        tg_error *err = NULL;
        int rc = ctf_stream_ops.next(&tmp, &ev, &err);
        tg_error_free(err);
        if (rc <= 0 || S->failed)
            break;
        if (!ev.auxp)
            continue; /* lost-event records: babeltrace2 sends those to stderr */
        const ctf_event_decl *e = ev.auxp;
        sim_msg m = {.type = M_EV, .has_ts = sc->clock != NULL, .ts = ev.ts,
                     .cls = (uint32_t)e->cls->index, .serial = ds->serial,
                     .t_first = (uint32_t)S->n_texts};
        const ctf_prog *progs[3] = {sc->prog_event_context, e->prog_context, e->prog_fields};
        const tg_scope scopes[3] = {TG_SCOPE_STREAM_CONTEXT, TG_SCOPE_EVENT_CONTEXT,
                                    TG_SCOPE_PAYLOAD};
        for (int k = 0; k < 3; k++) {
            if (!prog_has_text_seq(progs[k]))
                continue;
            bool filter;
            const ctf_tree *t = ctf_scope_tree(&ev, scopes[k], &filter);
            for (uint32_t j = 0; t && j < t->n; j++) {
                const ctf_node *nd = &t->nodes[j];
                if (nd->st->op != CTF_OP_TEXT_SEQUENCE)
                    continue;
                if (!GROW(S->texts, S->n_texts, S->cap_texts)) {
                    S->failed = true;
                    break;
                }
                sim_text *tx = &S->texts[S->n_texts++];
                tx->st = nd->st;
                tx->zero = nd->count == 0;
                tx->len = nd->v.str.len;
                tx->s = tx->len ? tg_arena_strndup(S->arena, (const char *)t->base + nd->v.str.off,
                                                   tx->len)
                                : "";
                if (!tx->s)
                    S->failed = true;
            }
        }
        m.t_n = (uint32_t)(S->n_texts - m.t_first);
        push_msg(S, ss, m);
    }
    if (ss->in_packet)
        push_msg(S, ss, (sim_msg){.type = M_PE, .has_ts = ss->end_has_ts, .ts = ss->end_ts});
    push_msg(S, ss, (sim_msg){.type = M_SE});
    ctf_dstream_free(ds);
}

static uint32_t obj_get(sim *S, uint32_t cls)
{
    if (S->pool_n[cls])
        return S->pool[cls][--S->pool_n[cls]];
    if (!GROW(S->objs, S->n_objs, S->cap_objs)) {
        S->failed = true;
        return 0;
    }
    memset(&S->objs[S->n_objs], 0, sizeof S->objs[0]);
    return (uint32_t)S->n_objs++;
}

static void obj_put(sim *S, uint32_t cls, uint32_t id)
{
    if (!GROW(S->pool[cls], S->pool_n[cls], S->pool_cap[cls])) {
        S->failed = true;
        return;
    }
    S->pool[cls][S->pool_n[cls]++] = id;
}

/* The event takes object `id`: its text sequences update the object's strings; the empty
 * ones show what the object held. */
static void obj_decode(sim *S, sim_stream *ss, uint32_t id, const sim_msg *m)
{
    sim_obj *o = &S->objs[id];
    for (uint32_t k = 0; k < m->t_n; k++) {
        const sim_text *tx = &S->texts[m->t_first + k];
        sim_text *slot = NULL;
        for (size_t j = 0; j < o->n; j++)
            if (o->v[j].st == tx->st)
                slot = &o->v[j];
        if (!tx->zero) {
            if (!slot) {
                if (!GROW(o->v, o->n, o->cap)) {
                    S->failed = true;
                    return;
                }
                slot = &o->v[o->n++];
                slot->st = tx->st;
            }
            slot->s = tx->s;
            slot->len = tx->len;
        } else if (slot && slot->len) {
            if (!GROW(ss->quirks, ss->n_quirks, ss->cap_quirks)) {
                S->failed = true;
                return;
            }
            ss->quirks[ss->n_quirks++] =
                (ctf_quirk){.serial = m->serial, .st = tx->st, .s = slot->s, .len = slot->len};
        }
    }
}

static void pull(sim *S, sim_stream *ss)
{
    if (ss->cursor == ss->n) {
        ss->ended = true;
        return;
    }
    size_t end = ss->cursor + BT_BATCH < ss->n ? ss->cursor + BT_BATCH : ss->n;
    for (size_t i = ss->cursor; i < end; i++) {
        sim_msg *m = &ss->m[i];
        if (m->type != M_EV)
            continue;
        uint32_t id = obj_get(S, m->cls);
        if (S->failed)
            return;
        obj_decode(S, ss, id, m);
        m->obj = id;
    }
    ss->q_begin = ss->cursor;
    ss->q_end = end;
    ss->cursor = end;
}

static void run(sim *S)
{
    int64_t last = INT64_MIN;
    size_t out_s[BT_BATCH], out_i[BT_BATCH];
    for (;;) {
        size_t k = 0;
        while (k < BT_BATCH) {
            bool any = false;
            for (size_t s = 0; s < S->n_ss; s++) {
                sim_stream *ss = &S->ss[s];
                if (!ss->ended && ss->q_begin == ss->q_end)
                    pull(S, ss);
                if (S->failed)
                    return;
                any |= !ss->ended;
            }
            if (!any)
                break;
            size_t best = SIZE_MAX;
            int64_t best_ts = 0;
            for (size_t s = 0; s < S->n_ss; s++) {
                sim_stream *ss = &S->ss[s];
                if (ss->ended || ss->q_begin == ss->q_end)
                    continue;
                const sim_msg *m = &ss->m[ss->q_begin];
                int64_t ts = m->has_ts ? m->ts : last;
                if (best == SIZE_MAX || ts < best_ts) {
                    best = s;
                    best_ts = ts;
                }
            }
            if (best == SIZE_MAX)
                break;
            out_s[k] = best;
            out_i[k] = S->ss[best].q_begin++;
            last = best_ts;
            k++;
        }
        if (!k)
            return;
        /* the sink prints and releases the batch */
        for (size_t j = 0; j < k; j++) {
            const sim_msg *m = &S->ss[out_s[j]].m[out_i[j]];
            if (m->type == M_EV)
                obj_put(S, m->cls, m->obj);
        }
        if (S->failed)
            return;
    }
}

const ctf_quirk *ctf_quirk_find(const ctf_dstream *ds, const ctf_step *st)
{
    size_t lo = 0, hi = ds->n_quirks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ds->quirks[mid].serial < ds->serial)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < ds->n_quirks && ds->quirks[i].serial == ds->serial; i++)
        if (ds->quirks[i].st == st)
            return &ds->quirks[i];
    return NULL;
}

int ctf_btcompat_setup(tg_trace *t, ctf_trace *tr)
{
    const ctf_meta *m = &tr->meta;
    bool any = false;
    for (size_t i = 0; i < m->n_streams && !any; i++) {
        const ctf_stream_decl *s = m->streams[i];
        any = prog_has_text_seq(s->prog_event_context);
        for (size_t j = 0; j < s->n_events && !any; j++)
            any = prog_has_text_seq(s->events[j]->prog_context) ||
                  prog_has_text_seq(s->events[j]->prog_fields);
    }
    if (!any || !t->n_streams)
        return 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < t->n_streams; i++) {
        const ctf_dstream *ds = t->streams[i]->priv;
        for (size_t f = 0; f < ds->n_files; f++) {
            struct stat st;
            if (stat(ds->files[f].path, &st) == 0)
                bytes += (uint64_t)st.st_size;
        }
    }
    if (bytes > BT_MAX_TRACE_BYTES)
        return 0;
    sim S = {.arena = &t->arena, .n_ss = t->n_streams, .n_classes = t->n_classes};
    S.ss = calloc(S.n_ss, sizeof *S.ss);
    S.pool = calloc(S.n_classes, sizeof *S.pool);
    S.pool_n = calloc(S.n_classes, sizeof *S.pool_n);
    S.pool_cap = calloc(S.n_classes, sizeof *S.pool_cap);
    if (!S.ss || !S.pool || !S.pool_n || !S.pool_cap)
        S.failed = true;
    for (size_t i = 0; i < S.n_ss && !S.failed; i++)
        collect(&S, t->streams[i], &S.ss[i]);
    if (!S.failed)
        run(&S);
    for (size_t i = 0; i < S.n_ss && S.ss; i++) {
        ctf_dstream *ds = t->streams[i]->priv;
        if (!S.failed) {
            ds->quirks = S.ss[i].quirks;
            ds->n_quirks = S.ss[i].n_quirks;
        } else {
            free(S.ss[i].quirks);
        }
        free(S.ss[i].m);
    }
    for (size_t i = 0; i < S.n_objs; i++)
        free(S.objs[i].v);
    for (size_t c = 0; c < S.n_classes && S.pool; c++)
        free(S.pool[c]);
    free(S.objs);
    free(S.texts);
    free(S.pool);
    free(S.pool_n);
    free(S.pool_cap);
    free(S.ss);
    return 0;
}
