/* xray_account_skip.c - the records `llvm-xray account` cannot account, and what it says of
 * each: an exit that does not match the top of its thread's stack (nor, with
 * -deduce-sibling-calls, any frame below it), an exit on an empty stack, and a record timed
 * before the first one.  llvm-xray prints on stderr the record and every thread's stack (its
 * hash map's order):
 *
 *   Error processing record: {type: 0; cpu: 0; record-type: exit; function-id: 1; tsc: ...}}
 *   Thread ID: 1843
 *     (empty stack)
 *
 * then, with -keep-going, skips it and goes on (the same lines here, in the set's notes:
 * tg_set_notes); without it, stops with "Failed accounting function calls in file" and
 * prints no rows (the same here, as the error's text: exit 1). */
#include "analysis/callstack.h"
#include "common/llvm/llvm_order.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xray_account.h"

static int is_xray_event(const tg_event *ev)
{
    const char *f = tg_trace_format(tg_event_trace(ev));
    return f && strcmp(f, "xray") == 0;
}

static const char *record_kind(const tg_event *ev)
{
    static const char *const kinds[] = {"enter",     "exit",         "tail-exit",
                                        "enter-arg", "custom-event", "typed-event"};
    uint64_t k = tg_event_class_id(tg_event_class_of(ev));
    if (!is_xray_event(ev))
        k = ev->cls && ev->cls->kind == TG_KIND_FUNC_EXIT ? 1 : 0;
    return k < 6 ? kinds[k] : "enter";
}

/* llvm-xray's FuncIdConversionHelper name of function id addr, from the trace of ev. */
static const char *name_of_id(const tg_event *ev, uint64_t addr, char *buf, size_t size)
{
    tg_event other = *ev; /* the reader names a function from its event's trace and id */
    other.addr = addr;
    const char *nm = tg_event_func_name(&other);
    if (nm && *nm)
        return nm;
    snprintf(buf, size, "#%d", (int32_t)addr);
    return buf;
}

/* The record and every thread's stack, as llvm-xray prints them, appended to m. */
static int put_record_and_stacks(const acct *a, const tg_event *ev, uint64_t tsc, tg_buf *m)
{
    tg_value v;
    uint64_t type =
        is_xray_event(ev) && tg_event_field(ev, TG_SCOPE_PAYLOAD, 1, &v) == 0 ? v.v.u & 0xffff : 0;
    char tmp[256];
    snprintf(tmp, sizeof tmp,
             "Error processing record: {type: %llu; cpu: %u; record-type: %s; function-id: %d; "
             "tsc: %llu; thread-id: %u; process-id: %u}}\n",
             (unsigned long long)type, (unsigned)(uint16_t)tg_event_cpu(ev), record_kind(ev),
             (int32_t)tg_event_func_addr(ev), (unsigned long long)tsc, (unsigned)tg_event_tid(ev),
             (unsigned)tg_event_pid(ev));
    tg_buf_puts(m, tmp);
    /* the threads in llvm's DenseMap<uint32_t> order (insertion order: the builder's) */
    size_t n = a->cs->n_threads;
    unsigned *hashes = malloc((n ? n : 1) * sizeof *hashes);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    int rc = hashes && order ? 0 : TG_ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < n; i++)
        hashes[i] = tg_llvm_hash32((uint32_t)a->cs->threads[i].tid);
    if (rc == 0 && n)
        rc = tg_llvm_densemap_order(hashes, n, order);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct tg_thread_stack *t = &a->cs->threads[order[i]];
        snprintf(tmp, sizeof tmp, "Thread ID: %u\n", (unsigned)t->tid);
        tg_buf_puts(m, tmp);
        if (!t->depth)
            tg_buf_puts(m, "  (empty stack)\n");
        for (size_t d = t->depth; d-- > 0;) {
            char nb[32];
            snprintf(tmp, sizeof tmp, "  #%zu\t", d + 1);
            tg_buf_puts(m, tmp);
            tg_buf_puts(m, name_of_id(ev, t->frames[d].addr, nb, sizeof nb));
            tg_buf_putc(m, '\n');
        }
    }
    free(hashes);
    free(order);
    return rc;
}

int xray_account_skip(acct *a, const tg_event *ev, uint64_t tsc, tg_error **err)
{
    if (a->keep_going)
        return a->notes ? put_record_and_stacks(a, ev, tsc, a->notes) : 0;
    tg_buf *m = tg_buf_new();
    if (!m)
        return TG_ERR_NOMEM;
    int rc = put_record_and_stacks(a, ev, tsc, m);
    tg_buf_puts(m, "Failed accounting function calls in file '");
    tg_buf_puts(m, tg_trace_input_path(tg_event_trace(ev)));
    tg_buf_puts(m, "'.");
    if (rc == 0)
        rc = tg_err(err, TG_ERR_FORMAT, "%s", tg_buf_data(m));
    tg_buf_free(m);
    a->stopped = true;
    return rc;
}
