/* trace_arg_sets.c - the arg sets a trace holds of itself, apart from its events' and its
 * tracks' (Perfetto's content analysis: one set per distinct category and name of the
 * trace's TrackEvents, which trace_processor lists in its args table).
 *
 * A trace attribute like its CPUs: the reader adds them at open, the SQL layer's args table
 * lists them after the events' and the tracks' sets. */
#include "core/format_api.h"

#include "core/grow.h"

int tg_trace_add_arg_set(tg_trace *t, const tg_value *args, size_t n)
{
    if (tg_grow(&t->arg_sets, &t->cap_arg_sets, t->n_arg_sets + 1, sizeof *t->arg_sets) < 0)
        return TG_ERR_NOMEM;
    t->arg_sets[t->n_arg_sets++] = (tg_arg_set){.args = args, .n_args = n};
    return 0;
}

size_t tg_trace_arg_set_count(const tg_trace *t) { return t->n_arg_sets; }

const tg_arg_set *tg_trace_arg_set(const tg_trace *t, size_t i)
{
    return i < t->n_arg_sets ? &t->arg_sets[i] : NULL;
}
