/* tej_internal.h - what the files of the Chrome JSON reader (the Trace Event Format) share.
 *
 * A JSON trace is an array of event objects, or an object whose "traceEvents" member is that
 * array (Chrome's tracing, Perfetto's JSON export, `uftrace dump --chrome`, traceglot's own
 * `convert --to chrome`).  Open (tej_format.c) parses the events one at a time with json-c,
 * so an array cut short or damaged gives the events before the damage, and turns each into
 * records (tej_events.c): slices (ph B/E, X, and the instants i/I as slices of no
 * duration) as function entries and exits of their thread, metadata (ph M) as the names of
 * processes and threads, async slices (b/e/n) on tracks of their own (tej_async.c), thread
 * states (ph T) as the kernel model's told states (tej_thread_state.c).  The
 * records are sorted by time and handed out by one stream
 * (tej_stream.c); an event's "args" are its payload fields. */
#ifndef TG_TEJ_INTERNAL_H
#define TG_TEJ_INTERNAL_H

#include "core/format_api.h"
#include "core/hash.h"
#include "io/mapped_file.h"

#include <json-c/json.h>
#include <stdint.h>

/* What a slice's begin carries beside its name, when it has any: its category ("cat") and
 * its flow (a v2 "bind_id" with "flow_in" / "flow_out"). */
typedef struct tej_slice_info {
    const char *category; /* NULL none */
    tg_flow flow;
    size_t n_flows; /* 0 or 1 */
} tej_slice_info;

typedef struct tej_record {
    int64_t ts;
    uint32_t rank;  /* at one time: ends of slices that lasted (0), then the rest (1) */
    int64_t longer; /* within rank 1: -dur of a complete (X) event, so the longest comes
                      * first and holds the others; 0 for the rest */
    uint64_t order; /* within a rank: file order (ends: the latest begun first) */
    const tg_event_class *cls;
    int32_t pid, tid;
    uint64_t name;              /* the slice's name number (tej_trace.names) */
    struct json_object *args;   /* the event's "args" (a reference held), or NULL */
    uint64_t offset;            /* of the event in the file */
    int32_t track;              /* an async slice's: its tg_track_decl, -1 its thread's call */
    int64_t thread_ns;          /* the thread time ("tts"), TEJ_NO_TIME none */
    const tej_slice_info *info; /* a slice's begin: its category and flow, or NULL */
} tej_record;

#define TEJ_NO_TIME INT64_MIN

typedef struct tej_open_slice {
    int32_t tid;
    uint64_t name;
} tej_open_slice;

/* An async track (tej_async.c): its key (name, cat, id, scope), its declaration, the names
 * of the slices open on it. */
typedef struct tej_async_track {
    const char *key;
    int32_t decl;
    uint64_t *stack;
    size_t open, cap;
} tej_async_track;

typedef struct tej_trace {
    tg_map map;
    tej_record *recs;
    size_t n_recs, cap_recs;
    const char **names;
    size_t n_names, cap_names;
    tg_hash name_by_hash;
    tej_open_slice *open; /* B events not yet ended, all threads (searched from the top) */
    size_t n_open, cap_open;
    tej_async_track *async;
    size_t n_async, cap_async;
    tg_hash async_by_key;
    const tg_event_class *begin, *end;
    const tg_event_class *thread_state; /* made at the first thread state (tej_thread_state.c) */
    uint64_t order;
    tg_error *damage;
} tej_trace;

/* tej_events.c: one more record (args: a reference taken), NULL when out of memory. */
tej_record *tej_add(tg_trace *t, const tg_event_class *cls, int64_t ts, uint32_t rank,
                    int64_t longer, uint64_t order, int32_t pid, int32_t tid, uint64_t name,
                    struct json_object *args, uint64_t offset, int64_t thread_ns);
/* tej_thread_state.c: a T event (a thread's state from ts for dur) as the records of the
 * kernel model's told state; 0 (also when it is no thread state) or TG_ERR_NOMEM. */
int tej_read_thread_state(tg_trace *t, struct json_object *ev, int64_t ts, int64_t dur,
                          uint64_t order, int32_t pid, int32_t tid, uint64_t offset);
/* tej_events.c: the records of one event object (at offset in the file).  0 or TG_ERR_NOMEM. */
int tej_read_event(tg_trace *t, struct json_object *ev, uint64_t offset);
/* tej_nesting.c: counts the complete events that cannot nest (in the sorted records).  0 or
 * TG_ERR_NOMEM. */
int tej_count_spills(tg_trace *t);
/* tej_async.c: the async track of an event (ph b, e, n) named name by process pid, made at
 * its first event; NULL when the event names no id, or out of memory (*nomem). */
tej_async_track *tej_async_track_of(tg_trace *t, struct json_object *ev, const char *name,
                                    int32_t pid, bool *nomem);
int tej_async_push(tej_async_track *k, uint64_t name); /* 0 or TG_ERR_NOMEM */
void tej_async_free(tej_trace *j);
/* tej_events.c: the number of a name among the trace's names (tej_trace.names), kept once;
 * UINT64_MAX when out of memory. */
uint64_t tej_name_number(tg_trace *t, const char *name);
/* tej_stream.c */
int tej_add_stream(tg_trace *t);

#endif
