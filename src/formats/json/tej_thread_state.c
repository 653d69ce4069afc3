/* tej_thread_state.c - a JSON trace's thread states: what state a thread was in, and for how
 * long, as a trace of a system without a kernel tracer (or a converter) tells it.
 *
 * An event of phase T and category "thread_state" says that its thread was in the state its
 * name gives ("Running", "R", "S", "D", ... as thread_state shows them) from ts for dur; its
 * args may say the CPU it ran on ("cpu"), whether it waited for I/O ("io_wait") and the kernel
 * function it was blocked in ("blocked_function").  (Other T events are the legacy async
 * "step into" of the Trace Event Format, not read.)
 *
 * Such a state is the kernel model's told state (the one Perfetto's generic kernel task events
 * feed): the event becomes a thread_state record at ts (its state by name) and one at its end
 * whose state is empty (the state is over, no other known), so that thread_state and, for a
 * running thread on a CPU, sched_slice come from the one state machine every kernel trace
 * goes through.  Both records carry the same fields in the same order (tid, state, cpu,
 * io_wait, blocked_function; null where the event gives none), as the model places a class's
 * fields once. */
#include "formats/json/tej_internal.h"

#include <string.h>

static struct json_object *arg(struct json_object *args, const char *key)
{
    struct json_object *v = NULL;
    return args && json_object_object_get_ex(args, key, &v) ? json_object_get(v) : NULL;
}

/* The fields of one record; NULL when out of memory. */
static struct json_object *state_fields(int32_t tid, const char *state, struct json_object *args,
                                        bool ends)
{
    struct json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    struct json_object *s = json_object_new_string(state);
    if (json_object_object_add(o, "tid", json_object_new_int(tid)) < 0 || !s ||
        json_object_object_add(o, "state", s) < 0 ||
        json_object_object_add(o, "cpu", arg(args, "cpu")) < 0 ||
        json_object_object_add(o, "io_wait", ends ? NULL : arg(args, "io_wait")) < 0 ||
        json_object_object_add(o, "blocked_function", ends ? NULL : arg(args, "blocked_function")) <
            0) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

int tej_read_thread_state(tg_trace *t, struct json_object *ev, int64_t ts, int64_t dur,
                          uint64_t order, int32_t pid, int32_t tid, uint64_t offset)
{
    tej_trace *j = t->priv;
    struct json_object *cat = NULL, *name = NULL, *args = NULL;
    json_object_object_get_ex(ev, "cat", &cat);
    json_object_object_get_ex(ev, "name", &name);
    json_object_object_get_ex(ev, "args", &args);
    if (!json_object_is_type(cat, json_type_string) ||
        strcmp(json_object_get_string(cat), "thread_state") != 0 ||
        !json_object_is_type(name, json_type_string) || !*json_object_get_string(name) || dur < 0 ||
        ts > INT64_MAX - dur)
        return 0;
    if (!json_object_is_type(args, json_type_object))
        args = NULL;
    if (!j->thread_state &&
        !(j->thread_state = tg_trace_add_class(t, "thread_state", 2, TG_KIND_GENERIC)))
        return TG_ERR_NOMEM;
    struct json_object *begin = state_fields(tid, json_object_get_string(name), args, false);
    struct json_object *end = begin ? state_fields(tid, "", args, true) : NULL;
    /* at one time, an end sorts before what begins: the state before is over first */
    tej_record *r =
        end ? tej_add(t, j->thread_state, ts, 1, 0, order, pid, tid, 0, begin, offset, TEJ_NO_TIME)
            : NULL;
    r = r ? tej_add(t, j->thread_state, ts + dur, 0, 0, UINT64_MAX - order, pid, tid, 0, end,
                    offset, TEJ_NO_TIME)
          : NULL;
    json_object_put(begin);
    json_object_put(end);
    return r ? 0 : TG_ERR_NOMEM;
}
