/* perfetto_read_generic.c - Perfetto's generic kernel events: what a kernel without ftrace
 * says of its tasks (GenericKernelTaskStateEvent, GenericKernelTaskRenameEvent,
 * GenericKernelProcessTree).
 *
 * A task state event and a rename become records (their message's bytes, decoded when asked
 * like an ftrace event's), named as the packet's fields are, so the kernel model reads them
 * by those names: a task's state, its thread made or ended by it.  A process tree lists its
 * processes (without a thread of their pid: Perfetto's generic tree names the threads apart)
 * and its threads, with the main-thread and idle flags it gives.
 *
 * trace_processor drops the task state events that come in an impossible order and counts
 * them (generic_task_state_invalid_order): a CREATED for a thread that exists, any state but
 * DESTROYED after DEAD, RUNNING after RUNNING.  Whether a thread exists and what its last
 * state was is what the events say in time order, so the check runs once the records are
 * sorted (pf_check_task_states), and the rejected events are removed: the model never sees
 * them.  A thread's last state is unknown again when another task starts running on the CPU
 * it was running on (trace_processor gives it a state of no name there). */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum {
    PF_PACKET_TASK_STATE = 117, /* TracePacket's fields */
    PF_PACKET_TASK_RENAME = 120
};

static int generic_record(tg_trace *t, const ProtobufCMessageDescriptor *d, const char *name,
                          const uint8_t *data, size_t size, uint32_t field, int64_t ts,
                          uint64_t offset)
{
    size_t len = 0;
    const uint8_t *bytes = pf_sub_bytes(data, size, field, &len);
    if (!bytes)
        return 0;
    const tg_event_class *cls = pf_class_of_system(t, d, name, "generic_kernel");
    pf_record *r = cls ? pf_add_record(t->priv) : NULL;
    if (!r)
        return TG_ERR_NOMEM;
    r->ts = ts;
    r->cls = cls;
    r->data = bytes;
    r->size = len;
    r->offset = offset;
    return 0;
}

int pf_read_generic_event(tg_trace *t, const PerfettoRead__TracePacket *pk, const uint8_t *data,
                          size_t size, int64_t ts, uint64_t offset)
{
    if (pk->data_case == PERFETTO_READ__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT) {
        int rc = tg_trace_count(t, "generic_task_state_invalid_order", "error", 0);
        if (rc < 0)
            return rc;
        tg_trace_count_describe(t, "generic_task_state_invalid_order", "analysis",
                                "Invalid order of generic task state events. Should never "
                                "happen.");
        return generic_record(t, &perfetto_read__generic_kernel_task_state_event__descriptor,
                              "generic_kernel_task_state_event", data, size, PF_PACKET_TASK_STATE,
                              ts, offset);
    }
    return generic_record(t, &perfetto_read__generic_kernel_task_rename_event__descriptor,
                          "generic_kernel_task_rename_event", data, size, PF_PACKET_TASK_RENAME, ts,
                          offset);
}

int pf_read_generic_process_tree(tg_trace *t, const PerfettoRead__GenericKernelProcessTree *tree)
{
    for (size_t i = 0; i < tree->n_processes; i++) {
        const PerfettoRead__GenericKernelProcessTree__Process *pr = tree->processes[i];
        if (!pr->cmdline)
            continue; /* trace_processor takes a process by its command line */
        /* its name is the command line up to its first space */
        const char *space = strchr(pr->cmdline, ' ');
        const char *name = tg_arena_strndup(
            &t->arena, pr->cmdline, space ? (size_t)(space - pr->cmdline) : strlen(pr->cmdline));
        const char *cmdline = tg_arena_strdup(&t->arena, pr->cmdline);
        tg_task_info k = {.tid = -1,
                          .pid = pr->pid,
                          .ppid = pr->ppid, /* 0 when absent, as trace_processor reads it */
                          .process_name = name,
                          .cmdline = cmdline,
                          .process_only = true};
        if (!name || !cmdline || tg_trace_add_task(t, &k) < 0)
            return TG_ERR_NOMEM;
    }
    for (size_t i = 0; i < tree->n_threads; i++) {
        const PerfettoRead__GenericKernelProcessTree__Thread *th = tree->threads[i];
        tg_task_info k = {.tid = th->tid,
                          .pid = th->pid,
                          .ppid = -1,
                          .name = th->comm && th->comm[0] ? th->comm : NULL,
                          .main_thread = th->is_main_thread ? 1 : -1,
                          .idle = th->is_idle};
        if (tg_trace_add_task(t, &k) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* ---- the order check -------------------------------------------------------------------------- */

/* The task states (GenericKernelTaskStateEvent's numbers). */
enum {
    TS_UNKNOWN =
        PERFETTO_READ__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_UNKNOWN,
    TS_CREATED =
        PERFETTO_READ__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_CREATED,
    TS_RUNNING =
        PERFETTO_READ__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_RUNNING,
    TS_DEAD = PERFETTO_READ__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_DEAD,
    TS_DESTROYED =
        PERFETTO_READ__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_DESTROYED,
    TS_GONE = 0x100 /* what the check knows of a tid: destroyed (else its last state, 0 none) */
};

enum verdict { ACCEPT, BAD_ORDER, BAD_STATE };

static enum verdict judge(const tg_hash *tasks, int64_t tid, int state)
{
    if (state <= TS_UNKNOWN || state > TS_DESTROYED)
        return BAD_STATE;
    const uint64_t *known = tg_hash_find(tasks, (uint64_t)tid);
    bool exists = known && !(*known & TS_GONE);
    int last = exists ? (int)*known : 0;
    if (state == TS_CREATED)
        return exists ? BAD_ORDER : ACCEPT;
    if (state == TS_DESTROYED)
        return ACCEPT;
    return last == TS_DEAD || (state == TS_RUNNING && last == TS_RUNNING) ? BAD_ORDER : ACCEPT;
}

/* What an accepted event does to what the check knows: the task's state, and the CPU's
 * running task (a RUNNING one takes the CPU and leaves the task it took it from with no
 * known state; another state of the running task frees the CPU). */
static int apply(tg_hash *tasks, tg_hash *running, int64_t tid, int state, int64_t cpu)
{
    uint64_t *slot, *on;
    int rc = tg_hash_insert(running, (uint64_t)cpu, &on);
    if (rc < 0)
        return rc;
    if (rc > 0)
        *on = 0; /* none: tids are kept plus one */
    if (state == TS_RUNNING) {
        uint64_t *prev = *on ? tg_hash_find(tasks, *on - 1) : NULL;
        if (prev && !(*prev & TS_GONE))
            *prev = 0;
        *on = (uint64_t)tid + 1;
    } else if (*on == (uint64_t)tid + 1) {
        *on = 0;
    }
    if (tg_hash_insert(tasks, (uint64_t)tid, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = tid == 0                ? 0 /* the idle task has no states */
            : state == TS_DESTROYED ? TS_GONE
                                    : (uint64_t)state;
    return 0;
}

int pf_check_task_states(tg_trace *t)
{
    pf_trace *p = t->priv;
    tg_hash tasks = {0}, running = {0};
    int rc = 0;
    int64_t bad_order = 0, bad_state = 0;
    bool any = false;
    /* the threads the trace lists exist from the start */
    for (size_t i = 0; rc == 0 && i < t->n_tasks; i++) {
        uint64_t *slot;
        if (t->tasks[i].tid >= 0 && !t->tasks[i].process_only &&
            (rc = tg_hash_insert(&tasks, (uint64_t)t->tasks[i].tid, &slot)) >= 0) {
            if (rc > 0)
                *slot = 0;
            rc = 0;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < p->n_recs; i++) {
        pf_record *r = &p->recs[i];
        if (rc == 0 && r->cls &&
            r->cls->fmt_data == &perfetto_read__generic_kernel_task_state_event__descriptor) {
            any = true;
            PerfettoRead__GenericKernelTaskStateEvent *e =
                perfetto_read__generic_kernel_task_state_event__unpack(NULL, r->size, r->data);
            enum verdict v = e ? judge(&tasks, e->tid, (int)e->state) : BAD_STATE;
            if (v == ACCEPT)
                rc = apply(&tasks, &running, e->tid, (int)e->state, e->cpu);
            if (e)
                perfetto_read__generic_kernel_task_state_event__free_unpacked(e, NULL);
            bad_order += v == BAD_ORDER;
            bad_state += v == BAD_STATE;
            if (v != ACCEPT)
                continue;
        }
        p->recs[kept++] = *r;
    }
    p->n_recs = kept;
    tg_hash_free(&tasks);
    tg_hash_free(&running);
    if (rc == 0 && any)
        rc = tg_trace_count(t, "generic_task_state_invalid_order", "error", bad_order);
    if (rc == 0 && any)
        rc = tg_trace_count(t, "task_state_invalid", "error", bad_state);
    return rc < 0 ? TG_ERR_NOMEM : 0;
}
