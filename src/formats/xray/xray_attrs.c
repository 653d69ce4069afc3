/* xray_attrs.c - an XRay log's typed trace attributes.
 *
 * XRay timestamps are cycle counts (the x86 TSC), which the reader turns into ns with the
 * counter's frequency from the header.  FDR logs also open each thread buffer with a "WallTimeMarker" (seconds and
 * microseconds, read by compiler-rt from CLOCK_MONOTONIC despite the name: the values
 * recorded here count seconds since boot) followed by a NewCPUId record carrying the full
 * TSC of the same moment: the first such pair places the log on the monotonic clock, to the
 * microsecond.  Only the first buffer's opening records are read, a bounded walk. */
#include "formats/xray/xray_internal.h"

#include "io/byte_reader.h"

#include <stdio.h>

enum { WALK_RECORDS = 16, KIND_NEW_CPU = 2, KIND_WALLTIME = 4 };

/* Finds the first wall-time marker and the full TSC after it; false when there is none
 * among the first records. */
static bool first_marker_pair(const xray_file *xf, int64_t *wall_ns, uint64_t *tsc)
{
    const uint8_t *d = xf->map.data;
    uint64_t off = XRAY_HEADER_SIZE, size = xf->map.size;
    bool have_wall = false;
    for (int i = 0; i < WALK_RECORDS && size - off >= XRAY_FDR_META && off < size; i++) {
        const uint8_t *p = d + off;
        if (!(p[0] & 1))
            return false; /* a function record: the preamble is over */
        unsigned kind = p[0] >> 1;
        if (kind == KIND_WALLTIME) {
            /* a time past what int64 ns hold is damage, not a marker to place the log by */
            int64_t s = (int64_t)tg_le64(p + 1), us = (int64_t)tg_le32(p + 9);
            if (__builtin_mul_overflow(s, (int64_t)1000000000, wall_ns) ||
                __builtin_add_overflow(*wall_ns, us * 1000, wall_ns))
                return false;
            have_wall = true;
        } else if (kind == KIND_NEW_CPU && have_wall) {
            *tsc = tg_le64(p + 3);
            return true;
        }
        off += XRAY_FDR_META;
    }
    return false;
}

int xray_attrs_fill(tg_trace *t, const xray_file *xf)
{
    uint64_t freq = xf->hdr.cycle_frequency;
    /* the reader converts counts to ns with the header's frequency (xray_tsc_to_ns) */
    tg_clock_info c = {.name = "tsc", .origin = TG_CLOCK_CYCLES, .frequency_hz = freq};
    int64_t wall = 0;
    uint64_t tsc = 0;
    if (xf->hdr.type == 1 && freq && first_marker_pair(xf, &wall, &tsc)) {
        int64_t off;
        if (!__builtin_sub_overflow(wall, xray_tsc_to_ns(xf, tsc), &off)) {
            c.sync_origin = TG_CLOCK_MONOTONIC;
            c.sync_offset_ns = off;
        }
    }
    TG_TRY(tg_trace_set_clock_info(t, &c));
    tg_host_info h = {.byte_order = 1}; /* XRay logs are written little-endian (x86, arm64) */
    TG_TRY(tg_trace_set_host(t, &h));
    TG_TRY(tg_trace_set_tracer(t, "xray", NULL));
    TG_TRY(tg_trace_add_env_int(t, "version", xf->hdr.version));
    TG_TRY(tg_trace_add_env_int(t, "type", xf->hdr.type));
    TG_TRY(tg_trace_add_env(t, "constant-tsc", xf->hdr.constant_tsc ? "true" : "false", false, 0));
    TG_TRY(tg_trace_add_env(t, "nonstop-tsc", xf->hdr.nonstop_tsc ? "true" : "false", false, 0));
    TG_TRY(tg_trace_add_env_int(t, "cycle-frequency", (int64_t)freq));
    if (xf->hdr.type == 1)
        TG_TRY(tg_trace_add_env_int(t, "buffer-size", (int64_t)xf->hdr.fdr_buffer_size));
    return 0;
}
