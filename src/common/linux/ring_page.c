/* ring_page.c - decoding Linux ring-buffer pages (see ring_page.h).
 *
 * Written from the kernel's description of the format (events/header_page and
 * events/header_event) as trace-cmd's files carry it. */
#include "common/linux/ring_page.h"
#include "io/byte_reader.h"

#include <stdlib.h>
#include <string.h>

enum { RB_PADDING = 29, RB_TIME_EXTEND = 30, RB_TIME_STAMP = 31 };

/* "field: TYPE NAME; offset:N; size:N; ..." -> name, offset, size */
static bool field_line(const char *p, const char *e, const char **name, size_t *nlen, long *off,
                       long *size)
{
    const char *semi = memchr(p, ';', (size_t)(e - p));
    if (!semi)
        return false;
    const char *ne = semi;
    while (ne > p && ne[-1] == ' ')
        ne--;
    const char *ns = ne;
    while (ns > p && ns[-1] != ' ' && ns[-1] != ':' && ns[-1] != '\t')
        ns--;
    *name = ns;
    *nlen = (size_t)(ne - ns);
    const char *o = NULL, *s = NULL;
    for (const char *q = semi; q + 5 < e; q++) {
        if (!o && memcmp(q, "offset:", 7) == 0)
            o = q + 7;
        if (!s && memcmp(q, "size:", 5) == 0)
            s = q + 5;
    }
    if (!o || !s)
        return false;
    *off = strtol(o, NULL, 10);
    *size = strtol(s, NULL, 10);
    return *off >= 0 && *size >= 0 && *off < 65536 && *size < 65536;
}

/* Calls fn for each "field:" line of a format text; stops when it returns true. */
static bool each_field(const char *text, size_t len, void *ctx,
                       bool (*fn)(void *ctx, const char *name, size_t n, long off, long size))
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *q = p;
        while (q < le && (*q == ' ' || *q == '\t'))
            q++;
        const char *name;
        size_t n;
        long off, size;
        if (le - q > 6 && memcmp(q, "field:", 6) == 0 &&
            field_line(q + 6, le, &name, &n, &off, &size) && fn(ctx, name, n, off, size))
            return true;
        p = le + 1;
    }
    return false;
}

struct field_want {
    const char *name;
    long off, size;
};

static bool match_field(void *ctx, const char *name, size_t n, long off, long size)
{
    struct field_want *w = ctx;
    if (strlen(w->name) != n || memcmp(name, w->name, n) != 0)
        return false;
    w->off = off;
    w->size = size;
    return true;
}

int tg_rb_format_field(const char *text, size_t len, const char *name, uint32_t *off,
                       uint32_t *size)
{
    struct field_want w = {.name = name};
    if (!each_field(text, len, &w, match_field))
        return -1;
    *off = (uint32_t)w.off;
    *size = (uint32_t)w.size;
    return 0;
}

int tg_rb_format_id(const char *text, size_t len, uint32_t *id)
{
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le - p > 4 && memcmp(p, "ID: ", 4) == 0) {
            unsigned long v = 0;
            const char *q = p + 4;
            if (q == le)
                return -1;
            for (; q < le && *q >= '0' && *q <= '9' && v <= 0xffffffffu; q++)
                v = v * 10 + (unsigned long)(*q - '0');
            if (q != le || v > 0xffffffffu)
                return -1;
            *id = (uint32_t)v;
            return 0;
        }
        p = le + 1;
    }
    return -1;
}

struct layout_found {
    tg_rb_layout *l;
    int found;
};

static bool layout_field(void *ctx, const char *name, size_t n, long off, long size)
{
    struct layout_found *f = ctx;
    if (n == 9 && memcmp(name, "timestamp", 9) == 0) {
        f->l->ts_off = (uint32_t)off;
        f->found |= 1;
    } else if (n == 6 && memcmp(name, "commit", 6) == 0) {
        f->l->commit_off = (uint32_t)off;
        f->l->commit_size = (uint32_t)size;
        f->found |= 2;
    } else if (n == 4 && memcmp(name, "data", 4) == 0) {
        f->l->data_off = (uint32_t)off;
        f->found |= 4;
    }
    return false;
}

int tg_rb_layout_parse(tg_rb_layout *l, const char *text, size_t len)
{
    struct layout_found f = {.l = l};
    l->commit_size = (uint32_t)l->long_size;
    each_field(text, len, &f, layout_field);
    if (f.found != 7 || (l->commit_size != 4 && l->commit_size != 8) ||
        l->data_off < l->commit_off + l->commit_size || l->ts_off + 8 > l->data_off)
        return -1;
    return 0;
}

static uint32_t rd32(const tg_rb_layout *l, const uint8_t *p)
{
    return l->big_endian ? tg_be32(p) : tg_le32(p);
}

static uint64_t rd64(const tg_rb_layout *l, const uint8_t *p)
{
    return l->big_endian ? tg_be64(p) : tg_le64(p);
}

int tg_rb_page_load(tg_rb_page *p, const tg_rb_layout *l, const uint8_t *page, size_t *commit_out)
{
    uint64_t commit =
        l->commit_size == 8 ? rd64(l, page + l->commit_off) : rd32(l, page + l->commit_off);
    size_t size = (size_t)(commit & ((1u << 27) - 1));
    size_t room = l->page_size - l->data_off;
    p->l = l;
    p->data = page + l->data_off;
    p->next = 0;
    p->commit = 0;
    p->lost = 0;
    p->ts = rd64(l, page + l->ts_off);
    if (commit_out)
        *commit_out = size;
    if (size > room)
        return -1;
    if (commit & (1u << 31)) { /* missed events before this page; their count if stored */
        p->lost = -1;
        if ((commit & (1u << 30)) && (l->long_size == 4 || l->long_size == 8) &&
            size + (size_t)l->long_size <= room)
            p->lost =
                (int64_t)(l->long_size == 8 ? rd64(l, p->data + size) : rd32(l, p->data + size));
    }
    p->commit = size;
    return size ? 1 : 0;
}

int tg_rb_page_next(tg_rb_page *p, tg_rb_record *r)
{
    const tg_rb_layout *l = p->l;
    for (;;) {
        size_t pos = p->next;
        r->pos = pos;
        if (pos >= p->commit)
            return TG_RB_END;
        if (p->commit - pos < 4) {
            p->next = p->commit;
            return TG_RB_BAD_HEADER;
        }
        uint32_t hdr = rd32(l, p->data + pos);
        unsigned type_len;
        uint64_t delta;
        if (l->big_endian) {
            type_len = hdr >> 27;
            delta = hdr & ((1u << 27) - 1);
        } else {
            type_len = hdr & 31;
            delta = hdr >> 5;
        }
        size_t q = pos + 4, length;
        switch (type_len) {
        case RB_PADDING:
            if (p->commit - q < 4) {
                p->next = p->commit;
                continue;
            }
            length = rd32(l, p->data + q);
            p->ts += delta;
            p->next = length <= p->commit - q ? q + length : p->commit;
            continue;
        case RB_TIME_EXTEND:
        case RB_TIME_STAMP: {
            if (p->commit - q < 4) {
                p->next = p->commit;
                return TG_RB_BAD_EXTEND;
            }
            uint64_t ext = ((uint64_t)rd32(l, p->data + q) << 27) + delta;
            if (type_len == RB_TIME_STAMP)
                p->ts = ext;
            else
                p->ts += ext;
            p->next = q + 4;
            continue;
        }
        case 0:
            if (p->commit - q < 4) {
                p->next = p->commit;
                return TG_RB_BAD_HEADER;
            }
            length = rd32(l, p->data + q);
            length = length >= 4 ? ((length - 4 + 3) & ~(size_t)3) : 0;
            q += 4;
            break;
        default: length = (size_t)type_len * 4; break;
        }
        if (length > p->commit - q) {
            r->len = length;
            p->next = p->commit;
            return TG_RB_BAD_LENGTH;
        }
        p->ts += delta;
        p->next = q + length;
        r->ts = p->ts;
        r->data = p->data + q;
        r->len = length;
        return TG_RB_RECORD;
    }
}
