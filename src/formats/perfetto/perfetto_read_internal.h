/* perfetto_read_internal.h - what the files of the Perfetto protobuf reader share.
 *
 * A Perfetto trace is a `Trace` message: a run of `TracePacket`s (field 1), each written by
 * one producer sequence, in no global time order.  Open walks the packets once
 * (perfetto_read_format.c), keeps each sequence's incremental state (interned names,
 * defaults, its thread), and turns what it understands into records: ftrace events
 * (perfetto_read_ftrace.c: one record each, its payload the encoded event message, decoded
 * field by field through protobuf-c's descriptors when a consumer asks), compact sched
 * batches expanded into sched_switch and sched_waking records, track event slices as
 * function entries and exits of their thread, tasks from the process and thread
 * descriptors and process trees.  The records are then sorted by time (stable: file order
 * breaks ties, as trace_processor's sorter does) and handed out by one stream
 * (perfetto_read_stream.c).  Memory is one small record per event, not the packets. */
#ifndef TG_PERFETTO_READ_INTERNAL_H
#define TG_PERFETTO_READ_INTERNAL_H

#include "core/format_api.h"
#include "core/hash.h"
#include "io/mapped_file.h"

#include "perfetto_read.pb-c.h"

#include <string.h>
#include <stdint.h>

/* What a track event slice carries beside its name: its categories (joined by ",") and its
 * debug annotations as Perfetto keys them ("debug.NAME"), the slice's args; and the flows it
 * takes part in (an end event's: the flows of the slice it ends). */
typedef struct pf_slice_info {
    const char *category; /* NULL none */
    tg_value *args;
    size_t n_args;
    tg_flow *flows; /* flow_ids, then terminating_flow_ids (and their old numbers) */
    size_t n_flows;
} pf_slice_info;

/* One event as the stream hands it out. */
typedef struct pf_record {
    int64_t ts;
    uint64_t order; /* file order: the sort's tie-break */
    const tg_event_class *cls;
    int32_t cpu, pid, tid;
    int32_t track; /* slices, counter values: its pf_track (pf_trace.tracks' index), -1 none */
    union {
        uint64_t addr; /* slices: the name's number (pf_trace.names) */
        double value;  /* counter values (class pf_trace.counter) */
    };
    const uint8_t *data; /* ftrace: the encoded event message (in the map or the arena) */
    size_t size;
    uint64_t offset;            /* of its packet in the file */
    const pf_slice_info *slice; /* a slice's beginning: its category and args, or NULL */
} pf_record;

/* A track a TrackDescriptor declared (or an event named): which thread or process its
 * slices belong to.  A thread's track holds its calls; any other is declared to core
 * (tg_track_decl) once every packet is read (pf_declare_tracks). */
typedef struct pf_track {
    uint64_t uuid;
    int32_t pid, tid; /* -1 unknown */
    bool thread;      /* a thread's own track (its descriptor's thread, a sequence's, atrace's) */
    bool process;     /* a process's (its descriptor's process) */
    bool apart;       /* a thread's track kept apart from its system (atrace) slices: declared */
    bool has_parent;
    bool descriptor; /* a TrackDescriptor declared it (or it is the trace's Default Track) */
    uint64_t parent_uuid;
    int64_t decl;         /* its tg_track_decl, -1: none (a thread's) or not yet */
    uint64_t first_slice; /* the name number of its first slice, UINT64_MAX none */
    const char *name;
    /* a counter track (perfetto_read_counter.c: a TrackDescriptor's counter, or a data
     * source's track): its Perfetto type, unit and dimension / source args (in the arena) */
    bool counter;
    int64_t machine;    /* a data source's track: its machine (0 the host), else -1 */
    bool incremental;   /* a TrackEvent counter's values are increments */
    int64_t multiplier; /* a TrackEvent counter's values are scaled by (0: 1) */
    const char *type, *unit;
    const tg_value *dims, *source_args;
    size_t n_dims, n_source_args;
    /* what its descriptor says of itself (its source args, perfetto_read_track_args.c): a
     * description, how its children are ordered (0 unknown), its rank among its siblings */
    const char *description;
    int child_ordering;
    bool has_rank;
    int32_t rank;
    uint32_t open; /* slices begun and not ended (their names' numbers on a stack) */
    uint64_t *stack;
    size_t cap;
    int32_t task; /* a thread descriptor's listed task, a process descriptor's main thread's
                   * (perfetto_read_task_reuse.c), -1 */
    /* the records (pf_trace.recs' indexes) beginning those slices, where a track's ending
     * events merge their args (perfetto_read_legacy_async.c's tracks) */
    size_t *open_recs;
    size_t cap_open_recs;
} pf_track;

/* One interned string of a sequence (event names, categories). */
typedef struct pf_interned {
    uint64_t seq, kind, iid;
    const char *text;
} pf_interned;

/* A clock a snapshot related to BOOTTIME (perfetto_read_clock.c). */
typedef struct pf_clock {
    uint32_t id, seq; /* seq 0: a global clock (id < 64) */
    bool incremental;
    uint64_t unit;     /* ns per unit */
    uint64_t at, last; /* its reading in the snapshot; an incremental one's last value */
    int64_t boot;      /* BOOTTIME's reading in the snapshot */
} pf_clock;

typedef struct pf_sequence {
    uint32_t id;
    int32_t pid, tid;       /* its thread (a ThreadDescriptor packet), -1 unknown */
    uint64_t default_track; /* trace_packet_defaults' track_uuid (0: none) */
    bool has_default_track;
    uint32_t default_clock; /* trace_packet_defaults' timestamp_clock_id (0: none) */
    uint64_t generation;    /* bumped when its incremental state is cleared */
    /* a ThreadDescriptor's reference time (ns on CLOCK_MONOTONIC), which TrackEvents'
     * timestamp_delta_us advance */
    int64_t event_time;
    /* its losses (perfetto_read_stats.c): packets read, groups of packets lost after its
     * first one, and per cause bit; whether its incremental state is valid, and how many
     * packets needed it and how many of those were skipped for want of it */
    uint64_t n_packets, loss_groups;
#define PF_LOSS_CAUSES 8
    uint64_t loss_causes[PF_LOSS_CAUSES];
    bool incremental_valid;
    uint64_t needs_incremental, needs_incremental_skipped;
} pf_sequence;

typedef struct pf_trace {
    tg_map map;
    pf_record *recs;
    size_t n_recs, cap_recs;
    pf_track *tracks;
    size_t n_tracks, cap_tracks;
    tg_hash track_by_uuid;
    pf_sequence *seqs;
    size_t n_seqs, cap_seqs;
    tg_hash seq_by_id;
    pf_interned *interned;
    size_t n_interned, cap_interned;
    tg_hash interned_by_key;
    const char **names; /* slice names by number */
    size_t n_names, cap_names;
    tg_hash name_by_hash;
    tg_hash class_by_desc; /* ftrace member descriptor -> class */
    const tg_event_class *slice_begin, *slice_end;
    const tg_event_class *counter; /* counter values' class, made at the first */
    tg_hash counter_by_key;        /* data sources' counter tracks by their key */
    struct pf_probe_state *probes; /* what data sources keep between packets (NULL: none yet) */
    /* the machine of the packet being read (0 the host, else 1 + the order of its first
     * packet among the remote machines'), and the remote machines' ids in that order */
    int64_t packet_machine;
    uint32_t *machines;
    size_t n_machines, cap_machines;
    int32_t *cpu_current; /* compact sched: the task running on each cpu (its pid) */
    const char **cpu_comm;
    size_t n_cpus;
    pf_clock *clocks;
    size_t n_clocks, cap_clocks;
    uint32_t trace_clock; /* the clock of the timeline (BOOTTIME, or a snapshot's choice) */
    /* the translation table's slice names: name number -> its deobfuscated text, applied
     * once every packet is read */
    struct pf_rename {
        uint64_t name;
        const char *to;
    } * renames;
    size_t n_renames, cap_renames;
    /* Chrome's study names by hash (a chrome_study translation table), and the trigger
     * slices waiting for theirs (perfetto_read_chrome_trigger.c) */
    tg_hash study_by_hash;
    struct pf_study_name {
        struct pf_slice_info *info;
        uint64_t hash;
    } * study_names;
    size_t n_study_names, cap_study_names;
    uint64_t order;
    /* atrace (perfetto_read_atrace_pass.c): the events that write its slices, the CPUs whose
     * first bundle was read, and from when every CPU's ftrace data is whole */
    size_t n_atrace_events;
    tg_hash first_bundle_cpus;
    int64_t ftrace_data_start;
    bool streams_into_file; /* the trace config's: traced wrote the buffers into the file
                             * periodically (long trace mode) */
    struct pf_etw *etw;     /* ETW file I/O operations in flight (perfetto_read_etw.c) */
    tg_error *damage;       /* where reading stopped: the stream gives it after the records */
    /* per listed task, the descriptor tracks (index + 1, 0 none) that named it as a thread
     * and as a process (perfetto_read_task_reuse.c) */
    struct pf_task_claim {
        uint32_t thread, process;
    } * claims;
    size_t n_claims, cap_claims;
    struct pf_chrome_hashes *chrome_hashes; /* perfetto_read_chrome_args.c, NULL none yet */
    tg_hash content_sets;       /* the trace's arg sets by their category and name (their index) */
    struct pf_profile *profile; /* perfetto_read_perf_sample.c, NULL none yet */
} pf_trace;

/* ---- perfetto_read_format.c ------------------------------------------------------------- */
pf_record *pf_add_record(pf_trace *p);
const tg_event_class *pf_class_of(tg_trace *t, const ProtobufCMessageDescriptor *d,
                                  const char *name);
/* The same for a kernel event of another system than ftrace's. */
const tg_event_class *pf_class_of_system(tg_trace *t, const ProtobufCMessageDescriptor *d,
                                         const char *name, const char *system);
int pf_add_task(tg_trace *t, int64_t tid, int64_t pid, const char *name);
uint64_t pf_name_number(tg_trace *t, const char *name);
/* An ftrace print event's text (buf, len) at ts by thread tid: atrace's "B|pid|name" begins a
 * slice of the thread, "E|pid" ends its innermost one, as trace_processor reads them.  0 or
 * TG_ERR_NOMEM. */
int pf_atrace(tg_trace *t, int64_t ts, int32_t tid, const char *buf, size_t len, uint64_t offset);

/* ---- perfetto_read_task_reuse.c --------------------------------------------------------- */
/* The thread (tid, pid) a thread descriptor's track k names: the listed task of tid, or a new
 * one when tid is reused (another pid, or another descriptor named it); k->task is set. */
int pf_descriptor_thread(tg_trace *t, pf_track *k, int64_t tid, int64_t pid, const char *name);
/* The process pid a process descriptor's track k names: a new one (a new listed task of its
 * main thread) when another descriptor named pid's; k->task is its main thread's task. */
int pf_descriptor_process(tg_trace *t, pf_track *k, int64_t pid, const char *name);

/* ---- perfetto_read_clock.c -------------------------------------------------------------- */
/* Perfetto's builtin clock ids. */
enum {
    PF_CLOCK_REALTIME = 1,
    PF_CLOCK_MONOTONIC = 3,
    PF_CLOCK_MONOTONIC_RAW = 4,
    PF_CLOCK_BOOTTIME = 6
};
/* traceglot's name of a builtin clock (tg_clock_origin_of_name's), NULL for others. */
const char *pf_clock_name(uint32_t id);
int pf_read_clock_snapshot(pf_trace *p, const PerfettoRead__ClockSnapshot *s, uint32_t seq);
/* A packet's timestamp (value, of clock_id) on BOOTTIME. */
int64_t pf_boot_time(pf_trace *p, uint32_t clock_id, uint32_t seq, uint64_t value);
/* A TrackEvent's time on the trace clock: its own timestamp_absolute_us, or its
 * timestamp_delta_us after the sequence's last one (both on CLOCK_MONOTONIC), else the
 * packet's (packet_ts).  false when it is not a time (it overflows or is negative):
 * trace_processor drops such an event and counts it. */
bool pf_track_event_time(pf_trace *p, pf_sequence *s, const PerfettoRead__TrackEvent *e,
                         int64_t packet_ts, int64_t *ts);

/* ---- perfetto_read_ftrace.c ------------------------------------------------------------- */
/* The records of one FtraceEventBundle (its bytes: data, size).  0 or a negative status. */
int pf_read_ftrace_bundle(tg_trace *t, const uint8_t *data, size_t size, uint64_t offset,
                          tg_error **err);
/* Packs msg (an ftrace event's message) into the trace's arena and adds its record, of the
 * class named name, at ts on cpu by thread tid.  0 or TG_ERR_NOMEM. */
int pf_packed_record(tg_trace *t, const ProtobufCMessage *msg, const char *name, int64_t ts,
                     int32_t cpu, int32_t tid, uint64_t offset);

/* ---- perfetto_read_kernel_packets.c ----------------------------------------------------- */
/* The packets perfetto_read.proto leaves out, among pk's unknown fields: a trace
 * config (what long trace mode's stats need), a generic kernel's CPU frequency, a generic
 * GPU frequency (as the ftrace events cpu_frequency and gpu_frequency).  0 or a negative
 * status. */
int pf_read_kernel_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts,
                          uint64_t offset);

/* ---- perfetto_read_ftrace_stats.c ------------------------------------------------------- */
/* An FtraceStats packet's bytes: its parse errors counted in stats.  0 or TG_ERR_NOMEM. */
int pf_read_ftrace_stats(tg_trace *t, const uint8_t *data, size_t size);

/* ---- perfetto_read_generic.c ------------------------------------------------------------ */
/* A generic kernel task state or rename packet (pk, its bytes data, size) into a record. */
int pf_read_generic_event(tg_trace *t, const PerfettoRead__TracePacket *pk, const uint8_t *data,
                          size_t size, int64_t ts, uint64_t offset);
int pf_read_generic_process_tree(tg_trace *t, const PerfettoRead__GenericKernelProcessTree *tree);
/* Once the records are sorted: drops the task state events trace_processor rejects, and
 * counts them.  0 or TG_ERR_NOMEM. */
int pf_check_task_states(tg_trace *t);

/* ---- perfetto_read_stats.c -------------------------------------------------------------- */
/* Counts packet pk of sequence s (its loss flags; cleared: it clears the incremental state):
 * false when the packet needs incremental state the sequence lost, and is to be skipped. */
bool pf_sequence_bookkeeping(tg_trace *t, pf_sequence *s, const PerfettoRead__TracePacket *pk,
                             bool cleared);
int pf_read_trace_stats(tg_trace *t, const PerfettoRead__TraceStats *ts);

/* ---- perfetto_read_packets.c: the packets of other data sources ------------------------- */
/* Reads packet pk (at ts on the trace clock) when it is one of the data sources
 * perfetto_read_packets.c dispatches (trace stats, system stats, power, CPU info, ...).
 * 0, or a negative status. */
int pf_read_other_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                         int64_t ts, uint64_t offset);

/* ---- perfetto_read_cpu_info.c ----------------------------------------------------------- */
/* A CpuInfo packet as the trace's CPU attributes (tg_trace_add_cpu_info).  0 or
 * TG_ERR_NOMEM. */
int pf_read_cpu_info(tg_trace *t, const PerfettoRead__CpuInfo *info);

/* ---- perfetto_read_etw.c ---------------------------------------------------------------- */
/* A packet's ETW events (field 95, unknown to protobuf-c here): file I/O operations as
 * slices.  pf_etw_finish ends those still open once every packet is read; pf_etw_free
 * releases what the reader kept.  0 or TG_ERR_NOMEM. */
int pf_read_etw_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, const pf_sequence *s,
                       uint64_t offset);
int pf_etw_finish(tg_trace *t);
void pf_etw_free(pf_trace *p);

/* ---- perfetto_read_trigger.c ------------------------------------------------------------ */
/* A trigger (a Trigger or clone_snapshot_trigger packet at ts) as a slice of the track
 * "Trace Triggers".  0 or TG_ERR_NOMEM. */
int pf_read_trigger(tg_trace *t, const PerfettoRead__Trigger *tr, int64_t ts, uint64_t offset);
/* The global "Trace Triggers" track (type "triggers") every trigger is on, made at the first
 * one; NULL when out of memory. */
pf_track *pf_trigger_track(pf_trace *p);

/* ---- Chrome's triggers (perfetto_read_chrome_trigger.c) ---- */
/* A translation table's chrome_study names.  0 or TG_ERR_NOMEM. */
int pf_read_chrome_study_table(tg_trace *t, const PerfettoRead__TranslationTable *tt);
/* A packet's chrome_trigger (unknown to protobuf-c here), if it has one, as an instant at ts.
 * 0 or TG_ERR_NOMEM. */
int pf_read_chrome_trigger(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts,
                           uint64_t offset);
/* Names the triggers by the study tables, once every packet is read. */
void pf_resolve_chrome_triggers(pf_trace *p);

/* ---- counter tracks and values (perfetto_read_counter.c) ------------------------------- */
/* A data source's counter track as trace_processor makes it: its type (the blueprint's
 * name), name, unit, the dimensions that tell it apart and its source args (their names and
 * strings static or in the arena; copied). */
typedef struct pf_counter_how {
    const char *type, *name, *unit;
    const tg_value *dims, *source_args;
    size_t n_dims, n_source_args;
    int32_t pid, tid; /* whose, -1 no one's */
    bool slices;      /* a track of instants (pf_slice_record), not of counter values */
} pf_counter_how;
/* The track (pf_trace.tracks' index) of how's type and dimensions, made at its first use;
 * TG_ERR_NOMEM. */
int64_t pf_counter_track(tg_trace *t, const pf_counter_how *how);
/* A value of counter track k at ts (args: n named values for the counter's arg set, copied;
 * NULL none).  0 or TG_ERR_NOMEM. */
int pf_counter_record(tg_trace *t, int64_t ts, int64_t k, double value, const tg_value *args,
                      size_t n, uint64_t offset);
/* What data sources keep between packets (a disk's last counts, ...), made at first use:
 * NULL when out of memory; freed with the trace (pf_probe_state_free). */
struct pf_probe_state *pf_probe_state_of(pf_trace *p);
void pf_probe_state_free(pf_trace *p);
/* The previous values a source keeps under key (n of them, zero at first: *fresh set);
 * NULL when out of memory. */
int64_t *pf_probe_previous(pf_trace *p, uint64_t key, size_t n, bool *fresh);
uint64_t pf_counter_key(uint64_t seed, const void *bytes, size_t n);
/* Sets p->packet_machine to packet pk's machine.  0 or TG_ERR_NOMEM. */
int pf_packet_machine(pf_trace *p, const PerfettoRead__TracePacket *pk);
/* A string value named name (text copied into the arena); false when out of memory. */
bool pf_value_text(tg_trace *t, tg_value *v, const char *name, const char *text, size_t len);
static inline tg_value pf_value_int(const char *name, int64_t i)
{
    return (tg_value){.name = name, .type = TG_VAL_SINT, .v.s = i, .bits = 64, .base = 10};
}
static inline tg_value pf_value_uint(const char *name, uint64_t u)
{
    return (tg_value){.name = name, .type = TG_VAL_UINT, .v.u = u, .bits = 64, .base = 10};
}
static inline tg_value pf_value_float(double f)
{
    return (tg_value){.type = TG_VAL_FLOAT, .v.f = f, .bits = 64};
}
static inline tg_value pf_value_bool(bool b)
{
    return (tg_value){.type = TG_VAL_UINT, .v.u = b, .bits = 1, .base = 10};
}
/* A string value named name of text as it is (text must outlive the value). */
static inline tg_value pf_value_string(const char *name, const char *text)
{
    return (tg_value){.name = name, .type = TG_VAL_STRING, .v.str = {text, strlen(text)}};
}

/* ---- system stats (perfetto_read_sys_stats.c) ---- */
int pf_read_sys_stats(tg_trace *t, const PerfettoRead__SysStats *st, int64_t ts, uint64_t offset);

/* ---- power rails and energy estimates (perfetto_read_power.c) ---- */
/* A PowerRails or AndroidEnergyEstimationBreakdown packet (at ts).  0 or TG_ERR_NOMEM. */
int pf_read_power(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts, uint64_t offset);

/* ---- Android probes and atrace counters (perfetto_read_android.c) ---- */
/* A CpuPerUidData, AndroidSystemProperty or InitialDisplayState packet of sequence s (at
 * ts).  0 or TG_ERR_NOMEM. */
int pf_read_android(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s, int64_t ts,
                    uint64_t offset);
/* atrace's "C|pid|name|value" (a counter of the process) and "N|pid|track|name" (an instant
 * on a named track of the process): buf, len without the trailing newline.  0 or
 * TG_ERR_NOMEM. */
int pf_atrace_counter(tg_trace *t, int64_t ts, const char *buf, size_t len, uint64_t offset);

/* ---- TrackEvent counters (perfetto_read_track_counter.c) ---- */
/* Track k is a counter track as descriptor c says (its unit, multiplier, increments).  0 or
 * TG_ERR_NOMEM. */
int pf_read_counter_descriptor(tg_trace *t, pf_track *k, const PerfettoRead__CounterDescriptor *c);
/* A TYPE_COUNTER event e of sequence s on track k (NULL: none) at ts.  0 or TG_ERR_NOMEM. */
int pf_track_event_counter(tg_trace *t, const PerfettoRead__TrackEvent *e, pf_track *k,
                           const pf_sequence *s, int64_t ts, uint64_t offset);

/* ---- perfetto_read_stream.c ------------------------------------------------------------- */
int pf_add_stream(tg_trace *t);

/* ---- the wire (perfetto_read_format.c) -------------------------------------------------- */
typedef struct pf_wire {
    uint32_t field, type; /* type: 0 varint, 1 64-bit, 2 bytes, 5 32-bit */
    uint64_t value;       /* varint, fixed */
    const uint8_t *bytes; /* type 2 */
    size_t len;
} pf_wire;
/* The next field of [*p, end): 1, 0 at the end, -1 malformed. */
int pf_wire_next(const uint8_t **p, const uint8_t *end, pf_wire *w);
/* The bytes of field `field` of a message (the last occurrence, as protobuf merges), or NULL. */
const uint8_t *pf_sub_bytes(const uint8_t *data, size_t size, uint32_t field, size_t *len);

/* A varint at *p (advanced past it): false when it runs past end or over 10 bytes. */
bool pf_varint_at(const uint8_t **p, const uint8_t *end, uint64_t *v);
/* protobuf-c keeps a field it has no descriptor for (a message of perfetto_trace.proto that
 * perfetto_read.proto leaves out) as its bytes after the tag, the length prefix included:
 * a length-delimited one's content (*len bytes), or NULL. */
const uint8_t *pf_unknown_bytes(const ProtobufCMessageUnknownField *u, size_t *len);

/* Interned kinds of a sequence's InternedData (its field numbers). */
enum {
    PF_INTERNED_NAME = 1,
    PF_INTERNED_CATEGORY = 2,
    PF_INTERNED_ANNOTATION_NAME = 3,
    PF_INTERNED_ANNOTATION_STRING = 29,
    PF_INTERNED_HISTOGRAM_NAME = 25
};
/* The text interned on sequence s under (kind, iid), or NULL. */
const char *pf_interned_text(const pf_trace *p, const pf_sequence *s, uint64_t kind, uint64_t iid);

/* ---- tracks and track events (perfetto_read_track.c) ---- */
int pf_read_track_descriptor(tg_trace *t, const PerfettoRead__TrackDescriptor *d);
/* ---- a track's source args (perfetto_read_track_args.c) ---- */
/* What descriptor d says of track k itself (description, child ordering, sibling rank). */
int pf_track_source_fields(tg_trace *t, pf_track *k, const PerfettoRead__TrackDescriptor *d);
/* Track k's source args into declaration d (in the trace's arena) when it has none of
 * another kind (a counter's).  0 or TG_ERR_NOMEM. */
int pf_track_source_args(tg_trace *t, const pf_track *k, tg_track_decl *d);
/* The translation table's slice names (applied by pf_apply_renames).  0 or TG_ERR_NOMEM. */
int pf_read_translation_table(tg_trace *t, const PerfettoRead__TranslationTable *tt);
void pf_apply_renames(pf_trace *p);
/* Declares every track that is not a thread's (tg_trace_add_track), parents first, named by
 * its descriptor or else by its first slice, and moves the records of their slices off
 * their threads.  0 or TG_ERR_NOMEM. */
int pf_declare_tracks(tg_trace *t);
int pf_read_track_event(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                        int64_t ts, uint64_t offset);
/* ---- perfetto_read_chrome_track_args.c ---- */
/* The args of legacy async track k as its first event (of process pid, -1 none; its id
 * process-scoped or not) makes them: scope and name (NULL none) copied.  0 or
 * TG_ERR_NOMEM. */
int pf_legacy_async_track_args(tg_trace *t, pf_track *k, const char *scope, const char *name,
                               int64_t pid, bool process_scoped);
/* A root descriptor track's args beside its descriptor's own (d's source args, its name):
 * into declaration d, in the arena.  0 or TG_ERR_NOMEM. */
int pf_descriptor_track_args(tg_trace *t, const pf_track *k, tg_track_decl *d);

/* ---- perfetto_read_chrome_process.c ---- */
/* The ChromeProcessDescriptor of process descriptor d (of track k): its process's args and
 * name.  0 or TG_ERR_NOMEM. */
int pf_read_chrome_process(tg_trace *t, const pf_track *k, const PerfettoRead__TrackDescriptor *d);

/* ---- perfetto_read_content_args.c ---- */
/* The content analysis' arg set of track event e of sequence s named name (NULL none): its
 * category and name, added to the trace's arg sets once per distinct pair.  0 or
 * TG_ERR_NOMEM. */
int pf_content_args(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                    const char *name);

/* ---- perfetto_read_track_association.c ---- */
/* The track track event e of sequence s goes on, into *out (NULL: none it can go on: it is
 * dropped).  0 or TG_ERR_NOMEM. */
int pf_track_event_track(pf_trace *p, const PerfettoRead__TrackEvent *e, const pf_sequence *s,
                         pf_track **out);
/* The track of uuid (made when add), NULL when absent or out of memory. */
pf_track *pf_track_of(pf_trace *p, uint64_t uuid, bool add);
/* A record beginning (begin) or ending the slice named by number name on track k at ts.  0 or
 * TG_ERR_NOMEM. */
int pf_slice_record(tg_trace *t, bool begin, int64_t ts, const pf_track *k, uint64_t name,
                    uint64_t offset);

/* A debug annotation's name (its own or interned), NULL none. */
const char *pf_annotation_name(const pf_trace *p, const pf_sequence *s,
                               const PerfettoRead__DebugAnnotation *a);
/* A debug annotation's scalar value into *v (a string pointing into the trace, not copied);
 * false when it has none this reader reads. */
bool pf_annotation_scalar(tg_trace *t, const pf_sequence *s, const PerfettoRead__DebugAnnotation *a,
                          tg_value *v);

/* The category of track event e (its categories joined by ","), in the arena, into *out
 * (NULL: none).  0 or TG_ERR_NOMEM. */
int pf_event_category(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                      const char **out);
/* The category, args and flows of track event e beginning a slice (ending: its flows only);
 * *out NULL when it has none.  0 or TG_ERR_NOMEM. */
int pf_event_slice_info(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                        bool ending, const pf_slice_info **out);

/* ---- Chrome's legacy async events (perfetto_read_legacy_async.c) ---- */
/* A TrackEvent e of sequence s at ts whose legacy_event has an async phase (S T p F, b e n),
 * named name (NULL none): a slice or instant on its async track.  0 or TG_ERR_NOMEM. */
int pf_read_legacy_async(tg_trace *t, const PerfettoRead__TrackEvent *e, pf_sequence *s,
                         const char *name, int64_t ts, uint64_t offset);

/* ---- older nested annotation values (perfetto_read_nested_args.c) ---- */
/* A NestedValue as a tree of values (strings in the arena; its name left to the caller).
 * 1 read, 0 no value, TG_ERR_NOMEM. */
int pf_nested_value(tg_trace *t, const PerfettoRead__DebugAnnotation__NestedValue *nv, tg_value *v);
/* A legacy_json_value parsed into the same tree: 1 read, 0 no value (null, empty), -1 not
 * JSON (the caller keeps the text), TG_ERR_NOMEM. */
int pf_json_arg_value(tg_trace *t, const char *json, tg_value *v);

/* ---- nested args (perfetto_read_arg_tree.c) ---- */
/* v (its name left alone) becomes a struct or array (type) of the n members (kept). */
void pf_arg_tree_value(tg_value *v, tg_value_type type, tg_value *members, size_t n);
/* A dict or array value built member by member, as the three nested forms (dict_entries,
 * NestedValue, legacy JSON) build theirs: room for n members, each child's result kept
 * (with its name, copied) when it read a value, the value made of those kept. */
typedef struct pf_members {
    tg_value *at;
    size_t n, kept;
} pf_members;
/* Room for n members in the arena; NULL when out of memory. */
tg_value *pf_members_start(tg_trace *t, pf_members *m, size_t n);
/* The next member's slot (zeroed), NULL when all n are taken. */
tg_value *pf_members_next(pf_members *m);
/* After the child read into the slot returned rc (1 read, 0 none, < 0 error): keeps it named
 * name (NULL for an array's member).  0, or the error. */
int pf_members_keep(tg_trace *t, pf_members *m, int rc, const char *name);
/* v becomes the dict (dict) or array of the kept members: 1, or 0 when none was kept. */
int pf_members_end(const pf_members *m, tg_value *v, bool dict);
/* A debug annotation's value, nested ones as a struct (dict_entries) or array (array_values)
 * of their members, strings copied into the trace's arena; its name is left to the caller.
 * 1 read, 0 no value this reader reads, TG_ERR_NOMEM. */
int pf_annotation_value(tg_trace *t, const pf_sequence *s, const PerfettoRead__DebugAnnotation *a,
                        tg_value *v);
/* How many args Chrome's typed messages of e give (at most), and those args appended to
 * args[*n...] (room for pf_chrome_arg_count(e) of them).  0 or TG_ERR_NOMEM. */
size_t pf_chrome_arg_count(const PerfettoRead__TrackEvent *e);
int pf_chrome_args(tg_trace *t, const PerfettoRead__TrackEvent *e, tg_value *args, size_t *n);

/* ---- Chrome's typed args (perfetto_read_chrome_args.c) ---- */
/* How many args chrome_histogram_sample and chrome_user_event give e (at most), and those
 * args appended to args[*n...].  0 or TG_ERR_NOMEM. */
size_t pf_chrome_typed_arg_count(const PerfettoRead__TrackEvent *e);
int pf_chrome_typed_args(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                         tg_value *args, size_t *n);
/* A translation table's histogram names and user actions by hash.  0 or TG_ERR_NOMEM. */
int pf_read_chrome_hash_table(tg_trace *t, const PerfettoRead__TranslationTable *tt);
/* Names the hashes of those args by the tables, once every packet is read. */
void pf_resolve_chrome_hashes(pf_trace *p);
void pf_chrome_hashes_free(pf_trace *p);

/* ---- streaming profile packets (perfetto_read_streaming_profile.c) ---- */
/* A packet's StreamingProfilePacket (field 54, unknown to protobuf-c here), if it has one:
 * its time deltas advance sequence s's track event time.  0 or TG_ERR_NOMEM. */
int pf_read_streaming_profile(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s);

/* ---- perf samples and interned profile data (perfetto_read_perf_sample.c) ---- */
/* A perf sample record's addr: its callsite + 1 (0 none) in the low bits, its cpu mode from
 * this bit on. */
#define PF_SAMPLE_MODE_SHIFT 56
/* An InternedData's profile items (unknown to protobuf-c here) kept for sequence s.  0 or
 * TG_ERR_NOMEM. */
int pf_read_profile_interned(tg_trace *t, const pf_sequence *s,
                             const PerfettoRead__InternedData *d);
/* A packet's PerfSample (field 66), if it has one, at ts: a record of its sequence's sample
 * class, its stack resolved into the trace's profile.  0 or TG_ERR_NOMEM. */
int pf_read_perf_sample(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                        int64_t ts, uint64_t offset);
void pf_profile_free(pf_trace *p);

/* ---- atrace's slices, in time order (perfetto_read_atrace_pass.c) ---- */
/* A bundle of cpu's events whose stream is whole from valid_from on (0: not said): the first
 * of a CPU's moves where the trace's ftrace data starts.  0 or TG_ERR_NOMEM. */
int pf_ftrace_bundle_start(pf_trace *p, uint32_t cpu, uint64_t valid_from);
/* Once every packet is read: sorts the records and adds the slices the atrace events make
 * (from where the ftrace data starts), each after its event.  0 or TG_ERR_NOMEM. */
int pf_atrace_pass(tg_trace *t);

/* ---- atrace's marks in fields (perfetto_read_atrace_marks.c) ---- */
/* A tracing_mark_write or sde_tracing_mark_write event (its message type d, its bytes) at ts
 * by thread tid: the slice it begins or ends (pf_atrace).  0 or TG_ERR_NOMEM. */
int pf_atrace_mark(tg_trace *t, const ProtobufCMessageDescriptor *d, const uint8_t *data,
                   size_t size, int64_t ts, int32_t tid, uint64_t offset);

/* ---- atrace's async slices (perfetto_read_atrace_async.c) ---- */
/* An ftrace print's "S|pid|name|cookie" / "F|pid|name|cookie" (buf, len: its text without the
 * trailing newline).  0 or TG_ERR_NOMEM. */
int pf_atrace_async(tg_trace *t, int64_t ts, const char *buf, size_t len, uint64_t offset);

#endif
