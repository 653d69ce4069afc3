/* cli_live_show.c - `cat net://...`: the events of a live session printed while it records.
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
 * the session, paid at most five times a second.  Memory: the scratch text is a file. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cli_live_show {
    struct cli_args *a;
    const char *dir;
    int text_fd;      /* the text of the last pass (an unlinked scratch file) */
    uint64_t shown;   /* bytes of it already on standard output */
    uint64_t hash;    /* FNV-1a of those bytes */
    bool diverged;    /* a pass's text did not begin with what was shown: passes stop */
    int64_t last_end; /* the horizon of the last pass (ns) */
};

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_START 0xcbf29ce484222325ull

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
    if (set && horizon_ns(set, h, n, &end, &bounded) && bounded && end > s->last_end) {
        char spec[64];
        snprintf(spec, sizeof spec, "%s%lld.%09lld", end < 0 ? "-" : "",
                 (long long)(end < 0 ? -(end / 1000000000) : end / 1000000000),
                 (long long)(end < 0 ? -(end % 1000000000) : end % 1000000000));
        if (tg_filter_set_end(s->a->filter, spec, NULL) == 0 && print_text(s, set, &err) >= 0) {
            s->last_end = end;
            show_rest(s);
        }
        tg_filter_set_end(s->a->filter, NULL, NULL);
    }
    tg_error_free(err);
    tg_close(set);
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
