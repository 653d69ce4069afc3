/* ctf_btcompat.c - what babeltrace2 2.0.4 prints for text fields that decode empty.
 *
 * babeltrace2 recycles event objects through a per-event-class pool (last in, first out),
 * and decoding a text that is empty (a null-terminated string "", a text array or sequence
 * of length 0 or whose first byte is NUL) clears the recycled string field without writing
 * its terminator: the event shows the text of whichever earlier event last used that object
 * (tests/ctf/make-strings.py shows each case on babeltrace2).  Which object an event gets
 * depends on babeltrace2's graph: the CTF source hands out batches of up to 15
 * messages per data stream (stream beginning, packet beginning, events, packet end, stream
 * end), the muxer pulls a stream's next batch when its queue is empty and hands batches of
 * up to 15 messages, oldest first, to the text sink, which releases each event after
 * printing it.  This file replays that graph for one trace (as `babeltrace2 TRACE` runs it)
 * over a private reader of each stream, and records, per event, the text babeltrace2 shows
 * for its empty texts, handing them to ctf_btfeed.c a pulled batch at a time (ctf_btfeed.c
 * runs it beside the printer, the first time an empty text is rendered, so only those traces
 * pay for it).  It reads the streams as babeltrace2 does, a batch at a time, so its memory is
 * bounded by the number of streams, not of events.  A pending message's texts point into
 * the trace's bytes (the private readers keep their files mapped); an object keeps a copy of
 * each text it holds, as babeltrace2's does, so that what an empty text shows never sends
 * the replay back to pages its reader gave back long ago (which would stay resident); the
 * replay allocates only as its queues and objects grow, never per event.
 * Texts are told apart by their decode step: the elements of an array of strings share one
 * object slot here (babeltrace2 has one per element). */
#include "formats/ctf/ctf_btreplay.h"

#include <stdlib.h>
#include <string.h>

#define BT_BATCH 15
#define BT_MAX_TEXTS 64 /* text sequences per event followed (more are left as they are) */

enum { M_SB, M_PB, M_EV, M_PE, M_SE, M_DISCARDED };

/* A text as decoded: at most count bytes at p, ending at the first NUL. */
typedef struct sim_text {
    const ctf_step *st;
    const uint8_t *p;
    uint64_t count;
} sim_text;

static bool text_empty(const sim_text *t) { return t->count == 0 || t->p[0] == 0; }

typedef struct sim_msg {
    uint8_t type;
    bool has_ts;
    int64_t ts;
    uint32_t cls;
    uint64_t serial;
    uint32_t obj;         /* the event object it holds once pulled */
    uint32_t t0, n_texts; /* its texts: records t0.. of the stream's text queue, until pulled */
} sim_msg;

typedef struct ctf_btsim sim;

/* One data stream as babeltrace2's CTF source sees it: a private reader, the messages
 * produced but not yet handed out (at most a batch and a packet's two), and the muxer's
 * queue (the last batch handed out). */
typedef struct sim_stream {
    sim *S;
    tg_stream *real; /* the stream it replays */
    ctf_dstream *rd;
    ctf_dstream *old_rd; /* the reader before the trimmer's seek back: its maps hold texts */
    tg_stream tmp;
    tg_event ev; /* the event the reader fills (its stream set once) */
    sim_msg *pend;
    size_t pn, pcap;
    sim_msg q[BT_BATCH];
    size_t qb, qe;
    bool started, exhausted, ended;
    bool in_packet, end_has_ts;
    int64_t end_ts;
    uint32_t cls_base;   /* class numbers of its trace start here */
    uint64_t done_below; /* its events numbered below have been pulled */
    ctf_quirk *quirks;   /* found in the batch being pulled (their texts at .off in qtxt) */
    char *qtxt;
    size_t qtxt_len, qtxt_cap;
    size_t n_quirks, cap_quirks;
    sim_text *tq; /* text queue: the pending messages' texts, in order */
    size_t tq_len, tq_cap;
    size_t cur_t0; /* where the texts of the event being read begin in it */
} sim_stream;

/* An event object's string of one text field: babeltrace2's copy of the last text that
 * decoded non-empty into it (a copy: the text stays valid when the reader has moved far on
 * and given its pages back). */
typedef struct sim_slot {
    const ctf_step *st;
    char *s;
    size_t len, cap;
} sim_slot;

typedef struct sim_obj {
    sim_slot *v;
    size_t n, cap;
} sim_obj;

struct ctf_btsim {
    sim_stream *ss;
    size_t n_ss;
    sim_obj *objs;
    size_t n_objs, cap_objs;
    uint32_t **pool; /* per class: stack of object ids */
    size_t *pool_n, *pool_cap;
    size_t n_classes;
    bool prelude; /* the trimmer reads a first batch for its time of day, then seeks back */
    bool publish; /* past the prelude: what pulls find goes to the sink */
    bool failed;  /* out of memory, or the sink said stop */
    ctf_btsim_sink sink;
    void *sink_ctx;
};

#define GROW(arr, n, cap) (tg_grow(&(arr), &(cap), (size_t)(n) + 1, sizeof *(arr)) == 0)

static void push_msg(sim_stream *ss, sim_msg m)
{
    if (!GROW(ss->pend, ss->pn, ss->pcap)) {
        ss->S->failed = true;
        return;
    }
    ss->pend[ss->pn++] = m;
}

static void on_packet(void *vctx, const ctf_dstream *ds)
{
    sim_stream *ss = vctx;
    const ctf_clock *ck = ds->sc->clock;
    const ctf_dec *d = &ds->d;
    if (ss->in_packet)
        push_msg(ss, (sim_msg){.type = M_PE, .has_ts = ss->end_has_ts, .ts = ss->end_ts});
    /* discarded events, then discarded packets, come before the packet beginning; they are
     * timed at the previous packet's end */
    for (unsigned k = 1; k <= 2; k++)
        if (ds->discarded_msgs & k)
            push_msg(ss,
                     (sim_msg){.type = M_DISCARDED, .has_ts = ss->end_has_ts, .ts = ss->end_ts});
    bool hb = ck && (d->seen & (1u << CTF_M_TS_BEGIN));
    push_msg(ss,
             (sim_msg){.type = M_PB, .has_ts = hb, .ts = hb ? ctf_clock_ns(ck, d->ts_begin) : 0});
    ss->in_packet = true;
    ss->end_has_ts = ck && (d->seen & (1u << CTF_M_TS_END));
    ss->end_ts = ss->end_has_ts ? ctf_clock_ns(ck, d->ts_end) : 0;
}

static bool is_text(const ctf_step *st)
{
    return st->op == CTF_OP_STRING || st->op == CTF_OP_TEXT_ARRAY || st->op == CTF_OP_TEXT_SEQUENCE;
}

static bool prog_has_text(const ctf_prog *p)
{
    if (!p)
        return false;
    for (uint32_t i = 0; i < p->n; i++)
        if (is_text(&p->steps[i]))
            return true;
    return false;
}

static void add_text(void *vctx, const ctf_step *st, const uint8_t *p, uint64_t count);

static bool open_reader(sim_stream *ss, tg_stream *s)
{
    ctf_dstream *real = s->priv;
    ctf_dstream *ds = calloc(1, sizeof *ds);
    if (!ds)
        return false;
    ss->rd = ds;
    ds->tr = real->tr;
    ds->sc = real->sc;
    ds->n_files = real->n_files;
    ds->files = calloc(ds->n_files, sizeof *ds->files);
    ds->d.regs = calloc(real->tr->meta.n_regs ? real->tr->meta.n_regs : 1, sizeof(uint64_t));
    if (!ds->files || !ds->d.regs)
        return false;
    for (size_t i = 0; i < ds->n_files; i++) {
        ds->files[i] = real->files[i];
        if (!(ds->files[i].path = strdup(real->files[i].path)))
            return false;
    }
    ds->keep_maps = true; /* the texts point into the mapped files */
    ds->bare = true;      /* the replay reads no event's cpu or thread */
    ds->packet_hook = on_packet;
    ds->hook_ctx = ss;
    ds->d.on_text = add_text; /* every text the reader decodes, in decoding order */
    ds->d.text_ctx = ss;
    ss->tmp = *s;
    ss->tmp.priv = ds;
    memset(&ss->ev, 0, sizeof ss->ev);
    ss->ev.stream = &ss->tmp;
    return true;
}

/* One text of the event in progress, as the private reader decodes it: the decoder's
 * on_text hook. */
static void add_text(void *vctx, const ctf_step *st, const uint8_t *p, uint64_t count)
{
    sim_stream *ss = vctx;
    if (ss->tq_len - ss->cur_t0 >= BT_MAX_TEXTS || ss->S->failed)
        return;
    if (!GROW(ss->tq, ss->tq_len, ss->tq_cap)) {
        ss->S->failed = true;
        return;
    }
    ss->tq[ss->tq_len++] = (sim_text){.st = st, .p = p, .count = count};
}

/* Reads the stream's next event (with the packet messages before it) or its end. */
static void produce(sim_stream *ss)
{
    if (!ss->started) {
        push_msg(ss, (sim_msg){.type = M_SB});
        ss->started = true;
        return;
    }
    for (;;) {
        tg_event *ev = &ss->ev;
        tg_error *err = NULL;
        ss->tq_len = ss->cur_t0; /* a lost-event record's texts, or a failed read's */
        int rc = ctf_stream_ops.next(&ss->tmp, ev, &err);
        tg_error_free(err);
        if (rc < 0 && !ss->rd->done)
            continue; /* a damaged packet: the reader goes on with the stream's next file */
        if (rc <= 0) {
            ss->tq_len = ss->cur_t0;
            if (ss->in_packet)
                push_msg(ss, (sim_msg){.type = M_PE, .has_ts = ss->end_has_ts, .ts = ss->end_ts});
            push_msg(ss, (sim_msg){.type = M_SE});
            ss->exhausted = true;
            return;
        }
        if (!ev->auxp)
            continue; /* lost-event records: babeltrace2 sends those to stderr */
        const ctf_event_decl *e = ev->auxp;
        push_msg(ss, (sim_msg){.type = M_EV,
                               .has_ts = ss->rd->sc->clock != NULL,
                               .ts = ev->ts,
                               .cls = ss->cls_base + (uint32_t)e->cls->index,
                               .serial = ss->rd->serial,
                               .t0 = (uint32_t)ss->cur_t0,
                               .n_texts = (uint32_t)(ss->tq_len - ss->cur_t0)});
        ss->cur_t0 = ss->tq_len;
        return;
    }
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

/* The event takes object `id`: its texts replace the object's strings; the empty ones show
 * what the object held. */
static void obj_decode(sim *S, sim_stream *ss, uint32_t id, const sim_msg *m)
{
    sim_obj *o = &S->objs[id];
    for (uint32_t k = 0; k < m->n_texts; k++) {
        const sim_text *tx = &ss->tq[m->t0 + k];
        sim_slot *slot = NULL;
        for (size_t j = 0; j < o->n; j++)
            if (o->v[j].st == tx->st)
                slot = &o->v[j];
        if (!text_empty(tx)) {
            if (!slot) {
                if (!GROW(o->v, o->n, o->cap)) {
                    S->failed = true;
                    return;
                }
                slot = &o->v[o->n++];
                *slot = (sim_slot){.st = tx->st};
            }
            const uint8_t *nul = memchr(tx->p, 0, (size_t)tx->count);
            size_t len = nul ? (size_t)(nul - tx->p) : (size_t)tx->count;
            if (len > UINT32_MAX)
                len = UINT32_MAX;
            if (len > slot->cap && tg_grow(&slot->s, &slot->cap, len, 1) != 0) {
                S->failed = true;
                return;
            }
            memcpy(slot->s, tx->p, len);
            slot->len = len;
        } else if (slot) {
            if (!GROW(ss->quirks, ss->n_quirks, ss->cap_quirks) ||
                (slot->len && tg_grow(&ss->qtxt, &ss->qtxt_cap, ss->qtxt_len + slot->len, 1))) {
                S->failed = true;
                return;
            }
            memcpy(ss->qtxt + ss->qtxt_len, slot->s, slot->len);
            ss->quirks[ss->n_quirks++] = (ctf_quirk){
                .serial = m->serial, .st = tx->st, .off = ss->qtxt_len, .len = (uint32_t)slot->len};
            ss->qtxt_len += slot->len;
        }
    }
}

/* The text queue keeps only the texts of the messages still pending (texts are queued in
 * message order, so those pulled are a prefix). */
static void drop_pulled_texts(sim_stream *ss)
{
    size_t kt = ss->cur_t0;
    for (size_t i = 0; i < ss->pn; i++)
        if (ss->pend[i].n_texts && ss->pend[i].t0 < kt)
            kt = ss->pend[i].t0;
    if (!kt)
        return;
    memmove(ss->tq, ss->tq + kt, (ss->tq_len - kt) * sizeof *ss->tq);
    ss->tq_len -= kt;
    for (size_t i = 0; i < ss->pn; i++)
        ss->pend[i].t0 -= ss->pend[i].n_texts ? (uint32_t)kt : 0;
    ss->cur_t0 -= kt;
}

/* What the stream's pulled batch found goes to the sink (after the prelude). */
static void publish(sim *S, sim_stream *ss)
{
    if (S->publish && !S->failed &&
        !S->sink(S->sink_ctx, (size_t)(ss - S->ss), ss->quirks, ss->n_quirks, ss->qtxt,
                 ss->qtxt_len, ss->done_below))
        S->failed = true;
    ss->n_quirks = ss->qtxt_len = 0;
}

/* The muxer asks the stream for its next batch (its queue is empty). */
static void pull(sim *S, sim_stream *ss)
{
    while (ss->pn < BT_BATCH && !ss->exhausted && !S->failed)
        produce(ss);
    if (!ss->pn) {
        ss->ended = true;
        ss->done_below = UINT64_MAX;
        publish(S, ss);
        return;
    }
    size_t n = ss->pn < BT_BATCH ? ss->pn : BT_BATCH;
    for (size_t i = 0; i < n; i++) {
        sim_msg *m = &ss->pend[i];
        if (m->type == M_EV) {
            m->obj = obj_get(S, m->cls);
            if (!S->failed)
                obj_decode(S, ss, m->obj, m);
            ss->done_below = m->serial + 1;
        }
        m->n_texts = 0;
        ss->q[i] = *m;
    }
    memmove(ss->pend, ss->pend + n, (ss->pn - n) * sizeof *ss->pend);
    ss->pn -= n;
    drop_pulled_texts(ss);
    ss->qb = 0;
    ss->qe = n;
    publish(S, ss);
}

/* The muxer's next batch, oldest first, into out: its length (0 at the end). */
static size_t mux_batch(sim *S, sim_msg *out, int64_t *lastp)
{
    size_t k = 0;
    while (k < BT_BATCH) {
        bool any = false;
        for (size_t s = 0; s < S->n_ss; s++) {
            sim_stream *ss = &S->ss[s];
            if (!ss->ended && ss->qb == ss->qe)
                pull(S, ss);
            if (S->failed)
                return 0;
            any |= !ss->ended;
        }
        if (!any)
            break;
        size_t best = SIZE_MAX;
        int64_t best_ts = 0;
        for (size_t s = 0; s < S->n_ss; s++) {
            sim_stream *ss = &S->ss[s];
            if (ss->ended || ss->qb == ss->qe)
                continue;
            const sim_msg *m = &ss->q[ss->qb];
            int64_t ts = m->has_ts ? m->ts : *lastp;
            if (best == SIZE_MAX || ts < best_ts) {
                best = s;
                best_ts = ts;
            }
        }
        if (best == SIZE_MAX)
            break;
        out[k++] = S->ss[best].q[S->ss[best].qb++];
        *lastp = best_ts;
    }
    return k;
}

/* The events of a batch released, in its order. */
static void put_batch(sim *S, const sim_msg *m, size_t n)
{
    for (size_t j = 0; j < n && !S->failed; j++)
        if (m[j].type == M_EV)
            obj_put(S, m[j].cls, m[j].obj);
}

/* babeltrace2's trimmer with a time of day for a bound: it pulls the muxer's batches until
 * one holds a time, releases them (the date of that time makes the bound), and seeks the
 * muxer back to the beginning, which releases what each stream's queue still holds, in the
 * streams' order, and reads every stream again from its start; the event objects keep what
 * those reads left in them.  What the prelude decoded is not printed: its quirks go. */
static void trim_prelude(sim *S)
{
    int64_t last = INT64_MIN;
    sim_msg out[BT_BATCH];
    for (;;) {
        size_t k = mux_batch(S, out, &last);
        put_batch(S, out, k);
        bool timed = false;
        for (size_t j = 0; j < k; j++)
            timed |= out[j].has_ts;
        if (S->failed || timed || !k)
            break;
    }
    for (size_t s = 0; s < S->n_ss && !S->failed; s++) {
        sim_stream *ss = &S->ss[s];
        put_batch(S, ss->q + ss->qb, ss->qe - ss->qb);
        ctf_dstream_free(ss->old_rd);
        ss->old_rd = ss->rd;
        ss->rd = NULL;
        ss->pn = ss->qb = ss->qe = 0;
        ss->started = ss->exhausted = ss->ended = false;
        ss->in_packet = ss->end_has_ts = false;
        ss->end_ts = 0;
        ss->n_quirks = ss->qtxt_len = 0;
        ss->done_below = 0;
        ss->tq_len = ss->cur_t0 = 0;
        if (!open_reader(ss, ss->real))
            S->failed = true;
    }
}

bool ctf_btsim_run(sim *S, ctf_btsim_sink sink, void *ctx)
{
    int64_t last = INT64_MIN;
    sim_msg out[BT_BATCH]; /* copies: a queue may be refilled before the batch is printed */
    S->sink = sink;
    S->sink_ctx = ctx;
    if (S->prelude)
        trim_prelude(S);
    S->publish = true;
    while (!S->failed) {
        size_t k = mux_batch(S, out, &last);
        if (!k)
            break;
        /* the sink prints and releases the batch (queues are not refilled meanwhile) */
        put_batch(S, out, k);
    }
    return !S->failed;
}

static bool trace_has_text(const ctf_meta *m)
{
    for (size_t i = 0; i < m->n_streams; i++) {
        const ctf_stream_decl *s = m->streams[i];
        if (prog_has_text(s->prog_event_context))
            return true;
        for (size_t j = 0; j < s->n_events; j++)
            if (prog_has_text(s->events[j]->prog_context) ||
                prog_has_text(s->events[j]->prog_fields))
                return true;
    }
    return false;
}

ctf_btsim *ctf_btsim_new(tg_trace *t, tg_stream ***streams, size_t *n_streams)
{
    tg_set *set = t->set;
    size_t nt = set ? tg_set_trace_count(set) : 1;
    bool any = false;
    size_t n_ss = 0, n_classes = 0;
    *streams = NULL;
    *n_streams = 0;
    for (size_t k = 0; k < nt; k++) {
        tg_trace *u = set ? tg_set_trace(set, k) : t;
        if (u->format != t->format || !u->priv)
            continue;
        ctf_trace *ut = u->priv;
        ut->btcompat_done = true;
        any |= trace_has_text(&ut->meta);
        n_ss += u->n_streams;
        n_classes += u->n_classes;
    }
    if (!any || !n_ss)
        return NULL;
    sim *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    *S = (sim){.n_ss = n_ss, .n_classes = n_classes, .prelude = tg_set_range_waits_first(set)};
    S->ss = calloc(S->n_ss, sizeof *S->ss);
    S->pool = calloc(S->n_classes, sizeof *S->pool);
    S->pool_n = calloc(S->n_classes, sizeof *S->pool_n);
    S->pool_cap = calloc(S->n_classes, sizeof *S->pool_cap);
    tg_stream **list = calloc(S->n_ss, sizeof *list);
    if (!S->ss || !S->pool || !S->pool_n || !S->pool_cap || !list)
        S->failed = true;
    size_t at = 0, cls_base = 0;
    for (size_t k = 0; k < nt && !S->failed; k++) {
        tg_trace *u = set ? tg_set_trace(set, k) : t;
        if (u->format != t->format || !u->priv)
            continue;
        for (size_t i = 0; i < u->n_streams && !S->failed; i++, at++) {
            list[at] = u->streams[i];
            S->ss[at].S = S;
            S->ss[at].real = u->streams[i];
            S->ss[at].cls_base = (uint32_t)cls_base;
            if (!open_reader(&S->ss[at], u->streams[i]))
                S->failed = true;
        }
        cls_base += u->n_classes;
    }
    if (S->failed) {
        free(list);
        ctf_btsim_free(S);
        return NULL;
    }
    *streams = list;
    *n_streams = n_ss;
    return S;
}

void ctf_btsim_free(sim *S)
{
    if (!S)
        return;
    for (size_t i = 0; i < S->n_ss && S->ss; i++) {
        sim_stream *ss = &S->ss[i];
        free(ss->quirks);
        free(ss->qtxt);
        free(ss->pend);
        free(ss->tq);
        ctf_dstream_free(ss->rd);
        ctf_dstream_free(ss->old_rd);
    }
    for (size_t i = 0; i < S->n_objs; i++) {
        for (size_t j = 0; j < S->objs[i].n; j++)
            free(S->objs[i].v[j].s);
        free(S->objs[i].v);
    }
    for (size_t c = 0; c < S->n_classes && S->pool; c++)
        free(S->pool[c]);
    free(S->objs);
    free(S->pool);
    free(S->pool_n);
    free(S->pool_cap);
    free(S->ss);
    free(S);
}
