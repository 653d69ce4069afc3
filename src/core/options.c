/* options.c - the string key/value bag read by formats, printers and analyses.
 *
 * A handful of entries at most, so a small array searched linearly is the simplest right
 * structure; later settings of a key replace earlier ones. */
#include "core/grow.h"
#include "traceglot.h"

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

int tg_options_set(tg_options *o, const char *key, const char *value)
{
    char *v = strdup(value ? value : "1");
    if (!v)
        return TG_ERR_NOMEM;
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
        return TG_ERR_NOMEM;
    }
    o->e[o->n].key = k;
    o->e[o->n].value = v;
    o->n++;
    return 0;
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
