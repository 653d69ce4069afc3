/* field_schema.c - the declared field types of event classes (tg_event_class_schema).
 *
 * A format that declares types (CTF's TSDL) hangs one tg_field_type tree per scope on each
 * class when it opens the trace; the trees live in the trace's arena.  Consumers that write
 * fields again in a self-describing format read them here; formats without declarations
 * leave the slots NULL and consumers use the types their values carry. */
#include "core/format_api.h"

const tg_field_type *tg_event_class_schema(const tg_event_class *c, tg_scope scope)
{
    if (!c || (unsigned)scope >= TG_SCOPE_COUNT)
        return NULL;
    return c->schema[scope];
}

const char *tg_event_class_field_name(const tg_event_class *c, tg_scope scope, size_t i)
{
    const tg_field_type *st = tg_event_class_schema(c, scope);
    if (st)
        return i < st->n_members ? st->members[i].name : NULL;
    const struct tg_format *fmt = c->trace ? c->trace->format : NULL;
    return fmt && fmt->class_field_name ? fmt->class_field_name(c, scope, i) : NULL;
}
