/* uftrace_hold.c - a thread's records held until its calls' start times are known, for the
 * uftrace writer (uftrace_write.c).
 *
 * uftrace times a call from its entry record to its exit record.  function_graph's records
 * are written after the times the kernel took (calltime at the entry, rettime at the
 * return), and only the exit holds both (tg_event_call_times): written at the records'
 * times, every call would last longer than trace-cmd prints.  So from an entry on, a
 * thread's records (the calls inside it too, so that the file stays in time order) are held
 * in memory; an exit that ends the innermost held entry gives that entry its calltime, and
 * the exit is written at its rettime; when no held entry waits any more, the records go to
 * the file.  A thread whose recording begins inside calls (its first record declares a depth
 * below which it has no entries) gets an implied entry per such call, held first: the exit
 * of the call names it and gives its calltime, and one that no exit names is dropped.  An
 * exit that ends no held entry, or more than UW_HOLD_MAX bytes held (a call that lasts most
 * of the trace), lets the records go as they are (entries at their record times): memory
 * stays bounded by threads x UW_HOLD_MAX. */
#include "writers/uftrace/uftrace_writer.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <string.h>

#define UW_HOLD_MAX (8u << 20)

static uint64_t word_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_word(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void uw_hold_release(uw_thread *t)
{
    size_t from = 0;
    for (size_t i = 0; i < t->n_implied; i++) {
        size_t at = UW_RECORD * i; /* an implied entry no exit named: no call */
        if (word_at(t->held + at + 8) >> 16)
            continue;
        tg_buf_put(t->out, t->held + from, at - from);
        from = at + UW_RECORD;
        t->n_records--;
    }
    if (t->n_held > from)
        tg_buf_put(t->out, t->held + from, t->n_held - from);
    t->n_held = 0;
    t->n_waiting = 0;
    t->n_implied = 0;
}

int uw_hold_put(uw_thread *t, const void *p, size_t n)
{
    if (!t->n_waiting && !t->n_held) {
        tg_buf_put(t->out, p, n);
        return 0;
    }
    if (t->n_held + n > UW_HOLD_MAX) {
        uw_hold_release(t);
        tg_buf_put(t->out, p, n);
        return 0;
    }
    TG_TRY(tg_grow(&t->held, &t->cap_held, t->n_held + n, 1));
    memcpy(t->held + t->n_held, p, n);
    t->n_held += n;
    return 0;
}

int uw_hold_entry(uw_thread *t)
{
    TG_TRY(tg_grow(&t->waiting, &t->cap_waiting, t->n_waiting + 1, sizeof *t->waiting));
    t->waiting[t->n_waiting++] = t->n_held;
    return 0;
}

bool uw_hold_exit(uw_thread *t, uint64_t word1, int64_t call_ns)
{
    if (!t->n_waiting)
        return false;
    uint8_t *entry = t->held + t->waiting[t->n_waiting - 1];
    /* the same function at the same depth: type bits apart (an entry, maybe with arguments);
     * or an implied entry (no address) at that depth, which the exit names */
    uint64_t mask = ~(uint64_t)0x3f, held = word_at(entry + 8);
    bool implied = (held >> 16) == 0 && ((held ^ word1) & 0xffc0) == 0;
    if ((held & mask) != (word1 & mask) && !implied) {
        uw_hold_release(t);
        return false;
    }
    if (implied)
        put_word(entry + 8, (word1 & ~(uint64_t)7) | (held & 7)); /* an entry of its function */
    put_word(entry, (uint64_t)call_ns);
    t->n_waiting--;
    return true;
}

void uw_hold_done(uw_thread *t)
{
    if (!t->n_waiting)
        uw_hold_release(t);
}
