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

int tg_trace_count(tg_trace *t, const char *name, const char *severity, int64_t add)
{
    struct tg_trace_stat_entry **at = &t->stats;
    for (; *at; at = &(*at)->next)
        if (strcmp((*at)->stat.name, name) == 0) {
            (*at)->stat.value += add;
            return 0;
        }
    struct tg_trace_stat_entry *e = tg_arena_alloc(&t->arena, sizeof *e);
    if (!e)
        return TG_ERR_NOMEM;
    *e = (struct tg_trace_stat_entry){.stat = {.name = name, .severity = severity, .value = add}};
    *at = e;
    t->n_stats++;
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
