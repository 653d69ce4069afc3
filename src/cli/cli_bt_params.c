/* cli_bt_params.c - babeltrace2's component parameters (-p/--params) read as babeltrace2
 * reads them, for the commands that take its command line (run, convert, query).
 *
 * The text is KEY=VALUE[,KEY=VALUE...]; a VALUE is a string ("quoted", with \" and \\, or a
 * bare word), a boolean (true, yes, false, no), a number, null, or an array of those in
 * [brackets].  Each parameter is kept as its key and its values' texts (one for a scalar,
 * one per element for an array), which is all the components traceglot answers for need. */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void skip_spaces(const char **p)
{
    while (isspace((unsigned char)**p))
        (*p)++;
}

/* One scalar value at *p into a malloc'ed text; NULL on a syntax error. */
static char *scalar(const char **p)
{
    const char *s = *p;
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    if (*s == '"') {
        for (s++; *s && *s != '"'; s++) {
            if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
                s++;
            out[n++] = *s;
        }
        if (*s != '"') {
            free(out);
            return NULL;
        }
        s++;
    } else {
        while (*s && *s != ',' && *s != ']' && !isspace((unsigned char)*s))
            out[n++] = *s++;
        if (n == 0) {
            free(out);
            return NULL;
        }
    }
    out[n] = 0;
    *p = s;
    return out;
}

static int add_value(struct cli_bt_param *prm, char *v)
{
    char **grown = realloc(prm->values, (prm->n_values + 1) * sizeof *grown);
    if (!grown) {
        free(v);
        return -1;
    }
    prm->values = grown;
    prm->values[prm->n_values++] = v;
    return 0;
}

/* The value after KEY= at *p: a scalar or an array.  0, or -1 (syntax, memory). */
static int value(const char **p, struct cli_bt_param *prm)
{
    skip_spaces(p);
    if (**p != '[') {
        char *v = scalar(p);
        return v ? add_value(prm, v) : -1;
    }
    prm->array = true;
    (*p)++;
    for (;;) {
        skip_spaces(p);
        if (**p == ']') {
            (*p)++;
            return 0;
        }
        char *v = scalar(p);
        if (!v || add_value(prm, v) < 0)
            return -1;
        skip_spaces(p);
        if (**p == ',')
            (*p)++;
        else if (**p != ']')
            return -1;
    }
}

int cli_bt_params_parse(const char *text, struct cli_bt_params *out)
{
    const char *p = text;
    for (;;) {
        skip_spaces(&p);
        if (!*p)
            return 0;
        const char *key = p;
        while (*p && *p != '=' && !isspace((unsigned char)*p))
            p++;
        size_t klen = (size_t)(p - key);
        skip_spaces(&p);
        if (klen == 0 || *p != '=')
            return -1;
        p++;
        struct cli_bt_param *grown = realloc(out->items, (out->n + 1) * sizeof *grown);
        if (!grown)
            return -1;
        out->items = grown;
        struct cli_bt_param *prm = &out->items[out->n++];
        memset(prm, 0, sizeof *prm);
        if (!(prm->key = strndup(key, klen)) || value(&p, prm) < 0)
            return -1;
        skip_spaces(&p);
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
}

const struct cli_bt_param *cli_bt_params_find(const struct cli_bt_params *ps, const char *key)
{
    const struct cli_bt_param *found = NULL; /* the last one given wins, as in babeltrace2 */
    for (size_t i = 0; i < ps->n; i++)
        if (strcmp(ps->items[i].key, key) == 0)
            found = &ps->items[i];
    return found;
}

int cli_bt_param_bool(const struct cli_bt_param *prm)
{
    if (prm->array || prm->n_values != 1)
        return -1;
    const char *v = prm->values[0];
    if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "TRUE") || !strcmp(v, "YES"))
        return 1;
    if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "FALSE") || !strcmp(v, "NO"))
        return 0;
    return -1;
}

void cli_bt_params_free(struct cli_bt_params *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        for (size_t k = 0; k < ps->items[i].n_values; k++)
            free(ps->items[i].values[k]);
        free(ps->items[i].values);
        free(ps->items[i].key);
    }
    free(ps->items);
    ps->items = NULL;
    ps->n = 0;
}
