/* error.c - the error object: a chain of causes, and a list of independent errors.
 *
 * Each cause is one heap string; the message is built once, on demand, by joining the
 * causes outermost first.  Built where damage is first noticed (tg_err_at), wrapped by
 * callers that add context.  Allocation failures degrade to a static message rather than
 * losing the status. */
#include "core/error_internal.h"
#include "core/grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tg_error {
    tg_status status;
    char **causes; /* innermost first */
    size_t n_causes, cap_causes;
    char *joined; /* built by tg_error_message */
    struct tg_error *next;
};

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static int push_cause(tg_error *e, char *msg)
{
    if (!msg)
        return -1;
    if (tg_grow(&e->causes, &e->cap_causes, e->n_causes + 1, sizeof *e->causes) < 0) {
        free(msg);
        return -1;
    }
    e->causes[e->n_causes++] = msg;
    free(e->joined);
    e->joined = NULL;
    return 0;
}

static int make_error(tg_error **err, tg_status status, char *msg)
{
    if (!err) {
        free(msg);
        return status;
    }
    tg_error *e = calloc(1, sizeof *e);
    if (!e) {
        free(msg);
        return status;
    }
    e->status = status;
    push_cause(e, msg);
    tg_err_append(err, e);
    return status;
}

int tg_err_at(tg_error **err, tg_status status, const char *file, uint64_t offset, const char *fmt,
              ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = vformat(fmt, ap);
    va_end(ap);
    if (!what)
        return make_error(err, status, NULL);
    char prefix[64] = "";
    if (offset != TG_NO_OFFSET)
        snprintf(prefix, sizeof prefix, "offset 0x%llx: ", (unsigned long long)offset);
    size_t n = (file ? strlen(file) + 2 : 0) + strlen(prefix) + strlen(what) + 1;
    char *msg = malloc(n);
    if (msg)
        snprintf(msg, n, "%s%s%s%s", file ? file : "", file ? ": " : "", prefix, what);
    free(what);
    return make_error(err, status, msg);
}

int tg_err(tg_error **err, tg_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    return make_error(err, status, msg);
}

int tg_err_wrap(tg_error **err, const char *fmt, ...)
{
    if (!err || !*err)
        return TG_ERR_FORMAT;
    tg_error *e = *err;
    while (e->next) /* the newest error is the last of the list */
        e = e->next;
    va_list ap;
    va_start(ap, fmt);
    push_cause(e, vformat(fmt, ap));
    va_end(ap);
    return e->status;
}

void tg_err_append(tg_error **list, tg_error *err)
{
    if (!list) {
        tg_error_free(err);
        return;
    }
    while (*list)
        list = &(*list)->next;
    *list = err;
}

static char *renamed(const char *cause, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), hits = 0;
    for (const char *p = strstr(cause, from); p; p = strstr(p + nf, from))
        hits++;
    if (!hits)
        return NULL;
    char *out = malloc(strlen(cause) + hits * (nt > nf ? nt - nf : 0) + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *p = cause, *hit; *p; p = hit + nf) {
        hit = strstr(p, from);
        while (hit && hit[nf] >= '0' && hit[nf] <= '9')
            hit = strstr(hit + nf, from);
        if (!hit) {
            strcpy(w, p);
            return out;
        }
        memcpy(w, p, (size_t)(hit - p));
        w += hit - p;
        memcpy(w, to, nt);
        w += nt;
        *w = 0;
    }
    return out;
}

void tg_err_rename(tg_error *list, const char *from, const char *to)
{
    for (tg_error *e = list; e; e = e->next)
        for (size_t i = 0; i < e->n_causes; i++) {
            char *r = renamed(e->causes[i], from, to);
            if (!r)
                continue;
            free(e->causes[i]);
            e->causes[i] = r;
            free(e->joined);
            e->joined = NULL;
        }
}

const char *tg_error_message(const tg_error *cerr)
{
    tg_error *err = (tg_error *)cerr; /* the joined message is a cache */
    if (!err)
        return "no error";
    if (err->joined)
        return err->joined;
    if (err->n_causes == 0)
        return "out of memory while reporting an error";
    size_t n = 1;
    for (size_t i = 0; i < err->n_causes; i++)
        n += strlen(err->causes[i]) + 2;
    err->joined = malloc(n);
    if (!err->joined)
        return err->causes[0];
    char *p = err->joined;
    for (size_t i = err->n_causes; i-- > 0;) {
        size_t len = strlen(err->causes[i]);
        memcpy(p, err->causes[i], len);
        p += len;
        if (i) {
            memcpy(p, ": ", 2);
            p += 2;
        }
    }
    *p = 0;
    return err->joined;
}

tg_status tg_error_status(const tg_error *err) { return err ? err->status : TG_OK; }

const tg_error *tg_error_next(const tg_error *err) { return err ? err->next : NULL; }

void tg_error_free(tg_error *err)
{
    while (err) {
        tg_error *next = err->next;
        for (size_t i = 0; i < err->n_causes; i++)
            free(err->causes[i]);
        free(err->causes);
        free(err->joined);
        free(err);
        err = next;
    }
}
