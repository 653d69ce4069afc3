/* perfetto_read_track_association.c - which track a TrackEvent goes on, as trace_processor
 * associates it.
 *
 * A nonzero track_uuid (the event's own, else its sequence's default) names a descriptor's
 * track.  Without one the event falls back to the thread of its sequence (the thread of a
 * ThreadDescriptor, or of a thread's TrackDescriptor written on the sequence) when it has no
 * uuid of its own or has a legacy phase rather than a type; a legacy pid_override or
 * tid_override picks another thread the same way.  An event that falls back to nothing
 * goes on the trace's global "Default Track" (uuid 0).  Then a legacy instant's scope moves
 * it: a process-scoped one onto a track of its thread's process, a global one onto one
 * global track; both tracks are Chrome's own (their source arg says so). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdint.h>

/* Keys of the tracks made here, apart from descriptors' uuids and the sequences' threads
 * (perfetto_read_track.c): a thread named by its pid and tid, a process's legacy instants. */
#define THREAD_KEY 0x7e1d000000000000ull
#define PROCESS_INSTANTS_KEY 0x1a5c000000000000ull
#define GLOBAL_INSTANTS_KEY 0x1a5b000000000000ull

static const tg_value chrome_source[] = {
    {.name = "source", .type = TG_VAL_STRING, .v.str = {"chrome", sizeof "chrome" - 1}}};

/* The thread track of (pid, tid), made at its first use. */
static pf_track *thread_track(pf_trace *p, int32_t pid, int32_t tid)
{
    pf_track *k =
        pf_track_of(p, THREAD_KEY ^ ((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid), true);
    if (k) {
        k->pid = pid;
        k->tid = tid >= 0 ? tid : pid;
        k->thread = true;
    }
    return k;
}

/* The global track of the events no track names. */
static pf_track *default_track(pf_trace *p)
{
    pf_track *k = pf_track_of(p, 0, true);
    if (k && !k->name) {
        k->name = "Default Track";
        k->descriptor = true;
    }
    return k;
}

/* The Chrome track of a legacy instant of scope (1 global, 2 process) whose event was on k
 * (NULL: none); NULL when the scope needs a process the event has not. */
static pf_track *instant_scope_track(pf_trace *p, int scope, const pf_track *k)
{
    pf_track *to;
    if (scope == PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL)
        to = pf_track_of(p, GLOBAL_INSTANTS_KEY, true);
    else if (k && k->pid >= 0)
        to = pf_track_of(p, PROCESS_INSTANTS_KEY ^ (uint32_t)k->pid, true);
    else
        return NULL;
    if (to && !to->source_args) {
        to->source_args = chrome_source;
        to->n_source_args = 1;
        if (scope != PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL) {
            to->pid = k->pid;
            to->tid = -1;
            to->process = true;
        }
    }
    return to;
}

int pf_track_event_track(pf_trace *p, const PerfettoRead__TrackEvent *e, const pf_sequence *s,
                         pf_track **out)
{
    const PerfettoRead__TrackEvent__LegacyEvent *legacy = e->legacy_event;
    uint64_t uuid = e->has_track_uuid ? e->track_uuid : s->has_default_track ? s->default_track : 0;
    pf_track *k = NULL;
    if (uuid)
        k = pf_track_of(p, uuid, true);
    else {
        bool valid = s->tid >= 0; /* its thread is known */
        bool has_pid = legacy && legacy->has_pid_override;
        bool has_tid = legacy && legacy->has_tid_override;
        bool fallback =
            ((!e->has_track_uuid || !e->has_type) && valid) || has_pid || (has_tid && valid);
        if (fallback) {
            int32_t pid = has_pid ? legacy->pid_override : s->pid;
            int32_t tid = has_tid ? legacy->tid_override : has_pid ? -1 : s->tid;
            k = thread_track(p, pid, tid);
        } else if (e->has_type && e->type == PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_COUNTER) {
            *out = NULL; /* a counter's value needs a counter track */
            return 0;
        } else if (legacy && legacy->has_phase && legacy->phase != 'B' && legacy->phase != 'E' &&
                   legacy->phase != 'X' && legacy->phase != 'i' && legacy->phase != 'I' &&
                   legacy->phase != 'R') {
            *out = NULL; /* an async event's track is its id's, not this one */
            return 0;
        } else
            k = default_track(p);
    }
    if (!k)
        return TG_ERR_NOMEM;
    int scope = legacy ? (int)legacy->instant_event_scope : 0;
    if (legacy && legacy->has_phase && (legacy->phase == 'i' || legacy->phase == 'I') &&
        (scope == PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL ||
         scope == PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_PROCESS)) {
        pf_track *to = instant_scope_track(p, scope, k);
        if (!to &&
            scope == PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL)
            return TG_ERR_NOMEM;
        k = to; /* NULL: a process-scoped instant of no process, dropped */
    }
    *out = k;
    return 0;
}
