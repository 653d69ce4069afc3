/* format_api.h - what a format reader provides to core/, and what core/ offers it.
 *
 * A format lives in src/formats/<name>/ and depends only on core/ and io/.  It declares one
 * `TG_FORMAT(name) = { ... };` object (the build collects every such line into the registry,
 * so adding a format is adding a folder).  Its open() fills a tg_trace with event classes and
 * streams; each stream yields its events in its own time order through tg_stream_ops.next,
 * filling only the event header (time, class, cpu/tid, payload location); fields are decoded
 * later, on demand, by tg_stream_ops.field.  The merge in core/ does the rest. */
#ifndef TG_FORMAT_API_H
#define TG_FORMAT_API_H

#include "traceglot.h"
#include "core/arena.h"
#include "core/event_model.h"
#include "core/error_internal.h"
#include "core/symtab.h"

#include <stdbool.h>

/* How a compound value (array, sequence, struct, variant) fetches child i; the format that
 * produced the value sets tg_value.ops and keeps what it needs in tg_value.ctx. */
struct tg_value_ops {
    int (*child)(const tg_value *v, size_t i, tg_value *out);
    /* optional: integer elements first.. in bulk, as tg_value_uints (NULL: child by child) */
    size_t (*uints)(const tg_value *v, size_t first, uint64_t *out, size_t n);
};

/* ---- streams ------------------------------------------------------------------------------- */

struct tg_stream_ops {
    /* Fill *ev with the next event: 1, 0 at the end, or a negative status with *err set.
     * After an error, next may be called again: the stream either resumes past the damage
     * (returns 1 or 0) or returns the error again, in which case the merge drops it. */
    int (*next)(tg_stream *s, tg_event *ev, tg_error **err);
    /* Lazy payload decode (either may be NULL: no fields). */
    size_t (*field_count)(const tg_event *ev, tg_scope scope);
    int (*field)(const tg_event *ev, tg_scope scope, size_t i, tg_value *out);
    /* Optional: the tracer's own rendering of the event (1 written, 0 none,
     * TG_RENDER_WITH_NEXT: written with the stream's next record in it).  It must not change
     * what the stream yields: a printer that prints the next record with it calls
     * drop_next. */
    int (*render)(const tg_event *ev, tg_buf *out);
    /* Optional: skip the next record (only a stream that is not read ahead: the record is
     * the one after the event it yielded last). */
    void (*drop_next)(tg_stream *s);
    /* Optional: the rendering with tg_render_flag options (tg_event_render_with). */
    int (*render_with)(const tg_event *ev, tg_buf *out, unsigned flags);
    /* Optional: the raw clock value of the event (tg_event_clock_value). */
    bool (*clock_value)(const tg_event *ev, uint64_t *cycles);
    /* Optional: a gap's clock values (tg_event_clock_span). */
    bool (*clock_span)(const tg_event *ev, uint64_t *begin, uint64_t *end, int64_t *end_ns);
    /* Optional: symbol of ev->addr for function entry/exit events. */
    const char *(*func_name)(const tg_event *ev);
    /* Optional: module of ev->addr (tg_event_func_module); asked once per frame opened. */
    const char *(*func_module)(const tg_event *ev);
    /* Optional: the category a viewer trace gave the slice ev begins (tg_event_func_category). */
    const char *(*func_category)(const tg_event *ev);
    /* Optional: the thread's CPU time at ev, a viewer trace's thread timestamp (Chrome
     * JSON's tts, TrackEvent's thread_time): false when the event has none. */
    bool (*thread_time)(const tg_event *ev, int64_t *ns);
    /* Optional: the declared track (tg_trace.tracks' index) of the slice ev begins or ends
     * when it is not its thread's calls, -1 when it is (tg_track_decl). */
    int64_t (*track)(const tg_event *ev);
    /* Optional: the listed task (tg_trace_task's index) whose thread ev is of, -1 when its
     * tid says (asked only of a trace listing a tid more than once: new_thread). */
    int64_t (*task)(const tg_event *ev);
    /* Optional: the value ev gives the declared counter track its track op names (a
     * tg_track_decl with counter set): false when ev is no counter value. */
    bool (*counter_value)(const tg_event *ev, double *value);
    /* Optional: a function exit's call times as its tracer took them, in ns on the trace's
     * clock (tg_event_call_times): false when the event has none on that clock. */
    bool (*call_times)(const tg_event *ev, int64_t *call_ns, int64_t *ret_ns);
    /* Optional: the flows of the slice ev begins or ends (tg_event_flows). */
    size_t (*flows)(const tg_event *ev, const tg_flow **out);
    /* Optional: the symbol of ev->addr with its size and kind (tg_event_func_symbol); without
     * it the trace's symbol table is asked. */
    int (*func_symbol)(const tg_event *ev, tg_func_symbol *out);
    /* Optional: once next() returned the end, the time (ns, on the trace's clock) up to which
     * the stream's records say it is whole, which may pass its last event (a CTF packet's
     * end time): false when not known (tg_stream_end_time). */
    bool (*end_time)(tg_stream *s, int64_t *ns);
    /* Optional: release priv. */
    void (*destroy)(tg_stream *s);
    /* Optional: go back to the first event, so a set can be iterated more than once (every
     * tg_iter_new rewinds the streams it has; a stream without it is read once, and a second
     * cursor over it after a first one read from it is refused: tg_set_reopen). */
    int (*rewind)(tg_stream *s, tg_error **err);
    /* Optional, for analyses that read one stream straight through: fill evs[0..max) with
     * the next events, each as next() would (the caller sets stream and cpu), and return how
     * many; 0 when the next event has to be read with next() (the end, damage, or a record
     * this bulk path does not decode).  Lets a reader decode a run of records at once. */
    size_t (*next_batch)(tg_stream *s, tg_event *evs, size_t max);
    /* Optional promise: an event next() filled stays valid - its payload and its fields -
     * while next() fills later ones (the payload lives in the mapped file, not in a buffer
     * the stream reuses).  The cursor then reads such a stream several events ahead. */
    bool events_independent;
    /* Optional promise: next(), rewind() and the field calls touch only this stream's own
     * state and what the trace fixed at open (or guards with a lock), so different streams
     * of one trace may be read on different threads at once (tg_iter_run_apart). */
    bool reads_alone;
};

/* The lock of t's set, for a reader whose streams read alone but make state shared by the
 * set's traces when first needed (the CTF reader's babeltrace2 replay): taken around that. */
void tg_trace_lock_set(tg_trace *t);
void tg_trace_unlock_set(tg_trace *t);

struct tg_stream {
    const struct tg_stream_ops *ops;
    tg_trace *trace;
    const char *name;
    int cpu, tid;
    size_t index;     /* position in the set: the merge's tie-break */
    int64_t shift_ns; /* its trace's shift to the shared timeline (timeline.c) */
    void *priv;
    bool messages; /* yield TG_KIND_STREAM_BEGIN ... too (tg_iter_want_messages) */
    bool has_ids;  /* tg_stream_ids: set by the format at open */
    bool was_read; /* a cursor asked it for events: without rewind, it cannot give them again */
    uint64_t class_id, id;
};

/* ---- traces ------------------------------------------------------------------------------- */

struct tg_format;

/* A track a viewer trace declared apart from its threads' calls (a Perfetto TrackDescriptor
 * of a process or of no one, an async track of Chrome JSON): the slices a stream's track op
 * puts on it nest on it, not in a thread's call stack.  It belongs to the thread tid, else
 * to the process pid, else to no one (a global track); its parent is another declaration of
 * the trace, or (parent -1, tid set) the thread's own track.  The kernel model makes one
 * track of each (kernel_model.h), after the listed tasks' ones. */
typedef struct tg_track_decl {
    const char *name; /* NULL: none */
    const char *type; /* Perfetto's track.type, NULL: by whose it is */
    int64_t pid, tid; /* -1 none */
    int64_t parent;   /* index of the parent's declaration, -1 none */
    /* a counter track: its events are values (tg_stream_ops.counter_value), not slices */
    bool counter;
    const char *unit; /* a counter's unit, NULL none */
    /* Perfetto's dimension and source args of the track (track.dimension_arg_set_id,
     * source_arg_set_id): named values, which with their strings live in the trace's arena
     * (not copied); NULL none */
    const tg_value *dims, *source_args;
    size_t n_dims, n_source_args;
    /* the machine it was recorded on (Perfetto's machine table id: 0 the host), when known */
    bool has_machine;
    int64_t machine;
    /* the thread (or, with no tid, the process of the thread) is the listed task at this
     * index (tg_trace_task) rather than tid's (pid's) now: a tid the trace lists more than
     * once (tg_task_info.new_thread) */
    bool has_task;
    size_t task;
} tg_track_decl;

struct tg_trace {
    const struct tg_format *format;
    tg_set *set;
    const char *path;
    const char *input_path; /* the path given to tg_open the trace was found under */
    const char *version;    /* "4", "1.8", "7", ... */
    /* typed attributes (traceglot.h), filled by open() through the setters below */
    tg_clock_info clock; /* clock.name NULL: "unknown" */
    tg_host_info host;
    tg_process_info process;
    tg_tracer_info tracer;
    tg_env_entry *env;
    size_t n_env, cap_env;
    tg_task_info *tasks;
    size_t n_tasks, cap_tasks;
    tg_build_id_info *build_ids;
    size_t n_build_ids, cap_build_ids;
    tg_track_decl *tracks; /* tg_trace_add_track; the reader may rename them until it returns */
    size_t n_tracks, cap_tracks;
    tg_cpu_info *cpu_infos;           /* tg_trace_add_cpu_info */
    struct tg_stack_profile *profile; /* tg_trace_profile_add_* (stack_profile.c), NULL none */
    size_t n_cpu_infos, cap_cpu_infos;
    tg_arg_set *arg_sets; /* tg_trace_add_arg_set */
    size_t n_arg_sets, cap_arg_sets;
    /* the shared timeline (timeline.c): event time + shift_ns is the time on it */
    int64_t shift_ns;
    tg_alignment alignment;
    const char *domain, *alignment_note;
    tg_arena arena;    /* strings and small objects living as long as the trace */
    tg_symtab symbols; /* the trace-wide symbol table (kallsyms, ELF, ...) */
    tg_event_class **classes;
    size_t n_classes, cap_classes;
    /* the reader names classes as it reads (Perfetto's packets): those at open are not all */
    bool classes_grow;
    tg_stream **streams;
    size_t n_streams, cap_streams;
    void *priv;                        /* the format's own state */
    struct tg_trace_warning *warnings; /* what the reader accepted with a warning, in order */
    size_t n_warnings;
    const char *symbols_missing;       /* tg_trace_symbols_missing, or NULL */
    struct tg_trace_stat_entry *stats; /* tg_trace_count (trace_stats.c) */
    size_t n_stats;
};

/* Adds an event class / a stream to the trace; NULL on allocation failure.  Names are
 * copied into the trace's arena. */
tg_event_class *tg_trace_add_class(tg_trace *t, const char *name, uint64_t id, tg_event_kind kind);
/* The two classes of the readers whose events are named slices (Perfetto, Chrome JSON,
 * Gecko): "slice_begin" (id 0, a function entry) and "slice_end" (1, its exit); NOMEM on
 * allocation failure. */
int tg_trace_add_slice_classes(tg_trace *t, const tg_event_class **begin,
                               const tg_event_class **end);
tg_stream *tg_trace_add_stream(tg_trace *t, const struct tg_stream_ops *ops, const char *name,
                               int cpu, int tid, void *priv);
void tg_trace_set_version(tg_trace *t, const char *version);
/* The trace's attributes.  Every string is copied into the trace's arena; a setter
 * replaces what was set before (so a format may fill a local struct step by step and set it
 * once).  0, or TG_ERR_NOMEM. */
void tg_trace_set_clock(tg_trace *t, const char *name, int64_t offset_ns); /* name, offset */
int tg_trace_set_clock_info(tg_trace *t, const tg_clock_info *clock);
int tg_trace_set_host(tg_trace *t, const tg_host_info *host);
int tg_trace_set_process(tg_trace *t, const tg_process_info *process);
int tg_trace_set_tracer(tg_trace *t, const char *name, const char *version);
/* Appends one environment key (value as text; is_integer: the format stored a number). */
int tg_trace_add_env(tg_trace *t, const char *key, const char *value, bool is_integer,
                     int64_t integer);
int tg_trace_add_env_int(tg_trace *t, const char *key, int64_t value);
/* Appends one build id (tg_trace_build_id); its path is copied. */
int tg_trace_add_build_id(tg_trace *t, const tg_build_id_info *b);
/* The trace's resolved call stacks (tg_trace_profile_callsite): each call gives the index
 * of the item equal to the one given, added when new (strings copied), as trace_processor
 * interns its stack_profile_* rows; >= 0, or TG_ERR_NOMEM. */
int64_t tg_trace_profile_add_mapping(tg_trace *t, const tg_profile_mapping *m);
int64_t tg_trace_profile_add_frame(tg_trace *t, const tg_profile_frame *f);
int64_t tg_trace_profile_add_callsite(tg_trace *t, int64_t parent, size_t frame);
void tg_trace_profile_free(tg_trace *t);
/* Appends one task (tg_trace_task); its name is copied. */
int tg_trace_add_task(tg_trace *t, const tg_task_info *task);
/* Appends one declared track (its strings are copied): its index, or TG_ERR_NOMEM. */
int64_t tg_trace_add_track(tg_trace *t, const tg_track_decl *track);
/* Appends what the trace says of one CPU (the processor name is copied; the args, names and
 * strings included, must live in the trace's arena).  0, or TG_ERR_NOMEM. */
int tg_trace_add_cpu_info(tg_trace *t, const tg_cpu_info *cpu);
/* Appends an arg set of the trace itself (its values, names and strings must live in the
 * trace's arena or be static).  0, or TG_ERR_NOMEM. */
int tg_trace_add_arg_set(tg_trace *t, const tg_value *args, size_t n);
/* The origin of a Linux clock by the names tracers give it ("mono", "monotonic", "boot",
 * "mono_raw", "realtime", "tai", "x86-tsc", "local", "global", "perf", ...). */
tg_clock_origin tg_clock_origin_of_name(const char *name);
/* Records what the reader accepted although it is not quite valid (as the peer tool warns
 * and goes on); the CLI prints these on stderr.  At most 100 are kept per trace. */
void tg_trace_warn(tg_trace *t, const char *fmt, ...) TG_PRINTF(2, 3);
/* Adds add to the reader's counter name (trace_processor's stat name, a static string;
 * severity "info", "error" or "data_loss"), declaring it when new: declare the counters a
 * reader keeps at open with add 0.  0, or TG_ERR_NOMEM. */
int tg_trace_count(tg_trace *t, const char *name, const char *severity, int64_t add);
/* Gives the counter name (declared) trace_processor's source and description (static
 * strings), for a counter trace_processor's analysis keeps rather than its reader. */
void tg_trace_count_describe(tg_trace *t, const char *name, const char *source,
                             const char *description);
/* Sets the reader's counter name to value, declaring it when new; idx >= 0: its row idx
 * (trace_processor's indexed stats: one row per buffer, CPU, ...), -1 the counter itself.
 * 0, or TG_ERR_NOMEM. */
int tg_trace_set_stat(tg_trace *t, const char *name, const char *severity, int64_t idx,
                      int64_t value);
/* Why function addresses cannot be named (tg_trace_symbols_missing), copied; also warned. */
void tg_trace_set_symbols_missing(tg_trace *t, const char *why);
void tg_trace_set_clock(tg_trace *t, const char *name, int64_t offset_ns);
/* A trace in the same set opened by another format (ftrace kernel data of a uftrace dir). */
tg_trace *tg_set_open_child(tg_set *set, const struct tg_format *fmt, const char *path,
                            const tg_options *opts, tg_error **err);
/* Whether an iterator over the set bounds its range by a time of day (babeltrace2's
 * "04:02:28.48"), which is only known once a first event's date is read: babeltrace2's
 * trimmer reads one batch of messages for it and seeks back, which ctf_btcompat.c replays. */
bool tg_set_range_waits_first(const tg_set *set);

/* ---- formats -------------------------------------------------------------------------------- */

typedef struct tg_probe_input {
    const char *path;
    bool is_dir;
    const uint8_t *head; /* first bytes of the file (files only) */
    size_t head_len;
} tg_probe_input;

struct tg_net_conn;

struct tg_format {
    const char *name;
    /* Confidence 0..100 that path is this format. */
    int (*probe)(const tg_probe_input *in);
    int (*open)(tg_trace *t, const char *path, const tg_options *opts, tg_error **err);
    /* Optional: the format's own description for `traceglot info`. */
    int (*describe)(const tg_trace *t, tg_buf *out, tg_error **err);
    /* Optional: a part of what the tracer's tool prints about the file (tg_trace_render):
     * 1 written, 0 no such part. */
    int (*render_part)(const tg_trace *t, const char *part, tg_buf *out, tg_error **err);
    /* Optional: a part of what the tracer's tool prints about a file that is no trace (an
     * XRay instrumented binary: tg_render_file): 1 written, 0 no such part. */
    int (*render_file)(const char *path, const char *part, tg_buf *out, tg_error **err);
    /* Optional: the function symbol holding addr as the tracer's tool finds it
     * (tg_trace_symbol); without it, the trace's symbol table is searched. */
    const char *(*symbol)(const tg_trace *t, uint64_t addr);
    /* Optional: the name of a class's field i in a scope, without an event
     * (tg_event_class_field_name, for formats without a schema); NULL past the end. */
    const char *(*class_field_name)(const tg_event_class *c, tg_scope scope, size_t i);
    /* Optional: release t->priv (streams are destroyed before). */
    void (*close)(tg_trace *t);
    /* The options open reads that no style or command declares (NULL: none): every
     * command accepts them (core/option_registry.h). */
    const tg_option_decl *options;
    /* Optional: the i-th function symbol of the trace's own tables (tg_trace_func_symbol);
     * without it, t->symbols is listed. */
    int (*func_symbol_at)(const tg_trace *t, size_t i, tg_func_symbol *out);
    /* Optional: a live source (tg_live_record, tg_live_list; core/live.c connects): reads
     * the session host/session from the server on conn into the folder dir, which this
     * format then opens; or lists the server's sessions.  where: the URL, for messages. */
    int (*live_record)(struct tg_net_conn *conn, const char *where, const char *host,
                       const char *session, const char *dir, const tg_live_params *p,
                       tg_live_result *res, tg_error **err);
    int (*live_list)(struct tg_net_conn *conn, const char *where, tg_buf *out,
                     const tg_live_params *p, tg_error **err);
};

#define TG_FORMAT(id) const struct tg_format tg_format_##id

/* The registry generated by the build from every TG_FORMAT(...) line. */
extern const struct tg_format *const tg_formats[];
extern const size_t tg_n_formats;
const struct tg_format *tg_format_find(const char *name);

/* Helper for probes of directories: does path/name exist (name may hold a '*' glob)? */
bool tg_probe_dir_has(const char *dir, const char *name_glob);

#endif
