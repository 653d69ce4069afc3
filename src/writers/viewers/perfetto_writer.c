/* perfetto_writer.c - conversion to a Perfetto protobuf trace (ui.perfetto.dev,
 * trace_processor), `traceglot convert --to perfetto`.
 *
 * The file is a perfetto.protos.Trace: a run of TracePacket records, each framed as field 1
 * of Trace (tag, length, bytes), packed by protobuf-c from the small schema in
 * perfetto_subset.proto.  It is written as a stream:
 * - one packet sequence per source stream (a uftrace thread file, a CTF stream, a CPU).
 *   Its first packet clears the incremental state and carries a clock snapshot that starts
 *   a sequence-scoped incremental clock (id 64) at the stream's first time, so every later
 *   packet stores a short time delta; a time that goes backwards is written absolute on the
 *   builtin clock instead.  The defaults of the sequence name the track of its first thread,
 *   so events of that thread carry no track id.
 * - a TrackDescriptor per process and per thread (pid, tid), written when first seen;
 * - function frames from the call-stack builder (through frame_walk) as SLICE_BEGIN and
 *   SLICE_END (a frame whose exit the trace never shows gets no end: the UI marks it as
 *   not ended, which is the truth); other events as instants with their payload as debug annotations; lost
 *   records as instants with the count;
 * - a counter track per thread and field of each counter event (TG_KIND_COUNTER: uftrace's
 *   read:* records), a TrackDescriptor with a CounterDescriptor (KiB as bytes times 1024)
 *   whose parent is the thread's track, named "<event> <field>" and described when first
 *   used in a part; each record's integer fields as TYPE_COUNTER values on those tracks;
 * - a perf.data file's samples as Perfetto's PerfSample packets with interned call stacks
 *   (perfetto_samples.c), on a sequence of their own;
 * - event and annotation names interned per sequence: a packet that first uses a name on
 *   its sequence carries it in interned_data.
 * Memory is bounded by streams, threads and distinct names, never by events.  Times are the
 * traces' own (the merge's timeline), given to Perfetto on its default trace clock. */
#include "core/consumer.h"
#include "core/grow.h"
#include "core/value_text.h"
#include "writers/viewers/call_args.h"
#include "writers/viewers/frame_walk.h"
#include "writers/viewers/perfetto_ftrace.h"
#include "writers/viewers/perfetto_packets.h"
#include "writers/viewers/perfetto_samples.h"
#include "writers/viewers/task_names.h"

#include <stdlib.h>
#include <string.h>

enum {
    SENT_EVENT_NAME = 1, /* bits of tg_pf_seq.sent[name] */
    SENT_ANNOTATION_NAME = 2,
    MAX_INTERNED_PER_PACKET = 1 + 64,
};

#define PROCESS_UUID(pid) (0x5000000000000000ull | (uint32_t)(pid))
#define THREAD_UUID(tid) (0x6000000000000000ull | (uint32_t)(tid))
#define COUNTER_UUID(i) (0x7000000000000000ull | (uint64_t)(i))

struct pf_annotations {
    Perfetto__Protos__DebugAnnotation *items;
    Perfetto__Protos__DebugAnnotation **ptrs;
    size_t n, cap;
    size_t ptrs_cap;
    size_t *text_at; /* string values: offset in the text buffer, or SIZE_MAX */
    size_t text_cap;
};

struct pf_interned {
    Perfetto__Protos__EventName event_names[1];
    Perfetto__Protos__EventName *event_ptrs[1];
    Perfetto__Protos__DebugAnnotationName ann_names[MAX_INTERNED_PER_PACKET];
    Perfetto__Protos__DebugAnnotationName *ann_ptrs[MAX_INTERNED_PER_PACKET];
    Perfetto__Protos__InternedData data;
};

/* What the writer knows per process (by pid, through process_ids). */
struct pf_process {
    int pid;
    unsigned declared_part; /* the part whose track descriptors name it (0: none) */
    uint32_t name;          /* interned name + 1; 0: not known */
};

/* What the writer knows per thread (indexed like the walk's threads). */
struct pf_thread {
    uint32_t name;          /* its own interned name + 1 (procname, task-name); 0: none */
    unsigned declared_part; /* the part whose track descriptors name it (0: none) */
    tg_stream *seq_stream;  /* the stream of seq, the thread's last sequence */
    size_t seq;
    tg_pf_piece track; /* TrackEvent{track_uuid}, for a thread not its sequence's default */
};

/* A counter track: one integer field of one counter class on one thread. */
struct pf_counter {
    unsigned declared_part; /* the part whose track descriptors hold it (0: none) */
};

struct pf_writer {
    tg_pf_packets pk;
    unsigned part; /* 1, or the split's part number */
    struct pf_thread *threads;
    size_t threads_cap;
    tg_frame_walk walk;
    tg_hash process_ids; /* pid -> index in procs */
    struct pf_process *procs;
    size_t procs_cap;
    tg_hash counter_classes; /* event class pointer -> dense index */
    tg_hash counter_ids;     /* thread index, class index, field -> index in counters */
    struct pf_counter *counters;
    size_t counters_cap;
    tg_pf_piece *begins; /* by interned name: TrackEvent{SLICE_BEGIN, name_iid} */
    size_t begins_cap;
    tg_buf *text; /* rendered values of the current event */
    struct pf_annotations ann;
    struct pf_interned interned;
    tg_call_args args;
    tg_pf_ftrace ft;        /* kernel events */
    tg_pf_samples *samples; /* a perf.data file's samples; NULL: none */
    tg_error **err;
};

/* The sequence of the stream the thread's event came from, started when new. */
static tg_pf_seq *seq_for(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns)
{
    struct pf_thread *pt = &pf->threads[t->index];
    tg_pf_seq *seq;
    if (pt->seq_stream == t->stream && t->stream) {
        seq = &pf->pk.seqs[pt->seq];
    } else {
        if (!(seq = tg_pf_seq_of(&pf->pk, t->stream)))
            return NULL;
        pt->seq_stream = t->stream;
        pt->seq = (size_t)(seq - pf->pk.seqs);
    }
    if (!seq->started && tg_pf_seq_start(&pf->pk, seq, ns, THREAD_UUID(t->tid)) < 0)
        return NULL;
    return seq;
}

/* ---- tracks and their names ---------------------------------------------------------------- */

static struct pf_process *process_of(struct pf_writer *pf, int pid)
{
    int added;
    int64_t i = tg_hash_index(&pf->process_ids, (uint32_t)pid, &added);
    if (i < 0 ||
        (added && tg_grow(&pf->procs, &pf->procs_cap, (size_t)i + 1, sizeof *pf->procs) < 0))
        return NULL;
    if (added)
        pf->procs[i] = (struct pf_process){.pid = pid};
    return &pf->procs[i];
}

static int put_process_track(struct pf_writer *pf, tg_pf_seq *seq, const struct pf_process *pr,
                             int64_t ns)
{
    Perfetto__Protos__ProcessDescriptor proc = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
    proc.has_pid = 1;
    proc.pid = pr->pid;
    if (pr->name)
        proc.process_name = (char *)tg_frame_names_get(&pf->walk.names, pr->name - 1);
    Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
    track.has_uuid = 1;
    track.uuid = PROCESS_UUID(pr->pid);
    track.process = &proc;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    tg_pf_seq_stamp(&pkt, seq, ns);
    pkt.track_descriptor = &track;
    return tg_pf_packet_put(&pf->pk, &pkt);
}

/* The thread's track (and its process's, once per part), with the names known now. */
static int put_track(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns)
{
    tg_pf_seq *seq = seq_for(pf, t, ns);
    struct pf_process *pr = process_of(pf, t->pid);
    if (!seq || !pr)
        return TG_ERR_NOMEM;
    if (pr->declared_part != pf->part) {
        TG_TRY(put_process_track(pf, seq, pr, ns));
        pr->declared_part = pf->part;
    }
    const struct pf_thread *pt = &pf->threads[t->index];
    uint32_t name = pt->name ? pt->name : pr->name; /* clone gives a thread its creator's */
    Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
    thread.has_pid = thread.has_tid = 1;
    thread.pid = t->pid;
    thread.tid = t->tid;
    if (name)
        thread.thread_name = (char *)tg_frame_names_get(&pf->walk.names, name - 1);
    Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
    track.has_uuid = track.has_parent_uuid = 1;
    track.uuid = THREAD_UUID(t->tid);
    track.parent_uuid = PROCESS_UUID(t->pid);
    track.thread = &thread;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    tg_pf_seq_stamp(&pkt, seq, ns);
    pkt.track_descriptor = &track;
    return tg_pf_packet_put(&pf->pk, &pkt);
}

/* A new thread: named as task_names.h says, its process too when not yet named. */
static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    if (tg_grow(&pf->threads, &pf->threads_cap, t->index + 1, sizeof *pf->threads) < 0)
        return TG_ERR_NOMEM;
    struct pf_thread *pt = &pf->threads[t->index];
    *pt = (struct pf_thread){0};
    struct pf_process *pr = process_of(pf, t->pid);
    if (!pr)
        return TG_ERR_NOMEM;
    int64_t name = tg_task_thread_name(&pf->walk.names, ev, t->tid);
    if (name < 0)
        return (int)name;
    pt->name = (uint32_t)name;
    if (!pr->name) {
        name = tg_task_process_name(&pf->walk.names, ev, t->pid, t->tid == t->pid ? name : 0);
        if (name < 0)
            return (int)name;
        pr->name = (uint32_t)name;
        if (pr->name && pr->declared_part == pf->part) {
            /* described nameless when another of its threads (LTTng-UST's listener) was
             * first: described again */
            int64_t ns = tg_event_time_ns(ev);
            tg_pf_seq *seq = seq_for(pf, t, ns);
            if (!seq)
                return TG_ERR_NOMEM;
            TG_TRY(put_process_track(pf, seq, pr, ns));
        }
    }
    return 0;
}

/* A task-name event (uftrace's COMM records) names its thread, and its process when it is
 * the main thread; tracks already written in this part are described again. */
static int on_task_name(struct pf_writer *pf, tg_walk_thread *t, const tg_event *ev)
{
    int64_t name = tg_task_name_field(&pf->walk.names, ev, TG_SCOPE_PAYLOAD, "comm");
    struct pf_process *pr = process_of(pf, t->pid);
    if (name <= 0 || !pr)
        return name < 0 ? (int)name : pr ? 0 : TG_ERR_NOMEM;
    pf->threads[t->index].name = (uint32_t)name;
    int64_t ns = tg_event_time_ns(ev);
    if (t->tid == t->pid && pr->name != (uint32_t)name) {
        pr->name = (uint32_t)name;
        if (pr->declared_part == pf->part) {
            tg_pf_seq *seq = seq_for(pf, t, ns);
            if (!seq)
                return TG_ERR_NOMEM;
            TG_TRY(put_process_track(pf, seq, pr, ns));
        }
    }
    return pf->threads[t->index].declared_part == pf->part ? put_track(pf, t, ns) : 0;
}

/* ---- track events ------------------------------------------------------------------------ */

/* A slice begin or end written from pieces (tg_pf_slice_put): 0 when written, 1 when the
 * packet needs more than the pieces hold (a name not yet interned on the sequence, a time
 * before the sequence's clock), a negative status on failure. */
static int put_slice(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                     Perfetto__Protos__TrackEvent__Type type, uint32_t name)
{
    struct pf_thread *pt = &pf->threads[t->index];
    tg_pf_seq *seq = NULL;
    if (pt->seq_stream == t->stream && t->stream)
        seq = &pf->pk.seqs[pt->seq]; /* the thread's sequence, as seq_for finds it */
    if ((!seq || !seq->started) && !(seq = seq_for(pf, t, ns)))
        return TG_ERR_NOMEM;
    if (ns < seq->last_ns)
        return 1;
    tg_pf_piece te = pf->pk.end, track = {0};
    if (type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END) {
        if (!tg_pf_seq_sent(seq, name, SENT_EVENT_NAME))
            return 1;
        if (name >= pf->begins_cap) {
            size_t old = pf->begins_cap;
            if (tg_grow(&pf->begins, &pf->begins_cap, name + 1, sizeof *pf->begins) < 0)
                return TG_ERR_NOMEM;
            memset(pf->begins + old, 0, (pf->begins_cap - old) * sizeof *pf->begins);
        }
        if (!pf->begins[name].len) {
            Perfetto__Protos__TrackEvent begin = PERFETTO__PROTOS__TRACK_EVENT__INIT;
            begin.has_type = begin.has_name_iid = 1;
            begin.type = type;
            begin.name_iid = (uint64_t)name + 1;
            TG_TRY(tg_pf_piece_pack(&pf->pk, &begin.base, &pf->begins[name]));
        }
        te = pf->begins[name];
    }
    if (THREAD_UUID(t->tid) != seq->default_track) {
        if (!pt->track.len) {
            Perfetto__Protos__TrackEvent on_track = PERFETTO__PROTOS__TRACK_EVENT__INIT;
            on_track.has_track_uuid = 1;
            on_track.track_uuid = THREAD_UUID(t->tid);
            TG_TRY(tg_pf_piece_pack(&pf->pk, &on_track.base, &pt->track));
        }
        track = pt->track;
    }
    tg_pf_slice_put(&pf->pk, seq, (uint64_t)(ns - seq->last_ns), te, track);
    seq->last_ns = ns;
    return 0;
}

/* The thread's track described in the current part, once. */
static int declare_thread(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns)
{
    struct pf_thread *pt = &pf->threads[t->index];
    if (pt->declared_part == pf->part)
        return 0;
    TG_TRY(put_track(pf, t, ns));
    pt->declared_part = pf->part;
    return 0;
}

/* A track event packet on t's sequence: name is an interned name or UINT32_MAX for none;
 * annotations (already filled) are attached when n_ann > 0. */
static int put_event(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                     Perfetto__Protos__TrackEvent__Type type, uint32_t name, size_t n_ann,
                     const uint32_t *ann_names)
{
    struct pf_thread *pt = &pf->threads[t->index];
    if (pt->declared_part == pf->part && !n_ann &&
        type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT) {
        int rc = put_slice(pf, t, ns, type, name);
        if (rc <= 0)
            return rc;
    }
    TG_TRY(declare_thread(pf, t, ns));
    tg_pf_seq *seq = seq_for(pf, t, ns);
    if (!seq)
        return TG_ERR_NOMEM;
    Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
    te.has_type = 1;
    te.type = type;
    uint64_t track = THREAD_UUID(t->tid);
    if (track != seq->default_track) {
        te.has_track_uuid = 1;
        te.track_uuid = track;
    }
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    struct pf_interned *in = &pf->interned;
    in->data = (Perfetto__Protos__InternedData)PERFETTO__PROTOS__INTERNED_DATA__INIT;
    if (name != UINT32_MAX) {
        te.has_name_iid = 1;
        te.name_iid = (uint64_t)name + 1;
        int rc = tg_pf_seq_first_use(seq, name, SENT_EVENT_NAME);
        if (rc < 0)
            return rc;
        if (rc) {
            in->event_names[0] = (Perfetto__Protos__EventName)PERFETTO__PROTOS__EVENT_NAME__INIT;
            in->event_names[0].has_iid = 1;
            in->event_names[0].iid = te.name_iid;
            in->event_names[0].name = (char *)tg_frame_names_get(&pf->walk.names, name);
            in->event_ptrs[0] = &in->event_names[0];
            in->data.n_event_names = 1;
            in->data.event_names = in->event_ptrs;
        }
    }
    for (size_t i = 0; i < n_ann; i++) {
        int rc = tg_pf_seq_first_use(seq, ann_names[i], SENT_ANNOTATION_NAME);
        if (rc < 0)
            return rc;
        if (rc) {
            Perfetto__Protos__DebugAnnotationName *an =
                &in->ann_names[in->data.n_debug_annotation_names];
            *an = (Perfetto__Protos__DebugAnnotationName)
                PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT;
            an->has_iid = 1;
            an->iid = (uint64_t)ann_names[i] + 1;
            an->name = (char *)tg_frame_names_get(&pf->walk.names, ann_names[i]);
            in->ann_ptrs[in->data.n_debug_annotation_names++] = an;
            in->data.debug_annotation_names = in->ann_ptrs;
        }
    }
    if (n_ann) {
        te.n_debug_annotations = n_ann;
        te.debug_annotations = pf->ann.ptrs;
    }
    tg_pf_seq_stamp(&pkt, seq, ns);
    pkt.has_sequence_flags = 1;
    pkt.sequence_flags = TG_PF_SEQ_NEEDS_STATE;
    pkt.track_event = &te;
    if (in->data.n_event_names || in->data.n_debug_annotation_names)
        pkt.interned_data = &in->data;
    return tg_pf_packet_put(&pf->pk, &pkt);
}

#define SLICE_BEGIN PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
#define SLICE_END PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END

static int put_with_text(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                         Perfetto__Protos__TrackEvent__Type type, uint32_t name, const char *key);

/* ---- split output: a part ends every slice it began, the next begins them again ---------- */

static int split_end_frame(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns)
{
    (void)name;
    return put_event(ctx, t, ns, SLICE_END, UINT32_MAX, 0, NULL);
}

static int split_part_end(void *ctx)
{
    struct pf_writer *pf = ctx;
    return tg_pf_ftrace_flush(&pf->ft, &pf->pk);
}

static int split_part_start(void *ctx)
{
    struct pf_writer *pf = ctx;
    tg_pf_packets_part_started(&pf->pk);
    pf->part = pf->pk.split.part;
    tg_pf_ftrace_part_started(&pf->ft);
    return 0;
}

static int split_begin_frame(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns)
{
    return put_event(ctx, t, ns, SLICE_BEGIN, name, 0, NULL);
}

static const tg_split_ops pf_split_ops = {
    .end_frame = split_end_frame,
    .part_end = split_part_end,
    .part_start = split_part_start,
    .begin_frame = split_begin_frame,
};

/* Moves to the next part first when the current one is full. */
static int before_record(struct pf_writer *pf, int64_t ns)
{
    return tg_split_before(&pf->pk.split, &pf->walk, ns, pf->err);
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    struct pf_writer *pf = ctx;
    int64_t ns = frame->entry_ns;
    int rc = before_record(pf, ns);
    if (rc < 0)
        return rc;
    TG_TRY(tg_split_begun(&pf->pk.split, t->index));
    const tg_event *entry = tg_call_args_entry_of(pf->walk.current_ev, frame);
    if (entry) {
        tg_buf_reset(pf->text);
        if ((rc = tg_call_args_entry(&pf->args, entry, pf->text)) < 0)
            return rc;
        if (rc)
            return put_with_text(pf, t, ns, SLICE_BEGIN, name, "arguments");
    }
    return put_event(pf, t, ns, SLICE_BEGIN, name, 0, NULL);
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    if (!ev)
        return 0; /* still open at the end: Perfetto shows it as a slice that did not end */
    int rc = before_record(pf, call->exit_ns);
    if (rc < 0)
        return rc;
    tg_split_ended(&pf->pk.split, t->index);
    if (ev->size) { /* only a payload has a return value */
        tg_buf_reset(pf->text);
        if (tg_call_args_retval(&pf->args, ev, call, pf->text))
            return put_with_text(pf, t, call->exit_ns, SLICE_END, UINT32_MAX, "retval");
    }
    return put_event(pf, t, call->exit_ns, SLICE_END, UINT32_MAX, 0, NULL);
}

/* ---- counter tracks ------------------------------------------------------------------------ */

/* The counter track of field i (value v) of ev's class on thread t, described in the current
 * part when it is not yet: its index, or a negative status. */
static int64_t counter_track(struct pf_writer *pf, const tg_walk_thread *t, const tg_event *ev,
                             size_t i, const tg_value *v, int64_t ns)
{
    int added;
    const tg_event_class *cls = tg_event_class_of(ev);
    int64_t c = tg_hash_index(&pf->counter_classes, (uint64_t)(uintptr_t)cls, &added);
    if (c < 0)
        return c;
    uint64_t key = (uint64_t)t->index << 40 | (uint64_t)c << 16 | i;
    int64_t k = tg_hash_index(&pf->counter_ids, key, &added);
    if (k < 0 ||
        (added && tg_grow(&pf->counters, &pf->counters_cap, (size_t)k + 1, sizeof *pf->counters)))
        return TG_ERR_NOMEM;
    if (added)
        pf->counters[k] = (struct pf_counter){0};
    if (pf->counters[k].declared_part == pf->part)
        return k;
    TG_TRY(declare_thread(pf, t, ns));
    tg_pf_seq *seq = seq_for(pf, t, ns);
    if (!seq)
        return TG_ERR_NOMEM;
    Perfetto__Protos__CounterDescriptor counter = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
    if (v->flags & TG_VALF_KIB) {
        counter.has_unit = counter.has_unit_multiplier = 1;
        counter.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES;
        counter.unit_multiplier = 1024;
    }
    tg_buf_reset(pf->text);
    tg_buf_puts(pf->text, tg_event_class_name(cls));
    tg_buf_putc(pf->text, ' ');
    tg_buf_puts(pf->text, v->name ? v->name : "?");
    tg_buf_put(pf->text, "", 1);
    Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
    track.has_uuid = track.has_parent_uuid = 1;
    track.uuid = COUNTER_UUID(k);
    track.parent_uuid = THREAD_UUID(t->tid);
    track.name = (char *)tg_buf_data(pf->text);
    track.counter = &counter;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    tg_pf_seq_stamp(&pkt, seq, ns);
    pkt.track_descriptor = &track;
    TG_TRY(tg_pf_packet_put(&pf->pk, &pkt));
    pf->counters[k].declared_part = pf->part;
    return k;
}

/* A counter event: each integer field a TYPE_COUNTER value on its own track. */
static int on_counter(struct pf_writer *pf, tg_walk_thread *t, const tg_event *ev)
{
    int64_t ns = tg_event_time_ns(ev);
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < n && i < 0x10000; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        if ((v.type != TG_VAL_UINT && v.type != TG_VAL_SINT) || v.label)
            continue; /* texts, enums, symbols: not samples */
        int64_t k = counter_track(pf, t, ev, i, &v, ns);
        if (k < 0)
            return (int)k;
        tg_pf_seq *seq = seq_for(pf, t, ns);
        if (!seq)
            return TG_ERR_NOMEM;
        Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
        te.has_type = te.has_track_uuid = 1;
        te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
        te.track_uuid = COUNTER_UUID(k);
        te.has_counter_value = 1; /* an unsigned value past INT64_MAX is shown as INT64_MAX */
        te.counter_value = v.type == TG_VAL_UINT && v.v.u > INT64_MAX ? INT64_MAX : v.v.s;
        Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
        tg_pf_seq_stamp(&pkt, seq, ns);
        pkt.has_sequence_flags = 1;
        pkt.sequence_flags = TG_PF_SEQ_NEEDS_STATE;
        pkt.track_event = &te;
        TG_TRY(tg_pf_packet_put(&pf->pk, &pkt));
    }
    return 0;
}

/* ---- instants with debug annotations ------------------------------------------------------ */

static int add_annotation(struct pf_writer *pf, uint32_t *names, const char *name)
{
    struct pf_annotations *a = &pf->ann;
    if (a->n >= MAX_INTERNED_PER_PACKET - 1)
        return 0; /* an event with more fields than this shows its first ones */
    if (tg_grow(&a->items, &a->cap, a->n + 1, sizeof *a->items) < 0 ||
        tg_grow(&a->text_at, &a->text_cap, a->n + 1, sizeof *a->text_at) < 0)
        return TG_ERR_NOMEM;
    int64_t id = tg_frame_names_intern(&pf->walk.names, name, strlen(name));
    if (id < 0)
        return (int)id;
    names[a->n] = (uint32_t)id;
    a->items[a->n] = (Perfetto__Protos__DebugAnnotation)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
    a->items[a->n].has_name_iid = 1;
    a->items[a->n].name_iid = (uint64_t)id + 1;
    a->text_at[a->n] = SIZE_MAX;
    return 1;
}

/* One payload value as an annotation: integers and floats as numbers, everything else
 * (strings, enums, compounds) as the text traceglot's own printers show. */
static void set_value(struct pf_writer *pf, const tg_value *v)
{
    struct pf_annotations *a = &pf->ann;
    Perfetto__Protos__DebugAnnotation *d = &a->items[a->n];
    if (v->type == TG_VAL_SINT && !v->label) {
        d->has_int_value = 1;
        d->int_value = v->v.s;
    } else if (v->type == TG_VAL_UINT && !v->label) {
        if (v->flags & TG_VALF_POINTER) {
            d->has_pointer_value = 1;
            d->pointer_value = v->v.u;
        } else {
            d->has_uint_value = 1;
            d->uint_value = v->v.u;
        }
    } else if (v->type == TG_VAL_FLOAT) {
        d->has_double_value = 1;
        d->double_value = v->v.f;
    } else {
        a->text_at[a->n] = tg_buf_len(pf->text);
        if (v->type == TG_VAL_STRING)
            tg_buf_put(pf->text, v->v.str.ptr, strnlen(v->v.str.ptr, v->v.str.len));
        else
            tg_text_value(pf->text, v);
        tg_buf_put(pf->text, "", 1);
    }
}

/* The annotations' pointers, their texts in pf->text. */
static int link_annotations(struct pf_writer *pf)
{
    struct pf_annotations *a = &pf->ann;
    if (tg_grow(&a->ptrs, &a->ptrs_cap, a->n + 1, sizeof *a->ptrs) < 0)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < a->n; i++) {
        a->ptrs[i] = &a->items[i];
        if (a->text_at[i] != SIZE_MAX)
            a->items[i].string_value = (char *)tg_buf_data(pf->text) + a->text_at[i];
    }
    return 0;
}

/* A slice begin or end with one string annotation, key = pf->text (a call's arguments or
 * return value, as uftrace dump --chrome writes them). */
static int put_with_text(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                         Perfetto__Protos__TrackEvent__Type type, uint32_t name, const char *key)
{
    uint32_t names[1];
    pf->ann.n = 0;
    tg_buf_put(pf->text, "", 1);
    int rc = add_annotation(pf, names, key);
    if (rc < 0)
        return rc;
    pf->ann.text_at[pf->ann.n++] = 0;
    TG_TRY(link_annotations(pf));
    return put_event(pf, t, ns, type, name, pf->ann.n, names);
}

static int on_other(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    struct pf_annotations *a = &pf->ann;
    uint32_t names[MAX_INTERNED_PER_PACKET];
    a->n = 0;
    tg_buf_reset(pf->text);
    int rc = before_record(pf, tg_event_time_ns(ev));
    if (rc < 0)
        return rc;
    if (pf->samples && (rc = tg_pf_samples_event(pf->samples, &pf->pk, ev)) != 0)
        return rc < 0 ? rc : 0; /* a perf sample, with its call stack */
    if ((rc = tg_pf_ftrace_event(&pf->ft, &pf->pk, ev)) != 0)
        return rc < 0 ? rc : 0; /* a kernel event, in its CPU's ftrace bundle */
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind == TG_KIND_TASK_NAME && (rc = on_task_name(pf, t, ev)) < 0)
        return rc;
    if (kind == TG_KIND_COUNTER)
        return on_counter(pf, t, ev);
    if (kind == TG_KIND_LOST) {
        if ((rc = add_annotation(pf, names, "lost_count")) < 0)
            return rc;
        a->items[a->n].has_uint_value = 1;
        a->items[a->n++].uint_value = tg_event_lost_count(ev);
    }
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        if ((rc = add_annotation(pf, names, v.name ? v.name : "?")) < 0)
            return rc;
        if (rc == 0)
            break;
        set_value(pf, &v);
        a->n++;
    }
    TG_TRY(link_annotations(pf));
    const char *ev_name = tg_event_name(ev);
    if (!ev_name)
        ev_name = "?";
    int64_t name = tg_frame_names_intern(&pf->walk.names, ev_name, strlen(ev_name));
    if (name < 0)
        return (int)name;
    return put_event(pf, t, tg_event_time_ns(ev), PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
                     (uint32_t)name, a->n, names);
}

/* ---- the converter ------------------------------------------------------------------------ */

static const tg_walk_hooks pf_hooks = {
    .thread_new = on_thread_new,
    .frame_open = on_frame_open,
    .frame_close = on_frame_close,
    .other = on_other,
};

static int convert_perfetto(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                            tg_error **err)
{
    struct pf_writer pf = {.part = 1, .err = err, .text = tg_buf_new()};
    if (!pf.text)
        return TG_ERR_NOMEM;
    int rc = tg_pf_packets_open(&pf.pk, out, opts, &pf_split_ops, &pf, err);
    if (rc == 0)
        rc = tg_pf_ftrace_open(&pf.ft, set, it);
    if (rc == 0)
        rc = tg_pf_samples_open(&pf.samples, set, opts);
    if (rc == 0)
        rc = tg_frame_walk_run(&pf.walk, it, &pf_hooks, &pf);
    if (rc == 0)
        rc = tg_pf_ftrace_flush(&pf.ft, &pf.pk);
    int close_rc = tg_pf_packets_close(&pf.pk, rc < 0 ? NULL : err);
    if (rc == 0)
        rc = close_rc;
    free(pf.threads);
    free(pf.begins);
    free(pf.ann.items);
    free(pf.ann.ptrs);
    free(pf.ann.text_at);
    tg_buf_free(pf.text);
    tg_hash_free(&pf.process_ids);
    tg_hash_free(&pf.counter_classes);
    tg_hash_free(&pf.counter_ids);
    free(pf.counters);
    free(pf.procs);
    tg_frame_walk_free(&pf.walk);
    tg_call_args_free(&pf.args);
    tg_pf_ftrace_free(&pf.ft);
    tg_pf_samples_free(pf.samples);
    return rc;
}

/* --split-size/--split-time: writers/viewers/split_output.c */
static const tg_option_decl perfetto_options[] = {
    {"split-size", TG_OPT_TEXT, NULL,
     "write FILE-0001.ext, FILE-0002.ext, ... of at most about SIZE each (100M, 1G)", "SIZE"},
    {"split-time", TG_OPT_TEXT, NULL, "a new part every DURATION of trace time (1s, 250ms)",
     "DURATION"},
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {"kallsyms", TG_OPT_TEXT, NULL, "perf's --kallsyms: the kernel's symbols from FILE", "FILE"},
    {"buildid-dir", TG_OPT_TEXT, NULL, "perf's --buildid-dir: the build-id cache", "DIR"},
    {0},
};

TG_CONVERTER(perfetto) = {
    .name = "perfetto", .convert = convert_perfetto, .options = perfetto_options, .binary = true};
