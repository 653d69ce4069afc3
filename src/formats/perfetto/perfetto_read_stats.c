/* perfetto_read_stats.c - what the tracing service says about its own session, as rows of
 * the `stats` table under trace_processor's names.
 *
 * Two sources.  Every packet's sequence bookkeeping: a packet flagged previous_packet_dropped
 * (a bit mask: bit 0 "some loss", the others why) after the first of its sequence is one
 * group of packets lost there; a packet that needs its sequence's incremental state while
 * that state is not valid (never cleared, or lost since) is skipped, as trace_processor
 * skips it.  And the TraceStats packet traced writes at the end: the service's own
 * counters, each buffer's (indexed by the buffer's number), the filter's, and per buffer
 * the losses of the sequences its writer_stats say wrote into it - counted up to that
 * packet, as trace_processor counts them when it reads it. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum { PF_SEQ_NEEDS_INCREMENTAL_STATE = 2 };

/* trace_processor's name of each cause bit of previous_packet_dropped (bit 1 up). */
static const char *const loss_cause_stat[PF_LOSS_CAUSES] = {
    "traced_buf_data_loss_read_gap",
    "traced_buf_data_loss_chunk_corrupted",
    "traced_buf_data_loss_orphan_continuation",
    "traced_buf_data_loss_reassembly_gap",
    "traced_buf_data_loss_reassembly_broken_chain",
    "traced_buf_data_loss_overwrite",
    "traced_buf_data_loss_writer_abort",
    "traced_buf_data_loss_smb_full",
};

bool pf_sequence_bookkeeping(tg_trace *t, pf_sequence *s, const PerfettoRead__TracePacket *pk,
                             bool cleared)
{
    bool first = s->n_packets++ == 0;
    uint32_t dropped = pk->has_previous_packet_dropped ? pk->previous_packet_dropped : 0;
    if (pk->optional_trusted_packet_sequence_id_case && !first && dropped) {
        s->loss_groups++;
        for (unsigned b = 0; b < PF_LOSS_CAUSES; b++)
            s->loss_causes[b] += (dropped >> (b + 1)) & 1;
    }
    if (cleared)
        s->incremental_valid = true;
    else if (dropped)
        s->incremental_valid = false;
    if (!(pk->has_sequence_flags && (pk->sequence_flags & PF_SEQ_NEEDS_INCREMENTAL_STATE)))
        return true;
    s->needs_incremental++;
    if (s->incremental_valid)
        return true;
    s->needs_incremental_skipped++;
    tg_trace_count(t, "tokenizer_skipped_packets", "info", 1);
    return false;
}

/* ---- the TraceStats packet ---------------------------------------------------------------- */

typedef struct buffer_loss {
    int64_t buffer;
    int64_t groups, sequences_dropped;
    int64_t causes[PF_LOSS_CAUSES];
} buffer_loss;

static int compare_buffers(const void *a, const void *b)
{
    const buffer_loss *x = a, *y = b;
    return x->buffer < y->buffer ? -1 : x->buffer > y->buffer;
}

static buffer_loss *loss_of(buffer_loss **all, size_t *n, size_t *cap, int64_t buffer)
{
    for (size_t i = 0; i < *n; i++)
        if ((*all)[i].buffer == buffer)
            return &(*all)[i];
    if (tg_grow(all, cap, *n + 1, sizeof **all) < 0)
        return NULL;
    buffer_loss *l = &(*all)[(*n)++];
    memset(l, 0, sizeof *l);
    l->buffer = buffer;
    return l;
}

static int64_t clamp(uint64_t v) { return v > INT64_MAX ? INT64_MAX : (int64_t)v; }

static int writer_losses(tg_trace *t, const PerfettoRead__TraceStats *ts)
{
    pf_trace *p = t->priv;
    buffer_loss *all = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < ts->n_writer_stats && rc == 0; i++) {
        const PerfettoRead__TraceStats__WriterStats *w = ts->writer_stats[i];
        const uint64_t *slot = tg_hash_find(&p->seq_by_id, (uint32_t)w->sequence_id);
        if (!slot)
            continue;
        const pf_sequence *s = &p->seqs[*slot];
        buffer_loss *l = loss_of(&all, &n, &cap, w->buffer);
        if (!l) {
            rc = TG_ERR_NOMEM;
            break;
        }
        l->groups += s->loss_groups;
        l->sequences_dropped += s->needs_incremental_skipped > 0 &&
                                s->needs_incremental_skipped == s->needs_incremental;
        for (unsigned b = 0; b < PF_LOSS_CAUSES; b++)
            l->causes[b] += s->loss_causes[b];
    }
    if (n > 1)
        qsort(all, n, sizeof *all, compare_buffers);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const buffer_loss *l = &all[i];
        rc = tg_trace_set_stat(t, "traced_buf_sequence_packet_loss", "data_loss", l->buffer,
                               l->groups);
        if (rc == 0)
            rc = tg_trace_set_stat(t, "traced_buf_incremental_sequences_dropped", "data_loss",
                                   l->buffer, l->sequences_dropped);
        for (unsigned b = 0; b < PF_LOSS_CAUSES && rc == 0; b++)
            rc = tg_trace_set_stat(t, loss_cause_stat[b], "data_loss", l->buffer, l->causes[b]);
    }
    free(all);
    return rc;
}

static int buffer_stats(tg_trace *t, const PerfettoRead__TraceStats *ts)
{
    for (size_t i = 0; i < ts->n_buffer_stats; i++) {
        const PerfettoRead__TraceStats__BufferStats *b = ts->buffer_stats[i];
        const struct {
            const char *name, *severity;
            uint64_t value;
        } rows[] = {
            {"traced_buf_buffer_size", "info", b->buffer_size},
            {"traced_buf_bytes_written", "info", b->bytes_written},
            {"traced_buf_bytes_overwritten", "info", b->bytes_overwritten},
            {"traced_buf_bytes_read", "info", b->bytes_read},
            {"traced_buf_padding_bytes_written", "info", b->padding_bytes_written},
            {"traced_buf_padding_bytes_cleared", "info", b->padding_bytes_cleared},
            {"traced_buf_chunks_written", "info", b->chunks_written},
            {"traced_buf_chunks_rewritten", "info", b->chunks_rewritten},
            {"traced_buf_chunks_overwritten", "info", b->chunks_overwritten},
            {"traced_buf_chunks_discarded", "info", b->chunks_discarded},
            {"traced_buf_chunks_read", "info", b->chunks_read},
            {"traced_buf_chunks_committed_out_of_order", "info", b->chunks_committed_out_of_order},
            {"traced_buf_write_wrap_count", "info", b->write_wrap_count},
            {"traced_buf_patches_succeeded", "info", b->patches_succeeded},
            {"traced_buf_patches_failed", "info", b->patches_failed},
            {"traced_buf_readaheads_succeeded", "info", b->readaheads_succeeded},
            {"traced_buf_readaheads_failed", "info", b->readaheads_failed},
            {"traced_buf_abi_violations", "data_loss", b->abi_violations},
            {"traced_buf_trace_writer_packet_loss", "data_loss", b->trace_writer_packet_loss},
        };
        for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
            if (tg_trace_set_stat(t, rows[r].name, rows[r].severity, (int64_t)i,
                                  clamp(rows[r].value)) < 0)
                return TG_ERR_NOMEM;
        /* streamed into the file: what a buffer overwrote never reached it */
        const pf_trace *p = t->priv;
        if (p->streams_into_file && b->bytes_overwritten &&
            tg_trace_set_stat(t, "long_trace_mode_bytes_overwritten", "data_loss", (int64_t)i,
                              clamp(b->bytes_overwritten)) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* A single stat set to value (trace_processor's SetStats). */
static int set_stat(tg_trace *t, const char *name, const char *severity, uint64_t value)
{
    return tg_trace_set_stat(t, name, severity, -1, clamp(value));
}

int pf_read_trace_stats(tg_trace *t, const PerfettoRead__TraceStats *ts)
{
    const struct {
        const char *name, *severity;
        uint64_t value;
    } singles[] = {
        {"traced_producers_connected", "info", ts->producers_connected},
        {"traced_producers_seen", "info", ts->producers_seen},
        {"traced_data_sources_registered", "info", ts->data_sources_registered},
        {"traced_data_sources_seen", "info", ts->data_sources_seen},
        {"traced_tracing_sessions", "info", ts->tracing_sessions},
        {"traced_total_buffers", "info", ts->total_buffers},
        {"traced_chunks_discarded", "info", ts->chunks_discarded},
        {"traced_patches_discarded", "info", ts->patches_discarded},
        {"traced_flushes_requested", "info", ts->flushes_requested},
        {"traced_flushes_succeeded", "info", ts->flushes_succeeded},
        {"traced_flushes_failed", "data_loss", ts->flushes_failed},
    };
    for (size_t i = 0; i < sizeof singles / sizeof *singles; i++)
        if (set_stat(t, singles[i].name, singles[i].severity, singles[i].value) < 0)
            return TG_ERR_NOMEM;
    const PerfettoRead__TraceStats__FilterStats *f = ts->filter_stats;
    if (f) {
        if (set_stat(t, "filter_errors", "error", f->errors) < 0 ||
            set_stat(t, "filter_input_bytes", "info", f->input_bytes) < 0 ||
            set_stat(t, "filter_input_packets", "info", f->input_packets) < 0 ||
            set_stat(t, "filter_output_bytes", "info", f->output_bytes) < 0 ||
            set_stat(t, "filter_time_taken_ns", "info", f->time_taken_ns) < 0)
            return TG_ERR_NOMEM;
        for (size_t i = 0; i < f->n_bytes_discarded_per_buffer; i++)
            if (tg_trace_set_stat(t, "traced_buf_bytes_filtered_out", "info", (int64_t)i,
                                  clamp(f->bytes_discarded_per_buffer[i])) < 0)
                return TG_ERR_NOMEM;
    }
    if (ts->has_final_flush_outcome && ts->final_flush_outcome) {
        bool ok = ts->final_flush_outcome ==
                  PERFETTO_READ__TRACE_STATS__FINAL_FLUSH_OUTCOME__FINAL_FLUSH_SUCCEEDED;
        if (tg_trace_count(t, ok ? "traced_final_flush_succeeded" : "traced_final_flush_failed",
                           ok ? "info" : "data_loss", 1) < 0)
            return TG_ERR_NOMEM;
    }
    if (buffer_stats(t, ts) < 0)
        return TG_ERR_NOMEM;
    return writer_losses(t, ts);
}
