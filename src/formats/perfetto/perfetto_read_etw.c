/* perfetto_read_etw.c - Windows' file I/O events recorded through ETW (an EtwTraceEventBundle
 * packet, field 95 of TracePacket) as slices with their args, as trace_processor draws them.
 *
 * A file operation starts with one event (create, directory enumeration, info, read/write,
 * simple op, path operation) and ends with an op-end event of the same I/O request packet
 * (IRP): one slice from the start to the end, named by the start's opcode (CreateFile,
 * ReadFile, Flush, ..., else a generic name by its kind), its args the start's fields under
 * trace_processor's names ("I/O Request Packet", "File Object", "Thread ID", ...) and the
 * end's ("Extra Info", "NT Status").  An event without an IRP cannot be matched: a slice of
 * no duration (an end without one: "EndOperation").  An end whose start was not seen is an
 * "EndOperation" of no duration with the arg "Missing Event" = "Start"; a start whose IRP is
 * used again before it ended, or still open when every packet is read, ends where it
 * started with "Missing Event" = "End".  Operations overlap, so the slices go on global
 * tracks reused as they free up (trace_processor's track compressor), one per operation in
 * flight.  Matching follows the packets' order in the file.
 *
 * These messages are not in perfetto_read.proto: they are read from the wire
 * (pf_wire_next), each a flat message of scalars and strings. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum {
    PF_PACKET_ETW_EVENTS = 95,
    ETW_BUNDLE_EVENT = 2,
    ETW_EVENT_TIMESTAMP = 1,
    ETW_EVENT_OP_END = 12,
    ETW_MAX_FIELD = 16,
    ETW_OP_FIRST = 64, /* CreateFile: the first file I/O opcode */
};

#define ETW_TRACK_UUID 0xe7f1000000000000ull

/* How a field becomes an arg. */
enum etw_arg_kind {
    ETW_POINTER,
    ETW_UINT,
    ETW_STRING,
    ETW_INFO_CLASS,     /* a FILE_INFORMATION_CLASS: its name when known */
    ETW_EXTRA_BY_CLASS, /* Extra Info, named by the event's info class when it tells */
};

typedef struct etw_field {
    uint8_t number, kind;
    const char *name;
} etw_field;

/* One kind of file I/O event (a field of EtwTraceEvent). */
typedef struct etw_kind {
    uint8_t event_field;
    uint8_t irp, opcode, info_class; /* their field numbers, 0 none */
    const char *name;                /* when the opcode does not name it */
    etw_field fields[8];
} etw_kind;

static const etw_kind etw_kinds[] = {
    {7,
     1,
     0,
     0,
     "CreateFile",
     {{1, ETW_POINTER, "I/O Request Packet"},
      {2, ETW_POINTER, "File Object"},
      {3, ETW_UINT, "Thread ID"},
      {4, ETW_POINTER, "Create Options"},
      {5, ETW_POINTER, "File Attributes"},
      {6, ETW_POINTER, "Share Access"},
      {7, ETW_STRING, "Open Path"}}},
    {8,
     1,
     9,
     6,
     "DirEnum",
     {{1, ETW_POINTER, "I/O Request Packet"},
      {2, ETW_POINTER, "File Object"},
      {3, ETW_POINTER, "File Key"},
      {4, ETW_UINT, "Thread ID"},
      {6, ETW_INFO_CLASS, "Info Class"},
      {7, ETW_UINT, "File Index"},
      {8, ETW_STRING, "Enumeration Path"}}},
    {9,
     1,
     7,
     6,
     "Info",
     {{1, ETW_POINTER, "I/O Request Packet"},
      {2, ETW_POINTER, "File Object"},
      {3, ETW_POINTER, "File Key"},
      {4, ETW_EXTRA_BY_CLASS, "Extra Info"},
      {5, ETW_UINT, "Thread ID"},
      {6, ETW_INFO_CLASS, "Info Class"}}},
    {10,
     2,
     8,
     0,
     "ReadOrWrite",
     {{2, ETW_POINTER, "I/O Request Packet"},
      {1, ETW_UINT, "Offset"},
      {3, ETW_POINTER, "File Object"},
      {4, ETW_POINTER, "File Key"},
      {5, ETW_UINT, "Thread ID"},
      {6, ETW_UINT, "I/O Size"},
      {7, ETW_POINTER, "I/O Flags"}}},
    {11,
     1,
     5,
     0,
     "SimpleOp",
     {{1, ETW_POINTER, "I/O Request Packet"},
      {2, ETW_POINTER, "File Object"},
      {3, ETW_POINTER, "File Key"},
      {4, ETW_UINT, "Thread ID"}}},
    {ETW_EVENT_OP_END,
     1,
     0,
     0,
     "EndOperation",
     {{2, ETW_UINT, "Extra Info"}, {3, ETW_POINTER, "NT Status"}}},
    {14,
     1,
     8,
     6,
     "PathOperation",
     {{1, ETW_POINTER, "I/O Request Packet"},
      {2, ETW_POINTER, "File Object"},
      {3, ETW_POINTER, "File Key"},
      {4, ETW_UINT, "Extra Info"},
      {5, ETW_UINT, "Thread ID"},
      {6, ETW_INFO_CLASS, "Info Class"},
      {7, ETW_STRING, "File Name"}}},
};
#define ETW_KIND_COUNT (sizeof etw_kinds / sizeof *etw_kinds)
#define ETW_MAX_ARGS 11 /* a kind's fields, the end's two, "Missing Event" */

/* The file I/O opcodes' names, from ETW_OP_FIRST on (Windows' FileIo event types). */
static const char *const op_names[] = {"CreateFile",
                                       "Cleanup",
                                       "Close",
                                       "ReadFile",
                                       "WriteFile",
                                       "SetInformation",
                                       "DeleteFile",
                                       "RenameFile",
                                       "DirectoryEnumeration",
                                       "Flush",
                                       "QueryFileInformation",
                                       "FilesystemControlEvent",
                                       "EndOperation",
                                       "DirectoryNotification"};

/* Windows' FILE_INFORMATION_CLASS names, from 1 on. */
static const char *const info_class_names[] = {
    "FileDirectoryInformation",
    "FileFullDirectoryInformation",
    "FileBothDirectoryInformation",
    "FileBasicInformation",
    "FileStandardInformation",
    "FileInternalInformation",
    "FileEaInformation",
    "FileAccessInformation",
    "FileNameInformation",
    "FileRenameInformation",
    "FileLinkInformation",
    "FileNamesInformation",
    "FileDispositionInformation",
    "FilePositionInformation",
    "FileFullEaInformation",
    "FileModeInformation",
    "FileAlignmentInformation",
    "FileAllInformation",
    "FileAllocationInformation",
    "FileEndOfFileInformation",
    "FileAlternateNameInformation",
    "FileStreamInformation",
    "FilePipeInformation",
    "FilePipeLocalInformation",
    "FilePipeRemoteInformation",
    "FileMailslotQueryInformation",
    "FileMailslotSetInformation",
    "FileCompressionInformation",
    "FileObjectIdInformation",
    "FileCompletionInformation",
    "FileMoveClusterInformation",
    "FileQuotaInformation",
    "FileReparsePointInformation",
    "FileNetworkOpenInformation",
    "FileAttributeTagInformation",
    "FileTrackingInformation",
    "FileIdBothDirectoryInformation",
    "FileIdFullDirectoryInformation",
    "FileValidDataLengthInformation",
    "FileShortNameInformation",
    "FileIoCompletionNotificationInformation",
    "FileIoStatusBlockRangeInformation",
    "FileIoPriorityHintInformation",
    "FileSfioReserveInformation",
    "FileSfioVolumeInformation",
    "FileHardLinkInformation",
    "FileProcessIdsUsingFileInformation",
    "FileNormalizedNameInformation",
    "FileNetworkPhysicalNameInformation",
    "FileIdGlobalTxDirectoryInformation",
    "FileIsRemoteDeviceInformation",
    "FileUnusedInformation",
    "FileNumaNodeInformation",
    "FileStandardLinkInformation",
    "FileRemoteProtocolInformation",
    "FileRenameInformationBypassAccessCheck",
    "FileLinkInformationBypassAccessCheck",
    "FileVolumeNameInformation",
    "FileIdInformation",
    "FileIdExtdDirectoryInformation",
    "FileReplaceCompletionInformation",
    "FileHardLinkFullIdInformation",
    "FileIdExtdBothDirectoryInformation",
    "FileDispositionInformationEx",
    "FileRenameInformationEx",
    "FileRenameInformationExBypassAccessCheck",
    "FileDesiredStorageClassInformation",
    "FileStatInformation",
    "FileMemoryPartitionInformation",
    "FileStatLxInformation",
    "FileCaseSensitiveInformation",
    "FileLinkInformationEx",
    "FileLinkInformationExBypassAccessCheck",
    "FileStorageReserveIdInformation",
    "FileCaseSensitiveInformationForceAccessCheck",
    "FileKnownFolderInformation",
    "FileStatBasicInformation",
    "FileId64ExtdDirectoryInformation",
    "FileId64ExtdBothDirectoryInformation",
    "FileIdAllExtdDirectoryInformation",
    "FileIdAllExtdBothDirectoryInformation",
};

enum { INFO_DISPOSITION = 13, INFO_ALLOCATION = 19, INFO_END_OF_FILE = 20 };

/* An operation started and not yet ended. */
typedef struct etw_started {
    uint64_t irp;
    uint64_t name; /* its slice name's number */
    int64_t ts;
    uint32_t slot; /* its track */
    pf_slice_info *info;
} etw_started;

struct pf_etw {
    etw_started *started;
    size_t n_started, cap_started;
    tg_hash started_by_irp; /* irp -> index in started */
    bool *busy;             /* the tracks taken by operations in flight */
    size_t n_slots, cap_slots;
};

/* One event's fields (the last occurrence of each, as protobuf merges). */
typedef struct etw_values {
    bool has[ETW_MAX_FIELD];
    uint64_t value[ETW_MAX_FIELD];
    const uint8_t *bytes[ETW_MAX_FIELD];
    size_t len[ETW_MAX_FIELD];
} etw_values;

static bool read_values(const uint8_t *data, size_t size, etw_values *v)
{
    memset(v->has, 0, sizeof v->has);
    const uint8_t *at = data, *end = data + size;
    pf_wire w;
    int more;
    while ((more = pf_wire_next(&at, end, &w)) > 0) {
        if (w.field >= ETW_MAX_FIELD)
            continue;
        v->has[w.field] = true;
        v->value[w.field] = w.value;
        v->bytes[w.field] = w.type == 2 ? w.bytes : NULL;
        v->len[w.field] = w.type == 2 ? w.len : 0;
    }
    return more == 0;
}

static pf_track *slot_track(tg_trace *t, uint32_t slot)
{
    pf_track *k = pf_track_of(t->priv, ETW_TRACK_UUID + slot, true);
    if (k && !k->name)
        k->name = "ETW File I/O";
    return k;
}

/* A free track (taken when take), its number or -1 when out of memory. */
static int64_t free_slot(struct pf_etw *e, bool take)
{
    size_t i = 0;
    while (i < e->n_slots && e->busy[i])
        i++;
    if (i == e->n_slots) {
        if (tg_grow(&e->busy, &e->cap_slots, e->n_slots + 1, sizeof *e->busy) < 0)
            return -1;
        e->busy[e->n_slots++] = false;
    }
    e->busy[i] = take;
    return (int64_t)i;
}

static int add_arg(tg_trace *t, pf_slice_info *info, const char *name, enum etw_arg_kind kind,
                   const etw_values *v, unsigned field)
{
    tg_value *a = &info->args[info->n_args];
    *a = (tg_value){.name = name, .type = TG_VAL_UINT, .bits = 64, .base = 10};
    if (kind == ETW_STRING) {
        if (!v->bytes[field])
            return 0;
        a->type = TG_VAL_STRING;
        if (!(a->v.str.ptr =
                  tg_arena_strndup(&t->arena, (const char *)v->bytes[field], v->len[field])))
            return TG_ERR_NOMEM;
        a->v.str.len = strlen(a->v.str.ptr);
    } else if (kind == ETW_INFO_CLASS && v->value[field] >= 1 &&
               v->value[field] <= sizeof info_class_names / sizeof *info_class_names) {
        a->type = TG_VAL_STRING;
        a->v.str.ptr = info_class_names[v->value[field] - 1];
        a->v.str.len = strlen(a->v.str.ptr);
    } else {
        a->v.u = v->value[field];
        if (kind == ETW_POINTER)
            a->flags = TG_VALF_POINTER;
    }
    info->n_args++;
    return 0;
}

/* The args of an event of kind k appended to info. */
static int add_args(tg_trace *t, pf_slice_info *info, const etw_kind *k, const etw_values *v)
{
    for (size_t i = 0; i < 8 && k->fields[i].name; i++) {
        const etw_field *f = &k->fields[i];
        if (!v->has[f->number])
            continue;
        const char *name = f->name;
        if (f->kind == ETW_EXTRA_BY_CLASS && k->info_class && v->has[k->info_class]) {
            uint64_t c = v->value[k->info_class];
            name = c == INFO_DISPOSITION                           ? "Disposition"
                   : c == INFO_ALLOCATION || c == INFO_END_OF_FILE ? "File Size"
                                                                   : name;
        }
        int rc = add_arg(t, info, name, f->kind == ETW_EXTRA_BY_CLASS ? ETW_UINT : f->kind, v,
                         f->number);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static pf_slice_info *new_info(tg_trace *t)
{
    pf_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
    tg_value *args = tg_arena_alloc(&t->arena, ETW_MAX_ARGS * sizeof *args);
    if (!info || !args)
        return NULL;
    *info = (pf_slice_info){.args = args};
    return info;
}

static void missing_event(pf_slice_info *info, const char *which)
{
    info->args[info->n_args++] =
        (tg_value){.name = "Missing Event", .type = TG_VAL_STRING, .v.str = {which, strlen(which)}};
}

/* A slice of no duration at ts named name with info's args, on a free track. */
static int scoped(tg_trace *t, const char *name, int64_t ts, pf_slice_info *info, uint64_t offset)
{
    pf_trace *p = t->priv;
    int64_t slot = free_slot(p->etw, false);
    uint64_t n = pf_name_number(t, name);
    pf_track *k = slot < 0 ? NULL : slot_track(t, (uint32_t)slot);
    if (!k || n == UINT64_MAX)
        return TG_ERR_NOMEM;
    int rc = pf_slice_record(t, true, ts, k, n, offset);
    if (rc < 0)
        return rc;
    p->recs[p->n_recs - 1].slice = info->n_args ? info : NULL;
    return pf_slice_record(t, false, ts, k, n, offset);
}

/* Ends the operation started[i] at ts (its slice's args completed before). */
static int end_started(tg_trace *t, size_t i, int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    struct pf_etw *e = p->etw;
    etw_started s = e->started[i];
    pf_track *k = slot_track(t, s.slot);
    if (!k)
        return TG_ERR_NOMEM;
    e->busy[s.slot] = false;
    tg_hash_remove(&e->started_by_irp, s.irp);
    if (i != --e->n_started) { /* the last one takes its place */
        e->started[i] = e->started[e->n_started];
        uint64_t *slot = tg_hash_find(&e->started_by_irp, e->started[i].irp);
        if (slot)
            *slot = i;
    }
    return pf_slice_record(t, false, ts, k, s.name, offset);
}

static int start(tg_trace *t, const char *name, uint64_t irp, int64_t ts, pf_slice_info *info,
                 uint64_t offset)
{
    pf_trace *p = t->priv;
    struct pf_etw *e = p->etw;
    uint64_t *slot = tg_hash_find(&e->started_by_irp, irp);
    if (slot) { /* its IRP is used again: the end of the earlier operation was lost */
        size_t i = (size_t)*slot;
        missing_event(e->started[i].info, "End");
        int rc = end_started(t, i, e->started[i].ts, offset);
        if (rc < 0)
            return rc;
    }
    int64_t track = free_slot(e, true);
    uint64_t n = pf_name_number(t, name);
    pf_track *k = track < 0 ? NULL : slot_track(t, (uint32_t)track);
    if (!k || n == UINT64_MAX ||
        tg_grow(&e->started, &e->cap_started, e->n_started + 1, sizeof *e->started) < 0 ||
        tg_hash_insert(&e->started_by_irp, irp, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = e->n_started;
    e->started[e->n_started++] =
        (etw_started){.irp = irp, .name = n, .ts = ts, .slot = (uint32_t)track, .info = info};
    int rc = pf_slice_record(t, true, ts, k, n, offset);
    if (rc == 0)
        p->recs[p->n_recs - 1].slice = info;
    return rc;
}

/* One EtwTraceEvent (its bytes). */
static int read_event(tg_trace *t, const pf_sequence *s, const uint8_t *data, size_t size,
                      uint64_t offset)
{
    pf_trace *p = t->priv;
    etw_values ev;
    if (!read_values(data, size, &ev))
        return 0;
    const etw_kind *k = NULL;
    for (size_t i = 0; i < ETW_KIND_COUNT && !k; i++)
        if (ev.has[etw_kinds[i].event_field] && ev.bytes[etw_kinds[i].event_field])
            k = &etw_kinds[i];
    if (!k)
        return 0; /* not a file I/O event */
    int64_t ts = pf_boot_time(p, PF_CLOCK_BOOTTIME, s ? s->id : 0,
                              ev.has[ETW_EVENT_TIMESTAMP] ? ev.value[ETW_EVENT_TIMESTAMP] : 0);
    etw_values v;
    if (!read_values(ev.bytes[k->event_field], ev.len[k->event_field], &v))
        return 0;
    pf_slice_info *info = new_info(t);
    if (!info)
        return TG_ERR_NOMEM;
    int rc = add_args(t, info, k, &v);
    if (rc < 0)
        return rc;
    bool has_irp = v.has[k->irp];
    if (k->event_field == ETW_EVENT_OP_END) {
        uint64_t *slot = has_irp ? tg_hash_find(&p->etw->started_by_irp, v.value[k->irp]) : NULL;
        if (!slot) {
            if (has_irp)
                missing_event(info, "Start");
            return scoped(t, k->name, ts, info, offset);
        }
        pf_slice_info *started = p->etw->started[*slot].info;
        for (size_t i = 0; i < info->n_args; i++)
            started->args[started->n_args++] = info->args[i];
        return end_started(t, (size_t)*slot, ts, offset);
    }
    const char *name = k->name;
    if (k->opcode && v.has[k->opcode] && v.value[k->opcode] >= ETW_OP_FIRST &&
        v.value[k->opcode] < ETW_OP_FIRST + sizeof op_names / sizeof *op_names)
        name = op_names[v.value[k->opcode] - ETW_OP_FIRST];
    if (!has_irp)
        return scoped(t, name, ts, info, offset);
    return start(t, name, v.value[k->irp], ts, info, offset);
}

int pf_read_etw_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, const pf_sequence *s,
                       uint64_t offset)
{
    pf_trace *p = t->priv;
    for (unsigned i = 0; i < pk->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &pk->base.unknown_fields[i];
        size_t len;
        const uint8_t *bundle = u->tag == PF_PACKET_ETW_EVENTS ? pf_unknown_bytes(u, &len) : NULL;
        if (!bundle)
            continue;
        if (!p->etw && !(p->etw = calloc(1, sizeof *p->etw)))
            return TG_ERR_NOMEM;
        const uint8_t *at = bundle, *end = bundle + len;
        pf_wire w;
        while (pf_wire_next(&at, end, &w) > 0)
            if (w.field == ETW_BUNDLE_EVENT && w.type == 2) {
                int rc = read_event(t, s, w.bytes, w.len, offset);
                if (rc < 0)
                    return rc;
            }
    }
    return 0;
}

int pf_etw_finish(tg_trace *t)
{
    pf_trace *p = t->priv;
    struct pf_etw *e = p->etw;
    while (e && e->n_started) {
        missing_event(e->started[0].info, "End");
        int rc = end_started(t, 0, e->started[0].ts, 0);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void pf_etw_free(pf_trace *p)
{
    if (!p->etw)
        return;
    free(p->etw->started);
    free(p->etw->busy);
    tg_hash_free(&p->etw->started_by_irp);
    free(p->etw);
    p->etw = NULL;
}
