/* call_args.h - a function call's arguments and return value as the viewers show them.
 *
 * `uftrace dump --chrome` writes what `uftrace record -a` captured as args.arguments
 * ("(4, 0x7ffe64d835e8)") on a call's begin and args.retval ("20") on its end: the text
 * uftrace replay prints, which the uftrace reader renders (tg_event_render).  Other tracers
 * record arguments as a payload field named "args" (XRay's arg1 records): their values, in
 * the same "(a, b)" form.  The Chrome writer puts the strings in args, the Perfetto writer
 * in debug annotations, so both carry everything the tracer recorded.  Records without a
 * payload cost one comparison. */
#ifndef TG_CALL_ARGS_H
#define TG_CALL_ARGS_H

#include "traceglot.h"
#include "core/event_model.h"

#include <stdbool.h>

typedef struct tg_call_args {
    const tg_trace *trace; /* the trace `rendered` was found for */
    bool rendered;         /* its function records render as their arguments (uftrace) */
    uint8_t *has_field;    /* by class number: 0 unknown, 1 an "args" field, 2 none */
    size_t has_field_cap;
} tg_call_args;

/* The entry event that opened frame when ev is it (the event the walk is feeding) and it
 * has a payload (arguments), else NULL: frames a tracer's rules imply (linux:schedule) have
 * no entry of their own.  In line: most records have no payload. */
static inline const tg_event *tg_call_args_entry_of(const tg_event *ev, const tg_call *frame)
{
    if (!ev || !ev->size || ev->addr != frame->addr || !ev->cls ||
        ev->cls->kind != TG_KIND_FUNC_ENTRY)
        return NULL;
    return ev;
}

/* Appends ev's arguments as "(a, b)" to out (an in-memory buffer): 1 written, 0 none,
 * TG_ERR_NOMEM. */
int tg_call_args_entry(tg_call_args *ca, const tg_event *ev, tg_buf *out);
/* Appends the return value the exit ev recorded for call: 1 written, 0 none. */
int tg_call_args_retval(tg_call_args *ca, const tg_event *ev, const tg_call *call, tg_buf *out);
void tg_call_args_free(tg_call_args *ca);

#endif
