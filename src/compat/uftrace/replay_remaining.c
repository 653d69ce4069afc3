/* replay_remaining.c - the end of uftrace replay's output: the functions still open when
 * the data ends ("uftrace stopped tracing with remaining functions"), thread by thread in
 * the order of the trace's task list, each thread's stack from the top.
 *
 * Apart from replay.c, whose per-record loop it does not share: it runs once, at the end. */
#include "compat/uftrace/replay_remaining.h"

#include <stdlib.h>
#include <string.h>

/* uftrace does not list a task ended in the kernel's exit (sys_exit*, do_syscall_64): with
 * kernel data, no user function left and such a function at the bottom of its stack. */
static bool ended_in_sys_exit(uf_state *st, uf_task *t)
{
    const uf_frame *f = uf_frame_at(st, t, 0);
    if (!f)
        return true;
    if (!st->has_kernel || t->user_stack_count != 0 || !f->name)
        return false;
    return strstr(f->name, "sys_exit") || strcmp(f->name, "do_syscall_64") == 0;
}

void uf_replay_remaining(uf_state *st, tg_set *set, tg_buf *out)
{
    /* uftrace walks its threads in the order of the trace's task list (our stream order) */
    size_t n = st->count;
    uf_task **list = malloc((n ? n : 1) * sizeof *list);
    if (!list)
        return;
    size_t k = 0;
    for (size_t ti = 0; ti < tg_set_trace_count(set); ti++) {
        tg_trace *tr = tg_set_trace(set, ti);
        for (size_t si = 0; si < tg_trace_stream_count(tr); si++) {
            int tid = tg_stream_tid(tg_trace_stream(tr, si));
            if (tid < 0)
                continue;
            for (size_t j = 0; j < n; j++)
                if (st->order[j]->tid == tid && k < n) {
                    bool dup = false;
                    for (size_t q = 0; q < k; q++)
                        dup |= list[q] == st->order[j];
                    if (!dup)
                        list[k++] = st->order[j];
                }
        }
    }
    for (size_t j = 0; j < n; j++) {
        bool dup = false;
        for (size_t q = 0; q < k; q++)
            dup |= list[q] == st->order[j];
        if (!dup && k < n)
            list[k++] = st->order[j];
    }
    int total = 0;
    for (size_t i = 0; i < k; i++) {
        uf_task *t = list[i];
        int zero = 0;
        if (ended_in_sys_exit(st, t))
            continue;
        for (int j = 0; j < t->stack_count; j++) {
            uf_frame *f = uf_frame_at(st, t, j);
            if (f && f->addr != 0)
                break;
            zero++;
        }
        total += t->stack_count - zero;
    }
    if (total > 0) {
        tg_buf_puts(out, "\nuftrace stopped tracing with remaining functions");
        tg_buf_puts(out, "\n================================================\n");
        for (size_t i = 0; i < k; i++) {
            uf_task *t = list[i];
            if (t->stack_count <= 0)
                continue;
            int zero = 0;
            for (int j = 0; j < t->stack_count; j++) {
                uf_frame *f = uf_frame_at(st, t, j);
                if (f && f->addr != 0)
                    break;
                zero++;
            }
            if (zero == t->stack_count || ended_in_sys_exit(st, t))
                continue;
            tg_buf_printf(out, "task: %d\n", t->tid);
            while (t->stack_count-- > 0) {
                uf_frame *f = uf_frame_at(st, t, t->stack_count);
                if (!f)
                    continue;
                tg_buf_printf(out, "[%d] ", t->stack_count - zero);
                uf_put_name(out, f->name, f->addr);
                tg_buf_putc(out, '\n');
                if (t->stack_count == zero)
                    break;
            }
            tg_buf_putc(out, '\n');
        }
    }
    free(list);
}
