/* report_task.c - `uftrace report --task` (also under its old name, --threads): per thread,
 * the time it ran and the calls it made, byte for byte as uftrace prints them.
 *
 * uftrace builds this table from the same records as the function report, under the same
 * stack rules (analysis/callstack_uftrace.h), but adds every ended call's self time to its
 * thread instead of to its function, and keeps apart the time between each sched-out (not
 * a pre-emption's) and the sched-in that follows; before the thread's first sched-out that
 * stamp is the thread's own start (its task.txt line), so its first sched-in after a
 * pre-emption counts from there, as uftrace's task stamp does.  "Total time" is the sum of the self times (the thread's run time,
 * linux:schedule frames included), "Self time" that less the scheduled-out time, "Num funcs"
 * the calls ended.  Lost records end no frame here, and frames still open at the end are
 * closed at the thread's last exit or event (not its last entry), as uftrace does.  Rows
 * are sorted by the -s keys (total, self, tid, func, name) largest first, then by the tid as
 * text; a thread that ended no call has no row. */
#define _GNU_SOURCE /* qsort_r */
#include "compat/uftrace/report_task.h"
#include "analysis/callstack.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TK_TOTAL, TK_SELF, TK_TID, TK_FUNC, TK_NAME, TK_COLS = TK_NAME };

struct task_row {
    int tid;
    char tid_text[16];
    const char *comm;
    uint64_t self_sum; /* the self times of its calls: printed as "Total time" */
    uint64_t idle;     /* sched-out to sched-in */
    uint64_t calls;
    int64_t sched_out; /* time of the pending sched-out, 0 when none */
    int64_t last;      /* time of its last exit or event */
    bool has_row;      /* a call ended */
    bool seen;         /* its first record was read */
};

struct task_report {
    uf_state st;
    struct task_row *rows; /* by uf_task order */
    size_t cap;
    tg_set *set;
    struct {
        uint64_t addr;
        const void *trace;
        const char *name;
        bool set;
    } names[1024];
};

static struct task_row *row_of(struct task_report *p, const uf_task *t)
{
    size_t old = p->cap;
    if ((size_t)t->order >= p->cap) {
        if (tg_grow(&p->rows, &p->cap, (size_t)t->order + 1, sizeof *p->rows) < 0)
            return NULL;
        memset(p->rows + old, 0, (p->cap - old) * sizeof *p->rows);
    }
    struct task_row *r = &p->rows[t->order];
    r->tid = t->tid;
    return r;
}

static int task_close(void *ctx, uf_task *t, const char *name, uint64_t addr, int64_t ts, int how)
{
    (void)name;
    (void)addr;
    (void)ts;
    struct task_report *p = ctx;
    if (how != UF_CLOSE_EXIT) /* lost records end no frame of this table */
        return 0;
    const uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
    struct task_row *r = row_of(p, t);
    if (!f || !r)
        return r ? 0 : TG_ERR_NOMEM;
    r->self_sum += f->total - f->child;
    r->calls++;
    r->has_row = true;
    return 0;
}

static const char *func_name(struct task_report *p, const tg_event *ev)
{
    size_t h = (ev->addr ^ (ev->addr >> 12)) & 1023;
    if (!p->names[h].set || p->names[h].addr != ev->addr || p->names[h].trace != ev->cls->trace) {
        p->names[h].addr = ev->addr;
        p->names[h].trace = ev->cls->trace;
        p->names[h].name = tg_event_func_name(ev);
        p->names[h].set = true;
    }
    return p->names[h].name;
}

static int feed(struct task_report *p, const tg_event *ev)
{
    uf_rec r;
    uf_rec_from_event(ev, &r);
    uf_task *t = uf_task_get(&p->st, r.tid, r.pid);
    struct task_row *row = t ? row_of(p, t) : NULL;
    if (!row)
        return TG_ERR_NOMEM;
    if (r.type == UF_ENTRY || r.type == UF_EXIT)
        r.name = func_name(p, ev);
    const uf_sink sink = {.close = task_close, .ctx = p};
    int rc = uf_step(&p->st, t, &r, &sink);
    row = &p->rows[t->order];
    if (!row->seen) { /* uftrace's idle stamp starts at the thread's task.txt time */
        const tg_task_info *ti = tg_trace_task_find(ev->cls->trace, r.tid);
        row->seen = true;
        row->sched_out = ti ? ti->start_ns : 0;
    }
    if (rc < 0 || r.type == UF_ENTRY || r.type == UF_LOST || uf_hidden(&p->st, t, &r))
        return rc;
    if (r.type == UF_EXIT && !uf_frame_at(&p->st, t, t->stack_count))
        return 0;
    row->last = r.time;
    if (r.kind == TG_KIND_SCHED_OUT) { /* a pre-emption is not idle time (sic) */
        row->sched_out = r.time;
    } else if (r.kind == TG_KIND_SCHED_IN) {
        if (row->sched_out)
            row->idle += (uint64_t)(r.time - row->sched_out);
        row->sched_out = 0;
    }
    return 0;
}

/* Frames still open: ended at the thread's last exit or event (add_remaining_task_fstack). */
static int finish(struct task_report *p)
{
    for (size_t i = 0; i < p->st.count; i++) {
        uf_task *t = p->st.order[i];
        struct task_row *r = row_of(p, t);
        if (!r)
            return TG_ERR_NOMEM;
        uint64_t last = (uint64_t)r->last;
        while (--t->stack_count >= 0) {
            uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
            if (!f || f->addr == 0 || f->total > last)
                continue;
            if (f->name == uf_schedule_name || f->name == uf_schedule_preempted_name) {
                if (r->sched_out) /* a context switch still open: idle to the end */
                    r->idle += last - f->total;
                r->sched_out = 0;
            }
            f->total = last - f->total;
            if (f->child > f->total)
                f->total = f->child;
            if (t->stack_count > 0)
                f[-1].child += f->total;
            r->self_sum += f->total - f->child;
            r->calls++;
            r->has_row = true;
        }
    }
    return 0;
}

struct task_fmt {
    bool col_on[TK_COLS];
    uint8_t keys[16];
    int n_keys;
};

static int parse_fmt(struct task_fmt *f, const tg_options *opts, tg_error **err)
{
    static const char *const keys[] = {"total", "self", "tid", "func", "name"};
    memset(f, 0, sizeof *f);
    const char *spec = tg_options_get(opts, "sort");
    const char *s = spec ? spec : "total";
    for (;;) {
        size_t n = strcspn(s, ",");
        int k = -1;
        for (int i = 0; i < 5 && k < 0; i++)
            if (strlen(keys[i]) == n && memcmp(s, keys[i], n) == 0)
                k = i;
        if (k < 0 || f->n_keys >= 16)
            return tg_err(err, TG_ERR_USAGE, "invalid sort key: %s", spec ? spec : "");
        f->keys[f->n_keys++] = (uint8_t)k;
        s += n;
        if (!*s)
            break;
        s++;
    }
    const char *fields = tg_options_get(opts, "output-fields");
    if (!fields) {
        for (int c = 0; c < TK_COLS; c++)
            f->col_on[c] = true;
        return 0;
    }
    if (strcmp(fields, "none") == 0)
        return 0;
    if (*fields == '+') {
        for (int c = 0; c < TK_COLS; c++)
            f->col_on[c] = true;
        fields++;
    }
    for (s = fields;;) {
        size_t n = strcspn(s, ",");
        int c = -1;
        for (int i = 0; i < TK_COLS && c < 0; i++)
            if (strlen(keys[i]) == n && memcmp(s, keys[i], n) == 0)
                c = i;
        if (c < 0)
            return tg_err(err, TG_ERR_USAGE,
                          "unknown field name '%.*s' (possible fields are: total self tid func)",
                          (int)n, s);
        f->col_on[c] = true;
        s += n;
        if (!*s)
            return 0;
        s++;
    }
}

static uint64_t row_total(const struct task_row *r) { return r->self_sum; }
static uint64_t row_self(const struct task_row *r) { return r->self_sum - r->idle; }

static int cmp_task(const void *a, const void *b, void *ctx)
{
    const struct task_row *x = *(struct task_row *const *)a, *y = *(struct task_row *const *)b;
    const struct task_fmt *f = ctx;
    for (int i = 0; i < f->n_keys; i++) {
        int c = 0;
        switch (f->keys[i]) {
        case TK_TOTAL:
            c = row_total(x) == row_total(y) ? 0 : row_total(x) > row_total(y) ? -1 : 1;
            break;
        case TK_SELF:
            c = row_self(x) == row_self(y) ? 0 : row_self(x) > row_self(y) ? -1 : 1;
            break;
        case TK_TID: c = strcmp(x->tid_text, y->tid_text); break;
        case TK_FUNC: c = x->calls == y->calls ? 0 : x->calls > y->calls ? -1 : 1; break;
        case TK_NAME:
            if (!x->comm || !y->comm)
                c = !x->comm ? (!y->comm ? 0 : 1) : -1;
            else
                c = strcmp(x->comm, y->comm);
            break;
        }
        if (c)
            return c;
    }
    return strcmp(x->tid_text, y->tid_text);
}

/* The thread's command as uftrace names it: from the trace's task list, cut to 15 bytes. */
static const char *task_comm(tg_set *set, int tid)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_task_info *ti = tg_trace_task_find(tg_set_trace(set, i), tid);
        if (ti && ti->name)
            return ti->name;
    }
    /* a trace that lists no tasks: its process's command */
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_process_info *pi = tg_trace_process(tg_set_trace(set, i));
        if (pi && pi->name)
            return pi->name;
        if (pi && pi->executable)
            return strrchr(pi->executable, '/') ? strrchr(pi->executable, '/') + 1 : pi->executable;
    }
    return NULL;
}

static void print_table(struct task_report *p, const struct task_fmt *f, tg_buf *out,
                        struct task_row **list, size_t n)
{
    static const char *const headers[] = {"Total time", "Self time", "TID", "Num funcs"};
    static const int widths[] = {10, 10, 6, 10};
    bool any = false;
    for (int c = 0; c < TK_COLS; c++)
        any |= f->col_on[c];
    if (any) {
        for (int c = 0; c < TK_COLS; c++)
            if (f->col_on[c])
                tg_buf_printf(out, "  %*s", widths[c], headers[c]);
        tg_buf_puts(out, "  Task name\n");
        for (int c = 0; c < TK_COLS; c++)
            if (f->col_on[c])
                tg_buf_printf(out, "  %.*s", widths[c], "==========");
        tg_buf_puts(out, "  ====================\n");
    }
    for (size_t i = 0; i < n; i++) {
        const struct task_row *r = list[i];
        for (int c = 0; c < TK_COLS; c++) {
            if (!f->col_on[c])
                continue;
            tg_buf_puts(out, "  ");
            switch (c) {
            case TK_TOTAL: uf_put_time(out, row_total(r)); break;
            case TK_SELF: uf_put_time(out, row_self(r)); break;
            case TK_TID: tg_buf_printf(out, "%6d", r->tid); break;
            case TK_FUNC: tg_buf_u64_pad(out, r->calls, 10, ' '); break;
            }
        }
        tg_buf_printf(out, "  %-16.15s\n", r->comm ? r->comm : "");
    }
    (void)p;
}

int uf_report_task(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    struct task_fmt fmt;
    int rc = parse_fmt(&fmt, opts, err);
    if (rc < 0)
        return rc;
    struct task_report *p = calloc(1, sizeof *p);
    if (!p || uf_state_init(&p->st) < 0) {
        free(p);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    p->set = set;
    p->st.kernel_full = tg_options_flag(opts, "kernel-full");
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0)
        if ((rc = feed(p, ev)) < 0)
            break;
    if (rc >= 0)
        rc = finish(p);
    struct task_row **list = NULL;
    size_t n = 0;
    if (rc >= 0 && !(list = malloc((p->st.count ? p->st.count : 1) * sizeof *list)))
        rc = TG_ERR_NOMEM;
    for (size_t i = 0; rc >= 0 && i < p->st.count && i < p->cap; i++) {
        struct task_row *r = &p->rows[i];
        if (!r->has_row)
            continue;
        snprintf(r->tid_text, sizeof r->tid_text, "%d", r->tid);
        r->comm = task_comm(set, r->tid);
        list[n++] = r;
    }
    if (rc >= 0) {
        if (n > 1)
            qsort_r(list, n, sizeof *list, cmp_task, &fmt);
        print_table(p, &fmt, out, list, n);
    }
    free(list);
    uf_state_free(&p->st);
    free(p->rows);
    free(p);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc < 0 ? rc : 0;
}
