/* event_model.h - the event and its class as a stream fills them and a consumer reads them.
 *
 * The structs are visible (not opaque) so that consumers in analysis/, compat/ and writers/
 * read an event's header in place, as fast as the merge hands it over, without a call per
 * field.  What a reader implements (stream ops, formats, traces) stays in format_api.h,
 * which consumers cannot include: the build gives them core/consumer.h, which includes
 * this file, and not the rest of core. */
#ifndef TG_EVENT_MODEL_H
#define TG_EVENT_MODEL_H

#include "traceglot.h"

#include <stdbool.h>
#include <stdint.h>

struct tg_event_class {
    const char *name;   /* "sched_switch", "lttng_ust_cyg_profile:func_entry", ... */
    const char *system; /* ftrace system / CTF provider; may be NULL */
    uint64_t id;
    tg_event_kind kind;
    bool kernel;           /* function entries/exits of the kernel recorded beside a user
                            * program's (uftrace record -k): uftrace's rules treat them apart */
    bool exit_ends_top;    /* a function exit that carries no address (LTTng-UST's
                         * cyg_profile_fast:func_exit): it ends its thread's top frame, whatever
                         * function that is (the call-stack builder's rules, every rule set) */
    bool exit_has_call_ns; /* a function exit whose record holds the call's duration as the
                            * tracer measured it (ftrace's funcgraph_exit: rettime - calltime),
                            * in ev->call_ns: the builder takes it instead of the entry's and
                            * the exit's record times, as trace-cmd prints it */
    bool depth_is_stack;   /* a function record whose ev->depth is its frame's depth on its
                            * thread's stack as the tracer counts it (ftrace's funcgraph_entry
                            * and funcgraph_exit): a thread whose recording begins inside calls
                            * starts its stack at that depth (the call-stack builder) */
    void *fmt_data;        /* the format's compiled layout for this class */
    size_t index;          /* position in its trace's class list */
    size_t number;         /* dense across the set (0, 1, ...): a consumer keeps one row per class
                       in an array indexed by it, no lookup */
    tg_trace *trace;
    bool has_log_level; /* the class's declared log level (CTF loglevel: 0 emergency .. 14
                           debug), and its EMF URI (NULL when none) */
    int log_level;
    /* its events are samples with a call stack the trace resolved: an event's addr is its
     * callsite's index + 1 in the trace's profile (0: no stack; tg_event_callsite) */
    bool profile_sample;
    const char *emf_uri;
    /* declared field types per scope (tg_event_class_schema); NULL where not declared */
    const struct tg_field_type *schema[TG_SCOPE_COUNT];
};

struct tg_event {
    int64_t ts; /* ns on the trace clock */
    const tg_event_class *cls;
    tg_stream *stream;
    int32_t cpu, pid, tid; /* -1 when unknown */
    int32_t depth;         /* function traces; -1 when none */
    int32_t utid;          /* the thread in the kernel model (kernel_model.h): set by a
                            * cursor of the model, -1 unknown; unset without one */
    uint8_t cpu_mode;      /* tg_cpu_mode: where a sample was taken (perf.data) */
    uint64_t addr;         /* function address for entry/exit */
    /* one of the two per kind, so that an event stays within 128 bytes (two cache lines):
     * the batches of every cursor hold events by value */
    union {
        uint64_t lost;   /* TG_KIND_LOST: how many */
        int64_t call_ns; /* an exit of a class with exit_has_call_ns: the call's duration per
                          * the tracer, -1 when the record lacks it; unset otherwise */
    };
    uint64_t offset;     /* byte offset of the record in its file */
    const uint8_t *data; /* payload bytes, valid until the stream advances */
    size_t size;
    uint64_t aux[4];  /* format-private per-event values */
    const void *auxp; /* format-private per-event pointer */
};
_Static_assert(sizeof(struct tg_event) <= 128, "an event fits two cache lines");

#endif
