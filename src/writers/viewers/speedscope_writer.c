/* speedscope_writer.c - speedscope's JSON file format, `traceglot convert --to speedscope`.
 *
 * The format (file-format-schema.json of the speedscope package) is one object: a shared
 * frame table and one profile per thread; ours are "evented" profiles: open ("O") and close
 * ("C") events with a frame index and a time, in integer nanoseconds counted from the
 * trace's first event (so that large clock values stay exact in JavaScript's doubles).
 * Opens come from function entries, closes from the frames the call-stack builder ends, so
 * they nest the way speedscope requires, including frames unwound or still open at the end.
 * A frame's `file` is the module holding its function (the frame walk keeps each name's
 * module: the executable, library or kernel), as the schema's file field is meant for; a
 * name seen in two modules is one frame, of the first one's module.
 *
 * A profile's events must be contiguous in the file while the merged input interleaves
 * threads, so each thread's events are spooled: kept in a small buffer per thread that is
 * appended to one temporary file in chunks; at the end the frame table is written, then
 * each thread's chunks in order.  Memory is bounded by threads, chunks and names.  A perf.data
 * file's samples become sampled profiles instead (speedscope_samples.c). */
#include "core/consumer.h"
#include "core/value_text.h"
#include "writers/viewers/frame_walk.h"
#include "writers/viewers/sample_stacks.h"

#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SPOOL_CHUNK = 64 * 1024 };

struct ss_chunk {
    off_t at;
    size_t len;
};

struct ss_thread {
    tg_buf *events; /* not yet spooled */
    struct ss_chunk *chunks;
    size_t n_chunks, chunks_cap;
    int64_t last_ns;
    int any; /* an event was written (for the commas) */
};

struct ss_writer {
    tg_frame_walk walk;
    struct ss_thread *threads;
    size_t n_threads, threads_cap;
    FILE *spool;
    off_t spool_len;
    int64_t base_ns;
    char copy[SPOOL_CHUNK];
};

static int spool_out(struct ss_writer *ss, struct ss_thread *th)
{
    size_t len = tg_buf_len(th->events);
    if (!len)
        return 0;
    if (!ss->spool && !(ss->spool = tmpfile()))
        return TG_ERR_IO;
    if (tg_grow(&th->chunks, &th->chunks_cap, th->n_chunks + 1, sizeof *th->chunks) < 0)
        return TG_ERR_NOMEM;
    if (pwrite(fileno(ss->spool), tg_buf_data(th->events), len, ss->spool_len) != (ssize_t)len)
        return TG_ERR_IO;
    th->chunks[th->n_chunks++] = (struct ss_chunk){ss->spool_len, len};
    ss->spool_len += (off_t)len;
    tg_buf_reset(th->events);
    return 0;
}

static int put_event(struct ss_writer *ss, const tg_walk_thread *t, char type, uint32_t frame,
                     int64_t ns)
{
    struct ss_thread *th = &ss->threads[t->index];
    tg_buf *b = th->events;
    tg_buf_puts(b, th->any ? ",\n{\"type\":\"" : "\n{\"type\":\"");
    th->any = 1;
    tg_buf_putc(b, type);
    tg_buf_puts(b, "\",\"frame\":");
    tg_buf_u64(b, frame);
    tg_buf_puts(b, ",\"at\":");
    tg_buf_i64(b, ns - ss->base_ns);
    tg_buf_putc(b, '}');
    if (ns > th->last_ns)
        th->last_ns = ns;
    return tg_buf_len(b) >= SPOOL_CHUNK ? spool_out(ss, th) : 0;
}

static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct ss_writer *ss = ctx;
    if (!ss->n_threads)
        ss->base_ns = tg_event_time_ns(ev);
    if (tg_grow(&ss->threads, &ss->threads_cap, t->index + 1, sizeof *ss->threads) < 0)
        return TG_ERR_NOMEM;
    ss->threads[t->index] =
        (struct ss_thread){.events = tg_buf_new(), .last_ns = tg_event_time_ns(ev)};
    ss->n_threads = t->index + 1;
    return ss->threads[t->index].events ? 0 : TG_ERR_NOMEM;
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    return put_event(ctx, t, 'O', name, frame->entry_ns);
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    return put_event(ctx, t, 'C', name, call->exit_ns);
}

static void put_json_string(tg_buf *out, const char *s)
{
    tg_buf_putc(out, '"');
    tg_text_json_escaped(out, s, strlen(s));
    tg_buf_putc(out, '"');
}

/* The profile of one thread: its spooled chunks, then what is still in memory. */
static int put_profile(struct ss_writer *ss, const tg_walk_thread *t, tg_buf *out)
{
    struct ss_thread *th = &ss->threads[t->index];
    char name[32];
    snprintf(name, sizeof name, "thread-%d", t->tid);
    tg_buf_puts(out, "{\"type\":\"evented\",\"name\":");
    put_json_string(out, name);
    tg_buf_puts(out, ",\"unit\":\"nanoseconds\",\"startValue\":");
    tg_buf_i64(out, t->first_ns - ss->base_ns);
    tg_buf_puts(out, ",\"endValue\":");
    tg_buf_i64(out, (th->last_ns > t->last_ns ? th->last_ns : t->last_ns) - ss->base_ns);
    tg_buf_puts(out, ",\"events\":[");
    for (size_t c = 0; c < th->n_chunks; c++) {
        for (size_t done = 0; done < th->chunks[c].len;) {
            size_t want = th->chunks[c].len - done;
            if (want > sizeof ss->copy)
                want = sizeof ss->copy;
            ssize_t got = pread(fileno(ss->spool), ss->copy, want, th->chunks[c].at + (off_t)done);
            if (got <= 0)
                return TG_ERR_IO;
            tg_buf_put(out, ss->copy, (size_t)got);
            done += (size_t)got;
        }
    }
    tg_buf_put(out, tg_buf_data(th->events), tg_buf_len(th->events));
    tg_buf_puts(out, "\n]}");
    return 0;
}

static int put_file(struct ss_writer *ss, tg_set *set, tg_buf *out)
{
    tg_buf_puts(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                     "\"exporter\":\"traceglot " TG_VERSION_STRING "\",\"name\":");
    put_json_string(out, tg_set_trace_count(set) ? tg_trace_path(tg_set_trace(set, 0)) : "");
    tg_buf_puts(out, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
    for (size_t i = 0; i < tg_frame_names_count(&ss->walk.names); i++) {
        tg_buf_puts(out, i ? ",\n{\"name\":" : "\n{\"name\":");
        put_json_string(out, tg_frame_names_get(&ss->walk.names, i));
        if (i < ss->walk.n_name_modules && ss->walk.name_module[i]) {
            tg_buf_puts(out, ",\"file\":");
            put_json_string(out, ss->walk.name_module[i]);
        }
        tg_buf_putc(out, '}');
    }
    tg_buf_puts(out, "\n]},\"profiles\":[\n");
    for (size_t i = 0; i < ss->walk.n_threads; i++) {
        if (i)
            tg_buf_puts(out, ",\n");
        int rc = put_profile(ss, &ss->walk.threads[i], out);
        if (rc < 0)
            return rc;
    }
    tg_buf_puts(out, "\n]}\n");
    return 0;
}

static const tg_walk_hooks ss_hooks = {
    .thread_new = on_thread_new,
    .frame_open = on_frame_open,
    .frame_close = on_frame_close,
    .time_ordered = true, /* an evented profile's events go forward in time */
};

static int convert_speedscope(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                              tg_error **err)
{
    if (tg_set_has_samples(set))
        return tg_speedscope_samples(set, it, opts, out, err);
    struct ss_writer *ss = calloc(1, sizeof *ss);
    if (!ss)
        return TG_ERR_NOMEM;
    int rc = tg_frame_walk_run(&ss->walk, it, &ss_hooks, ss);
    if (rc == 0)
        rc = put_file(ss, set, out);
    for (size_t i = 0; i < ss->n_threads; i++) {
        tg_buf_free(ss->threads[i].events);
        free(ss->threads[i].chunks);
    }
    free(ss->threads);
    if (ss->spool)
        fclose(ss->spool);
    tg_frame_walk_free(&ss->walk);
    free(ss);
    return rc;
}

TG_CONVERTER(speedscope) = {"speedscope", convert_speedscope, .options = tg_sample_stack_options};
