/* sql_flow.c - the flow table: Perfetto's arrows between slices (slice_out -> slice_in), from
 * the flows the events name (tg_event_flows: a TrackEvent's flow_ids and
 * terminating_flow_ids, a legacy event's bind_id and flow_direction).
 *
 * A flow links the slices that name its id, each to the next in event order (a slice naming
 * it IN gets the arrow from its source, one naming it OUT becomes its source); a terminating
 * id ends it with its slice, and the next slice naming the id starts a new one.  An arrow
 * points from the slice that began first (a flow named on an end event can link back in
 * time: trace_processor turns such an arrow around, and so does this table).  trace_id is
 * the flow's id.
 *
 * The slices are numbered as the slice table numbers them (sql_slice.c): a pass feeds the
 * one call-stack builder with the same rules, a frame takes the next id when it opens, and
 * a kernel-model slice (IRQ, softirq, a slice on a track the trace declared) when it
 * begins, with the flows the model gives it (v4l2's buffers), so slice_out and slice_in join
 * with
 * slice.id.  Rows come in the order their arrows are made.  Memory: the open frames per
 * thread and one record per live flow. */
#include "sql/sql_internal.h"

#include "core/grow.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

enum { F_ID, F_SLICE_OUT, F_SLICE_IN, F_TRACE_ID, F_ARG_SET_ID, F_COUNT };

struct flow_frame {
    int64_t id, ts;
};

struct flow_thread {
    int tid;
    struct flow_frame *frames;
    size_t cap;
};

struct flow_live {
    uint64_t id;
    int64_t slice, ts; /* the slice that named it last (-1: ended) */
};

struct flow_row {
    int64_t out, in;
    uint64_t trace_id;
};

struct flow_scan {
    sql_scan scan;
    tg_callstack *cs;
    const tg_event *fed;
    struct flow_thread *threads;
    size_t n_threads, cap_threads;
    tg_hash thread_by_tid;
    struct flow_thread *tracks; /* the slices open on the tracks a trace declared */
    size_t n_tracks, cap_tracks;
    tg_hash track_by_id;
    struct flow_live *live;
    size_t n_live, cap_live;
    tg_hash live_by_id;
    struct flow_row *rows; /* rows[head..n) not yet handed out */
    size_t head, n, cap;
    int64_t next_slice, next_row;
    bool done;
    int status;
};

static struct flow_thread *thread_of(struct flow_scan *s, int tid)
{
    int added;
    int64_t i = tg_hash_index(&s->thread_by_tid, (uint32_t)tid, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&s->threads, &s->cap_threads, s->n_threads + 1, sizeof *s->threads) < 0)
            return NULL;
        s->threads[s->n_threads++] = (struct flow_thread){.tid = tid};
    }
    return &s->threads[i];
}

/* The open slices of a declared track (its id in .tid). */
static struct flow_thread *track_of(struct flow_scan *s, int64_t track)
{
    int added;
    int64_t i = tg_hash_index(&s->track_by_id, (uint64_t)track, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&s->tracks, &s->cap_tracks, s->n_tracks + 1, sizeof *s->tracks) < 0)
            return NULL;
        s->tracks[s->n_tracks++] = (struct flow_thread){.tid = (int)track};
    }
    return &s->tracks[i];
}

static int add_row(struct flow_scan *s, const struct flow_frame *a, const struct flow_frame *b,
                   uint64_t trace_id)
{
    if (s->head == s->n)
        s->head = s->n = 0;
    if (tg_grow(&s->rows, &s->cap, s->n + 1, sizeof *s->rows) < 0)
        return TG_ERR_NOMEM;
    bool forward = a->ts <= b->ts;
    s->rows[s->n++] = (struct flow_row){
        .out = forward ? a->id : b->id, .in = forward ? b->id : a->id, .trace_id = trace_id};
    return 0;
}

/* The slice f names flows[0..n). */
static int name_flows(struct flow_scan *s, const tg_flow *flows, size_t n,
                      const struct flow_frame *f)
{
    for (size_t i = 0; i < n; i++) {
        int added;
        int64_t k = tg_hash_index(&s->live_by_id, flows[i].id, &added);
        if (k < 0)
            return TG_ERR_NOMEM;
        if (added) {
            if (tg_grow(&s->live, &s->cap_live, s->n_live + 1, sizeof *s->live) < 0)
                return TG_ERR_NOMEM;
            s->live[s->n_live++] = (struct flow_live){.id = flows[i].id, .slice = -1};
        }
        struct flow_live *l = &s->live[k];
        unsigned flags = flows[i].flags;
        if ((flags & TG_FLOW_IN) && l->slice >= 0 && l->slice != f->id) {
            struct flow_frame last = {.id = l->slice, .ts = l->ts};
            TG_TRY(add_row(s, &last, f, flows[i].id));
        }
        if (flags & TG_FLOW_END)
            l->slice = -1;
        else if (flags & TG_FLOW_OUT) {
            l->slice = f->id;
            l->ts = f->ts;
        }
    }
    return 0;
}

/* The slice f names the flows of ev. */
static int take_flows(struct flow_scan *s, const tg_event *ev, const struct flow_frame *f)
{
    const tg_flow *flows;
    size_t n = tg_event_flows(ev, &flows);
    return name_flows(s, flows, n, f);
}

static void on_open(void *ctx, const tg_call *call)
{
    struct flow_scan *s = ctx;
    struct flow_thread *t = thread_of(s, call->tid);
    size_t depth = (size_t)call->depth;
    if (!t || tg_grow(&t->frames, &t->cap, depth + 1, sizeof *t->frames) < 0) {
        s->status = TG_ERR_NOMEM;
        return;
    }
    struct flow_frame *f = &t->frames[depth];
    *f = (struct flow_frame){.id = s->next_slice++, .ts = call->entry_ns};
    const tg_event *ev = s->fed;
    if (ev && tg_event_class_kind(tg_event_class_of(ev)) == TG_KIND_FUNC_ENTRY &&
        tg_event_func_addr(ev) == call->addr) {
        int rc = take_flows(s, ev, f);
        if (rc < 0)
            s->status = rc;
    }
}

static void on_call(void *ctx, const tg_call *call)
{
    struct flow_scan *s = ctx;
    if ((call->flags & TG_CALL_NO_ENTRY) || !call->exit || call->exit != s->fed)
        return;
    struct flow_thread *t = thread_of(s, call->tid);
    if (!t || (size_t)call->depth >= t->cap) {
        s->status = t ? s->status : TG_ERR_NOMEM;
        return;
    }
    int rc = take_flows(s, call->exit, &t->frames[call->depth]);
    if (rc < 0)
        s->status = rc;
}

/* A slice begins or ends on a track its trace declared (kernel_model.h): it takes an id as
 * the slice table gives it, and names its flows as a call does. */
static int declared_slice(struct flow_scan *s, const tg_event *ev, const tg_kstep *st)
{
    if (!(st->what & (TG_KSTEP_SLICE_BEGIN | TG_KSTEP_SLICE_END)))
        return 0;
    struct flow_thread *t = track_of(s, st->slice_track);
    size_t depth = (size_t)st->slice_depth;
    if (!t || tg_grow(&t->frames, &t->cap, depth + 1, sizeof *t->frames) < 0)
        return TG_ERR_NOMEM;
    if (st->what & TG_KSTEP_SLICE_BEGIN)
        t->frames[depth] = (struct flow_frame){.id = s->next_slice++, .ts = s->scan.last_ns};
    return take_flows(s, ev, &t->frames[depth]);
}

static void flow_close(sql_cursor *c)
{
    struct flow_scan *s = c->priv;
    if (!s)
        return;
    sql_scan_close(&s->scan);
    tg_callstack_free(s->cs);
    for (size_t i = 0; i < s->n_threads; i++)
        free(s->threads[i].frames);
    free(s->threads);
    tg_hash_free(&s->thread_by_tid);
    for (size_t i = 0; i < s->n_tracks; i++)
        free(s->tracks[i].frames);
    free(s->tracks);
    tg_hash_free(&s->track_by_id);
    free(s->live);
    tg_hash_free(&s->live_by_id);
    free(s->rows);
    free(s);
    c->priv = NULL;
}

static int flow_filter(sql_cursor *c)
{
    flow_close(c);
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    struct flow_scan *s = calloc(1, sizeof *s);
    if (!s)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    c->priv = s;
    s->cs = tg_callstack_new(on_call, s);
    if (!s->cs)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    tg_callstack_on_open(s->cs, on_open);
    tg_callstack_set_rules(s->cs, TG_STACK_BY_TRACER);
    return sql_scan_open(c->db, &s->scan);
}

/* Reads events until an arrow is made, or there are no more. */
static int fill(struct flow_scan *s)
{
    while (s->head == s->n && !s->done) {
        const tg_event *ev;
        int rc = sql_scan_next(&s->scan, &ev);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            s->done = true;
            break;
        }
        const tg_kstep *st = tg_iter_kstep(s->scan.it);
        if (st && (st->what & TG_KSTEP_DECLARED))
            rc = declared_slice(s, ev, st); /* a slice of a declared track: no call */
        else {
            s->fed = ev;
            rc = tg_callstack_feed_at(s->cs, ev, s->scan.last_ns);
            s->fed = NULL;
            if (st && (st->what & TG_KSTEP_SLICE_BEGIN)) {
                /* a kernel-model slice takes an id as the slice table does, and names the
                 * flows the model gives it */
                struct flow_frame f = {.id = s->next_slice++, .ts = st->slice_begin_ts};
                if (rc >= 0 && st->n_flows)
                    rc = name_flows(s, st->flows, st->n_flows, &f);
            }
        }
        if (rc < 0 || s->status < 0)
            return sql_fail(s->scan.db, rc < 0 ? rc : s->status, NULL);
    }
    return 0;
}

static int flow_next(sql_cursor *c)
{
    struct flow_scan *s = c->priv;
    int rc = fill(s);
    if (rc < 0)
        return rc;
    if (s->head == s->n) {
        c->eof = true;
        return 0;
    }
    const struct flow_row *r = &s->rows[s->head++];
    sql_val *v = c->row;
    sql_int(&v[F_ID], s->next_row++);
    sql_int(&v[F_SLICE_OUT], r->out);
    sql_int(&v[F_SLICE_IN], r->in);
    sql_int(&v[F_TRACE_ID], (int64_t)r->trace_id);
    sql_null(&v[F_ARG_SET_ID]);
    return 0;
}

const sql_table sql_table_flow = {
    .name = "flow",
    .columns = "id INTEGER, slice_out INTEGER, slice_in INTEGER, trace_id INTEGER, "
               "arg_set_id INTEGER",
    .n_cols = F_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = -1,
    .col_track = -1,
    .col_argset = -1,
    .big = true,
    .filter = flow_filter,
    .next = flow_next,
    .close = flow_close,
};
