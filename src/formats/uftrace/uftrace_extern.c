/* uftrace_extern.c - extern.dat: messages from outside the program, on the trace's clock.
 *
 * Each line is "SECONDS.NANOSECONDS message" (as `uftrace replay -f time` prints times);
 * '#' lines and blank lines are skipped.  uftrace shows each message as a comment in the
 * current function of the thread that was running, so the events carry no thread (-1) and
 * the replay attaches them to the previous record's thread.  The file is small and read
 * whole at open; each message is one event of class "external-data". */
#include "formats/uftrace/uftrace_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define UFT_EXTERN_MAX (64u << 20)
#define UFT_EXTERN_MSG_MAX 1023

struct uft_msg {
    int64_t ts;
    const char *text;
    size_t len;
    size_t offset;
};

struct uft_extern {
    char *text;
    struct uft_msg *msgs;
    size_t n, pos;
};

static int extern_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    (void)err;
    struct uft_extern *x = st->priv;
    if (x->pos >= x->n)
        return 0;
    const struct uft_msg *m = &x->msgs[x->pos++];
    struct uft_data *d = st->trace->priv;
    ev->cls = d->cls_extern;
    ev->ts = m->ts;
    ev->tid = -1;
    ev->pid = -1;
    ev->offset = m->offset;
    ev->addr = UFT_EV_EXTERN;
    ev->data = (const uint8_t *)m->text;
    ev->size = m->len;
    return 1;
}

static int extern_render(const tg_event *ev, tg_buf *out)
{
    tg_buf_puts(out, "external-data: ");
    tg_buf_put(out, ev->data, ev->size);
    return 1;
}

static size_t extern_field_count(const tg_event *ev, tg_scope scope)
{
    (void)ev;
    return scope == TG_SCOPE_PAYLOAD ? 1 : 0;
}

static int extern_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    if (scope != TG_SCOPE_PAYLOAD || i != 0)
        return TG_ERR_USAGE;
    memset(out, 0, sizeof *out);
    out->type = TG_VAL_STRING;
    out->name = "message";
    out->v.str.ptr = (const char *)ev->data;
    out->v.str.len = ev->size;
    return 0;
}

static int extern_rewind(tg_stream *st, tg_error **err)
{
    (void)err;
    ((struct uft_extern *)st->priv)->pos = 0;
    return 0;
}

static void extern_destroy(tg_stream *st)
{
    struct uft_extern *x = st->priv;
    if (x) {
        free(x->text);
        free(x->msgs);
    }
    free(x);
    st->priv = NULL;
}

static const struct tg_stream_ops uft_extern_ops = {
    .next = extern_next,
    .field_count = extern_field_count,
    .field = extern_field,
    .render = extern_render,
    .rewind = extern_rewind,
    .destroy = extern_destroy,
};

static int64_t parse_time(const char *s, const char **end)
{
    uint64_t sec = 0, ns = 0;
    int digits = 0;
    while (isdigit((unsigned char)*s))
        sec = sec * 10 + (uint64_t)(*s++ - '0');
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s)) {
            if (digits++ < 9)
                ns = ns * 10 + (uint64_t)(*s - '0');
            s++;
        }
    }
    while (digits++ < 9)
        ns *= 10;
    *end = s;
    return (int64_t)(sec * 1000000000u + ns);
}

int uft_extern_stream_add(tg_trace *t, struct uft_data *d, tg_error **err)
{
    if (!tg_probe_dir_has(d->dir, "extern.dat"))
        return 0;
    char *path = tg_path_join(d->dir, "extern.dat");
    struct uft_extern *x = calloc(1, sizeof *x);
    size_t len = 0;
    int rc = path && x ? tg_read_text_file(path, UFT_EXTERN_MAX, &x->text, &len, err)
                       : tg_err(err, TG_ERR_NOMEM, "out of memory");
    free(path);
    if (rc < 0) {
        free(x);
        return rc;
    }
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += x->text[i] == '\n';
    x->msgs = calloc(cap, sizeof *x->msgs);
    if (!x->msgs) {
        free(x->text);
        free(x);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    char *line = x->text;
    while (line < x->text + len) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p && *p != '#') {
            const char *e;
            int64_t ts = parse_time(p, &e);
            const char *sp = strpbrk(e, "\t ");
            if (sp) {
                while (isspace((unsigned char)*sp))
                    sp++;
                size_t n = strlen(sp);
                if (n > UFT_EXTERN_MSG_MAX)
                    n = UFT_EXTERN_MSG_MAX;
                if (n && x->n < cap) {
                    x->msgs[x->n].ts = ts;
                    x->msgs[x->n].text = sp;
                    x->msgs[x->n].len = n;
                    x->msgs[x->n].offset = (size_t)(line - x->text);
                    x->n++;
                }
            }
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    if (!tg_trace_add_stream(t, &uft_extern_ops, "extern.dat", -1, -1, x)) {
        extern_destroy(&(tg_stream){.priv = x});
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    return 0;
}
