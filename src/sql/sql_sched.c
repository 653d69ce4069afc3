/* sql_sched.c - sched_slice and thread_state: what ran on each CPU, and what state each
 * thread was in, from the kernel's sched_switch and sched_wakeup events (trace.dat, LTTng
 * kernel CTF, LTTng 0.x's sched_schedule and sched_try_wakeup).
 *
 * One state machine serves both tables, as Perfetto builds them: per CPU the task running
 * since its switch-in (the idle task is utid 0), per thread its state since it changed.  A
 * sched_switch ends prev's slice with prev_state as its end_state (the kernel's letters:
 * R, R+ when pre-empted, S, D, T, t, X, Z, P, I), begins next's slice, moves prev to that
 * state and next to Running; a wakeup moves a sleeping thread to R (runnable), with the task
 * the wakeup event is on as its waker_utid and whether it came from an interrupt as its
 * irq_context (the kernel model's step).  A sched_blocked_reason (Android kernels, Perfetto
 * traces) gives the blocked state its thread is in its io_wait, as Perfetto sets it (on the
 * thread's last blocked state; here while that state lasts: one that ended is out).  What ran on a CPU before its first switch is known
 * too: prev ran from the CPU's first event (and was Running, unless it had a state already).
 * At the end of the events each CPU's last slice ends at the last event (end_state NULL, as
 * Perfetto ends them at the trace's end), and so does its thread's Running state: a
 * thread's Running rows are its sched_slice rows; its other last states have dur -1.
 *
 * States a task tells itself (Perfetto's generic kernel events, a JSON trace's thread states)
 * come from the model's TASK_STATE step (on_told_state): by number or by name, a told state
 * may end without another (TG_KTASK_OVER: a state told with its duration).
 *
 * Rows come when a slice or state ends; ids count slices (states) in the order they began,
 * the same in every scan.  Memory: one record per CPU and per thread. */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SS_ID, SS_TS, SS_DUR, SS_CPU, SS_UTID, SS_END_STATE, SS_PRIORITY, SS_UCPU, SS_COUNT };
enum {
    TS_ID,
    TS_TS,
    TS_DUR,
    TS_CPU,
    TS_UTID,
    TS_STATE,
    TS_IO_WAIT,
    TS_BLOCKED_FUNCTION,
    TS_WAKER_UTID,
    TS_IRQ_CONTEXT,
    TS_UCPU,
    TS_COUNT
};

struct cpu_run {
    int64_t first_ts; /* the CPU's first event; SQL_ANY: none yet */
    int64_t id, utid, ts, prio;
    bool running;
};

struct thread_run {
    int64_t id, ts, cpu;          /* cpu SQL_ANY: not running */
    int64_t waker, irq;           /* of the state since a wakeup; SQL_ANY: none */
    int64_t io_wait;              /* of a blocked state (sched_blocked_reason); SQL_ANY: none */
    const char *blocked_function; /* of a state told by name; NULL: none */
    char state[24];               /* "": no name (NULL) */
    bool open;                    /* in a state since ts (else none known yet) */
    bool told;                    /* the state is one the task told (generic kernel events) */
};

struct sched_row {
    int64_t id, ts, dur, cpu, utid, prio;
    int64_t waker, irq, io_wait; /* SQL_ANY: NULL */
    const char *blocked_function;
    char state[24]; /* "" : NULL */
};

/* Per CPU, the slice a generic kernel task began by saying it runs (on_told_state). */
struct told_cpu {
    bool pending;
    int64_t id, ts, utid, tid, prio;
};

/* A told slice that ended when another task said it runs: its end state may still come at
 * the same time (the task saying what it went to). */
struct told_hang {
    int64_t close_ts;
    struct sched_row row;
};

struct sched_scan {
    sql_scan scan;
    struct told_cpu *told;
    size_t n_told, cap_told;
    struct told_hang *hang;
    size_t n_hang, cap_hang;
    bool states; /* thread_state rows (else sched_slice) */
    struct cpu_run *cpus;
    size_t n_cpus, cap_cpus;
    struct thread_run *threads; /* by utid */
    size_t n_threads, cap_threads;
    int64_t next_slice, next_state, pending;
    bool draining, done;
    struct sched_row *rows; /* rows[head..n) */
    size_t head, n, cap;
};

/* The kernel's letters for a task state as sched_switch's prev_state gives it, by the bit
 * values of Linux 4.14 and later (the sched_switch print format of their trace.dat files;
 * the bit above them says the task was pre-empted while runnable).  Older kernels (LTTng
 * 0.x traces) give bits 16 and up other meanings. */
static void state_letters(int64_t st, char *out)
{
    static const char letters[] = "SDTtXZPI";
    size_t n = 0;
    if (st == SQL_ANY) {
        out[0] = 0;
        return;
    }
    for (int b = 0; b < 8; b++)
        if (st & (1 << b))
            out[n++] = letters[b];
    if (!n)
        out[n++] = 'R';
    if (st & 0x100)
        out[n++] = '+';
    out[n] = 0;
}

static struct cpu_run *cpu_of(struct sched_scan *s, int cpu)
{
    if ((size_t)cpu >= s->n_cpus) {
        size_t old = s->n_cpus;
        if (tg_grow_zeroed(&s->cpus, &s->n_cpus, &s->cap_cpus, (size_t)cpu + 1, sizeof *s->cpus) <
            0)
            return NULL;
        for (size_t i = old; i < s->n_cpus; i++)
            s->cpus[i].first_ts = SQL_ANY;
    }
    return &s->cpus[cpu];
}

static struct thread_run *thread_of(struct sched_scan *s, int64_t utid)
{
    if ((size_t)utid >= s->n_threads) {
        size_t old = s->n_threads;
        if (tg_grow_zeroed(&s->threads, &s->n_threads, &s->cap_threads, (size_t)utid + 1,
                           sizeof *s->threads) < 0)
            return NULL;
        for (size_t i = old; i < s->n_threads; i++)
            s->threads[i].cpu = SQL_ANY;
    }
    return &s->threads[utid];
}

/* Queues a row of the cursor's table when it passes the constraints; started says whether
 * it counted as pending (began within the ts bounds). */
static int put_row(struct sched_scan *s, const sql_query *q, const struct sched_row *r)
{
    if (!sql_ts_in(q, r->ts))
        return 0;
    s->pending--;
    if ((q->cpu != SQL_ANY && r->cpu != q->cpu) || (q->utid != SQL_ANY && r->utid != q->utid) ||
        (q->id != SQL_ANY && r->id != q->id))
        return 0;
    if (s->head == s->n)
        s->head = s->n = 0;
    TG_TRY(tg_grow(&s->rows, &s->cap, s->n + 1, sizeof *s->rows));
    s->rows[s->n++] = *r;
    return 0;
}

/* A slice or state began at ts: one more row to wait for when it is within the bounds. */
static void began(struct sched_scan *s, const sql_query *q, bool mine, int64_t ts)
{
    if (mine && !s->draining && sql_ts_in(q, ts))
        s->pending++;
}

/* Thread utid's state changes to state at ts (on cpu while running; woken by waker, in an
 * interrupt or not: SQL_ANY when unknown). */
static int change_state_by(struct sched_scan *s, const sql_query *q, int64_t utid,
                           const char *state, int64_t ts, int64_t cpu, int64_t waker, int64_t irq)
{
    if (utid <= 0)
        return 0; /* the idle task has no thread states */
    struct thread_run *t = thread_of(s, utid);
    if (!t)
        return TG_ERR_NOMEM;
    if (t->open) {
        struct sched_row r = {.id = t->id,
                              .ts = t->ts,
                              .dur = ts - t->ts,
                              .cpu = t->cpu,
                              .utid = utid,
                              .waker = t->waker,
                              .irq = t->irq,
                              .io_wait = t->io_wait,
                              .blocked_function = t->blocked_function};
        strcpy(r.state, t->state);
        if (s->states)
            TG_TRY(put_row(s, q, &r));
    }
    t->blocked_function = NULL;
    t->id = s->next_state++;
    t->ts = ts;
    t->cpu = cpu;
    t->waker = waker;
    t->irq = irq;
    t->io_wait = SQL_ANY;
    t->open = true;
    t->told = false;
    snprintf(t->state, sizeof t->state, "%s", state);
    began(s, q, s->states, ts);
    return 0;
}

static int change_state(struct sched_scan *s, const sql_query *q, int64_t utid, const char *state,
                        int64_t ts, int64_t cpu)
{
    return change_state_by(s, q, utid, state, ts, cpu, SQL_ANY, SQL_ANY);
}

/* A utid of the model's step, SQL_ANY when unknown. */
static int64_t utid_or_any(int64_t utid) { return utid >= 0 ? utid : SQL_ANY; }

static int on_switch(struct sched_scan *s, const sql_query *q, const tg_event *ev,
                     const sql_class *cls, int64_t ts)
{
    struct cpu_run *c = ev->cpu >= 0 ? cpu_of(s, ev->cpu) : NULL;
    const tg_kstep *step = tg_iter_kstep(s->scan.it);
    if (!c || !step || !(step->what & TG_KSTEP_SWITCH))
        return ev->cpu >= 0 && !c ? TG_ERR_NOMEM : 0;
    int64_t prev = utid_or_any(step->prev_utid), next = utid_or_any(step->next_utid);
    int64_t prev_state = sql_int_field(ev, cls->field[SQL_F_PREV_STATE]);
    struct sched_row r = {.cpu = ev->cpu};
    state_letters(prev_state, r.state);
    if (c->running || (c->first_ts != SQL_ANY && c->first_ts < ts && prev != SQL_ANY)) {
        if (!c->running) { /* prev ran from the CPU's first event */
            c->id = s->next_slice++;
            c->utid = prev;
            c->ts = c->first_ts;
            c->prio = sql_int_field(ev, cls->field[SQL_F_PREV_PRIO]);
            began(s, q, !s->states, c->ts);
            struct thread_run *t = prev > 0 ? thread_of(s, prev) : NULL;
            if (prev > 0 && !t)
                return TG_ERR_NOMEM;
            if (t && !t->open) /* its Running state is that slice */
                TG_TRY(change_state(s, q, prev, "Running", c->first_ts, ev->cpu));
        }
        r.id = c->id;
        r.ts = c->ts;
        r.dur = ts - c->ts;
        r.utid = c->utid;
        r.prio = c->prio;
        if (!s->states)
            TG_TRY(put_row(s, q, &r));
        /* a switch whose prev is not the task running (records lost between) still ends that
         * task's slice, and with it its Running state */
        struct thread_run *was = c->utid != prev && c->utid > 0 ? thread_of(s, c->utid) : NULL;
        if (was && was->cpu == ev->cpu && strcmp(was->state, "Running") == 0)
            TG_TRY(change_state(s, q, c->utid, r.state[0] ? r.state : "R", ts, SQL_ANY));
    }
    c->running = next != SQL_ANY;
    if (c->running) {
        c->id = s->next_slice++;
        c->utid = next;
        c->ts = ts;
        c->prio = sql_int_field(ev, cls->field[SQL_F_NEXT_PRIO]);
        began(s, q, !s->states, ts);
    }
    if (prev != SQL_ANY)
        TG_TRY(change_state(s, q, prev, r.state[0] ? r.state : "R", ts, SQL_ANY));
    if (next != SQL_ANY)
        TG_TRY(change_state(s, q, next, "Running", ts, ev->cpu));
    return 0;
}

static int on_wakeup(struct sched_scan *s, const sql_query *q, const tg_event *ev,
                     const sql_class *cls, int64_t ts)
{
    (void)cls;
    const tg_kstep *step = tg_iter_kstep(s->scan.it);
    int64_t utid = step && (step->what & TG_KSTEP_WAKEUP) ? step->woken_utid : -1;
    if (utid <= 0)
        return 0;
    struct thread_run *t = thread_of(s, utid);
    if (!t)
        return TG_ERR_NOMEM;
    if (strcmp(t->state, "Running") == 0 || t->state[0] == 'R')
        return 0; /* running or runnable already */
    /* the waker is the task the event is on (the one running on the waking CPU) */
    return change_state_by(s, q, utid, "R", ts, SQL_ANY, ev->utid >= 0 ? ev->utid : SQL_ANY,
                           step->irq_context >= 0 ? step->irq_context : SQL_ANY);
}

/* A sched_blocked_reason: the io_wait of the blocked state its thread is in. */
static int on_blocked(struct sched_scan *s, const tg_kstep *step)
{
    if (step->blocked_utid <= 0 || step->io_wait < 0)
        return 0;
    struct thread_run *t = thread_of(s, step->blocked_utid);
    if (!t)
        return TG_ERR_NOMEM;
    if (t->open && t->state[0] && strcmp(t->state, "Running") != 0 && t->state[0] != 'R')
        t->io_wait = step->io_wait;
    return 0;
}

/* ---- states tasks told (Perfetto's generic kernel events) -------------------------------------- */

/* The ended told slices whose end state can no longer come (time moved past their end, or
 * the events ended: before < INT64_MAX and INT64_MAX) go out as rows. */
static int flush_hanging(struct sched_scan *s, const sql_query *q, int64_t before)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->n_hang; i++) {
        if (s->hang[i].close_ts < before) {
            if (!s->states)
                TG_TRY(put_row(s, q, &s->hang[i].row));
            continue;
        }
        s->hang[kept++] = s->hang[i];
    }
    s->n_hang = kept;
    return 0;
}

/* A told state's thread: marked as told, with the I/O wait and blocked function the state
 * came with. */
static int told_extras(struct sched_scan *s, const tg_kstep *st)
{
    if (st->task_utid <= 0)
        return 0;
    struct thread_run *t = &s->threads[st->task_utid]; /* made by change_state */
    t->told = true;
    if (st->task_io_wait >= 0)
        t->io_wait = st->task_io_wait;
    t->blocked_function = st->task_blocked_function;
    return 0;
}

/* The row of the slice a told state began on CPU `cpu`, ending at ts (its end state unknown). */
static struct sched_row told_cpu_row(const struct told_cpu *c, int cpu, int64_t ts)
{
    return (struct sched_row){.id = c->id,
                              .ts = c->ts,
                              .dur = ts - c->ts,
                              .cpu = cpu,
                              .utid = c->utid,
                              .prio = c->prio,
                              .waker = SQL_ANY,
                              .irq = SQL_ANY,
                              .io_wait = SQL_ANY};
}

/* The state a task told last is over (a state told with its duration): its thread's state
 * row ends, and so does its slice on the CPU it ran on (in no known state). */
static int on_told_over(struct sched_scan *s, const sql_query *q, const tg_kstep *st, int64_t ts)
{
    TG_TRY(flush_hanging(s, q, ts));
    struct told_cpu *c =
        st->task_cpu >= 0 && (size_t)st->task_cpu < s->n_told ? &s->told[st->task_cpu] : NULL;
    if (c && c->pending && c->tid == st->task_tid) {
        struct sched_row r = told_cpu_row(c, st->task_cpu, ts);
        if (!s->states)
            TG_TRY(put_row(s, q, &r));
        c->pending = false;
    }
    if (st->task_utid <= 0 || (size_t)st->task_utid >= s->n_threads)
        return 0;
    struct thread_run *t = &s->threads[st->task_utid];
    if (!t->open)
        return 0;
    struct sched_row r = {.id = t->id,
                          .ts = t->ts,
                          .dur = ts - t->ts,
                          .cpu = t->cpu,
                          .utid = st->task_utid,
                          .waker = t->waker,
                          .irq = t->irq,
                          .io_wait = t->io_wait,
                          .blocked_function = t->blocked_function};
    strcpy(r.state, t->state);
    t->open = false;
    return s->states ? put_row(s, q, &r) : 0;
}

/* What a task's told state does, as trace_processor's generic kernel importer has it: RUNNING
 * begins a slice on the CPU (ending the one there, whose end state may come at the same time
 * from its task: until then the task's state has no name); another state of the task running
 * on the CPU ends its slice in that state; the thread's state changes (the idle task has
 * none). */
static int on_told_state(struct sched_scan *s, const sql_query *q, const tg_kstep *st, int64_t ts)
{
    static const char *const names[] = {"", "Created", "R", "Running", "S", "D", "T", "Z", "X"};
    if (st->task_state == TG_KTASK_OVER)
        return on_told_over(s, q, st, ts);
    const char *name = st->task_state_name;
    if (!name && st->task_state >= 1 && st->task_state <= TG_KTASK_DESTROYED)
        name = names[st->task_state];
    if (!name || (st->task_cpu < 0 && !st->task_state_name))
        return 0;
    bool running = st->task_state == TG_KTASK_RUNNING;
    TG_TRY(flush_hanging(s, q, ts));
    if (st->task_cpu < 0) { /* a state named without a CPU: the thread's only */
        TG_TRY(change_state(s, q, st->task_utid, name, ts, SQL_ANY));
        return told_extras(s, st);
    }
    if ((size_t)st->task_cpu >= s->n_told &&
        tg_grow_zeroed(&s->told, &s->n_told, &s->cap_told, (size_t)st->task_cpu + 1,
                       sizeof *s->told) < 0)
        return TG_ERR_NOMEM;
    struct told_cpu *c = &s->told[st->task_cpu];
    int64_t unnamed = -1; /* the task whose slice this one ended */
    bool updated = false;
    struct sched_row r = told_cpu_row(c, st->task_cpu, ts);
    if (running) {
        if (c->pending) {
            for (size_t i = 0; i < s->n_hang; i++)
                if (s->hang[i].row.utid == c->utid) { /* a newer one replaces it */
                    if (!s->states)
                        TG_TRY(put_row(s, q, &s->hang[i].row));
                    s->hang[i] = s->hang[--s->n_hang];
                    break;
                }
            TG_TRY(tg_grow(&s->hang, &s->cap_hang, s->n_hang + 1, sizeof *s->hang));
            s->hang[s->n_hang++] = (struct told_hang){.close_ts = ts, .row = r};
            unnamed = c->utid;
        }
        *c = (struct told_cpu){.pending = true,
                               .id = s->next_slice++,
                               .ts = ts,
                               .utid = st->task_utid,
                               .tid = st->task_tid,
                               .prio = st->task_prio};
        began(s, q, !s->states, ts);
    } else if (c->pending && c->tid == st->task_tid) {
        snprintf(r.state, sizeof r.state, "%s", name);
        if (!s->states)
            TG_TRY(put_row(s, q, &r));
        c->pending = false;
    } else {
        for (size_t i = 0; i < s->n_hang; i++)
            if (s->hang[i].row.utid == st->task_utid && s->hang[i].close_ts == ts) {
                snprintf(s->hang[i].row.state, sizeof s->hang[i].row.state, "%s", name);
                if (!s->states)
                    TG_TRY(put_row(s, q, &s->hang[i].row));
                s->hang[i] = s->hang[--s->n_hang];
                updated = true;
                break;
            }
    }
    if (updated && st->task_utid > 0) { /* the state the task was left in gets its name */
        struct thread_run *t = thread_of(s, st->task_utid);
        if (!t)
            return TG_ERR_NOMEM;
        if (t->open)
            snprintf(t->state, sizeof t->state, "%s", name);
    }
    if (updated)
        return 0;
    if (unnamed > 0) {
        TG_TRY(change_state(s, q, unnamed, "", ts, SQL_ANY));
        s->threads[unnamed].told = true;
    }
    TG_TRY(change_state(s, q, st->task_utid, name, ts, running ? st->task_cpu : SQL_ANY));
    return told_extras(s, st);
}

/* Rows queued by at_end go out in the order their slices or states began, as
 * trace_processor's rows are. */
static int by_id(const void *a, const void *b)
{
    const struct sched_row *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The end of the events: each CPU's last slice ends at the last event, and so does its
 * thread's Running state; other thread states that did not end have dur -1. */
static int at_end(struct sched_scan *s, const sql_query *q)
{
    int64_t end = s->scan.last_ns;
    TG_TRY(flush_hanging(s, q, INT64_MAX));
    if (s->head == s->n)
        s->head = s->n = 0;
    size_t first = s->n;
    for (size_t i = 0; i < s->n_told && !s->states; i++) {
        const struct told_cpu *c = &s->told[i];
        if (!c->pending)
            continue; /* a told slice that did not end stays open */
        struct sched_row r = {.id = c->id,
                              .ts = c->ts,
                              .dur = -1,
                              .cpu = (int64_t)i,
                              .utid = c->utid,
                              .prio = c->prio};
        TG_TRY(put_row(s, q, &r));
    }
    for (size_t i = 0; i < s->n_cpus; i++) {
        const struct cpu_run *c = &s->cpus[i];
        if (!c->running || s->states)
            continue;
        struct sched_row r = {.id = c->id,
                              .ts = c->ts,
                              .dur = end - c->ts,
                              .cpu = (int64_t)i,
                              .utid = c->utid,
                              .prio = c->prio};
        TG_TRY(put_row(s, q, &r));
    }
    for (size_t i = 0; s->states && i < s->n_threads; i++) {
        const struct thread_run *t = &s->threads[i];
        if (!t->open)
            continue;
        /* a running thread's state ends with its CPU's slice, at the last event (a state a
         * task told stays open, as its slice does) */
        bool running = strcmp(t->state, "Running") == 0 && !t->told;
        struct sched_row r = {.id = t->id,
                              .ts = t->ts,
                              .dur = running ? end - t->ts : -1,
                              .cpu = t->cpu,
                              .utid = (int64_t)i,
                              .waker = t->waker,
                              .irq = t->irq,
                              .io_wait = t->io_wait,
                              .blocked_function = t->blocked_function};
        strcpy(r.state, t->state);
        TG_TRY(put_row(s, q, &r));
    }
    if (s->n > first + 1)
        qsort(s->rows + first, s->n - first, sizeof *s->rows, by_id);
    return 0;
}

static int fill(sql_cursor *c, struct sched_scan *s)
{
    const sql_query *q = &c->q;
    while (s->head == s->n && !s->done) {
        if (s->draining && s->pending <= 0) {
            s->done = true;
            break;
        }
        const tg_event *ev;
        int rc = sql_scan_next(&s->scan, &ev);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            s->done = true;
            if ((rc = at_end(s, q)) < 0)
                return sql_fail(c->db, rc, NULL);
            break;
        }
        int64_t ts = s->scan.last_ns;
        if (ts > q->ts_hi)
            s->draining = true;
        if (ev->cpu >= 0) {
            struct cpu_run *cpu = cpu_of(s, ev->cpu);
            if (!cpu)
                return sql_fail(c->db, TG_ERR_NOMEM, NULL);
            if (cpu->first_ts == SQL_ANY)
                cpu->first_ts = ts;
        }
        if (!ev->cls || ev->cls->kind != TG_KIND_GENERIC)
            continue;
        const tg_kstep *step = tg_iter_kstep(s->scan.it);
        if (step && (step->what & TG_KSTEP_TASK_STATE)) {
            if ((rc = on_told_state(s, q, step, ts)) < 0)
                return sql_fail(c->db, rc, NULL);
            continue;
        }
        if (s->n_hang && (rc = flush_hanging(s, q, ts)) < 0)
            return sql_fail(c->db, rc, NULL);
        const sql_class *cls = sql_class_of(c->db, ev);
        if (cls->role == SQL_ROLE_SWITCH)
            rc = on_switch(s, q, ev, cls, ts);
        else if (cls->role == SQL_ROLE_WAKEUP)
            rc = on_wakeup(s, q, ev, cls, ts);
        else if (s->states && (step = tg_iter_kstep(s->scan.it)) && (step->what & TG_KSTEP_BLOCKED))
            rc = on_blocked(s, step);
        if (rc < 0)
            return sql_fail(c->db, rc, NULL);
    }
    return 0;
}

static void sched_close(sql_cursor *c)
{
    struct sched_scan *s = c->priv;
    if (!s)
        return;
    sql_scan_close(&s->scan);
    free(s->cpus);
    free(s->told);
    free(s->hang);
    free(s->threads);
    free(s->rows);
    free(s);
    c->priv = NULL;
}

static int sched_filter(sql_cursor *c)
{
    sched_close(c);
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    struct sched_scan *s = calloc(1, sizeof *s);
    if (!s)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    c->priv = s;
    s->states = c->table == &sql_table_thread_state;
    return sql_scan_open(c->db, &s->scan);
}

static int sched_next(sql_cursor *c)
{
    struct sched_scan *s = c->priv;
    int rc = fill(c, s);
    if (rc < 0)
        return rc;
    if (s->head == s->n) {
        c->eof = true;
        return 0;
    }
    const struct sched_row *r = &s->rows[s->head++];
    sql_val *v = c->row;
    if (s->states) {
        sql_int(&v[TS_ID], r->id);
        sql_int(&v[TS_TS], r->ts);
        sql_int(&v[TS_DUR], r->dur);
        sql_int_or_null(&v[TS_CPU], r->cpu);
        sql_int(&v[TS_UTID], r->utid);
        sql_text(&v[TS_STATE], r->state[0] ? r->state : NULL);
        v[TS_STATE].copy = true;
        sql_int_or_null(&v[TS_IO_WAIT], r->io_wait);
        sql_text(&v[TS_BLOCKED_FUNCTION], r->blocked_function);
        sql_int_or_null(&v[TS_WAKER_UTID], r->waker);
        sql_int_or_null(&v[TS_IRQ_CONTEXT], r->irq);
        sql_int_or_null(&v[TS_UCPU], r->cpu);
        return 0;
    }
    sql_int(&v[SS_ID], r->id);
    sql_int(&v[SS_TS], r->ts);
    sql_int(&v[SS_DUR], r->dur);
    sql_int(&v[SS_CPU], r->cpu);
    sql_int(&v[SS_UTID], r->utid);
    sql_text(&v[SS_END_STATE], r->state[0] ? r->state : NULL);
    v[SS_END_STATE].copy = true;
    sql_int_or_null(&v[SS_PRIORITY], r->prio);
    sql_int(&v[SS_UCPU], r->cpu);
    return 0;
}

const sql_table sql_table_sched_slice = {
    .name = "sched_slice",
    .columns = "id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, end_state TEXT, "
               "priority INTEGER, ucpu INTEGER",
    .n_cols = SS_COUNT,
    .col_ts = SS_TS,
    .col_name = -1,
    .col_cpu = SS_CPU,
    .col_utid = SS_UTID,
    .col_id = SS_ID,
    .col_track = -1,
    .col_argset = -1,
    .big = true,
    .filter = sched_filter,
    .next = sched_next,
    .close = sched_close,
};

const sql_table sql_table_thread_state = {
    .name = "thread_state",
    .columns = "id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, state TEXT, "
               "io_wait INTEGER, blocked_function TEXT, waker_utid INTEGER, irq_context INTEGER, "
               "ucpu INTEGER",
    .n_cols = TS_COUNT,
    .col_ts = TS_TS,
    .col_name = -1,
    .col_cpu = TS_CPU,
    .col_utid = TS_UTID,
    .col_id = TS_ID,
    .col_track = -1,
    .col_argset = -1,
    .big = true,
    .filter = sched_filter,
    .next = sched_next,
    .close = sched_close,
};
