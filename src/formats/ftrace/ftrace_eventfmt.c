/* ftrace_eventfmt.c - parsing the kernel's event format files and the ring-buffer header.
 *
 * Each events/<system>/<event>/format text gives the event's name, numeric id, its fields
 * (type, name, offset, size, signedness; arrays, __data_loc and __rel_loc dynamic fields)
 * and its print fmt.  The fields become an ft_event (flags computed once, as libtraceevent
 * computes them, because the raw printer and the print-fmt engine depend on them) and a
 * tg_event_class; the print fmt is kept as text and compiled on first use.  Events are
 * found by id through a small open-addressed table. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"
#include "common/linux/ring_page.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

uint64_t ft_read_num(const ft_file *f, const uint8_t *p, uint32_t size)
{
    switch (size) {
    case 1: return p[0];
    case 2: return f->big_endian ? tg_be16(p) : tg_le16(p);
    case 4: return f->big_endian ? tg_be32(p) : tg_le32(p);
    case 8: return f->big_endian ? tg_be64(p) : tg_le64(p);
    default: return 0;
    }
}

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

static uint32_t type_elem_size(const ft_file *f, const char *type)
{
    if (strchr(type, '*'))
        return (uint32_t)f->long_size;
    if (strstr(type, "long long") || strstr(type, "64"))
        return 8;
    if (strstr(type, "long"))
        return (uint32_t)f->long_size;
    if (strstr(type, "char") || strstr(type, "8"))
        return 1;
    if (strstr(type, "short") || strstr(type, "16"))
        return 2;
    return 4;
}

/* One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line. */
static int parse_field_line(ft_file *f, const char *p, const char *e, ft_field *out)
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
    tg_arena *a = &f->trace->arena;
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
        out->flags |= FT_F_SIGNED;
    if (strncmp(type, "__data_loc", 10) == 0)
        out->flags |= FT_F_DYNAMIC | FT_F_ARRAY;
    else if (strncmp(type, "__rel_loc", 9) == 0)
        out->flags |= FT_F_DYNAMIC | FT_F_RELATIVE | FT_F_ARRAY;
    if (arr || strchr(type, '['))
        out->flags |= FT_F_ARRAY;
    if (strstr(type, "long"))
        out->flags |= FT_F_LONG;
    if (te > decl && te[-1] == '*')
        out->flags |= FT_F_POINTER;
    if ((out->flags & FT_F_ARRAY) &&
        (strstr(type, "char") || strstr(type, "u8") || strstr(type, "s8")))
        out->flags |= FT_F_STRING;
    if (out->flags & FT_F_ARRAY) {
        if (arr && !(out->flags & FT_F_DYNAMIC)) {
            char *end;
            long n = strtol(arr + 1, &end, 0);
            if (end != arr + 1 && *end == ']' && n > 0)
                out->array_len = (uint32_t)n;
        }
        if (out->array_len)
            out->elem_size = out->size / out->array_len;
        else if (out->flags & FT_F_STRING)
            out->elem_size = 1;
        else
            out->elem_size = type_elem_size(f, type);
    } else {
        out->elem_size = out->size;
    }
    return 0;
}

/* 0, -1 out of memory, -2 an id past the kernel's 16-bit event types. */
static int add_by_id(ft_file *f, ft_event *ev)
{
    if (ev->id > UINT16_MAX)
        return -2;
    if (ev->id < f->n_by_id && f->by_id[ev->id])
        return 0; /* the first format with an id wins */
    if (tg_grow_zeroed(&f->by_id, &f->n_by_id, &f->cap_by_id, (size_t)ev->id + 1,
                       sizeof *f->by_id) != 0 ||
        tg_grow(&f->events, &f->cap_events, f->n_events + 1, sizeof *f->events) != 0)
        return -1;
    f->by_id[ev->id] = ev;
    f->events[f->n_events++] = ev;
    return 0;
}

const ft_field *ft_find_field(const ft_event *e, const char *name)
{
    for (size_t i = 0; i < e->n_fields; i++)
        if (strcmp(e->fields[i].name, name) == 0)
            return &e->fields[i];
    for (size_t i = 0; i < e->n_common; i++)
        if (strcmp(e->common[i].name, name) == 0)
            return &e->common[i];
    return NULL;
}

static bool field_u64(const ft_event *e, const ft_field *fl, const uint8_t *data, size_t size,
                      uint64_t *v)
{
    if (!fl || (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8) ||
        fl->offset + (size_t)fl->size > size)
        return false;
    *v = ft_read_num(e->file, data + fl->offset, fl->size);
    return true;
}

bool ft_field_u64(const ft_event *e, const uint8_t *data, size_t size, const char *name,
                  uint64_t *v)
{
    return field_u64(e, ft_find_field(e, name), data, size, v);
}

bool ft_kf_u64(const ft_event *e, const uint8_t *data, size_t size, int kf, uint64_t *v)
{
    return field_u64(e, e->kf[kf], data, size, v);
}

#define FT_MAX_FIELDS 1024

int ft_parse_format(ft_file *f, const char *system, const char *text, size_t len, uint64_t file_off,
                    tg_error **err)
{
    tg_arena *a = &f->trace->arena;
    const char *p = text, *end = text + len;
    const char *name = NULL;
    size_t name_len = 0;
    long id = -1;
    ft_field tmp[2][64];
    ft_field *lists[2] = {tmp[0], tmp[1]};
    size_t counts[2] = {0, 0}, caps[2] = {64, 64};
    ft_field *heap[2] = {NULL, NULL};
    int block = 0;
    bool in_format = false, seen_field = false;
    const char *pf = NULL;
    size_t pf_len = 0;
    int rc = 0;
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
            ft_field fl;
            int r = parse_field_line(f, q, le, &fl);
            if (r == -2) {
                rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
                goto out;
            }
            if (r == 0) {
                seen_field = true;
                int b = block;
                if (counts[b] == caps[b]) {
                    if (caps[b] >= FT_MAX_FIELDS) {
                        rc = tg_err_at(err, TG_ERR_LIMIT, f->path, file_off,
                                       "event format with more than %d fields", FT_MAX_FIELDS);
                        goto out;
                    }
                    size_t nc = caps[b] * 2;
                    ft_field *nh = malloc(nc * sizeof *nh);
                    if (!nh) {
                        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
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
        rc = tg_err_at(err, TG_ERR_FORMAT, f->path, file_off,
                       "event format without a name or an ID");
        goto out;
    }
    /* a single block of fields: split by the common_ prefix */
    if (counts[1] == 0 && counts[0]) {
        size_t k = 0;
        while (k < counts[0] && strncmp(lists[0][k].name, "common_", 7) == 0)
            k++;
        if (k < counts[0]) {
            if (counts[0] - k > caps[1]) {
                ft_field *nh = malloc((counts[0] - k) * sizeof *nh);
                if (!nh) {
                    rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
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
    ft_event *ev = tg_arena_alloc(a, sizeof *ev);
    if (!ev) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto out;
    }
    ev->file = f;
    ev->id = (uint32_t)id;
    ev->system = system;
    ev->name = tg_arena_strndup(a, name, name_len);
    ev->common = tg_arena_alloc(a, (counts[0] + 1) * sizeof *ev->common);
    ev->fields = tg_arena_alloc(a, (counts[1] + 1) * sizeof *ev->fields);
    if (!ev->name || !ev->common || !ev->fields) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto out;
    }
    memcpy(ev->common, lists[0], counts[0] * sizeof *ev->common);
    memcpy(ev->fields, lists[1], counts[1] * sizeof *ev->fields);
    ev->n_common = counts[0];
    ev->n_fields = counts[1];
    if (pf) {
        ev->print_fmt = tg_arena_strndup(a, pf, pf_len);
        if (!ev->print_fmt) {
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            goto out;
        }
    }
    static const char *const kf_names[FT_KF_COUNT] = {
        [FT_KF_PID] = "common_pid",     [FT_KF_FUNC] = "func",       [FT_KF_DEPTH] = "depth",
        [FT_KF_CALLTIME] = "calltime",  [FT_KF_RETTIME] = "rettime", [FT_KF_IP] = "ip",
        [FT_KF_PARENT_IP] = "parent_ip"};
    for (int k = 0; k < FT_KF_COUNT; k++)
        ev->kf[k] = ft_find_field(ev, kf_names[k]);
    ev->plugin = ft_plugin_for(system, ev->name);
    ev->is_bprint = strcmp(system, "ftrace") == 0 && strcmp(ev->name, "bprint") == 0;
    if (!f->have_type) {
        for (size_t i = 0; i < ev->n_common; i++) {
            if (strcmp(ev->common[i].name, "common_type") == 0) {
                f->type_off = ev->common[i].offset;
                f->type_size = ev->common[i].size;
                f->have_type = true;
            } else if (strcmp(ev->common[i].name, "common_pid") == 0) {
                f->pid_off = ev->common[i].offset;
                f->pid_size = ev->common[i].size;
            }
        }
    }
    /* function_graph records are function entries and exits for the call-stack builder
     * (the stream fills addr from func, and depth).  Not `kernel`: that tells uftrace's
     * kernel records from the traced program's, and here there is no program's. */
    tg_event_kind kind = TG_KIND_GENERIC;
    if (strcmp(system, "ftrace") == 0 && ev->kf[FT_KF_FUNC] && ev->kf[FT_KF_DEPTH]) {
        if (strcmp(ev->name, "funcgraph_entry") == 0)
            kind = TG_KIND_FUNC_ENTRY;
        else if (strcmp(ev->name, "funcgraph_exit") == 0)
            kind = TG_KIND_FUNC_EXIT;
    }
    ev->cls = tg_trace_add_class(f->trace, ev->name, ev->id, kind);
    if (!ev->cls) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto out;
    }
    ev->is_func = kind != TG_KIND_GENERIC;
    ev->cls->system = system;
    ev->cls->fmt_data = ev;
    int added = add_by_id(f, ev);
    if (added == -2)
        rc =
            tg_err(err, TG_ERR_FORMAT, "event format %s: ID %u is past ftrace's 16-bit event types",
                   ev->name, (unsigned)ev->id);
    else if (added < 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
out:
    free(heap[0]);
    free(heap[1]);
    return rc;
}

int ft_parse_header_page(ft_file *f, const char *text, size_t len)
{
    tg_rb_layout l;
    memset(&l, 0, sizeof l);
    l.long_size = f->long_size;
    if (tg_rb_layout_parse(&l, text, len) < 0)
        return -1;
    f->hp_ts_off = l.ts_off;
    f->hp_commit_off = l.commit_off;
    f->hp_commit_size = l.commit_size;
    f->hp_data_off = l.data_off;
    return 0;
}
