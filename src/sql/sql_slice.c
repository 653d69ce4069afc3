/* sql_slice.c - the slice table: one row per function call, from the one call-stack builder,
 * and one per IRQ and softirq the kernel model draws on its per-CPU tracks.
 *
 * A scan feeds every event to tg_callstack (each trace by its tracer's rules, on the shared
 * timeline, as the viewer writers do), so a uftrace recording is counted as `uftrace report`
 * counts it (context switches as linux:schedule calls) and every format's calls pair the
 * same way.  A call's id is the number of frames opened before it in the merged events, so
 * ids (and parent_id) are the same in every scan.  A row is known when its call ends
 * (innermost first) but is handed out in id order, as trace_processor returns them: an
 * sql_row_order holds the ended rows while a call begun before them is open, up to
 * SLICE_ORDER_MB (past it the oldest open call's row comes when it ends, late); a statement
 * that cannot see the order (no column read, the per-name summary) takes them as they end.
 * Memory: the builder's stacks, a stack of ids per thread and that window.
 *
 * Constraints: rows outside the ts bounds, of another track or name are dropped before
 * SQLite sees them; once the events pass the upper ts bound, the scan reads on only until
 * the calls that began inside the bounds have ended.  Calls still open at the end of the
 * events have dur -1 (Perfetto's "did not end"); their end_ts is their thread's last event,
 * where uftrace report and the viewers end them.  Only the columns the statement reads are
 * computed (SQLite's colUsed): the entry event's category, args and thread time, and the
 * name, are left unset when no column of the statement needs them.  Frames uftrace's rules drop without an
 * end (a longjmp's, an exec's) are no calls to `uftrace report` and no rows here.  A call
 * its thread was inside when the recording began (a function_graph record's depth implies
 * it: the builder opens it NO_ENTRY) takes its id there, as its children's parent, and is
 * a row when its exit comes, at its depth, from its calltime (the exit's rettime - calltime
 * before it); trace_processor, ending by record times, drops such an exit, `report` counts
 * it.  One that never ends is no row (nothing names it).  An exit without an entry at no
 * declared depth is a row where the exit holds the tracer's duration, parent unknown.
 *
 * The kernel model's slices (category "irq": "IRQ (name)" on "Irq Cpu N", a softirq's action
 * on "SoftIrq Cpu N"; a viewer trace's slices on the tracks it declared, with their own
 * category) take the next id where they begin, as a call does; their arg_set_id is
 * their entry event's (its irq, name or vec in args), their self_dur their dur. */
#include "sql/sql_internal.h"
#include "sql/sql_row_order.h"

#include <stdlib.h>
#include <string.h>

/* The most the reorder window of a scan holds (sql_row_order.h). */
#define SLICE_ORDER_MB 4

enum {
    C_ID,
    C_TS,
    C_DUR,
    C_TRACK_ID,
    C_CATEGORY,
    C_NAME,
    C_DEPTH,
    C_STACK_ID,
    C_PARENT_STACK_ID,
    C_PARENT_ID,
    C_ARG_SET_ID,
    C_THREAD_TS,
    C_THREAD_DUR,
    C_THREAD_INSTRUCTION_COUNT,
    C_THREAD_INSTRUCTION_DELTA,
    C_MODULE,
    C_SELF_DUR,
    C_RECURSIVE,
    C_END_TS,
    C_SLICE_ID, /* Perfetto's alias of id */
    C_CAT,      /* Perfetto's alias of category */
    C_COUNT
};
_Static_assert(C_COUNT <= SQL_MAX_COLS, "a cursor's row holds every column");

struct frame_id {
    int64_t id;
    int64_t argset;       /* its entry event's ordinal when that event has args, else SQL_ANY */
    const char *category; /* its entry event's (viewer traces), or NULL */
    int64_t thread_ts;    /* its entry event's thread time (viewer traces), else SQL_ANY */
    bool wanted;          /* a row of the query when it ends */
    int64_t track;        /* its thread's track when it opened (a tid's threads take turns) */
    bool implied;         /* opened NO_ENTRY (begun before the recording): its ts and name,
                           * known when it ends, are checked against the query then */
};

struct slice_thread {
    int tid;
    int64_t track;               /* SQL_ANY: unknown */
    int64_t fed_utid, fed_track; /* frame_track's last answer: the model's thread, its track */
    struct frame_id *frames;
    size_t cap;
};

struct slice_row {
    int64_t id, ts, dur, track, depth, parent, self, end, argset, thread_ts, thread_dur;
    const char *name, *module, *category;
    bool recursive;
};

/* A per-CPU track of the kernel model (IRQs, softirqs) and the ids of its open slices. */
enum { KSLICE_MAX = 16 };
struct kslice_track {
    int64_t track;
    struct {
        int64_t id, argset, ts;
        const char *name, *category;
        bool wanted;
    } open[KSLICE_MAX];
};

struct slice_scan {
    sql_scan scan;
    sql_cursor *c;
    tg_callstack *cs;
    struct slice_thread *threads;
    size_t n_threads, cap_threads, last;
    tg_hash by_tid;
    int64_t pending;
    bool draining, done;
    sql_row_order order;          /* the ids taken and the rows of ended slices, handed out by id */
    struct kslice_track *ktracks; /* the kernel model's slice tracks met */
    size_t n_ktracks, cap_ktracks;
    tg_hash ktrack_index;
    const tg_event *fed; /* the event being fed to the builder (the entry a frame opens at) */
    bool entry_cols;     /* the statement reads a column of the entry event (category, ...) */
    bool name_col;       /* the statement reads the name */
    uint64_t cols;       /* the columns the statement reads (bit i: column i) */
    bool track_read;     /* the statement reads or constrains the track */
    const tg_trace *rules_trace; /* the trace whose rules were looked up last */
    bool rules_uftrace;
    int status;
};

static struct slice_thread *thread_of(struct slice_scan *s, int tid)
{
    if (s->last < s->n_threads && s->threads[s->last].tid == tid)
        return &s->threads[s->last];
    int added;
    int64_t i = tg_hash_index(&s->by_tid, (uint32_t)tid, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&s->threads, &s->cap_threads, s->n_threads + 1, sizeof *s->threads) < 0)
            return NULL;
        const tg_kthread *t =
            tg_kmodel_thread(s->scan.db->model, tg_kmodel_utid_of_tid(s->scan.db->model, tid));
        s->threads[s->n_threads++] =
            (struct slice_thread){.tid = tid, .track = t ? t->track_id : SQL_ANY, .fed_utid = -1};
    }
    s->last = (size_t)i;
    return &s->threads[i];
}

/* The track of the call opening on thread t now: the model's thread of the event fed (a tid
 * reused: the thread it is now, or the one its trace names), else the tid's last thread's. */
static int64_t frame_track(const struct slice_scan *s, struct slice_thread *t)
{
    if (!s->track_read)
        return t->track; /* nobody reads it: the tid's is as good */
    int64_t utid = s->fed ? s->fed->utid : -1;
    if (utid >= 0 && utid == t->fed_utid)
        return t->fed_track; /* a thread's track, once it has one, stays */
    const tg_kthread *th = utid >= 0 ? tg_kmodel_thread(s->scan.db->model, utid) : NULL;
    if (!th || th->tid != t->tid || th->track_id < 0)
        return t->track;
    t->fed_utid = utid;
    t->fed_track = th->track_id;
    return th->track_id;
}

/* Where the row of id is written (in place: the window hands it out from there), NULL with
 * the status set when out of memory. */
static struct slice_row *row_slot(struct slice_scan *s, int64_t id)
{
    struct slice_row *to = sql_row_order_slot(&s->order, id);
    if (!to)
        s->status = TG_ERR_NOMEM;
    return to;
}

static bool name_wanted(const sql_query *q, const char *name)
{
    return !q->name || (name && strcmp(name, q->name) == 0);
}

static void on_open(void *ctx, const tg_call *call)
{
    struct slice_scan *s = ctx;
    struct slice_thread *t = thread_of(s, call->tid);
    size_t depth = (size_t)call->depth;
    if (!t || tg_grow(&t->frames, &t->cap, depth + 1, sizeof *t->frames) < 0) {
        s->status = TG_ERR_NOMEM;
        return;
    }
    const sql_query *q = &s->c->q;
    int64_t track = frame_track(s, t);
    bool implied = (call->flags & TG_CALL_NO_ENTRY) != 0;
    /* an implied frame began at or before entry_ns, its name is known at its end */
    bool wanted = !s->draining &&
                  (implied ? call->entry_ns >= q->ts_lo : sql_ts_in(q, call->entry_ns)) &&
                  (q->track == SQL_ANY || q->track == track);
    if (wanted && q->name && !implied)
        wanted = name_wanted(q, sql_frame_name(s->scan.db, call));
    int64_t id = sql_row_order_take(&s->order, wanted);
    if (id < 0) {
        s->status = (int)id;
        return;
    }
    struct frame_id f = {.id = id,
                         .argset = SQL_ANY,
                         .thread_ts = SQL_ANY,
                         .track = track,
                         .wanted = wanted,
                         .implied = implied};
    const tg_event *ev = s->entry_cols ? s->fed : NULL;
    if (wanted && !implied && ev &&
        tg_event_class_kind(tg_event_class_of(ev)) == TG_KIND_FUNC_ENTRY &&
        tg_event_func_addr(ev) == call->addr) {
        f.category = tg_event_func_category(ev);
        int64_t thread_ns;
        if (tg_event_thread_time(ev, &thread_ns))
            f.thread_ts = thread_ns;
        if (tg_event_field_count(ev, TG_SCOPE_PAYLOAD) > 0)
            f.argset = s->scan.ordinal;
    }
    t->frames[depth] = f;
    s->pending += wanted;
}

/* Whether the call's trace is counted by uftrace's rules (as tg_callstack's by-tracer rule). */
static bool uftrace_rules(struct slice_scan *s, const tg_trace *trace)
{
    if (trace != s->rules_trace) {
        const tg_tracer_info *tracer = trace ? tg_trace_tracer(trace) : NULL;
        s->rules_trace = trace;
        s->rules_uftrace = tracer && tracer->name && strcmp(tracer->name, "uftrace") == 0;
    }
    return s->rules_uftrace;
}

/* An exit without an entry: a row where its tracer measured the call (function_graph's exit
 * holds calltime and rettime: the call began before the trace), as `report` counts it; the
 * next id where it ends, no parent known.  An exit that says nothing of its start is no row. */
static void no_entry_row(struct slice_scan *s, const tg_call *call)
{
    if (call->total_ns <= 0)
        return;
    struct slice_thread *t = thread_of(s, call->tid);
    if (!t) {
        s->status = TG_ERR_NOMEM;
        return;
    }
    const sql_query *q = &s->c->q;
    int64_t track = frame_track(s, t);
    bool wanted =
        !s->draining && sql_ts_in(q, call->entry_ns) && (q->track == SQL_ANY || q->track == track);
    const char *name = wanted ? sql_frame_name(s->scan.db, call) : NULL;
    wanted = wanted && name_wanted(q, name);
    int64_t id = sql_row_order_take(&s->order, wanted);
    if (id < 0 || !wanted) {
        s->status = id < 0 ? (int)id : s->status;
        return;
    }
    struct slice_row *row = row_slot(s, id);
    if (!row)
        return;
    row->id = id;
    row->ts = call->entry_ns;
    row->dur = call->total_ns;
    row->track = track;
    row->depth = call->depth;
    row->parent = SQL_ANY;
    row->self = call->self_ns;
    row->end = call->exit_ns;
    row->name = name;
    row->module = call->module;
    row->category = NULL;
    row->argset = SQL_ANY;
    row->thread_ts = SQL_ANY;
    row->thread_dur = SQL_ANY;
    row->recursive = (call->flags & TG_CALL_RECURSIVE) != 0;
}

static void on_call(void *ctx, const tg_call *call)
{
    struct slice_scan *s = ctx;
    struct slice_thread *t = thread_of(s, call->tid);
    size_t depth = (size_t)call->depth;
    bool implied =
        (call->flags & TG_CALL_NO_ENTRY) && t && depth < t->cap && t->frames[depth].implied;
    if ((call->flags & TG_CALL_NO_ENTRY) && !implied) {
        no_entry_row(s, call);
        return;
    }
    if (!t || depth >= t->cap) {
        s->status = t ? s->status : TG_ERR_NOMEM;
        return;
    }
    struct frame_id *f = &t->frames[depth];
    f->implied = false; /* ended: a later exit without entry at this depth is not it */
    if (!f->wanted)
        return;
    s->pending--;
    f->wanted = false;
    const sql_query *q = &s->c->q;
    if (implied && (!sql_ts_in(q, call->entry_ns) ||
                    (q->name && !name_wanted(q, sql_frame_name(s->scan.db, call))))) {
        sql_row_order_drop(&s->order, f->id);
        return;
    }
    bool unfinished = (call->flags & TG_CALL_NO_EXIT) && !call->exit;
    bool dropped = (call->flags & TG_CALL_NO_EXIT) && !(call->flags & TG_CALL_LOST) && call->exit;
    if (dropped && uftrace_rules(s, call->trace)) {
        sql_row_order_drop(&s->order, f->id);
        return;
    }
    /* its thread time: the entry's, and how far the exit's passed it */
    int64_t thread_end, thread_dur = SQL_ANY;
    const tg_event *ev = s->fed;
    if (f->thread_ts != SQL_ANY && call->exit && ev && s->entry_cols &&
        tg_event_class_kind(tg_event_class_of(ev)) == TG_KIND_FUNC_EXIT &&
        tg_event_thread_time(ev, &thread_end))
        thread_dur = thread_end - f->thread_ts;
    /* written in place, field by field: a row built aside and copied costs its 120 bytes
     * again on every call */
    struct slice_row *row = row_slot(s, f->id);
    if (!row)
        return;
    row->id = f->id;
    row->ts = call->entry_ns;
    row->dur = unfinished ? -1 : call->total_ns;
    row->track = f->track;
    row->depth = call->depth;
    row->parent = depth ? t->frames[depth - 1].id : SQL_ANY;
    row->self = call->self_ns;
    row->end = call->exit_ns;
    row->name = s->name_col ? sql_frame_name(s->scan.db, call) : NULL;
    row->module = call->module;
    row->category = f->category;
    row->argset = f->argset;
    row->thread_ts = f->thread_ts;
    row->thread_dur = thread_dur;
    row->recursive = (call->flags & TG_CALL_RECURSIVE) != 0;
}

/* ---- the kernel model's slices: IRQs and softirqs on per-CPU tracks ------------------------ */

static struct kslice_track *ktrack_of(struct slice_scan *s, int64_t track)
{
    int added;
    int64_t i = tg_hash_index(&s->ktrack_index, (uint64_t)track, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&s->ktracks, &s->cap_ktracks, s->n_ktracks + 1, sizeof *s->ktracks) < 0)
            return NULL;
        s->ktracks[s->n_ktracks++] = (struct kslice_track){.track = track};
    }
    return &s->ktracks[i];
}

/* The row of the slice open at depth on t, ended at end (SQL_ANY: never; its end_ts is then
 * the last event's). */
static int put_kslice(struct slice_scan *s, struct kslice_track *t, int depth, int64_t end)
{
    s->pending--;
    t->open[depth].wanted = false;
    int64_t ts = t->open[depth].ts, dur = end == SQL_ANY ? -1 : end - ts;
    struct slice_row *row = row_slot(s, t->open[depth].id);
    if (row)
        *row = (struct slice_row){
            .id = t->open[depth].id,
            .thread_ts = SQL_ANY,
            .thread_dur = SQL_ANY,
            .ts = ts,
            .dur = dur,
            .track = t->track,
            .depth = depth,
            .parent = depth ? t->open[depth - 1].id : SQL_ANY,
            .self = dur,
            .end = end == SQL_ANY ? s->scan.last_ns : end,
            .argset = t->open[depth].argset,
            .name = t->open[depth].name,
            .category = t->open[depth].category,
        };
    return s->status < 0 ? s->status : 0;
}

/* What the model's step says of the event at ordinal: a slice begins (it takes the next id,
 * as a call does when it opens) or ends (its row). */
static int kernel_slice(struct slice_scan *s, const tg_kstep *st, int64_t ordinal, int64_t ts)
{
    struct kslice_track *t = ktrack_of(s, st->slice_track);
    if (!t)
        return TG_ERR_NOMEM;
    int depth = st->slice_depth;
    bool begins = st->what & TG_KSTEP_SLICE_BEGIN;
    int64_t argset = st->n_args ? TG_KM_ARGSET(ordinal) : ordinal; /* the model's args, else
                                                                    * the event's fields */
    if (st->what & TG_KSTEP_SLICE_END) {
        if (depth < KSLICE_MAX && st->n_args && !begins)
            t->open[depth].argset = argset; /* args known at its end */
        int rc = depth < KSLICE_MAX && t->open[depth].wanted ? put_kslice(s, t, depth, ts) : 0;
        if (rc < 0 || !(st->what & TG_KSTEP_SLICE_BEGIN))
            return rc; /* else the next one begins where it ended */
    }
    const sql_query *q = &s->c->q;
    bool whole = st->what & TG_KSTEP_SLICE_WHOLE; /* it ends here too: an instant, ... */
    if (whole)
        ts = st->slice_begin_ts;
    bool wanted = depth < KSLICE_MAX && !s->draining && sql_ts_in(q, ts) &&
                  (q->track == SQL_ANY || q->track == t->track) && name_wanted(q, st->slice_name);
    int64_t id = sql_row_order_take(&s->order, wanted);
    if (id < 0 || depth >= KSLICE_MAX)
        return id < 0 ? (int)id : 0;
    if (t->open[depth].wanted) { /* one begun here never ended: no row, as before */
        s->pending--;
        sql_row_order_drop(&s->order, t->open[depth].id);
    }
    t->open[depth].id = id;
    t->open[depth].argset = argset;
    t->open[depth].ts = ts;
    t->open[depth].name = st->slice_name;
    t->open[depth].category = st->slice_category;
    t->open[depth].wanted = wanted;
    s->pending += wanted;
    return whole && wanted ? put_kslice(s, t, depth, ts + st->slice_dur) : 0;
}

/* The end of the events: the slices still open did not end (dur -1). */
static int kernel_slices_finish(struct slice_scan *s)
{
    for (size_t i = 0; i < s->n_ktracks; i++)
        for (int d = 0; d < KSLICE_MAX; d++)
            if (s->ktracks[i].open[d].wanted)
                TG_TRY(put_kslice(s, &s->ktracks[i], d, SQL_ANY));
    return 0;
}

static void slice_close(sql_cursor *c)
{
    struct slice_scan *s = c->priv;
    if (!s)
        return;
    sql_scan_close(&s->scan);
    tg_callstack_free(s->cs);
    for (size_t i = 0; i < s->n_threads; i++)
        free(s->threads[i].frames);
    free(s->threads);
    tg_hash_free(&s->by_tid);
    sql_row_order_free(&s->order);
    free(s->ktracks);
    tg_hash_free(&s->ktrack_index);
    free(s);
    c->priv = NULL;
}

static int slice_filter(sql_cursor *c)
{
    slice_close(c);
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    struct slice_scan *s = calloc(1, sizeof *s);
    if (!s)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    c->priv = s;
    s->c = c;
    s->entry_cols = sql_col_used(c, C_CATEGORY) || sql_col_used(c, C_CAT) ||
                    sql_col_used(c, C_ARG_SET_ID) || sql_col_used(c, C_THREAD_TS) ||
                    sql_col_used(c, C_THREAD_DUR);
    s->name_col = sql_col_used(c, C_NAME);
    s->cols = c->cols & ((1ull << C_COUNT) - 1);
    s->track_read = sql_col_used(c, C_TRACK_ID) || c->q.track != SQL_ANY;
    /* rows in id order (trace_processor's), unless the statement cannot see their order */
    sql_row_order_init(&s->order, sizeof(struct slice_row), s->cols != 0 && !c->any_order,
                       (size_t)SLICE_ORDER_MB << 20);
    s->cs = tg_callstack_new(on_call, s);
    if (!s->cs)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    tg_callstack_on_open(s->cs, on_open);
    tg_callstack_set_rules(s->cs, TG_STACK_BY_TRACER);
    return sql_scan_open(c->db, &s->scan);
}

/* Reads events until a call of the query ended, or there are no more. */
static int fill(struct slice_scan *s)
{
    const sql_query *q = &s->c->q;
    int rc;
    while (!sql_row_order_ready(&s->order) && !s->done) {
        if (s->draining && s->pending == 0) {
            s->done = true;
            sql_row_order_flush(&s->order);
            break;
        }
        const tg_event *ev;
        rc = sql_scan_next(&s->scan, &ev);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            tg_callstack_finish(s->cs);
            if ((rc = kernel_slices_finish(s)) < 0)
                return sql_fail(s->scan.db, rc, NULL);
            sql_row_order_flush(&s->order);
            s->done = true;
            break;
        }
        int64_t ns = s->scan.last_ns; /* the event's time on the timeline */
        if (ns > q->ts_hi)
            s->draining = true;
        const tg_kstep *st = tg_iter_kstep(s->scan.it);
        s->fed = ev;
        /* a slice on a track its trace declared is no call of the thread */
        rc = st && (st->what & TG_KSTEP_DECLARED) ? 0 : tg_callstack_feed_at(s->cs, ev, ns);
        s->fed = NULL;
        if (rc >= 0 && st && (st->what & (TG_KSTEP_SLICE_BEGIN | TG_KSTEP_SLICE_END)))
            rc = kernel_slice(s, st, s->scan.ordinal, ns);
        if (rc < 0 || s->status < 0)
            return sql_fail(s->scan.db, rc < 0 ? rc : s->status, NULL);
    }
    return s->status < 0 ? sql_fail(s->scan.db, s->status, NULL) : 0;
}

static int slice_next(sql_cursor *c)
{
    struct slice_scan *s = c->priv;
    int rc = fill(s);
    if (rc < 0)
        return rc;
    const struct slice_row *r = sql_row_order_pop(&s->order);
    if (!r) {
        c->eof = true;
        return 0;
    }
    sql_val *v = c->row;
    /* only the columns the statement reads (a join's outer loop reads one or two) */
    for (uint64_t m = s->cols; m; m &= m - 1) {
        switch (__builtin_ctzll(m)) {
        case C_ID: sql_int(&v[C_ID], r->id); break;
        case C_TS: sql_int(&v[C_TS], r->ts); break;
        case C_DUR: sql_int(&v[C_DUR], r->dur); break;
        case C_TRACK_ID: sql_int_or_null(&v[C_TRACK_ID], r->track); break;
        case C_CATEGORY: sql_text(&v[C_CATEGORY], r->category); break;
        case C_NAME: sql_text(&v[C_NAME], r->name); break;
        case C_DEPTH: sql_int(&v[C_DEPTH], r->depth); break;
        case C_PARENT_ID: sql_int_or_null(&v[C_PARENT_ID], r->parent); break;
        case C_ARG_SET_ID: sql_int_or_null(&v[C_ARG_SET_ID], r->argset); break;
        case C_THREAD_TS: sql_int_or_null(&v[C_THREAD_TS], r->thread_ts); break;
        case C_THREAD_DUR: sql_int_or_null(&v[C_THREAD_DUR], r->thread_dur); break;
        case C_MODULE: sql_text(&v[C_MODULE], r->module); break;
        case C_SELF_DUR: sql_int(&v[C_SELF_DUR], r->self); break;
        case C_RECURSIVE: sql_int(&v[C_RECURSIVE], r->recursive); break;
        case C_END_TS: sql_int(&v[C_END_TS], r->end); break;
        case C_SLICE_ID: sql_int(&v[C_SLICE_ID], r->id); break;
        case C_CAT: sql_text(&v[C_CAT], r->category); break;
        default: sql_null(&v[__builtin_ctzll(m)]); break; /* stack ids, instruction counts */
        }
    }
    return 0;
}

const sql_table sql_table_slice = {
    .name = "slice",
    .columns = "id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER, category TEXT, name TEXT, "
               "depth INTEGER, stack_id INTEGER, parent_stack_id INTEGER, parent_id INTEGER, "
               "arg_set_id INTEGER, thread_ts INTEGER, thread_dur INTEGER, "
               "thread_instruction_count INTEGER, thread_instruction_delta INTEGER, "
               "module TEXT, self_dur INTEGER, recursive INTEGER, end_ts INTEGER, "
               "slice_id INTEGER, cat TEXT",
    .n_cols = C_COUNT,
    .col_ts = C_TS,
    .col_name = C_NAME,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = -1,
    .col_track = C_TRACK_ID,
    .col_argset = -1,
    .big = true,
    .filter = slice_filter,
    .next = slice_next,
    .close = slice_close,
};
