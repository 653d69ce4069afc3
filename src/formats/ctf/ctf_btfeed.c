/* ctf_btfeed.c - babeltrace2's recycled empty texts handed to the printing streams while the
 * replay that finds them (ctf_btcompat.c) runs on a thread of its own.
 *
 * The replay reads the whole trace again, which costs about as much as decoding it for
 * print; on a second core it runs beside the printer instead of before it.  It starts the
 * first time an empty text is rendered.  Each time its muxer pulls a batch from a stream, it
 * hands over that batch's findings (quirks) and how far the stream's events are complete;
 * the printer, asked for a quirk of an event past what it holds, takes over everything
 * handed over for that stream, dropping what lies behind its current event, and waits when
 * the replay has not come that far yet.  Memory stays bounded by the streams: the replay
 * waits when a stream's hand-over holds BT_FEED_LIMIT quirks the printer has not taken,
 * except while a printer waits for it (a stream the printer does not read, filtered out,
 * would otherwise stop the replay for good), when it goes on regardless.
 * A stream's events are numbered (serial) by its reader alike in the replay and the
 * printer; CTF streams are read once (no rewind), so the printer's numbers only grow.
 * When the thread cannot start, the replay runs to its end at once, on the caller's thread.
 * The feed is shared by the streams of every CTF trace of the set; the first stream freed
 * stops the thread (the replay reads those traces' metadata), the last frees the feed. */
#include "formats/ctf/ctf_btreplay.h"
#include "core/thread_start.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* handed over per stream and not taken: quirks, bytes of their texts */
#define BT_FEED_LIMIT 4096
#define BT_FEED_TEXT_LIMIT ((size_t)256 << 10)

typedef struct feed_stream {
    ctf_quirk *q; /* handed over, not yet taken */
    size_t n, cap;
    char *txt; /* their texts */
    size_t txt_len, txt_cap;
    uint64_t done_below; /* the replay has pulled the events numbered below */
} feed_stream;

struct ctf_btfeed {
    ctf_btsim *sim;
    tg_stream **streams; /* the real streams, in the replay's order */
    size_t n_streams;
    feed_stream *fs;
    size_t refs; /* real streams still holding the feed */
    pthread_mutex_t mu;
    pthread_cond_t to_replay;  /* the printer took quirks, waits, or the feed stops */
    pthread_cond_t to_printer; /* the replay handed quirks over or ended */
    bool threaded, joined;
    size_t waiting; /* printers waiting for the replay (one per stream read at once, on
                     * several threads: lines_ahead.c): no BT_FEED_LIMIT while one waits */
    bool stop;      /* the streams are being freed */
    bool finished;  /* the replay ran to its end */
    bool failed;    /* it ran out of memory: empty texts print empty */
    pthread_t th;
};

/* The replay's sink: a pulled batch's quirks for stream `index`. */
static bool hand_over(void *ctx, size_t index, const ctf_quirk *q, size_t n, const char *txt,
                      size_t txt_len, uint64_t done_below)
{
    ctf_btfeed *f = ctx;
    feed_stream *s = &f->fs[index];
    bool ok = true;
    pthread_mutex_lock(&f->mu);
    while (f->threaded && n && s->n &&
           (s->n + n > BT_FEED_LIMIT || s->txt_len + txt_len > BT_FEED_TEXT_LIMIT) && !f->waiting &&
           !f->stop)
        pthread_cond_wait(&f->to_replay, &f->mu);
    if (f->stop)
        ok = false;
    else if (n && tg_grow(&s->q, &s->cap, s->n + n, sizeof *s->q) != 0)
        ok = false;
    else if (txt_len && tg_grow(&s->txt, &s->txt_cap, s->txt_len + txt_len, 1) != 0)
        ok = false;
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            s->q[s->n + i] = q[i];
            s->q[s->n + i].off += s->txt_len;
        }
        if (txt_len)
            memcpy(s->txt + s->txt_len, txt, txt_len);
        s->txt_len += txt_len;
        s->n += n;
        s->done_below = done_below;
        if (f->waiting) /* each checks whether its event is covered now */
            pthread_cond_broadcast(&f->to_printer);
    }
    pthread_mutex_unlock(&f->mu);
    return ok;
}

static void *replay_main(void *arg)
{
    ctf_btfeed *f = arg;
    bool ok = ctf_btsim_run(f->sim, hand_over, f);
    pthread_mutex_lock(&f->mu);
    f->finished = true;
    f->failed = !ok && !f->stop;
    pthread_cond_broadcast(&f->to_printer);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* Starts the replay of the set of t (once: every trace of the set is then marked done). */
static void feed_start(tg_trace *t)
{
    tg_stream **streams;
    size_t n;
    ctf_btsim *sim = ctf_btsim_new(t, &streams, &n);
    if (!sim)
        return;
    ctf_btfeed *f = calloc(1, sizeof *f);
    feed_stream *fs = calloc(n, sizeof *fs);
    if (!f || !fs || pthread_mutex_init(&f->mu, NULL) != 0) {
        free(f);
        free(fs);
        free(streams);
        ctf_btsim_free(sim);
        return;
    }
    pthread_cond_init(&f->to_replay, NULL);
    pthread_cond_init(&f->to_printer, NULL);
    f->sim = sim;
    f->streams = streams;
    f->n_streams = n;
    f->fs = fs;
    f->refs = n;
    for (size_t i = 0; i < n; i++) {
        ctf_dstream *ds = streams[i]->priv;
        ds->feed = f;
        ds->feed_index = i;
    }
    f->threaded = true; /* set before the thread reads it */
    bool started = tg_thread_start(&f->th, replay_main, f);
    if (!started) {
        f->threaded = false;
        f->joined = true;
        replay_main(f);
    }
}

static void swap_ptr(void *a, void *b)
{
    void *t;
    memcpy(&t, a, sizeof t);
    memcpy(a, b, sizeof t);
    memcpy(b, &t, sizeof t);
}

/* The printer needs the quirks of its current event, which lies past every quirk it holds
 * (those are of events numbered below quirk_known): it drops them and takes over what the
 * replay handed over for the stream, waiting until that covers the event.  Taking over swaps
 * the buffers: the replay reuses the printer's old ones. */
static void feed_take(ctf_dstream *ds)
{
    ctf_btfeed *f = ds->feed;
    feed_stream *s = &f->fs[ds->feed_index];
    ds->n_quirks = ds->quirk_at = 0;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        if (s->n) {
            swap_ptr(&ds->quirks, &s->q);
            swap_ptr(&ds->quirk_txt, &s->txt);
            size_t c = ds->cap_quirks;
            ds->cap_quirks = s->cap;
            s->cap = c;
            c = ds->quirk_txt_cap;
            ds->quirk_txt_cap = s->txt_cap;
            s->txt_cap = c;
            ds->n_quirks = s->n;
            s->n = s->txt_len = 0;
            pthread_cond_signal(&f->to_replay);
        }
        ds->quirk_known = f->finished || f->failed ? UINT64_MAX : s->done_below;
        if (ds->serial < ds->quirk_known)
            break;
        f->waiting++;
        pthread_cond_signal(&f->to_replay);
        pthread_cond_wait(&f->to_printer, &f->mu);
        f->waiting--;
    }
    if (f->failed)
        ds->n_quirks = 0; /* out of memory: empty texts print empty */
    pthread_mutex_unlock(&f->mu);
    for (size_t i = 0; i < ds->n_quirks; i++)
        ds->quirks[i].s = ds->quirk_txt + ds->quirks[i].off;
}

const ctf_quirk *ctf_quirk_find(ctf_dstream *ds, const ctf_step *st)
{
    if (!ds->feed_checked) { /* streams of the set may be read on several threads at once */
        tg_trace_lock_set(ds->tr->trace);
        if (!ds->tr->btcompat_done)
            feed_start(ds->tr->trace);
        tg_trace_unlock_set(ds->tr->trace);
        ds->feed_checked = true;
    }
    if (!ds->feed)
        return NULL;
    if (ds->serial >= ds->quirk_known)
        feed_take(ds);
    /* events come in serial order: the search goes on from the last event's quirks */
    size_t i = ds->quirk_at;
    while (i < ds->n_quirks && ds->quirks[i].serial < ds->serial)
        i++;
    ds->quirk_at = i;
    for (; i < ds->n_quirks && ds->quirks[i].serial == ds->serial; i++)
        if (ds->quirks[i].st == st)
            return &ds->quirks[i];
    return NULL;
}

void ctf_btfeed_release(ctf_btfeed *f)
{
    if (!f->joined) {
        pthread_mutex_lock(&f->mu);
        f->stop = true;
        pthread_cond_broadcast(&f->to_replay);
        pthread_mutex_unlock(&f->mu);
        pthread_join(f->th, NULL);
        f->joined = true;
    }
    if (--f->refs)
        return;
    for (size_t i = 0; i < f->n_streams; i++) {
        free(f->fs[i].q);
        free(f->fs[i].txt);
    }
    ctf_btsim_free(f->sim);
    pthread_cond_destroy(&f->to_replay);
    pthread_cond_destroy(&f->to_printer);
    pthread_mutex_destroy(&f->mu);
    free(f->fs);
    free(f->streams);
    free(f);
}
