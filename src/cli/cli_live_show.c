/* cli_live_show.c - `cat net://...` and `cat --follow`: the events of a live session, or of a
 * trace being written, printed while it records.
 *
 * The viewer (tg_live_record) writes whole packets into a scratch folder and says, each time
 * it moved, how far every trace of the session is complete: no packet still to come holds an
 * event before that horizon (each open stream's last packet ends after it, or the relay's
 * inactivity beacon says the stream is idle until then), as babeltrace2's muxer waits on a
 * stream that is behind.  The events up to the horizon are then the beginning of the
 * session's merged, time-ordered events, and their text the beginning of its whole text.
 * So each pass opens the folder as it is, prints the events up to the horizon with the
 * command's style, options and filter into a scratch file, checks that the text begins with
 * what was already shown, and writes the rest to standard output; the last pass, when the
 * session ended (or Ctrl-C stopped the reading), prints the whole and reports what the
 * command would.  A pass decodes the session from its beginning again: simple and exact
 * (the printers' state, deltas and quirks are those of one run), at a cost that grows with
 * the session, paid at most five times a second.  Memory: the scratch text is a file.
 *
 * `cat --follow PATH` (cli_follow.c) works the same on a trace a tracer is writing in place:
 * the horizon is where every stream is whole (its last event, its last packet's end, or, on
 * this host's monotonic clock, half a second ago for a tracer that writes every stream at
 * least that often), read from the files at each pass. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct cli_live_show {
    struct cli_args *a;
    const char *dir;
    int text_fd;       /* the text of the last pass (an unlinked scratch file) */
    uint64_t shown;    /* bytes of it already on standard output */
    uint64_t hash;     /* FNV-1a of those bytes */
    bool diverged;     /* a pass's text did not begin with what was shown: passes stop */
    int64_t last_end;  /* the horizon of the last pass (ns) */
    const char *guard; /* a file under dir whose coming voids a pass read before it, or NULL */
};

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_START 0xcbf29ce484222325ull

bool cli_live_show_fits(const struct cli_args *a)
{
    static const char *const styles[] = {"cat", "babeltrace", "native"};
    bool style = false;
    for (size_t i = 0; i < sizeof styles / sizeof *styles; i++)
        style |= a->sink && strcmp(a->sink, styles[i]) == 0;
    return a->n_paths == 1 && style && !tg_options_get(a->opts, "begin") &&
           !tg_options_get(a->opts, "end") && !tg_options_get(a->opts, "timerange");
}

struct cli_live_show *cli_live_show_new(struct cli_args *a, const char *dir)
{
    struct cli_live_show *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const char *tmp = getenv("TMPDIR");
    char path[4200];
    snprintf(path, sizeof path, "%s/traceglot-live-text.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    s->text_fd = mkstemp(path);
    if (s->text_fd < 0) {
        free(s);
        return NULL;
    }
    unlink(path);
    s->a = a;
    s->dir = dir;
    s->hash = FNV_START;
    s->last_end = INT64_MIN;
    return s;
}

void cli_live_show_free(struct cli_live_show *s)
{
    if (!s)
        return;
    close(s->text_fd);
    free(s);
}

/* The time (on the set's timeline, ns) up to which every trace of the folder is complete:
 * true with *end; false when a trace has no horizon yet.  *bounded false: every stream
 * ended. */
static bool horizon_ns(tg_set *set, const tg_live_horizon *h, size_t n, int64_t *end, bool *bounded)
{
    *end = INT64_MAX;
    *bounded = false;
    size_t traces = tg_set_trace_count(set);
    if (traces == 0)
        return false;
    for (size_t i = 0; i < traces; i++) {
        const tg_trace *t = tg_set_trace(set, i);
        const char *name = strrchr(tg_trace_path(t), '/');
        unsigned long long id;
        char tail;
        if (!name || sscanf(name, "/trace-%llu%c", &id, &tail) != 1)
            return false;
        const tg_live_horizon *k = NULL;
        for (size_t j = 0; j < n && !k; j++)
            if (h[j].trace_id == id)
                k = &h[j];
        if (!k)
            return false;
        if (k->complete_to == UINT64_MAX)
            continue;
        const tg_clock_info *c = tg_trace_clock(t);
        uint64_t hz = c && c->frequency_hz ? c->frequency_hz : 1000000000u;
        unsigned __int128 ns = (unsigned __int128)k->complete_to * 1000000000u / hz;
        if (ns > (unsigned __int128)INT64_MAX / 2)
            return false;
        /* an event of a later packet may fall on the horizon itself: up to just before it */
        int64_t at = (int64_t)ns + (c ? c->offset_ns : 0) - 1;
        if (at < *end)
            *end = at;
        *bounded = true;
    }
    return true;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes what the pass's text holds past what was shown, after checking it begins with it:
 * 0, or -1 (the text diverged, or standard output failed). */
static int show_rest(struct cli_live_show *s)
{
    uint8_t buf[65536];
    uint64_t h = FNV_START, at = 0;
    if (lseek(s->text_fd, 0, SEEK_SET) < 0)
        return -1;
    for (;;) {
        ssize_t r = read(s->text_fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        size_t n = (size_t)r, old = 0;
        if (at < s->shown) {
            old = s->shown - at < n ? (size_t)(s->shown - at) : n;
            h = fnv(h, buf, old);
            at += old;
            if (at == s->shown && h != s->hash) {
                s->diverged = true;
                return -1;
            }
        }
        if (old < n) {
            if (write_all(STDOUT_FILENO, buf + old, n - old) < 0)
                return -1;
            s->hash = fnv(s->hash, buf + old, n - old);
            s->shown += n - old;
            at += n - old;
        }
    }
    if (at < s->shown) /* shorter than what was shown */
        s->diverged = true;
    return s->diverged ? -1 : 0;
}

static bool guard_came(const struct cli_live_show *s)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", s->dir, s->guard);
    return access(path, F_OK) == 0;
}

void cli_live_show_guard(struct cli_live_show *s, const char *name) { s->guard = name; }

/* Prints the set into the scratch text with the command's style: the library's status. */
static int print_text(struct cli_live_show *s, tg_set *set, tg_error **err)
{
    if (ftruncate(s->text_fd, 0) < 0 || lseek(s->text_fd, 0, SEEK_SET) < 0)
        return TG_ERR_IO;
    tg_buf *out = tg_buf_new_fd(s->text_fd);
    struct cli_args *a = s->a;
    int rc = out ? tg_print(set, a->filter, a->sink, a->opts, out, err) : TG_ERR_NOMEM;
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    tg_buf_free(out);
    return rc;
}

/* Shows the events of set up to end (ns on its timeline) when that is past the last pass's. */
static void show_upto(struct cli_live_show *s, tg_set *set, int64_t end)
{
    if (s->diverged || end <= s->last_end)
        return;
    char spec[64];
    snprintf(spec, sizeof spec, "%s%lld.%09lld", end < 0 ? "-" : "",
             (long long)(end < 0 ? -(end / 1000000000) : end / 1000000000),
             (long long)(end < 0 ? -(end % 1000000000) : end % 1000000000));
    tg_error *err = NULL;
    /* the guard file was absent while the pass read the folder when it is absent now */
    if (tg_filter_set_end(s->a->filter, spec, NULL) == 0 && print_text(s, set, &err) >= 0 &&
        !(s->guard && guard_came(s))) {
        s->last_end = end;
        show_rest(s);
    }
    tg_filter_set_end(s->a->filter, NULL, NULL);
    tg_error_free(err);
}

void cli_live_show_pass(void *ctx, const tg_live_horizon *h, size_t n)
{
    struct cli_live_show *s = ctx;
    if (s->diverged)
        return;
    const char *path = s->dir;
    tg_error *err = NULL;
    tg_set *set = tg_open(&path, 1, s->a->opts, &err);
    int64_t end;
    bool bounded;
    if (set && horizon_ns(set, h, n, &end, &bounded) && bounded)
        show_upto(s, set, end);
    tg_error_free(err);
    tg_close(set);
}

/* Where a stream that says nothing new is taken to be whole: a trace on this host's
 * CLOCK_MONOTONIC (LTTng's default clock) whose tracer writes each stream's buffer at least
 * every FOLLOW_QUIET_NS (LTTng's `--switch-timer` below it) holds no unwritten event older
 * than that long ago. */
#define FOLLOW_QUIET_NS 500000000

/* now - FOLLOW_QUIET_NS on tr's timeline, when it is a CTF trace (LTTng's switch timer) on
 * this host's monotonic clock.  Not for uftrace, which writes a thread's buffer only when it
 * fills (or the recording ends), however long that takes. */
static bool quiet_bound(const tg_trace *tr, int64_t *at)
{
    const tg_clock_info *c = tg_trace_clock(tr);
    struct timespec ts;
    if (!c || strcmp(tg_trace_format(tr), "ctf") != 0 || c->origin != TG_CLOCK_MONOTONIC ||
        clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
        return false;
    *at = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + c->offset_ns + tg_trace_shift_ns(tr) -
          FOLLOW_QUIET_NS;
    return true;
}

/* How far a trace being written is whole: each stream is read to its end; its later records
 * come after its last event, or after its last packet's end where the format says it, or
 * (quiet_bound) after the time up to which its tracer has written everything.  A stream
 * with no record and no such time is not waited for (the tracer wrote nothing of it).  true
 * with *end (just before the least of those times) and *latest (the last event seen); false
 * when no stream says anything. */
static bool written_to(tg_set *set, int64_t *end, int64_t *latest)
{
    bool any = false;
    *end = INT64_MAX;
    *latest = INT64_MIN;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        tg_trace *tr = tg_set_trace(set, t);
        int64_t quiet = INT64_MIN;
        bool has_quiet = quiet_bound(tr, &quiet);
        for (size_t i = 0; i < tg_trace_stream_count(tr); i++) {
            tg_stream *st = tg_trace_stream(tr, i);
            tg_stream_iter *it = tg_stream_iter_new(st);
            const tg_event *ev;
            bool seen = false;
            int64_t last = INT64_MIN, whole;
            tg_error *err = NULL;
            while (it && tg_stream_iter_next(it, &ev, &err) > 0) {
                last = tg_event_time_ns(ev);
                seen = true;
            }
            tg_error_free(err);
            tg_stream_iter_free(it);
            if (seen && last > *latest)
                *latest = last;
            if (tg_stream_end_time(st, &whole) && whole > last) {
                last = whole;
                seen = true;
            }
            if (has_quiet && quiet > last) {
                last = quiet;
                seen = true;
            }
            if (!seen)
                continue;
            any = true;
            if (last - 1 < *end)
                *end = last - 1;
        }
    }
    return any;
}

bool cli_live_show_follow(struct cli_live_show *s)
{
    if (s->diverged)
        return false;
    const char *path = s->dir;
    tg_error *err = NULL;
    tg_set *set = tg_open(&path, 1, s->a->opts, &err);
    int64_t end = INT64_MIN, latest = INT64_MIN;
    bool ok = set && written_to(set, &end, &latest);
    tg_close(set);
    set = NULL;
    tg_error_free(err);
    err = NULL;
    if (!ok)
        return false;
    /* the events are printed from a set opened afresh: the one read above is at its end */
    if (end > s->last_end && (set = tg_open(&path, 1, s->a->opts, &err)))
        show_upto(s, set, end);
    tg_error_free(err);
    tg_close(set);
    return s->last_end < latest;
}

int cli_live_show_end(struct cli_live_show *s)
{
    const char *path = s->dir;
    tg_error *err = NULL;
    if (s->diverged) {
        fprintf(stderr, "traceglot: error: the text of the events shown while the session "
                        "recorded is not the beginning of its whole text: stopped there\n");
        return 1;
    }
    tg_set *set = tg_open(&path, 1, s->a->opts, &err);
    if (!set)
        return cli_finish(err ? tg_error_status(err) : TG_ERR_FORMAT, err);
    cli_print_warnings(s->a, set);
    int rc = print_text(s, set, &err);
    tg_close(set);
    if (show_rest(s) < 0 && rc >= 0) {
        rc = TG_ERR_IO;
        if (s->diverged)
            fprintf(stderr, "traceglot: error: the whole text of the session does not begin "
                            "with what was shown while it recorded\n");
    }
    return cli_finish(rc, err);
}
