/* perfetto_tasks.c - the kernel model's threads and processes as ProcessTree packets (see
 * perfetto_tasks.h). */
#include "writers/viewers/perfetto_tasks.h"

#include <stdlib.h>
#include <string.h>

/* What was said of a thread (name, process) or a process (cmdline, parent). */
struct pf_said {
    const char *name; /* the model's interned text: a pointer compare sees a change */
    int64_t upid;     /* a thread's process, a process's parent */
    bool said;
};

/* What one ProcessTree holds while it is built. */
struct tree {
    Perfetto__Protos__ProcessTree msg;
    Perfetto__Protos__ProcessTree__Thread *th, **tp;
    Perfetto__Protos__ProcessTree__Process *pr, **pp;
    char **cmd;
};

static int tree_init(struct tree *t, size_t n_threads, size_t n_procs)
{
    *t = (struct tree){.msg = PERFETTO__PROTOS__PROCESS_TREE__INIT};
    t->th = calloc(n_threads + 1, sizeof *t->th);
    t->tp = calloc(n_threads + 1, sizeof *t->tp);
    t->pr = calloc(n_procs + 1, sizeof *t->pr);
    t->pp = calloc(n_procs + 1, sizeof *t->pp);
    t->cmd = calloc(n_procs + 1, sizeof *t->cmd);
    t->msg.threads = t->tp;
    t->msg.processes = t->pp;
    return t->th && t->tp && t->pr && t->pp && t->cmd ? 0 : TG_ERR_NOMEM;
}

static void tree_free(struct tree *t)
{
    free(t->th);
    free(t->tp);
    free(t->pr);
    free(t->pp);
    free(t->cmd);
}

static int tree_put(struct tree *t, tg_pf_packets *pk, int64_t ns)
{
    if (!t->msg.n_threads && !t->msg.n_processes)
        return 0;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    pkt.has_timestamp = 1;
    pkt.timestamp = ns < 0 ? 0 : (uint64_t)ns;
    pkt.process_tree = &t->msg;
    return tg_pf_packet_put(pk, &pkt);
}

/* Makes room for what the model holds now; 0 or TG_ERR_NOMEM. */
static int grow_said(tg_pf_tasks *ts)
{
    size_t nt = tg_kmodel_thread_count(ts->model), np = tg_kmodel_process_count(ts->model);
    size_t old_t = ts->threads_cap, old_p = ts->procs_cap;
    if (tg_grow(&ts->threads, &ts->threads_cap, nt + 1, sizeof *ts->threads) < 0 ||
        tg_grow(&ts->procs, &ts->procs_cap, np + 1, sizeof *ts->procs) < 0)
        return TG_ERR_NOMEM;
    memset(ts->threads + old_t, 0, (ts->threads_cap - old_t) * sizeof *ts->threads);
    memset(ts->procs + old_p, 0, (ts->procs_cap - old_p) * sizeof *ts->procs);
    return 0;
}

/* Adds thread utid to the tree when it is to be said (new, or changed when only_changed):
 * the thread of its tid now, of a known process, not the idle task. */
static void add_thread(tg_pf_tasks *ts, struct tree *t, int64_t utid)
{
    const tg_kthread *th = tg_kmodel_thread(ts->model, utid);
    if (!th || th->tid <= 0 || th->upid < 0 || tg_kmodel_utid_of_tid(ts->model, th->tid) != utid)
        return;
    const tg_kprocess *p = tg_kmodel_process(ts->model, th->upid);
    pf_said *s = &ts->threads[utid];
    if (!p || p->pid < 0 || (s->said && s->name == th->name && s->upid == th->upid))
        return;
    *s = (pf_said){th->name, th->upid, true};
    Perfetto__Protos__ProcessTree__Thread *m = &t->th[t->msg.n_threads];
    *m = (Perfetto__Protos__ProcessTree__Thread)PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;
    m->has_tid = m->has_tgid = 1;
    m->tid = (int32_t)th->tid;
    m->tgid = (int32_t)p->pid;
    m->name = (char *)th->name;
    t->tp[t->msg.n_threads++] = m;
}

static void add_process(tg_pf_tasks *ts, struct tree *t, int64_t upid)
{
    const tg_kprocess *p = tg_kmodel_process(ts->model, upid);
    if (!p || p->pid <= 0 || tg_kmodel_upid_of_pid(ts->model, p->pid) != upid)
        return;
    const char *cmdline = p->cmdline ? p->cmdline : p->name;
    pf_said *s = &ts->procs[upid];
    if (s->said && s->name == cmdline && s->upid == p->parent_upid)
        return;
    *s = (pf_said){cmdline, p->parent_upid, true};
    const tg_kprocess *parent =
        p->parent_upid >= 0 ? tg_kmodel_process(ts->model, p->parent_upid) : NULL;
    size_t k = t->msg.n_processes;
    Perfetto__Protos__ProcessTree__Process *m = &t->pr[k];
    *m = (Perfetto__Protos__ProcessTree__Process)PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
    m->has_pid = 1;
    m->pid = (int32_t)p->pid;
    m->has_ppid = parent && parent->pid >= 0;
    m->ppid = parent ? (int32_t)parent->pid : 0;
    if (cmdline) {
        t->cmd[k] = (char *)cmdline;
        m->n_cmdline = 1;
        m->cmdline = &t->cmd[k];
    }
    t->pp[t->msg.n_processes++] = m;
}

/* Says the threads from utid first_t on and the processes from upid first_p on. */
static int say(tg_pf_tasks *ts, tg_pf_packets *pk, int64_t ns, size_t first_t, size_t first_p)
{
    size_t nt = tg_kmodel_thread_count(ts->model), np = tg_kmodel_process_count(ts->model);
    struct tree t;
    int rc = grow_said(ts);
    if (rc == 0 && (rc = tree_init(&t, nt - first_t, np - first_p)) == 0) {
        for (size_t u = first_p; u < np; u++)
            add_process(ts, &t, (int64_t)u);
        for (size_t u = first_t; u < nt; u++)
            add_thread(ts, &t, (int64_t)u);
        rc = tree_put(&t, pk, ns);
    }
    tree_free(&t);
    ts->n_threads = nt;
    ts->n_procs = np;
    return rc;
}

int tg_pf_tasks_update(tg_pf_tasks *ts, tg_pf_packets *pk, int64_t ns)
{
    if (!ts->model || (tg_kmodel_thread_count(ts->model) == ts->n_threads &&
                       tg_kmodel_process_count(ts->model) == ts->n_procs))
        return 0;
    return say(ts, pk, ns, ts->n_threads, ts->n_procs);
}

int tg_pf_tasks_finish(tg_pf_tasks *ts, tg_pf_packets *pk, int64_t ns)
{
    return ts->model ? say(ts, pk, ns, 0, 0) : 0;
}

void tg_pf_tasks_part_started(tg_pf_tasks *ts)
{
    ts->n_threads = ts->n_procs = 0;
    if (ts->threads)
        memset(ts->threads, 0, ts->threads_cap * sizeof *ts->threads);
    if (ts->procs)
        memset(ts->procs, 0, ts->procs_cap * sizeof *ts->procs);
}

void tg_pf_tasks_free(tg_pf_tasks *ts)
{
    free(ts->threads);
    free(ts->procs);
    *ts = (tg_pf_tasks){0};
}
