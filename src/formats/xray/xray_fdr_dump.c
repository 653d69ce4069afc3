/* xray_fdr_dump.c - `llvm-xray fdr-dump LOG`: every record of an FDR-mode log, one line
 * each in file order, as LLVM 14's record printer writes them.
 *
 * llvm-xray reads the 32-byte file header and then records to the end of the file, whatever
 * the header's type says (a basic-mode log is read as FDR records too): a byte with its low
 * bit set introduces a 16-byte metadata record of the kind in its other bits, else an 8-byte
 * function record starts there.  From log version 3, each buffer starts with a buffer-extents
 * record giving the bytes of records that follow; past them, llvm-xray skips byte by byte to
 * the next buffer-extents record, and a record that runs past them is an over-read.  The
 * first record it cannot read stops the dump with llvm-xray's message (exit 1), after the
 * records before it; the messages name the offsets llvm-xray names.  Sizes and offsets read
 * from the file are checked against the mapped size before any read. */
#include "formats/xray/xray_internal.h"

#include "core/file_input.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { HEADER_BYTES = 32, METADATA_BODY = 15, FUNCTION_RECORD = 8 };

/* The metadata record kinds, as compiler-rt writes them. */
enum {
    MD_NEW_BUFFER,
    MD_END_OF_BUFFER,
    MD_NEW_CPU,
    MD_TSC_WRAP,
    MD_WALLTIME,
    MD_CUSTOM_EVENT,
    MD_CALL_ARG,
    MD_BUFFER_EXTENTS,
    MD_TYPED_EVENT,
    MD_PID,
    MD_KINDS
};

typedef struct fdr_dumper {
    const uint8_t *data;
    uint64_t size, off;
    unsigned version;
    /* bytes of the current buffer not yet read (version 3 on), in llvm-xray's 32 bits: a
     * larger size read from the file is cut to them, as there */
    uint32_t buffer_left;
    tg_buf *out; /* the record being read, appended to the output once it is whole */
    tg_error **err;
} fdr_dumper;

static bool valid(const fdr_dumper *d, uint64_t off, uint64_t n)
{
    return off + n >= off && off + n <= d->size && n > 0;
}

static uint64_t get_le(fdr_dumper *d, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)d->data[d->off + i] << (8 * i);
    d->off += bytes;
    return v;
}

static int fail(fdr_dumper *d, const char *fmt, ...) TG_PRINTF(2, 3);
static int fail(fdr_dumper *d, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tg_err(d->err, TG_ERR_FORMAT, "%s", msg);
}

static void put_data(tg_buf *out, const uint8_t *p, int32_t n) { tg_buf_put(out, p, (size_t)n); }

/* A custom or typed event's payload after its metadata record: n bytes at d->off. */
static int event_data(fdr_dumper *d, int32_t n, const uint8_t **p)
{
    if (!valid(d, d->off, (uint64_t)n))
        return fail(d, "Cannot read %d bytes of custom event data from offset %" PRIu64 ".", n,
                    d->off);
    *p = d->data + d->off;
    d->off += (uint64_t)n;
    return 0;
}

static int custom_event(fdr_dumper *d, uint64_t begin)
{
    int32_t n = (int32_t)get_le(d, 4);
    if (n <= 0)
        return fail(d, "Invalid size for custom event (size = %d) at offset %" PRIu64 ".", n,
                    d->off);
    char line[160];
    if (d->version >= 5) {
        int32_t delta = (int32_t)get_le(d, 4);
        snprintf(line, sizeof line, "<Custom Event: delta = +%d, size = %d, data = '", delta, n);
    } else {
        uint64_t tsc = get_le(d, 8);
        unsigned cpu = d->version >= 4 ? (unsigned)get_le(d, 2) : 0;
        snprintf(line, sizeof line,
                 "<Custom Event: tsc = %" PRIu64 ", cpu = %u, size = %d, data = '", tsc, cpu, n);
    }
    d->off = begin + METADATA_BODY;
    const uint8_t *p = NULL;
    TG_TRY(event_data(d, n, &p));
    tg_buf_puts(d->out, line);
    put_data(d->out, p, n);
    tg_buf_puts(d->out, "'>\n");
    return 0;
}

static int typed_event(fdr_dumper *d, uint64_t begin)
{
    int32_t n = (int32_t)get_le(d, 4);
    if (n <= 0)
        return fail(d, "Invalid size for typed event (size = %d) at offset %" PRIu64 ".", n,
                    d->off);
    int32_t delta = (int32_t)get_le(d, 4);
    unsigned type = (unsigned)get_le(d, 2);
    d->off = begin + METADATA_BODY;
    const uint8_t *p = NULL;
    TG_TRY(event_data(d, n, &p));
    tg_buf_printf(d->out, "<Typed Event: delta = +%d, type = %u, size = %d, data = '", delta, type,
                  n);
    put_data(d->out, p, n);
    tg_buf_puts(d->out, "'\n"); /* llvm-xray closes no '>' here */
    return 0;
}

static const char *const metadata_what[MD_KINDS] = {
    [MD_NEW_BUFFER] = "a new buffer record",  [MD_END_OF_BUFFER] = "an end-of-buffer record",
    [MD_NEW_CPU] = "a new cpu id record",     [MD_TSC_WRAP] = "a new TSC wrap record",
    [MD_WALLTIME] = "a wallclock record",     [MD_CUSTOM_EVENT] = "a custom event record",
    [MD_CALL_ARG] = "a call argument record", [MD_TYPED_EVENT] = "a typed event record",
    [MD_PID] = "a process ID record",
};

static const char *const metadata_kind_name[MD_KINDS] = {
    [MD_NEW_BUFFER] = "Metadata:NewBuffer",   [MD_END_OF_BUFFER] = "Metadata:EndOfBuffer",
    [MD_NEW_CPU] = "Metadata:NewCPUId",       [MD_TSC_WRAP] = "Metadata:TSCWrap",
    [MD_WALLTIME] = "Metadata:WallClockTime", [MD_CUSTOM_EVENT] = "Metadata:CustomEvent",
    [MD_CALL_ARG] = "Metadata:CallArg",       [MD_BUFFER_EXTENTS] = "Metadata:BufferExtents",
    [MD_TYPED_EVENT] = "Metadata:TypedEvent", [MD_PID] = "Metadata:PIDEntry",
};

static int buffer_extents(fdr_dumper *d)
{
    if (!valid(d, d->off, 8))
        return fail(d, "Invalid offset for a buffer extent (%" PRIu64 ").", d->off);
    uint64_t size = get_le(d, 8);
    d->off += METADATA_BODY - 8;
    d->buffer_left = (uint32_t)size;
    tg_buf_printf(d->out, "<Buffer: size = %" PRIu64 " bytes>\n", size);
    return 0;
}

/* The body of a metadata record of kind k, d->off just past its first byte. */
static int metadata(fdr_dumper *d, unsigned k)
{
    if (k == MD_BUFFER_EXTENTS)
        return buffer_extents(d);
    if (!valid(d, d->off, METADATA_BODY))
        return fail(d, "Invalid offset for %s (%" PRIu64 ").", metadata_what[k], d->off);
    uint64_t begin = d->off;
    tg_buf *out = d->out;
    switch (k) {
    case MD_NEW_BUFFER: tg_buf_printf(out, "<Thread ID: %d>\n", (int32_t)get_le(d, 4)); break;
    case MD_END_OF_BUFFER: tg_buf_puts(out, "<End of Buffer>\n"); break;
    case MD_NEW_CPU: {
        unsigned cpu = (unsigned)get_le(d, 2);
        tg_buf_printf(out, "<CPU: id = %u, tsc = %" PRIu64 ">\n", cpu, get_le(d, 8));
        break;
    }
    case MD_TSC_WRAP: tg_buf_printf(out, "<TSC Wrap: base = %" PRIu64 ">\n", get_le(d, 8)); break;
    case MD_WALLTIME: {
        uint64_t sec = get_le(d, 8);
        tg_buf_printf(out, "<Wall Time: seconds = %" PRIu64 ".%06u>\n", sec,
                      (unsigned)get_le(d, 4));
        break;
    }
    case MD_CUSTOM_EVENT: return custom_event(d, begin);
    case MD_TYPED_EVENT: return typed_event(d, begin);
    case MD_CALL_ARG: {
        uint64_t arg = get_le(d, 8);
        tg_buf_printf(out, "<Call Argument: data = %" PRIu64 " (hex = 0x%" PRIx64 ")>\n", arg, arg);
        break;
    }
    case MD_PID: tg_buf_printf(out, "<PID: %d>\n", (int32_t)get_le(d, 4)); break;
    }
    d->off = begin + METADATA_BODY;
    return 0;
}

static int function_record(fdr_dumper *d)
{
    static const char *const kinds[] = {"Function Enter", "Function Exit", "Function Tail Exit",
                                        "Function Enter With Arg"};
    d->off--; /* the record's first byte is part of its function id */
    if (!valid(d, d->off, FUNCTION_RECORD))
        return fail(d, "Invalid offset for a function record (%" PRIu64 ").", d->off);
    uint64_t begin = d->off;
    uint32_t word = (uint32_t)get_le(d, 4);
    unsigned type = (word >> 1) & 7u;
    if (type > 3)
        return fail(d, "Unknown function record type '%u' at offset %" PRIu64 ".", type, begin);
    uint32_t delta = (uint32_t)get_le(d, 4);
    tg_buf_printf(d->out, "<%s: #%u delta = +%u>\n", kinds[type], word >> 4, delta);
    return 0;
}

/* From version 3, with the current buffer read: the next buffer-extents record, byte by
 * byte. */
static int next_buffer(fdr_dumper *d)
{
    for (;;) {
        if (!valid(d, d->off, 1))
            return fail(d,
                        "Failed reading one byte from offset %" PRIu64 ".\nFailed to find "
                        "the next BufferExtents record.",
                        d->off);
        uint8_t b = d->data[d->off++];
        if ((b & 1) && (b >> 1) == MD_BUFFER_EXTENTS) {
            if (!valid(d, d->off, 8))
                return fail(d,
                            "Invalid offset for a buffer extent (%" PRIu64 ").\nFailed to "
                            "find the next BufferExtents record.",
                            d->off);
            return buffer_extents(d);
        }
    }
}

static int one_record(fdr_dumper *d)
{
    tg_buf_reset(d->out);
    if (d->version >= 3 && d->buffer_left == 0)
        return next_buffer(d);
    uint64_t start = d->off;
    uint8_t b = d->data[d->off++];
    const char *kind = "Function";
    if (b & 1) {
        unsigned k = b >> 1;
        if (k >= MD_KINDS || (k == MD_END_OF_BUFFER && d->version >= 2)) {
            char why[96];
            if (k >= MD_KINDS)
                snprintf(why, sizeof why, "Invalid metadata record type: %u", k);
            else
                snprintf(why, sizeof why,
                         "End of buffer records are no longer supported "
                         "starting version 2 of the log.");
            return fail(
                d, "%s\nEncountered an unsupported metadata record (%u) at offset %" PRIu64 ".",
                why, k, start);
        }
        if (k == MD_BUFFER_EXTENTS)
            return buffer_extents(d);
        TG_TRY(metadata(d, k));
        kind = k == MD_CUSTOM_EVENT && d->version >= 5 ? "Metadata:CustomEventV5"
                                                       : metadata_kind_name[k];
    } else {
        TG_TRY(function_record(d));
    }
    if (d->version >= 3) {
        uint64_t used = d->off - start;
        if (used > d->buffer_left)
            return fail(d,
                        "Buffer over-read at offset %" PRIu64 " (over-read by %" PRIu64
                        " bytes); Record Type = %s.",
                        d->off, used - d->buffer_left, kind);
        d->buffer_left -= (uint32_t)used;
    }
    return 0;
}

int xray_fdr_dump(const char *path, tg_buf *out, tg_error **err)
{
    tg_map map;
    TG_TRY(tg_map_open(&map, path, err));
    fdr_dumper d = {.data = map.data, .size = map.size, .out = tg_buf_new(), .err = err};
    if (!d.out) {
        tg_map_close(&map);
        return TG_ERR_NOMEM;
    }
    static const char *const header_field[] = {"version", "file type", "flag bits",
                                               "cycle frequency"};
    static const unsigned field_end[] = {2, 4, 8, 16};
    int rc = 0;
    for (unsigned i = 0; i < 4 && rc == 0; i++)
        if (d.size < field_end[i])
            rc = fail(&d, "Failed reading %s from file header at offset %u.", header_field[i],
                      i ? field_end[i - 1] : 0);
    if (rc == 0) {
        d.version = (unsigned)(d.data[0] | d.data[1] << 8);
        d.off = HEADER_BYTES;
    }
    while (rc == 0 && valid(&d, d.off, 1)) {
        rc = one_record(&d);
        if (rc == 0) /* a record llvm-xray refuses (an over-read) is not printed */
            tg_buf_put(out, tg_buf_data(d.out), tg_buf_len(d.out));
    }
    tg_buf_free(d.out);
    tg_map_close(&map);
    return rc;
}
