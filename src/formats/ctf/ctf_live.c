/* ctf_live.c - an lttng-live viewer: reads a session from lttng-relayd into a CTF folder.
 *
 * The relay serves each CTF trace of a session (one per domain and bitness) as a metadata
 * stream and data streams; the viewer asks each data stream for its next packet index, then
 * for the packet, and fetches new metadata whenever the relay flags that a packet needs it.
 * What arrives is appended to a folder the CTF reader then reads like any LTTng trace
 * (DIR/trace-N/metadata and one file per stream, named by its channel), so every command
 * reads a live session with the same decoder, merge and printers as a recorded one.
 *
 * Where babeltrace2 2.0.4 gives up, this viewer goes on: an empty metadata reply is asked
 * again later; a session destroyed before its metadata came ends with nothing to read; a
 * stream that stays inactive or appears late is waited for as the relay's replies allow.
 * Every wait is bounded: a reply that does not come within the timeout, or a relay that
 * closes the connection, ends the reading with an error, the packets received before it
 * kept whole (a packet cut short is taken back out of its file).  Sizes the relay announces
 * are checked before anything is allocated from them: packets and metadata are copied
 * through a fixed buffer, stream and session counts are capped. */
#include "formats/ctf/ctf_live.h"
#include "formats/ctf/ctf_live_proto.h"
#include "core/grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LIVE_MAX_STREAMS 65536
#define LIVE_MAX_SESSIONS 65536
#define LIVE_METADATA_MAX ((uint64_t)256 << 20)
#define LIVE_COPY_CHUNK 65536

typedef struct live_trace {
    uint64_t ctf_trace_id;
    uint64_t metadata_stream;
    bool has_metadata_stream, metadata_done;
    int metadata_fd;
    uint64_t metadata_bytes;
} live_trace;

typedef struct live_dstream {
    uint64_t id;
    size_t trace; /* index in live->traces */
    int fd;
    bool done;
    bool pending;         /* an index was received, its packet not yet */
    bool known;           /* complete_to holds: a packet came, or an inactivity beacon */
    uint64_t complete_to; /* the stream's events up to this clock value have come */
    live_index idx;
} live_dstream;

typedef struct live_state {
    tg_net_conn *net;
    const char *where; /* the URL, for messages */
    const char *dir;
    const tg_live_params *p;
    tg_live_result *res;
    tg_error **err;
    uint64_t *sessions; /* the relay sessions attached: one name may be several */
    size_t n_sessions, cap_sessions;
    bool *closed;
    live_trace *traces;
    size_t n_traces, cap_traces;
    live_dstream *streams;
    size_t n_streams, cap_streams;
    int64_t progress_at;      /* ms of the last progress call */
    int64_t complete_at;      /* ms of the last complete call */
    tg_live_horizon *horizon; /* per trace, what the last complete call said */
    bool horizon_told;
    uint8_t buf[LIVE_COPY_CHUNK];
} live_state;

/* ---- moving bytes ---------------------------------------------------------------------- */

static int net_fail(live_state *L, tg_net_status st, const char *what)
{
    if (st == TG_NET_STOPPED) {
        L->res->stopped = true;
        return 1;
    }
    return tg_err_at(L->err, TG_ERR_IO, L->where, L->net->received, "lttng-live: %s: %s", what,
                     tg_net_status_text(L->net, st));
}

static int bad_reply(live_state *L, uint64_t at, const char *why)
{
    return tg_err_at(L->err, TG_ERR_FORMAT, L->where, at, "lttng-live: %s", why);
}

/* Sends a request and receives its fixed-size reply: 0, 1 stopped, <0 error. */
static int ask(live_state *L, const uint8_t *req, size_t n, uint8_t *reply, size_t reply_n,
               const char *what)
{
    tg_net_status st = tg_net_send(L->net, req, n);
    if (st == TG_NET_OK)
        st = tg_net_recv(L->net, reply, reply_n);
    return st == TG_NET_OK ? 0 : net_fail(L, st, what);
}

/* Receives n bytes into fd (or drops them when fd < 0): 0, 1 stopped, <0 error. */
static int copy_to(live_state *L, int fd, uint64_t n, const char *what, const char *path)
{
    while (n > 0) {
        size_t k = n < sizeof L->buf ? (size_t)n : sizeof L->buf;
        tg_net_status st = tg_net_recv(L->net, L->buf, k);
        if (st != TG_NET_OK)
            return net_fail(L, st, what);
        if (fd >= 0) {
            for (size_t off = 0; off < k;) {
                ssize_t w = write(fd, L->buf + off, k - off);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w < 0)
                    return tg_err_at(L->err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot write: %s",
                                     strerror(errno));
                off += (size_t)w;
            }
        }
        n -= k;
    }
    return 0;
}

static int open_file(live_state *L, const char *path, int *fd)
{
    *fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (*fd < 0)
        return tg_err_at(L->err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot create: %s",
                         strerror(errno));
    return 0;
}

/* ---- traces and streams -------------------------------------------------------------- */

static void trace_dir(const live_state *L, const live_trace *t, char *out, size_t n)
{
    snprintf(out, n, "%s/trace-%llu", L->dir, (unsigned long long)t->ctf_trace_id);
}

static int trace_of(live_state *L, uint64_t ctf_trace_id, size_t *out)
{
    for (size_t i = 0; i < L->n_traces; i++)
        if (L->traces[i].ctf_trace_id == ctf_trace_id) {
            *out = i;
            return 0;
        }
    if (tg_grow(&L->traces, &L->cap_traces, L->n_traces + 1, sizeof *L->traces) < 0)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    live_trace *t = &L->traces[L->n_traces];
    *t = (live_trace){.ctf_trace_id = ctf_trace_id, .metadata_fd = -1};
    char path[4200];
    trace_dir(L, t, path, sizeof path);
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return tg_err_at(L->err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot create: %s",
                         strerror(errno));
    *out = L->n_traces++;
    return 0;
}

static int add_stream(live_state *L, const live_stream_info *si)
{
    if (L->n_streams >= LIVE_MAX_STREAMS)
        return bad_reply(L, L->net->received, "more than 65536 streams announced");
    for (size_t i = 0; i < L->n_streams; i++)
        if (L->streams[i].id == si->id)
            return 0; /* announced again */
    size_t ti = 0;
    if (trace_of(L, si->ctf_trace_id, &ti) < 0)
        return -1;
    live_trace *t = &L->traces[ti];
    char path[4200], why[300];
    trace_dir(L, t, path, sizeof path);
    if (si->metadata) {
        if (t->has_metadata_stream)
            return 0;
        t->has_metadata_stream = true;
        t->metadata_stream = si->id;
        strcat(path, "/metadata");
        return open_file(L, path, &t->metadata_fd);
    }
    if (!ctf_live_safe_name(si->channel)) {
        snprintf(why, sizeof why,
                 "stream %llu: channel name \"%.64s\" is not a file name (letters, digits, "
                 "'_', '-', '.' expected)",
                 (unsigned long long)si->id, si->channel);
        return bad_reply(L, L->net->received, why);
    }
    size_t len = strlen(path);
    snprintf(path + len, sizeof path - len, "/%s", si->channel);
    if (access(path, F_OK) == 0) /* a second stream of one channel name: its id appended */
        snprintf(path + len, sizeof path - len, "/%s_%llu", si->channel,
                 (unsigned long long)si->id);
    if (tg_grow(&L->streams, &L->cap_streams, L->n_streams + 1, sizeof *L->streams) < 0)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    live_dstream *s = &L->streams[L->n_streams];
    *s = (live_dstream){.id = si->id, .trace = ti, .fd = -1};
    if (open_file(L, path, &s->fd) < 0)
        return -1;
    L->n_streams++;
    L->res->streams++;
    return 0;
}

/* Receives count stream records after an attach or new-streams reply. */
static int receive_streams(live_state *L, uint32_t count)
{
    if (count > LIVE_MAX_STREAMS)
        return bad_reply(L, L->net->received, "more than 65536 streams announced");
    for (uint32_t i = 0; i < count; i++) {
        _Static_assert(LIVE_STREAM_SIZE <= LIVE_COPY_CHUNK, "a stream record fits the buffer");
        uint64_t at = L->net->received;
        tg_net_status st = tg_net_recv(L->net, L->buf, LIVE_STREAM_SIZE);
        if (st != TG_NET_OK)
            return net_fail(L, st, "receiving the streams");
        live_stream_info si;
        char why[256];
        if (ctf_live_parse_stream(L->buf, &si, why) < 0)
            return bad_reply(L, at, why);
        if (add_stream(L, &si) < 0)
            return -1;
    }
    return 0;
}

/* ---- metadata ------------------------------------------------------------------------- */

/* Fetches the trace's new metadata until the relay has no more: 0, 1 stopped, <0 error. */
static int fetch_metadata(live_state *L, live_trace *t)
{
    if (!t->has_metadata_stream || t->metadata_done)
        return 0;
    char path[4200];
    trace_dir(L, t, path, sizeof path);
    strcat(path, "/metadata");
    for (;;) {
        uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_METADATA_REPLY_SIZE];
        size_t n = ctf_live_req_stream(req, LIVE_CMD_GET_METADATA, t->metadata_stream);
        uint64_t at = L->net->received;
        int rc = ask(L, req, n, rep, sizeof rep, "asking for metadata");
        if (rc)
            return rc;
        live_reply r;
        char why[256];
        if (ctf_live_parse_metadata_reply(rep, &r, why) < 0)
            return bad_reply(L, at, why);
        if (r.status == LIVE_METADATA_NO_NEW)
            return 0;
        if (r.status == LIVE_METADATA_HUP) {
            t->metadata_done = true;
            return 0;
        }
        if (r.status == LIVE_METADATA_ERR) {
            /* the relay forgets a closed session's metadata stream once it was read whole */
            t->metadata_done = true;
            return 0;
        }
        if (r.len == 0) /* babeltrace2 2.0.4 stops here; the relay will have more */
            return 0;
        if (r.len > LIVE_METADATA_MAX - t->metadata_bytes)
            return bad_reply(L, at, "metadata larger than 256 MiB");
        if ((rc = copy_to(L, t->metadata_fd, r.len, "receiving metadata", path)))
            return rc;
        t->metadata_bytes += r.len;
        L->res->bytes += r.len;
    }
}

static int fetch_all_metadata(live_state *L)
{
    for (size_t i = 0; i < L->n_traces; i++) {
        int rc = fetch_metadata(L, &L->traces[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- sessions ------------------------------------------------------------------------- */

/* Asks for the new streams of every attached session still open: 0, 1 stopped, <0 error;
 * *news: streams were added. */
static int new_streams(live_state *L, bool *news)
{
    for (size_t i = 0; i < L->n_sessions; i++) {
        if (L->closed[i])
            continue;
        uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_STREAMS_REPLY_SIZE];
        size_t n = ctf_live_req_stream(req, LIVE_CMD_GET_NEW_STREAMS, L->sessions[i]);
        uint64_t at = L->net->received;
        int rc = ask(L, req, n, rep, sizeof rep, "asking for new streams");
        if (rc)
            return rc;
        live_reply r;
        char why[256];
        if (ctf_live_parse_streams_reply(rep, false, &r, why) < 0)
            return bad_reply(L, at, why);
        if (r.status == LIVE_STREAMS_ERR)
            return bad_reply(L, at, "the relay refused to list the session's new streams");
        if (r.status == LIVE_STREAMS_HUP)
            L->closed[i] = true;
        if (r.status == LIVE_STREAMS_OK && r.count_or_len > 0) {
            if ((rc = receive_streams(L, r.count_or_len)))
                return rc;
            *news = true;
        }
    }
    return 0;
}

/* ---- packets -------------------------------------------------------------------------- */

static int handle_flags(live_state *L, uint32_t flags)
{
    bool news = false;
    int rc = 0;
    if (flags & LIVE_FLAG_NEW_STREAM)
        rc = new_streams(L, &news);
    if (!rc && (flags & LIVE_FLAG_NEW_METADATA)) {
        for (size_t i = 0; i < L->n_traces; i++)
            L->traces[i].metadata_done = false;
        rc = fetch_all_metadata(L);
    }
    return rc;
}

/* Fetches the packet of s's pending index: 0 (*got: it came), 1 stopped, <0 error. */
static int fetch_packet(live_state *L, live_dstream *s, bool *got)
{
    uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_PACKET_REPLY_SIZE];
    uint32_t len = (uint32_t)(s->idx.packet_size / 8);
    size_t n = ctf_live_req_packet(req, s->id, s->idx.offset, len);
    uint64_t at = L->net->received;
    int rc = ask(L, req, n, rep, sizeof rep, "asking for a packet");
    if (rc)
        return rc;
    live_reply r;
    char why[256];
    if (ctf_live_parse_packet_reply(rep, &r, why) < 0)
        return bad_reply(L, at, why);
    switch (r.status) {
    case LIVE_PACKET_RETRY: return 0;
    case LIVE_PACKET_EOF:
        s->pending = false;
        s->done = true;
        return 0;
    case LIVE_PACKET_ERR:
        if (r.flags & (LIVE_FLAG_NEW_METADATA | LIVE_FLAG_NEW_STREAM))
            return handle_flags(L, r.flags); /* then asked again */
        snprintf(why, sizeof why, "stream %llu: the relay could not give the packet at %llu",
                 (unsigned long long)s->id, (unsigned long long)s->idx.offset);
        return bad_reply(L, at, why);
    }
    if (r.len != len) {
        snprintf(why, sizeof why, "stream %llu: packet of %u bytes where the index said %u",
                 (unsigned long long)s->id, r.count_or_len, len);
        return bad_reply(L, at, why);
    }
    off_t before = lseek(s->fd, 0, SEEK_END);
    if ((rc = copy_to(L, s->fd, len, "receiving a packet", L->where))) {
        if (before >= 0 && ftruncate(s->fd, before) == 0) /* keep whole packets only */
            lseek(s->fd, before, SEEK_SET);
        return rc;
    }
    s->pending = false;
    s->known = true;
    if (s->idx.ts_end > s->complete_to)
        s->complete_to = s->idx.ts_end;
    *got = true;
    L->res->packets++;
    L->res->bytes += len;
    L->res->discarded += s->idx.discarded;
    if (r.flags)
        return handle_flags(L, r.flags);
    return 0;
}

/* One step on data stream s: 0 (*got: a packet came), 1 stopped, <0 error. */
static int pull(live_state *L, size_t k, bool *got)
{
    live_dstream *s = &L->streams[k];
    if (!s->pending) {
        uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_INDEX_SIZE];
        size_t n = ctf_live_req_stream(req, LIVE_CMD_GET_NEXT_INDEX, s->id);
        uint64_t at = L->net->received;
        int rc = ask(L, req, n, rep, sizeof rep, "asking for the next index");
        if (rc)
            return rc;
        live_index idx;
        char why[256];
        if (ctf_live_parse_index(rep, &idx, why) < 0)
            return bad_reply(L, at, why);
        s = &L->streams[k];
        switch (idx.status) {
        case LIVE_INDEX_INACTIVE: /* a beacon: nothing new in the stream until idx.ts_end */
            s->known = true;
            if (idx.ts_end > s->complete_to)
                s->complete_to = idx.ts_end;
            return idx.flags ? handle_flags(L, idx.flags) : 0;
        case LIVE_INDEX_RETRY: return idx.flags ? handle_flags(L, idx.flags) : 0;
        case LIVE_INDEX_HUP:
        case LIVE_INDEX_EOF: s->done = true; return 0;
        case LIVE_INDEX_ERR:
            snprintf(why, sizeof why, "stream %llu: the relay has no index for it",
                     (unsigned long long)s->id);
            return bad_reply(L, at, why);
        }
        s->idx = idx;
        s->pending = true;
        if (idx.flags && (rc = handle_flags(L, idx.flags)))
            return rc;
        s = &L->streams[k]; /* new streams may have moved the array */
    }
    return fetch_packet(L, s, got);
}

/* ---- the conversation ----------------------------------------------------------------- */

static int handshake(live_state *L)
{
    uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_CONNECT_SIZE];
    size_t n = ctf_live_req_connect(req);
    int rc = ask(L, req, n, rep, sizeof rep, "connecting");
    if (rc)
        return rc;
    uint32_t major, minor;
    char why[256];
    if (ctf_live_parse_connect(rep, &major, &minor, why) < 0)
        return bad_reply(L, 0, why);
    uint8_t st[4];
    n = ctf_live_req_plain(req, LIVE_CMD_CREATE_SESSION);
    if ((rc = ask(L, req, n, st, sizeof st, "creating the viewer session")))
        return rc;
    uint32_t status = (uint32_t)st[0] << 24 | (uint32_t)st[1] << 16 | (uint32_t)st[2] << 8 | st[3];
    if (status != LIVE_CREATE_OK)
        return bad_reply(L, LIVE_CONNECT_SIZE, "the relay refused to create a viewer session");
    return 0;
}

/* Lists the relay's sessions; each is passed to visit (which returns <0 to stop). */
static int list_sessions(live_state *L, int (*visit)(live_state *, const live_session *, void *),
                         void *ctx)
{
    uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_LIST_REPLY_SIZE];
    size_t n = ctf_live_req_plain(req, LIVE_CMD_LIST_SESSIONS);
    int rc = ask(L, req, n, rep, sizeof rep, "listing the sessions");
    if (rc)
        return rc;
    uint32_t count =
        (uint32_t)rep[0] << 24 | (uint32_t)rep[1] << 16 | (uint32_t)rep[2] << 8 | rep[3];
    if (count > LIVE_MAX_SESSIONS)
        return bad_reply(L, L->net->received - 4, "more than 65536 sessions announced");
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = L->net->received;
        tg_net_status st = tg_net_recv(L->net, L->buf, LIVE_SESSION_SIZE);
        if (st != TG_NET_OK)
            return net_fail(L, st, "receiving the session list");
        live_session s;
        char why[256];
        if (ctf_live_parse_session(L->buf, &s, why) < 0)
            return bad_reply(L, at, why);
        if ((rc = visit(L, &s, ctx)) < 0)
            return rc;
    }
    return 0;
}

typedef struct live_wanted {
    const char *host, *session;
} live_wanted;

static int collect(live_state *L, const live_session *s, void *ctx)
{
    const live_wanted *w = ctx;
    if (strcmp(s->host, w->host) || strcmp(s->name, w->session))
        return 0;
    if (tg_grow(&L->sessions, &L->cap_sessions, L->n_sessions + 1, sizeof *L->sessions) < 0)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    bool *closed = realloc(L->closed, (L->n_sessions + 1) * sizeof *closed);
    if (!closed)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    L->closed = closed;
    L->closed[L->n_sessions] = false;
    L->sessions[L->n_sessions++] = s->id;
    return 0;
}

static int attach(live_state *L, uint64_t id)
{
    uint8_t req[LIVE_REQUEST_MAX], rep[LIVE_STREAMS_REPLY_SIZE];
    size_t n = ctf_live_req_attach(req, id);
    uint64_t at = L->net->received;
    int rc = ask(L, req, n, rep, sizeof rep, "attaching to the session");
    if (rc)
        return rc;
    live_reply r;
    char why[256];
    if (ctf_live_parse_streams_reply(rep, true, &r, why) < 0)
        return bad_reply(L, at, why);
    switch (r.status) {
    case LIVE_ATTACH_OK: return receive_streams(L, r.count_or_len);
    case LIVE_ATTACH_ALREADY:
        return tg_err_at(L->err, TG_ERR_IO, L->where, at,
                         "lttng-live: another viewer is already attached to the session");
    case LIVE_ATTACH_UNKNOWN: return 2; /* gone between the list and the attach */
    case LIVE_ATTACH_NOT_LIVE:
        return tg_err_at(L->err, TG_ERR_USAGE, L->where, at,
                         "lttng-live: the session is not a live session (lttng create --live)");
    default: return bad_reply(L, at, "the relay refused the attach");
    }
}

/* Finds and attaches the wanted sessions, as the not-found action says: 0 attached, 1
 * stopped or ended without one, <0 error. */
static int find_and_attach(live_state *L, const live_wanted *w)
{
    const char *action = L->p->not_found ? L->p->not_found : "continue";
    for (;;) {
        L->n_sessions = 0;
        int rc = list_sessions(L, collect, (void *)w);
        if (rc)
            return rc;
        int attached = 0;
        for (size_t i = 0; i < L->n_sessions; i++) {
            rc = attach(L, L->sessions[i]);
            if (rc == 2)
                L->closed[i] = true;
            else if (rc)
                return rc;
            else
                attached++;
        }
        if (attached > 0) {
            L->res->found = true;
            return 0;
        }
        if (strcmp(action, "fail") == 0)
            return tg_err(L->err, TG_ERR_IO,
                          "%s: lttng-live: no session named \"%s\" of host "
                          "\"%s\" on the relay",
                          L->where, w->session, w->host);
        if (strcmp(action, "end") == 0)
            return 1;
        tg_net_status st = tg_net_pause(L->net, L->p->retry_ms);
        if (st != TG_NET_OK)
            return net_fail(L, st, "waiting for the session");
    }
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Tells the caller what came so far, at most twice a second. */
static void report(live_state *L)
{
    if (!L->p->progress)
        return;
    int64_t now = now_ms();
    if (now - L->progress_at < 500)
        return;
    L->progress_at = now;
    L->p->progress(L->p->progress_ctx, L->res);
}

/* Tells the caller how far each trace can be read in time order, when that moved: per trace,
 * the least clock value up to which its streams still open are complete (a stream that has
 * said nothing yet holds every trace back).  At most five times a second while packets keep
 * coming, and whenever the viewer has caught up with the relay. */
static int tell_complete(live_state *L, bool caught_up)
{
    if (!L->p->complete || L->n_traces == 0)
        return 0;
    int64_t now = now_ms();
    if (!caught_up && now - L->complete_at < 200)
        return 0;
    tg_live_horizon *h = realloc(L->horizon, L->n_traces * sizeof *h);
    if (!h)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    L->horizon = h;
    bool moved = !L->horizon_told;
    for (size_t i = 0; i < L->n_traces; i++) {
        uint64_t to = UINT64_MAX;
        for (size_t k = 0; k < L->n_streams; k++) {
            const live_dstream *s = &L->streams[k];
            if (s->trace != i || s->done)
                continue;
            if (!s->known)
                return 0;
            if (s->complete_to < to)
                to = s->complete_to;
        }
        if (L->traces[i].metadata_bytes == 0)
            return 0;
        moved |= h[i].trace_id != L->traces[i].ctf_trace_id || h[i].complete_to != to;
        h[i].trace_id = L->traces[i].ctf_trace_id;
        h[i].complete_to = to;
    }
    if (!moved)
        return 0;
    L->horizon_told = true;
    L->complete_at = now;
    L->p->complete(L->p->complete_ctx, h, L->n_traces);
    return 0;
}

/* Reads the attached sessions until they end: 0, 1 stopped, <0 error. */
static int read_sessions(live_state *L)
{
    int rc = fetch_all_metadata(L);
    for (; !rc;) {
        bool progress = false;
        report(L);
        for (size_t k = 0; k < L->n_streams && !rc; k++)
            if (!L->streams[k].done) {
                bool got = false;
                rc = pull(L, k, &got);
                progress |= got;
            }
        if (!rc)
            rc = tell_complete(L, !progress);
        if (rc || progress)
            continue;
        bool news = false;
        if ((rc = new_streams(L, &news)) || news)
            continue;
        bool open = false, reading = false;
        for (size_t i = 0; i < L->n_sessions; i++)
            open |= !L->closed[i];
        for (size_t k = 0; k < L->n_streams; k++)
            reading |= !L->streams[k].done;
        if (!open && !reading)
            return 0;
        tg_net_status st = tg_net_pause(L->net, L->p->retry_ms);
        if (st != TG_NET_OK)
            rc = net_fail(L, st, "waiting for data");
    }
    return rc;
}

/* Leaves only what the CTF reader can read: a trace without metadata (the session ended
 * before it came) and streams that received nothing are removed. */
static void tidy(live_state *L)
{
    char path[4400];
    for (size_t i = 0; i < L->n_streams; i++)
        if (L->streams[i].fd >= 0)
            close(L->streams[i].fd);
    for (size_t i = 0; i < L->n_traces; i++) {
        live_trace *t = &L->traces[i];
        if (t->metadata_fd >= 0)
            close(t->metadata_fd);
        trace_dir(L, t, path, sizeof path);
        size_t len = strlen(path);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            struct stat st;
            snprintf(path + len, sizeof path - len, "/%s", e->d_name);
            if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
                (st.st_size == 0 || t->metadata_bytes == 0))
                unlink(path);
        }
        if (d)
            closedir(d);
        path[len] = 0;
        if (t->metadata_bytes == 0)
            rmdir(path);
    }
}

int ctf_live_record(tg_net_conn *net, const char *where, const char *host, const char *session,
                    const char *dir, const tg_live_params *p, tg_live_result *res, tg_error **err)
{
    live_state *L = calloc(1, sizeof *L);
    if (!L)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    *L = (live_state){.net = net, .where = where, .dir = dir, .p = p, .res = res, .err = err};
    live_wanted w = {host, session};
    int rc = handshake(L);
    if (!rc)
        rc = find_and_attach(L, &w);
    if (!rc)
        rc = read_sessions(L);
    res->ended = rc == 0;
    tidy(L);
    free(L->sessions);
    free(L->closed);
    free(L->traces);
    free(L->streams);
    free(L->horizon);
    free(L);
    return rc < 0 ? rc : 0;
}

/* babeltrace2 lists a session name once: the relay's sessions of one host and name (one per
 * domain and bitness) are summed (streams) and maxed (clients) into the first one's line. */
typedef struct live_listing {
    live_session *rows;
    size_t n, cap;
} live_listing;

static int list_row(live_state *L, const live_session *s, void *ctx)
{
    live_listing *l = ctx;
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->rows[i].host, s->host) && !strcmp(l->rows[i].name, s->name)) {
            l->rows[i].streams += s->streams;
            if (s->clients > l->rows[i].clients)
                l->rows[i].clients = s->clients;
            return 0;
        }
    if (tg_grow(&l->rows, &l->cap, l->n + 1, sizeof *l->rows) < 0)
        return tg_err(L->err, TG_ERR_NOMEM, "out of memory");
    l->rows[l->n++] = *s;
    return 0;
}

int ctf_live_list(tg_net_conn *net, const char *where, tg_buf *out, const tg_live_params *p,
                  tg_error **err)
{
    live_state *L = calloc(1, sizeof *L);
    if (!L)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_live_result res = {0};
    *L = (live_state){.net = net, .where = where, .p = p, .res = &res, .err = err};
    live_listing l = {0};
    int rc = handshake(L);
    if (!rc)
        rc = list_sessions(L, list_row, &l);
    for (size_t i = 0; !rc && i < l.n; i++)
        tg_buf_printf(out, "%s/host/%s/%s (timer = %u, %u stream(s), %u client(s) connected)\n",
                      where, l.rows[i].host, l.rows[i].name, l.rows[i].live_timer,
                      l.rows[i].streams, l.rows[i].clients);
    free(l.rows);
    free(L);
    return rc < 0 ? rc : 0;
}
