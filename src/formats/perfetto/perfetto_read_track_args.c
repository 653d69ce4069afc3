/* perfetto_read_track_args.c - what a TrackDescriptor says of its track itself, kept as the
 * track's source args (Perfetto's track.source_arg_set_id): its description, how a viewer
 * orders its children ("lexicographic", "chronological", "explicit") and its rank among its
 * siblings.  trace_processor keeps the last descriptor's word for each, and leaves out what
 * no descriptor said. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <string.h>

int pf_track_source_fields(tg_trace *t, pf_track *k, const PerfettoRead__TrackDescriptor *d)
{
    if (d->description && !(k->description = tg_arena_strdup(&t->arena, d->description)))
        return TG_ERR_NOMEM;
    if (d->has_child_ordering)
        k->child_ordering = (int)d->child_ordering;
    if (d->has_sibling_order_rank) {
        k->has_rank = true;
        k->rank = d->sibling_order_rank;
    }
    return 0;
}

static const char *ordering_name(int ordering)
{
    switch (ordering) {
    case PERFETTO_READ__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__LEXICOGRAPHIC:
        return "lexicographic";
    case PERFETTO_READ__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__CHRONOLOGICAL:
        return "chronological";
    case PERFETTO_READ__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT: return "explicit";
    default: return NULL;
    }
}

int pf_track_source_args(tg_trace *t, const pf_track *k, tg_track_decl *d)
{
    if (d->source_args)
        return 0; /* a counter's, of its data source */
    const char *ordering = ordering_name(k->child_ordering);
    size_t n = (k->description != NULL) + (ordering != NULL) + k->has_rank;
    if (!n)
        return 0;
    tg_value *args = tg_arena_alloc(&t->arena, n * sizeof *args);
    if (!args)
        return TG_ERR_NOMEM;
    size_t at = 0;
    if (k->description)
        args[at++] = pf_value_string("description", k->description);
    if (ordering)
        args[at++] = pf_value_string("child_ordering", ordering);
    if (k->has_rank) {
        tg_value *v = &args[at++];
        memset(v, 0, sizeof *v);
        v->name = "sibling_order_rank";
        v->type = TG_VAL_SINT;
        v->v.s = k->rank;
        v->bits = 32;
        v->base = 10;
    }
    d->source_args = args;
    d->n_source_args = at;
    return 0;
}
