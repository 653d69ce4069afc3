/* live.c - live sources (tg_live_record, tg_live_list): the URL, the connection, and the
 * format that speaks the server's protocol.
 *
 * A URL names a relay and, optionally, a session on it, as babeltrace2 writes them:
 * net://RELAY[:PORT][/host/TARGET/SESSION] (net4:// and net6:// too; RELAY may be a
 * bracketed IPv6 address).  The connection is made here with bounded waits (io/net_socket);
 * the conversation belongs to the format whose live hooks speak it (the CTF format's
 * lttng-live viewer), which writes what it reads into a folder tg_open then reads. */
#include "core/error_internal.h"
#include "core/format_api.h"
#include "io/net_socket.h"

#include <stdio.h>
#include <string.h>

#define TG_LIVE_DEFAULT_PORT "5344"

typedef struct live_url {
    char host[256], port[8], target[256], session[256];
    bool has_session;
} live_url;

static const char *url_body(const char *url)
{
    static const char *const schemes[] = {"net://", "net4://", "net6://"};
    for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
        if (strncmp(url, schemes[i], strlen(schemes[i])) == 0)
            return url + strlen(schemes[i]);
    return NULL;
}

bool tg_live_is_url(const char *path) { return path && url_body(path) != NULL; }

/* Copies [s, s+n) into out (cap bytes): false when it does not fit or is empty. */
static bool take(char *out, size_t cap, const char *s, size_t n)
{
    if (n == 0 || n >= cap)
        return false;
    memcpy(out, s, n);
    out[n] = 0;
    return true;
}

static int parse_url(const char *url, live_url *u, tg_error **err)
{
    const char *p = url_body(url);
    memset(u, 0, sizeof *u);
    bool ok = p != NULL;
    if (ok && *p == '[') { /* [v6 address] */
        const char *end = strchr(p, ']');
        ok = end && take(u->host, sizeof u->host, p + 1, (size_t)(end - p - 1));
        p = end ? end + 1 : p;
    } else if (ok) {
        size_t n = strcspn(p, ":/");
        ok = take(u->host, sizeof u->host, p, n);
        p += n;
    }
    snprintf(u->port, sizeof u->port, "%s", TG_LIVE_DEFAULT_PORT);
    if (ok && *p == ':') {
        size_t n = strspn(p + 1, "0123456789");
        ok = n >= 1 && n <= 5 && take(u->port, sizeof u->port, p + 1, n);
        p += 1 + n;
    }
    if (ok && *p) {
        ok = strncmp(p, "/host/", 6) == 0;
        const char *t = p + 6, *slash = ok ? strchr(t, '/') : NULL;
        ok = slash && take(u->target, sizeof u->target, t, (size_t)(slash - t)) &&
             !strchr(slash + 1, '/') &&
             take(u->session, sizeof u->session, slash + 1, strlen(slash + 1));
        u->has_session = ok;
    }
    if (!ok)
        return tg_err(err, TG_ERR_USAGE,
                      "%s: not a live URL (expected net://RELAY[:PORT][/host/TARGET/SESSION])",
                      url);
    return 0;
}

bool tg_live_names_session(const char *url)
{
    live_url u;
    tg_error *e = NULL;
    bool yes = parse_url(url, &u, &e) == 0 && u.has_session;
    tg_error_free(e);
    return yes;
}

static const struct tg_format *live_format(tg_error **err)
{
    for (size_t i = 0; i < tg_n_formats; i++)
        if (tg_formats[i]->live_record)
            return tg_formats[i];
    tg_err(err, TG_ERR_UNSUPPORTED, "no format reads live sessions in this build");
    return NULL;
}

static void conn_init(tg_net_conn *c, const tg_live_params *p)
{
    *c = (tg_net_conn){
        .fd = -1, .timeout_ms = p->timeout_ms > 0 ? p->timeout_ms : 10000, .stop = p->stop};
}

static tg_live_params with_defaults(const tg_live_params *p)
{
    tg_live_params q = p ? *p : (tg_live_params){0};
    if (q.retry_ms <= 0)
        q.retry_ms = 100;
    return q;
}

static int connect_relay(tg_net_conn *c, const char *url, const live_url *u, tg_error **err)
{
    tg_net_status st = tg_net_connect(c, u->host, u->port);
    if (st == TG_NET_OK)
        return 0;
    return tg_err(err, TG_ERR_IO, "%s: cannot connect to the relay at %s port %s: %s", url, u->host,
                  u->port, tg_net_status_text(c, st));
}

int tg_live_record_fd(int fd, const char *where, const char *target_host, const char *session,
                      const char *dir, const tg_live_params *p, tg_live_result *res, tg_error **err)
{
    const struct tg_format *f = live_format(err);
    if (!f)
        return TG_ERR_UNSUPPORTED;
    tg_live_params q = with_defaults(p);
    tg_live_result scratch;
    if (!res)
        res = &scratch;
    memset(res, 0, sizeof *res);
    tg_net_conn c;
    conn_init(&c, &q);
    tg_net_adopt(&c, fd);
    return f->live_record(&c, where, target_host, session, dir, &q, res, err);
}

int tg_live_record(const char *url, const char *dir, const tg_live_params *p, tg_live_result *res,
                   tg_error **err)
{
    live_url u;
    int rc = parse_url(url, &u, err);
    if (rc < 0)
        return rc;
    if (!u.has_session)
        return tg_err(err, TG_ERR_USAGE, "%s: no session named (net://RELAY/host/TARGET/SESSION)",
                      url);
    const struct tg_format *f = live_format(err);
    if (!f)
        return TG_ERR_UNSUPPORTED;
    tg_live_params q = with_defaults(p);
    tg_live_result scratch;
    if (!res)
        res = &scratch;
    memset(res, 0, sizeof *res);
    tg_net_conn c;
    conn_init(&c, &q);
    if ((rc = connect_relay(&c, url, &u, err)) < 0)
        return rc;
    rc = f->live_record(&c, url, u.target, u.session, dir, &q, res, err);
    tg_net_close(&c);
    return rc;
}

int tg_live_list(const char *url, tg_buf *out, const tg_live_params *p, tg_error **err)
{
    live_url u;
    int rc = parse_url(url, &u, err);
    if (rc < 0)
        return rc;
    const struct tg_format *f = live_format(err);
    if (!f)
        return TG_ERR_UNSUPPORTED;
    tg_live_params q = with_defaults(p);
    tg_net_conn c;
    conn_init(&c, &q);
    if ((rc = connect_relay(&c, url, &u, err)) < 0)
        return rc;
    rc = f->live_list(&c, url, out, &q, err);
    tg_net_close(&c);
    return rc;
}
