/* options.c - the option bag: typed values by key, each key declared by whoever reads it.
 *
 * A handful of entries at most, so a small array searched linearly is the simplest right
 * structure; setting a key again replaces its value.  Setting checks the key against the
 * declarations (core/option_registry.c) and the value against its type, so a misspelt key
 * or a bad value is refused where it is given, not silently ignored where it is read. */
#include "core/consumer.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tg_option_entry {
    char *key, *value;
};

struct tg_options {
    struct tg_option_entry *e;
    size_t n, cap;
};

tg_options *tg_options_new(void) { return calloc(1, sizeof(tg_options)); }

void tg_options_free(tg_options *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++) {
        free(o->e[i].key);
        free(o->e[i].value);
    }
    free(o->e);
    free(o);
}

/* A flag's spellings: 1 on, 0 off, -1 not a flag value. */
static int flag_value(const char *v)
{
    static const char *const on[] = {"1", "true", "yes", "on"};
    static const char *const off[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, on[i]) == 0)
            return 1;
        if (strcmp(v, off[i]) == 0)
            return 0;
    }
    return -1;
}

static int is_choice(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0)
            return 1;
        c = bar ? bar + 1 : c + len;
    }
    return 0;
}

/* "a|b|c" as "a, b or c" */
static void choice_list(const char *choices, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (const char *c = choices; *c && n + 1 < size;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        const char *sep = c == choices ? "" : bar ? ", " : " or ";
        int w = snprintf(buf + n, size - n, "%s%.*s", sep, (int)len, c);
        if (w < 0)
            break;
        n += (size_t)w;
        c = bar ? bar + 1 : c + len;
    }
}

/* The value as it is stored (flags as "1"/"0"), or NULL with *err said why. */
static const char *checked(const tg_option_decl *d, const char *v, tg_error **err)
{
    switch (d->type) {
    case TG_OPT_FLAG: {
        int f = flag_value(v);
        if (f < 0) {
            tg_err(err, TG_ERR_USAGE, "option '%s' is a flag: '%s' is not 1, 0, true or false",
                   d->name, v);
            return NULL;
        }
        return f ? "1" : "0";
    }
    case TG_OPT_INT: {
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || errno) {
            tg_err(err, TG_ERR_USAGE, "option '%s': '%s' is not an integer", d->name, v);
            return NULL;
        }
        if (x < d->min || x > d->max) {
            tg_err(err, TG_ERR_USAGE, "option '%s': %lld is outside %lld..%lld", d->name, x, d->min,
                   d->max);
            return NULL;
        }
        return v;
    }
    case TG_OPT_CHOICE:
        if (!is_choice(d->choices, v)) {
            char list[256];
            choice_list(d->choices, list, sizeof list);
            tg_err(err, TG_ERR_USAGE, "bad %s '%s': expected %s", d->name, v, list);
            return NULL;
        }
        return v;
    case TG_OPT_TEXT:
    case TG_OPT_LIST:
    case TG_OPT_TEXTS: return v;
    }
    return v;
}

int tg_options_put(tg_options *o, const char *key, const char *value, tg_error **err)
{
    if (!o || !key)
        return tg_err(err, TG_ERR_USAGE, "no options or no key");
    const tg_option_decl *d = tg_option_find(key);
    if (!d) {
        const char *near = tg_option_nearest(key);
        if (near)
            return tg_err(err, TG_ERR_USAGE, "unknown option '%s' (did you mean '%s'?)", key, near);
        return tg_err(err, TG_ERR_USAGE, "unknown option '%s'", key);
    }
    /* a key several groups declare ("format": sql's table|csv|json, info's and stats'
     * text|json) takes a value one of them accepts; what reads it checks its own */
    const char *cv = checked(d, value ? value : "1", NULL);
    const tg_option_decl *e;
    for (size_t i = 0; !cv && (e = tg_option_declared(i, NULL, NULL)) != NULL; i++)
        if (e != d && strcmp(e->name, key) == 0)
            cv = checked(e, value ? value : "1", NULL);
    if (!cv) {
        checked(d, value ? value : "1", err);
        return TG_ERR_USAGE;
    }
    char *v = strdup(cv);
    if (!v)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < o->n; i++) {
        if (strcmp(o->e[i].key, key) == 0) {
            free(o->e[i].value);
            o->e[i].value = v;
            return 0;
        }
    }
    char *k = strdup(key);
    if (!k || tg_grow(&o->e, &o->cap, o->n + 1, sizeof *o->e) < 0) {
        free(v);
        free(k);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    o->e[o->n].key = k;
    o->e[o->n].value = v;
    o->n++;
    return 0;
}

int tg_options_set(tg_options *o, const char *key, const char *value)
{
    return tg_options_put(o, key, value, NULL);
}

const char *tg_options_get(const tg_options *o, const char *key)
{
    if (!o)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->e[i].key, key) == 0)
            return o->e[i].value;
    return NULL;
}

int tg_options_flag(const tg_options *o, const char *key)
{
    const char *v = tg_options_get(o, key);
    return v && strcmp(v, "0") != 0;
}

const char *tg_options_key(const tg_options *o, size_t i, const char **value)
{
    if (!o || i >= o->n)
        return NULL;
    if (value)
        *value = o->e[i].value;
    return o->e[i].key;
}
