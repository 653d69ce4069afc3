/* fuzz_ctf_live.c - libFuzzer target for the lttng-live viewer (ctf_live.c, ctf_live_proto.c):
 * the input is everything a relay answers on one connection, in order.
 *
 * The viewer talks to one end of a socket pair (tg_live_record_fd); a thread writes the
 * input into the other end and closes it, another reads and drops the viewer's requests.
 * Whatever the viewer recorded is then read like any trace (tg_exercise_path), so the
 * metadata and packets that came over the wire reach the CTF reader too.  The waits are
 * short (a reply that is not in the input is the connection closed, at once).
 *
 * Seeds: a relay's conversation made from the types fixture (tests/data/ctf/types): the
 * handshake, one session, its metadata stream and two data streams, the metadata whole,
 * each stream file as one packet, then the end of every stream and of the session. */
#include "fuzz_fixture.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_LIVE_MAX (1u << 20)

typedef struct feeder {
    int fd;
    const uint8_t *data;
    size_t size;
} feeder;

static void *feed(void *arg)
{
    feeder *f = arg;
    for (size_t off = 0; off < f->size;) {
        ssize_t k = send(f->fd, f->data + off, f->size - off, MSG_NOSIGNAL);
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    shutdown(f->fd, SHUT_WR);
    return NULL;
}

static void *drain(void *arg)
{
    feeder *f = arg;
    char buf[4096];
    while (recv(f->fd, buf, sizeof buf, 0) > 0)
        ;
    return NULL;
}

static void empty_dir(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        abort();
}

/* The horizon a live cat prints up to: every entry is read (a wrong count shows under
 * ASan), and a trace said to be readable has its folder. */
static void complete(void *ctx, const tg_live_horizon *h, size_t n)
{
    const char *dir = ctx;
    if (n == 0)
        abort();
    for (size_t i = 0; i < n; i++) {
        char trace[1100];
        struct stat st;
        snprintf(trace, sizeof trace, "%s/trace-%llu", dir, (unsigned long long)h[i].trace_id);
        if (stat(trace, &st) < 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_LIVE_MAX)
        return 0;
    char dir[1024];
    if (tg_fuzz_scratch("live", dir, sizeof dir) < 0)
        abort();
    empty_dir(dir);
    if (mkdir(dir, 0700) < 0)
        abort();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
        abort();
    feeder f = {sv[1], data, size};
    pthread_t writer, reader;
    if (pthread_create(&writer, NULL, feed, &f) || pthread_create(&reader, NULL, drain, &f))
        abort();
    tg_live_params p = {.not_found = "end",
                        .timeout_ms = 2000,
                        .retry_ms = 1,
                        .complete = complete,
                        .complete_ctx = dir};
    tg_live_result res;
    tg_error *err = NULL;
    tg_live_record_fd(sv[0], "fuzz", "host", "session", dir, &p, &res, &err);
    tg_error_free(err);
    close(sv[0]);
    pthread_join(writer, NULL);
    pthread_join(reader, NULL);
    close(sv[1]);
    char trace[1100];
    snprintf(trace, sizeof trace, "%s/trace-0", dir);
    struct stat st;
    if (stat(trace, &st) == 0)
        tg_exercise_path(trace, NULL);
    empty_dir(dir);
    return 0;
}

/* ---- seeds: a relay's answers, big-endian as on the wire --------------------------------- */

typedef struct wire {
    uint8_t *p;
    size_t n, cap;
} wire;

static void put(wire *w, const void *p, size_t n)
{
    if (w->n + n > w->cap) {
        size_t cap = (w->n + n) * 2;
        uint8_t *q = realloc(w->p, cap);
        if (!q)
            abort();
        w->p = q;
        w->cap = cap;
    }
    memcpy(w->p + w->n, p, n);
    w->n += n;
}

static void be(wire *w, uint64_t v, int bytes)
{
    uint8_t b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    put(w, b, (size_t)bytes);
}

static void text(wire *w, const char *s, size_t field)
{
    uint8_t *b = calloc(1, field);
    if (!b)
        abort();
    memcpy(b, s, strlen(s));
    put(w, b, field);
    free(b);
}

static void stream(wire *w, uint64_t id, bool metadata, const char *channel)
{
    be(w, id, 8);
    be(w, 0, 8); /* ctf trace id */
    be(w, metadata, 4);
    text(w, "host/session-1/ust/uid/0/64-bit", 4096);
    text(w, channel, 255);
}

int tg_fuzz_seeds(const char *out)
{
    static const char *const names[] = {"ch_0", "ch_1"};
    char path[1200];
    size_t mn = 0, sn[2] = {0, 0};
    snprintf(path, sizeof path, "%s/ctf/types/metadata", TG_FUZZ_DATA);
    uint8_t *meta = tg_fuzz_slurp(path, &mn), *data[2];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/ctf/types/%s", TG_FUZZ_DATA, names[i]);
        data[i] = tg_fuzz_slurp(path, &sn[i]);
    }
    int n = 0;
    if (meta && data[0] && data[1]) {
        wire w = {0};
        be(&w, 1, 8), be(&w, 2, 4), be(&w, 13, 4), be(&w, 1, 4); /* connect: id, 2.13 */
        be(&w, 1, 4);                                            /* create: ok */
        be(&w, 1, 4);                                            /* list: one session */
        be(&w, 7, 8), be(&w, 100000, 4), be(&w, 0, 4), be(&w, 3, 4);
        text(&w, "host", 64), text(&w, "session", 255);
        be(&w, 1, 4), be(&w, 3, 4); /* attach: ok, three streams */
        stream(&w, 10, true, "metadata");
        stream(&w, 11, false, names[0]);
        stream(&w, 12, false, names[1]);
        be(&w, mn, 8), be(&w, 1, 4), put(&w, meta, mn); /* metadata, then no more */
        be(&w, 0, 8), be(&w, 2, 4);
        for (int i = 0; i < 2; i++) { /* index, packet */
            be(&w, 0, 8), be(&w, sn[i] * 8, 8), be(&w, sn[i] * 8, 8);
            be(&w, 0, 8), be(&w, 0, 8), be(&w, 0, 8), be(&w, 11 + (uint64_t)i, 8);
            be(&w, 1, 4), be(&w, 0, 4);
            be(&w, 1, 4), be(&w, sn[i], 4), be(&w, 0, 4), put(&w, data[i], sn[i]);
        }
        for (int i = 0; i < 2; i++) { /* every stream hung up */
            for (int k = 0; k < 7; k++)
                be(&w, 0, 8);
            be(&w, 3, 4), be(&w, 0, 4);
        }
        be(&w, 4, 4), be(&w, 0, 4); /* new streams: the session is closed */
        n += tg_fuzz_seed(out, "types-conversation", -1, w.p, w.n);
        /* the same, cut after the metadata (the relay gone) */
        n += tg_fuzz_seed(out, "types-cut", -1, w.p, w.n / 2);
        free(w.p);
    }
    free(meta);
    free(data[0]);
    free(data[1]);
    return n;
}
