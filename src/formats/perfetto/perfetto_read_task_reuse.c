/* perfetto_read_task_reuse.c - which thread or process a track descriptor names, when its tid
 * or pid was named before: a reused tid or pid is a new thread or process (a listed task of
 * its own, tg_task_info.new_thread / new_process), as trace_processor resolves descriptors.
 *
 * trace_processor gives each thread one descriptor track: a thread descriptor of a tid whose
 * thread belongs to another pid, or whose thread another descriptor already named, starts a
 * new thread; a process descriptor of a pid another descriptor already named starts a new
 * process.  The events on a track are its thread's (tg_stream_ops.task), whatever the time,
 * so the reader decides here, in the order the descriptors come, and the model makes the
 * threads from the listed tasks. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <string.h>

/* The last task listed with tid, -1 none. */
static int64_t last_task_of(const tg_trace *t, int64_t tid)
{
    for (size_t i = t->n_tasks; i-- > 0;)
        if (t->tasks[i].tid == tid && !t->tasks[i].process_only)
            return (int64_t)i;
    return -1;
}

/* Room for task i's claims (which descriptor named it as a thread, as a process). */
static struct pf_task_claim *claim_of(pf_trace *p, size_t i)
{
    if (i >= p->n_claims) {
        if (tg_grow(&p->claims, &p->cap_claims, i + 1, sizeof *p->claims) < 0)
            return NULL;
        memset(&p->claims[p->n_claims], 0, (i + 1 - p->n_claims) * sizeof *p->claims);
        p->n_claims = i + 1;
    }
    return &p->claims[i];
}

/* A new listed task (tid, pid, name) after an earlier of the same tid: its index. */
static int64_t add_reused(tg_trace *t, int64_t tid, int64_t pid, const char *name, bool process)
{
    tg_task_info k = {.tid = tid,
                      .pid = pid,
                      .ppid = -1,
                      .name = name && *name ? name : NULL,
                      .new_thread = true,
                      .new_process = process};
    return tg_trace_add_task(t, &k) < 0 ? TG_ERR_NOMEM : (int64_t)t->n_tasks - 1;
}

int pf_descriptor_thread(tg_trace *t, pf_track *k, int64_t tid, int64_t pid, const char *name)
{
    pf_trace *p = t->priv;
    uint32_t self = (uint32_t)(k - p->tracks) + 1;
    if (k->task >= 0) { /* the same descriptor again: what it says fills its thread */
        tg_task_info *task = &t->tasks[k->task];
        if (name && *name && !(task->name = tg_arena_strdup(&t->arena, name)))
            return TG_ERR_NOMEM;
        return 0;
    }
    int64_t at = last_task_of(t, tid);
    struct pf_task_claim *claim = at >= 0 ? claim_of(p, (size_t)at) : NULL;
    if (at >= 0 && !claim)
        return TG_ERR_NOMEM;
    bool other_process = at >= 0 && pid >= 0 && t->tasks[at].pid >= 0 && t->tasks[at].pid != pid;
    if (at >= 0 && (other_process || (claim->thread && claim->thread != self))) {
        at = add_reused(t, tid, pid, name, false);
    } else {
        if (pf_add_task(t, tid, pid, name) < 0)
            return TG_ERR_NOMEM;
        at = last_task_of(t, tid);
    }
    if (at < 0 || !(claim = claim_of(p, (size_t)at)))
        return TG_ERR_NOMEM;
    claim->thread = self;
    k->task = (int32_t)at;
    /* the process it names comes with its main thread, as trace_processor makes a process */
    if (pid >= 0 && pid != tid && last_task_of(t, pid) < 0 && pf_add_task(t, pid, pid, NULL) < 0)
        return TG_ERR_NOMEM;
    return 0;
}

int pf_descriptor_process(tg_trace *t, pf_track *k, int64_t pid, const char *name)
{
    pf_trace *p = t->priv;
    uint32_t self = (uint32_t)(k - p->tracks) + 1;
    if (k->task >= 0) { /* the same descriptor again */
        tg_task_info *task = &t->tasks[k->task];
        if (name && *name && !(task->name = tg_arena_strdup(&t->arena, name)))
            return TG_ERR_NOMEM;
        return 0;
    }
    int64_t at = last_task_of(t, pid);
    struct pf_task_claim *claim = at >= 0 ? claim_of(p, (size_t)at) : NULL;
    if (at >= 0 && !claim)
        return TG_ERR_NOMEM;
    if (at >= 0 && claim->process && claim->process != self) {
        at = add_reused(t, pid, pid, name, true);
    } else {
        if (pf_add_task(t, pid, pid, name) < 0)
            return TG_ERR_NOMEM;
        at = last_task_of(t, pid);
    }
    if (at < 0 || !(claim = claim_of(p, (size_t)at)))
        return TG_ERR_NOMEM;
    claim->process = self;
    k->task = (int32_t)at;
    return 0;
}
