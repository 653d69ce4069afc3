/* event_format.c - the tracefs event format parser (see event_format.h).
 *
 * A format text is lines: "name: X", "ID: N", "format:", then "field:TYPE NAME;
 * offset:N; size:N; signed:N;" lines in two blocks (the common_* fields, an empty line,
 * the event's own; a text with one block is split at the first field without the common_
 * prefix), and "print fmt: ...". */
#include "common/linux/event_format.h"
#include "core/grow.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* "key:NUMBER;" somewhere in [p, e) */
/* key ends with its only ':': the candidates are found with memchr on ':' (in text order,
 * so the first match is the first at a word boundary, as a scan would find it). */
static bool find_num(const char *p, const char *e, const char *key, long *out)
{
    size_t kl = strlen(key);
    if (!kl || (size_t)(e - p) < kl)
        return false;
    const char *c = p + kl - 1;
    while (c < e && (c = memchr(c, ':', (size_t)(e - c))) != NULL) {
        const char *q = c - (kl - 1);
        if (memcmp(q, key, kl - 1) == 0 &&
            (q == p || q[-1] == '\t' || q[-1] == ' ' || q[-1] == ';')) {
            q += kl;
            char *end;
            long v = strtol(q, &end, 10);
            if (end == q)
                return false;
            *out = v;
            return true;
        }
        c++;
    }
    return false;
}

static uint32_t type_elem_size(int long_size, const char *type)
{
    if (strchr(type, '*'))
        return (uint32_t)long_size;
    if (strstr(type, "long long") || strstr(type, "64"))
        return 8;
    if (strstr(type, "long"))
        return (uint32_t)long_size;
    if (strstr(type, "char") || strstr(type, "8"))
        return 1;
    if (strstr(type, "short") || strstr(type, "16"))
        return 2;
    return 4;
}

/* One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line. */
static int parse_field_line(tg_arena *a, int long_size, const char *p, const char *e,
                            tg_evf_field *out)
{
    memset(out, 0, sizeof *out);
    const char *decl = skip_ws(p + 6, e); /* after "field:" */
    const char *semi = memchr(decl, ';', (size_t)(e - decl));
    if (!semi)
        return -1;
    const char *de = semi;
    while (de > decl && isspace((unsigned char)de[-1]))
        de--;
    /* array suffix */
    const char *arr = NULL;
    const char *ne = de;
    if (ne > decl && ne[-1] == ']') {
        const char *lb = ne - 1;
        while (lb > decl && *lb != '[')
            lb--;
        if (*lb == '[') {
            arr = lb;
            ne = lb;
        }
    }
    while (ne > decl && isspace((unsigned char)ne[-1]))
        ne--;
    const char *ns = ne;
    while (ns > decl && (isalnum((unsigned char)ns[-1]) || ns[-1] == '_'))
        ns--;
    if (ns == ne)
        return -1;
    const char *te = ns;
    while (te > decl && isspace((unsigned char)te[-1]))
        te--;
    out->name = tg_arena_strndup(a, ns, (size_t)(ne - ns));
    /* the type as libtraceevent keeps it: declaration minus the name, array part kept */
    size_t tl = (size_t)(te - decl);
    size_t al = arr ? (size_t)(de - arr) : 0;
    char *type = tg_arena_alloc(a, tl + al + 1);
    if (!out->name || !type)
        return -2;
    memcpy(type, decl, tl);
    memcpy(type + tl, arr ? arr : "", al);
    type[tl + al] = 0;
    out->type = type;
    long v;
    if (!find_num(semi, e, "offset:", &v) || v < 0 || v > 65535)
        return -1;
    out->offset = (uint32_t)v;
    if (!find_num(semi, e, "size:", &v) || v < 0 || v > 65535)
        return -1;
    out->size = (uint32_t)v;
    if (find_num(semi, e, "signed:", &v) && v)
        out->flags |= TG_EVF_SIGNED;
    if (strncmp(type, "__data_loc", 10) == 0)
        out->flags |= TG_EVF_DYNAMIC | TG_EVF_ARRAY;
    else if (strncmp(type, "__rel_loc", 9) == 0)
        out->flags |= TG_EVF_DYNAMIC | TG_EVF_RELATIVE | TG_EVF_ARRAY;
    if (arr || strchr(type, '['))
        out->flags |= TG_EVF_ARRAY;
    if (strstr(type, "long"))
        out->flags |= TG_EVF_LONG;
    if (te > decl && te[-1] == '*')
        out->flags |= TG_EVF_POINTER;
    if ((out->flags & TG_EVF_ARRAY) &&
        (strstr(type, "char") || strstr(type, "u8") || strstr(type, "s8")))
        out->flags |= TG_EVF_STRING;
    if (out->flags & TG_EVF_ARRAY) {
        if (arr && !(out->flags & TG_EVF_DYNAMIC)) {
            char *end;
            long n = strtol(arr + 1, &end, 0);
            if (end != arr + 1 && *end == ']' && n > 0)
                out->array_len = (uint32_t)n;
        }
        if (out->array_len)
            out->elem_size = out->size / out->array_len;
        else if (out->flags & TG_EVF_STRING)
            out->elem_size = 1;
        else
            out->elem_size = type_elem_size(long_size, type);
    } else {
        out->elem_size = out->size;
    }
    return 0;
}

int tg_evf_parse(tg_arena *a, int long_size, const char *text, size_t len, tg_evf *out)
{
    const char *p = text, *end = text + len;
    const char *name = NULL;
    size_t name_len = 0;
    long id = -1;
    tg_evf_field tmp[2][64];
    tg_evf_field *lists[2] = {tmp[0], tmp[1]};
    size_t counts[2] = {0, 0}, caps[2] = {64, 64};
    tg_evf_field *heap[2] = {NULL, NULL};
    int block = 0;
    bool in_format = false, seen_field = false;
    const char *pf = NULL;
    size_t pf_len = 0;
    int rc = 0;
    memset(out, 0, sizeof *out);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *q = skip_ws(p, le);
        if (!in_format && (size_t)(le - q) > 6 && memcmp(q, "name: ", 6) == 0) {
            name = q + 6;
            name_len = (size_t)(le - name);
        } else if (!in_format && (size_t)(le - q) > 4 && memcmp(q, "ID: ", 4) == 0) {
            id = strtol(q + 4, NULL, 10);
        } else if ((size_t)(le - q) >= 7 && memcmp(q, "format:", 7) == 0) {
            in_format = true;
        } else if (in_format && (size_t)(le - q) > 6 && memcmp(q, "field:", 6) == 0) {
            tg_evf_field fl;
            int r = parse_field_line(a, long_size, q, le, &fl);
            if (r == -2) {
                rc = TG_ERR_NOMEM;
                goto out;
            }
            if (r == 0) {
                seen_field = true;
                int b = block;
                if (counts[b] == caps[b]) {
                    if (caps[b] >= TG_EVF_MAX_FIELDS) {
                        rc = TG_ERR_LIMIT;
                        goto out;
                    }
                    size_t nc = caps[b] * 2;
                    tg_evf_field *nh = malloc(nc * sizeof *nh);
                    if (!nh) {
                        rc = TG_ERR_NOMEM;
                        goto out;
                    }
                    memcpy(nh, lists[b], counts[b] * sizeof *nh);
                    free(heap[b]);
                    heap[b] = nh;
                    lists[b] = nh;
                    caps[b] = nc;
                }
                lists[b][counts[b]++] = fl;
            }
        } else if (in_format && q == le && seen_field && block == 0) {
            block = 1;
        } else if ((size_t)(le - q) >= 11 && memcmp(q, "print fmt: ", 11) == 0) {
            pf = q + 11;
            pf_len = (size_t)(le - pf);
            /* the print fmt is the rest of the text, up to the end (one line in practice) */
        }
        p = le + 1;
    }
    if (!name || id < 0 || id > 0xffffff) {
        rc = TG_ERR_FORMAT;
        goto out;
    }
    /* a single block of fields: split by the common_ prefix */
    if (counts[1] == 0 && counts[0]) {
        size_t k = 0;
        while (k < counts[0] && strncmp(lists[0][k].name, "common_", 7) == 0)
            k++;
        if (k < counts[0]) {
            if (counts[0] - k > caps[1]) {
                tg_evf_field *nh = malloc((counts[0] - k) * sizeof *nh);
                if (!nh) {
                    rc = TG_ERR_NOMEM;
                    goto out;
                }
                heap[1] = nh;
                lists[1] = nh;
            }
            memcpy(lists[1], lists[0] + k, (counts[0] - k) * sizeof *lists[1]);
            counts[1] = counts[0] - k;
            counts[0] = k;
        }
    }
    out->common = tg_arena_alloc(a, (counts[0] + 1) * sizeof *out->common);
    out->fields = tg_arena_alloc(a, (counts[1] + 1) * sizeof *out->fields);
    if (!out->common || !out->fields) {
        rc = TG_ERR_NOMEM;
        goto out;
    }
    memcpy(out->common, lists[0], counts[0] * sizeof *out->common);
    memcpy(out->fields, lists[1], counts[1] * sizeof *out->fields);
    out->n_common = counts[0];
    out->n_fields = counts[1];
    out->name = name;
    out->name_len = name_len;
    out->id = id;
    out->print_fmt = pf;
    out->print_fmt_len = pf_len;
out:
    free(heap[0]);
    free(heap[1]);
    return rc;
}
