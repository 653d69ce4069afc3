/* trace_stats.c - what a reader counted while reading a trace, under trace_processor's stat
 * names (json_tokenizer_failure, track_event_invalid_timestamp, ...).
 *
 * Readers of traces written for trace_processor (Perfetto protobuf, Chrome JSON) count what
 * they could not use as trace_processor counts it, so a query of its `stats` table carries
 * over.  A reader declares each counter it keeps at open (a count of 0 is an answer: "none
 * met"), then adds to it.  Names are the reader's static strings; the list stays a handful
 * long, so it is a list in the trace's arena searched from the top. */
#include "core/format_api.h"

#include <string.h>

struct tg_trace_stat_entry {
    struct tg_trace_stat_entry *next;
    tg_trace_stat stat;
};

/* The counter (name, idx), made (0) when new; NULL when out of memory. */
static tg_trace_stat *stat_of(tg_trace *t, const char *name, const char *severity, int64_t idx)
{
    struct tg_trace_stat_entry **at = &t->stats;
    for (; *at; at = &(*at)->next)
        if ((*at)->stat.idx == idx && strcmp((*at)->stat.name, name) == 0)
            return &(*at)->stat;
    struct tg_trace_stat_entry *e = tg_arena_alloc(&t->arena, sizeof *e);
    if (!e)
        return NULL;
    *e = (struct tg_trace_stat_entry){.stat = {.name = name, .severity = severity, .idx = idx}};
    *at = e;
    t->n_stats++;
    return &e->stat;
}

int tg_trace_count(tg_trace *t, const char *name, const char *severity, int64_t add)
{
    tg_trace_stat *st = stat_of(t, name, severity, -1);
    if (!st)
        return TG_ERR_NOMEM;
    st->value += add;
    return 0;
}

int tg_trace_set_stat(tg_trace *t, const char *name, const char *severity, int64_t idx,
                      int64_t value)
{
    tg_trace_stat *st = stat_of(t, name, severity, idx < 0 ? -1 : idx);
    if (!st)
        return TG_ERR_NOMEM;
    st->value = value;
    return 0;
}

void tg_trace_count_describe(tg_trace *t, const char *name, const char *source,
                             const char *description)
{
    for (struct tg_trace_stat_entry *e = t->stats; e; e = e->next)
        if (strcmp(e->stat.name, name) == 0) {
            e->stat.source = source;
            e->stat.description = description;
        }
}

size_t tg_trace_stat_count(const tg_trace *t) { return t->n_stats; }

const tg_trace_stat *tg_trace_stat_at(const tg_trace *t, size_t i)
{
    const struct tg_trace_stat_entry *e = t->stats;
    while (e && i--)
        e = e->next;
    return e ? &e->stat : NULL;
}
