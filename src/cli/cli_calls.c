/* cli_calls.c - the commands that show function calls (report, replay, graph, convert --to
 * folded, svg or speedscope) refuse a trace that can hold none (a kernel trace) with one
 * line saying so and what it holds, instead of an empty table or flame graph (exit 1), as
 * convert --to uftrace does.
 *
 * What a trace can hold is read from its event classes at open: a class of function entry
 * or exit (uftrace, XRay, LTTng-UST cyg-profile, ftrace function_graph, the slices of
 * Chrome and Perfetto traces), or samples with call chains (perf.data, Perfetto).  A
 * trace.dat declares the function_graph classes whatever it recorded, so where such a
 * class is declared, the events are read until the first function event: at once on a
 * function trace, the whole trace (the pass the command would make) on a kernel trace.  That
 * read is made on the paths opened again (tg_set_reopen): a trace.dat's streams are read
 * once, and a second pass over the same set would start where the first one stopped. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int is_call_kind(tg_event_kind k)
{
    return k == TG_KIND_FUNC_ENTRY || k == TG_KIND_FUNC_EXIT || k == TG_KIND_FUNC_TAIL_EXIT;
}

/* 2: it holds samples with call chains or names its slices while reading, or declares a
 * class of function entry or exit that its format declares only when recorded (no check);
 * 1: a trace.dat declaring the function_graph classes (read to know); 0: none. */
static int trace_can_hold_calls(const tg_trace *t)
{
    if (strcmp(tg_trace_format(t), "perf") == 0 || strcmp(tg_trace_format(t), "perfetto") == 0)
        return 2;
    for (size_t i = 0; i < tg_trace_class_count(t); i++)
        if (is_call_kind(tg_event_class_kind(tg_trace_class(t, i))))
            return strcmp(tg_trace_format(t), "ftrace") == 0 ? 1 : 2;
    return 0;
}

#define SHOWN_MAX 8

/* The classes named in the message: those met while reading, else those declared. */
struct held {
    const tg_event_class *cls[SHOWN_MAX];
    size_t n;
    int more;
};

static void hold(struct held *h, const tg_event_class *c)
{
    if (tg_event_class_kind(c) == TG_KIND_LOST)
        return;
    for (size_t i = 0; i < h->n; i++)
        if (h->cls[i] == c)
            return;
    if (h->n < SHOWN_MAX)
        h->cls[h->n++] = c;
    else
        h->more = 1;
}

/* Is there a function event among the set's events?  1 yes (or the reading failed: the
 * command then says what failed), 0 no; the classes met are held.  The caller passes the
 * same paths opened again: a trace.dat's streams are read once, and the command's own
 * pass needs them from their start. */
static int any_call_event(tg_set *set, struct held *h)
{
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    if (!it)
        return 1;
    const tg_event *evs[256];
    int n, found = 0;
    while (!found && (n = tg_iter_next_batch(it, evs, 256)) > 0)
        for (int i = 0; i < n && !found; i++) {
            const tg_event_class *c = tg_event_class_of(evs[i]);
            found = is_call_kind(tg_event_class_kind(c));
            hold(h, c);
        }
    tg_iter_free(it);
    return found || n < 0;
}

int cli_refuse_without_calls(const struct cli_args *a, tg_set *set)
{
    int declared = 0;
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        int can = trace_can_hold_calls(tg_set_trace(set, i));
        if (can == 2)
            return 0;
        declared |= can;
    }
    struct held h = {.n = 0};
    tg_set *again = declared ? tg_set_reopen(set, NULL) : NULL;
    if (declared && (!again || any_call_event(again, &h))) {
        tg_close(again); /* (opening again failed: the command says why) */
        return 0;
    }
    if (!declared) /* not read: what the traces declare */
        for (size_t i = 0; i < tg_set_trace_count(set); i++)
            for (size_t k = 0; k < tg_trace_class_count(tg_set_trace(set, i)); k++)
                hold(&h, tg_trace_class(tg_set_trace(set, i), k));
    char names[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < h.n; i++) {
        const char *sys = tg_event_class_system(h.cls[i]);
        int k = snprintf(names + used, sizeof names - used, "%s%s%s%s", i ? ", " : "",
                         sys ? sys : "", sys ? ":" : "", tg_event_class_name(h.cls[i]));
        if (k < 0 || (size_t)k >= sizeof names - used)
            break;
        used += (size_t)k;
    }
    const tg_trace *first = tg_set_trace(set, 0);
    fprintf(stderr,
            "traceglot %s: the %s trace holds no function calls (%s: %s%s); %s needs function "
            "entry and exit events (uftrace, XRay, LTTng-UST cyg-profile, ftrace "
            "function_graph) or samples with call chains\n",
            a->command, first ? tg_trace_format(first) : "",
            declared ? "its events" : "its event classes", h.n ? names : "none",
            h.more ? ", ..." : "", a->command);
    tg_close(again); /* after the names of its classes were printed */
    return 1;
}
