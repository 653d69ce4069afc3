/* xray_yaml.c - the "xray-yaml" print style: `llvm-xray convert -output-format=yaml
 * -symbolize` byte for byte; and the "xray-yaml" converter, `llvm-xray convert
 * -output-format=yaml` with its -symbolize an option (without it, a function is its id).
 *
 * llvm-xray loads the records, stable-sorts them by TSC and writes them with LLVM's YAML
 * writer: a "header" block mapping (keys padded to 16 columns) and one flow mapping per
 * record, keys in a fixed order, "thread" and "process" left out when zero, "args" left out
 * when empty, strings quoted by the writer's rules (single quotes when a plain scalar would
 * be ambiguous, double quotes with escapes for control and non-ASCII bytes).
 *
 * The XRay reader creates its streams in llvm-xray's load order, so the merged iterator
 * (time order, ties in stream order) is that stable sort, except that several TSC values
 * can share one nanosecond when the cycle frequency is above 1 GHz: then each run of
 * events with the same time is buffered and stable-sorted by the raw TSC before printing.
 * The header comes from the trace's own description (tg_trace_describe). */
#include "core/consumer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- LLVM YAML scalar quoting ------------------------------------------------------------- */

enum quoting { Q_NONE, Q_SINGLE, Q_DOUBLE };

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static size_t skip_digits(const char *s, size_t n, size_t i)
{
    while (i < n && is_digit(s[i]))
        i++;
    return i;
}

static int eq(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static int is_numeric(const char *s, size_t n)
{
    if (n == 0 || eq(s, n, "+") || eq(s, n, "-"))
        return 0;
    if (eq(s, n, ".nan") || eq(s, n, ".NaN") || eq(s, n, ".NAN"))
        return 1;
    const char *t = s;
    size_t tn = n;
    if (s[0] == '-' || s[0] == '+') {
        t++;
        tn--;
    }
    if (eq(t, tn, ".inf") || eq(t, tn, ".Inf") || eq(t, tn, ".INF"))
        return 1;
    if (n >= 2 && s[0] == '0' && s[1] == 'o') {
        if (n == 2)
            return 0;
        for (size_t i = 2; i < n; i++)
            if (s[i] < '0' || s[i] > '7')
                return 0;
        return 1;
    }
    if (n >= 2 && s[0] == '0' && s[1] == 'x') {
        if (n == 2)
            return 0;
        for (size_t i = 2; i < n; i++)
            if (!strchr("0123456789abcdefABCDEF", s[i]) || s[i] == 0)
                return 0;
        return 1;
    }
    if (tn && t[0] == '.' && (tn == 1 || !is_digit(t[1])))
        return 0;
    if (tn && (t[0] == 'E' || t[0] == 'e'))
        return 0;
    size_t i = skip_digits(t, tn, 0);
    if (i == tn)
        return 1;
    if (t[i] == '.') {
        i = skip_digits(t, tn, i + 1);
        if (i == tn)
            return 1;
        if (t[i] != 'e' && t[i] != 'E')
            return 0;
    } else if (t[i] != 'e' && t[i] != 'E') {
        return 0;
    }
    i++;
    if (i == tn)
        return 0;
    if (t[i] == '+' || t[i] == '-') {
        i++;
        if (i == tn)
            return 0;
    }
    return skip_digits(t, tn, i) == tn;
}

static enum quoting needs_quotes(const char *s, size_t n)
{
    if (n == 0)
        return Q_SINGLE;
    enum quoting q = Q_NONE;
    unsigned char f = (unsigned char)s[0], b = (unsigned char)s[n - 1];
    if (f == ' ' || (f >= 9 && f <= 13) || b == ' ' || (b >= 9 && b <= 13))
        q = Q_SINGLE;
    if (eq(s, n, "null") || eq(s, n, "Null") || eq(s, n, "NULL") || eq(s, n, "~"))
        q = Q_SINGLE;
    if (eq(s, n, "true") || eq(s, n, "True") || eq(s, n, "TRUE") || eq(s, n, "false") ||
        eq(s, n, "False") || eq(s, n, "FALSE"))
        q = Q_SINGLE;
    if (is_numeric(s, n))
        q = Q_SINGLE;
    if (strchr("-?:\\,[]{}#&*!|>'\"%@`", s[0]) && s[0] != 0)
        q = Q_SINGLE;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            continue;
        switch (c) {
        case '_':
        case '-':
        case '^':
        case '.':
        case ',':
        case ' ':
        case 0x9: continue;
        case 0xA:
        case 0xD: q = Q_SINGLE; continue;
        case 0x7F: return Q_DOUBLE;
        default:
            if (c <= 0x1F || (c & 0x80))
                return Q_DOUBLE;
            q = Q_SINGLE;
        }
    }
    return q;
}

static void put_hex_escape(tg_buf *out, unsigned v, int digits)
{
    static const char hx[] = "0123456789ABCDEF";
    char tmp[8];
    for (int i = digits - 1; i >= 0; i--) {
        tmp[i] = hx[v & 15];
        v >>= 4;
    }
    tg_buf_put(out, tmp, (size_t)digits);
}

/* Double-quoted body: LLVM's yaml::escape without escaping printable characters. */
static void put_escaped(tg_buf *out, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        switch (c) {
        case '\\': tg_buf_puts(out, "\\\\"); continue;
        case '"': tg_buf_puts(out, "\\\""); continue;
        case 0: tg_buf_puts(out, "\\0"); continue;
        case 7: tg_buf_puts(out, "\\a"); continue;
        case 8: tg_buf_puts(out, "\\b"); continue;
        case 9: tg_buf_puts(out, "\\t"); continue;
        case 10: tg_buf_puts(out, "\\n"); continue;
        case 11: tg_buf_puts(out, "\\v"); continue;
        case 12: tg_buf_puts(out, "\\f"); continue;
        case 13: tg_buf_puts(out, "\\r"); continue;
        case 27: tg_buf_puts(out, "\\e"); continue;
        default: break;
        }
        if (c < 0x20) {
            tg_buf_puts(out, "\\x");
            put_hex_escape(out, c, 2);
        } else if (c < 0x80) {
            tg_buf_putc(out, (char)c);
        } else {
            /* a UTF-8 sequence: decode it; invalid bytes become U+FFFD as \uFFFD */
            unsigned cp = 0, len = 0;
            if ((c & 0xE0) == 0xC0) {
                cp = c & 0x1F;
                len = 2;
            } else if ((c & 0xF0) == 0xE0) {
                cp = c & 0x0F;
                len = 3;
            } else if ((c & 0xF8) == 0xF0) {
                cp = c & 0x07;
                len = 4;
            }
            int ok = len != 0 && i + len <= n;
            for (unsigned k = 1; ok && k < len; k++) {
                if ((s[i + k] & 0xC0) != 0x80)
                    ok = 0;
                else
                    cp = (cp << 6) | (s[i + k] & 0x3F);
            }
            if (!ok) {
                tg_buf_puts(out, "\\uFFFD");
                continue;
            }
            if (cp == 0x85)
                tg_buf_puts(out, "\\N");
            else if (cp == 0xA0)
                tg_buf_puts(out, "\\_");
            else if (cp == 0x2028)
                tg_buf_puts(out, "\\L");
            else if (cp == 0x2029)
                tg_buf_puts(out, "\\P");
            else
                tg_buf_put(out, s + i, len);
            i += len - 1;
        }
    }
}

static void put_scalar(tg_buf *out, const char *s, size_t n)
{
    switch (needs_quotes(s, n)) {
    case Q_NONE: tg_buf_put(out, s, n); break;
    case Q_SINGLE:
        tg_buf_putc(out, '\'');
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\'')
                tg_buf_putc(out, '\'');
            tg_buf_putc(out, s[i]);
        }
        tg_buf_putc(out, '\'');
        break;
    case Q_DOUBLE:
        tg_buf_putc(out, '"');
        put_escaped(out, (const unsigned char *)s, n);
        tg_buf_putc(out, '"');
        break;
    }
}

/* ---- records ------------------------------------------------------------------------------ */

static uint64_t field_u(const tg_event *ev, size_t i)
{
    tg_value v;
    if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
        return 0;
    return v.type == TG_VAL_SINT ? (uint64_t)v.v.s : v.v.u;
}

#define PUT_LIT(out, lit) tg_buf_put((out), (lit), sizeof(lit) - 1)

/* Quoted function names, kept once per name (names are stable per trace: one pointer per
 * function), so quoting rules run once per function, not once per record: core's hash table
 * from the name's pointer to its span of quoted text. */
struct name_span {
    size_t off, len;
};

typedef struct name_cache {
    tg_hash by_name; /* name pointer -> index into spans */
    struct name_span *spans;
    size_t n, cap;
    tg_buf *text;
} name_cache;

static void put_name(name_cache *nc, tg_buf *out, const char *name)
{
    if (!name)
        name = "";
    uint64_t *index = tg_hash_find(&nc->by_name, (uintptr_t)name);
    if (index) {
        const struct name_span *sp = &nc->spans[*index];
        tg_buf_put(out, tg_buf_data(nc->text) + sp->off, sp->len);
        return;
    }
    if (!nc->text || tg_grow(&nc->spans, &nc->cap, nc->n + 1, sizeof *nc->spans) < 0 ||
        tg_hash_add(&nc->by_name, (uintptr_t)name, &index) < 0) {
        put_scalar(out, name, strlen(name)); /* out of memory: quoted every time */
        return;
    }
    size_t off = tg_buf_len(nc->text);
    put_scalar(nc->text, name, strlen(name));
    *index = nc->n;
    nc->spans[nc->n++] = (struct name_span){off, tg_buf_len(nc->text) - off};
    tg_buf_put(out, tg_buf_data(nc->text) + off, tg_buf_len(nc->text) - off);
}

/* One record line; returns its TSC.  The class ids are llvm-xray's record kinds (3
 * enter-arg: call arguments; 4 custom, 5 typed: a data payload). */
static uint64_t put_record(tg_buf *out, const tg_event *ev, int ns_is_tsc, name_cache *nc,
                           int symbolize)
{
    uint64_t tsc = ns_is_tsc ? (uint64_t)tg_event_trace_time_ns(ev) : field_u(ev, 0);
    uint64_t kind = tg_event_class_id(tg_event_class_of(ev));
    PUT_LIT(out, "  - { type: ");
    tg_buf_u64(out, field_u(ev, 1) & 0xffff);
    PUT_LIT(out, ", func-id: ");
    tg_buf_i64(out, (int32_t)tg_event_func_addr(ev));
    PUT_LIT(out, ", function: ");
    if (symbolize) {
        put_name(nc, out, tg_event_func_name(ev));
    } else { /* the id as text: '5', quoted as a number is */
        char id[16];
        int n = snprintf(id, sizeof id, "%d", (int32_t)tg_event_func_addr(ev));
        put_scalar(out, id, (size_t)n);
    }
    tg_value args;
    if (kind == 3 && tg_event_field(ev, TG_SCOPE_PAYLOAD, 3, &args) == 0 && args.count) {
        PUT_LIT(out, ", args: [ ");
        for (size_t i = 0; i < args.count; i++) {
            tg_value a;
            if (tg_value_child(&args, i, &a) < 0)
                break;
            if (i)
                PUT_LIT(out, ", ");
            tg_buf_u64(out, a.v.u);
        }
        PUT_LIT(out, " ]");
    }
    PUT_LIT(out, ", cpu: ");
    tg_buf_u64(out, (uint16_t)tg_event_cpu(ev));
    uint32_t tid = (uint32_t)tg_event_tid(ev), pid = (uint32_t)tg_event_pid(ev);
    if (tid) {
        PUT_LIT(out, ", thread: ");
        tg_buf_u64(out, tid);
    }
    if (pid) {
        PUT_LIT(out, ", process: ");
        tg_buf_u64(out, pid);
    }
    PUT_LIT(out, ", kind: ");
    tg_buf_puts(out, tg_event_name(ev));
    PUT_LIT(out, ", tsc: ");
    tg_buf_u64(out, tsc);
    tg_value data;
    if ((kind == 4 || kind == 5) && tg_event_field(ev, TG_SCOPE_PAYLOAD, 4, &data) == 0) {
        PUT_LIT(out, ", data: ");
        put_scalar(out, data.v.str.ptr, data.v.str.len);
        PUT_LIT(out, " }\n");
    } else {
        PUT_LIT(out, ", data: '' }\n");
    }
    return tsc;
}

/* A run of records with one time stamp, kept until the time changes (frequency > 1 GHz). */
typedef struct group {
    tg_buf *text;
    struct line {
        uint64_t tsc;
        size_t off, len;
    } * lines;
    size_t n, cap;
    int64_t ts;
} group;

static int line_cmp(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    if (x->tsc != y->tsc)
        return x->tsc < y->tsc ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off; /* stable */
}

static void group_flush(group *g, tg_buf *out)
{
    if (g->n > 1)
        qsort(g->lines, g->n, sizeof *g->lines, line_cmp);
    const char *d = tg_buf_data(g->text);
    for (size_t i = 0; i < g->n; i++)
        tg_buf_put(out, d + g->lines[i].off, g->lines[i].len);
    g->n = 0;
    tg_buf_reset(g->text);
}

static int xray_trace(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

static int xray_yaml_write(tg_set *set, tg_iter *it, int symbolize, tg_buf *out)
{
    tg_iter_use_trace_clocks(it); /* llvm-xray's own times */
    tg_trace *first = NULL;
    for (size_t i = 0; i < tg_set_trace_count(set) && !first; i++)
        if (xray_trace(tg_set_trace(set, i)))
            first = tg_set_trace(set, i);
    tg_buf *hdr = tg_buf_new();
    if (!hdr)
        return TG_ERR_NOMEM;
    uint64_t freq = first ? tg_trace_clock(first)->frequency_hz : 0;
    if (first && tg_trace_describe(first, hdr, NULL) >= 0) {
        tg_buf_puts(out, "---\nheader:\n");
        const char *d = tg_buf_data(hdr);
        while (*d) {
            const char *nl = strchr(d, '\n');
            size_t n = nl ? (size_t)(nl - d) : strlen(d);
            tg_buf_puts(out, "  ");
            tg_buf_put(out, d, n);
            tg_buf_putc(out, '\n');
            d += n + (nl ? 1 : 0);
        }
    } else {
        tg_buf_puts(out, "---\nheader:\n");
    }
    tg_buf_free(hdr);

    group g = {0};
    int sort_ties = freq > 1000000000u;
    /* at 1 GHz the event time in ns is the TSC itself (the reader's ns = tsc * 1e9 / f) */
    int ns_is_tsc = freq == 1000000000u;
    name_cache nc = {.text = tg_buf_new()};
    if (sort_ties && !(g.text = tg_buf_new()))
        return TG_ERR_NOMEM;
    int rc = 0, any = 0;
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (!xray_trace(tg_event_trace(ev)))
            continue;
        if (!any) {
            tg_buf_puts(out, "records:\n");
            any = 1;
        }
        if (!sort_ties) {
            put_record(out, ev, ns_is_tsc, &nc, symbolize);
            continue;
        }
        if (g.n && tg_event_trace_time_ns(ev) != g.ts)
            group_flush(&g, out);
        if (g.n == g.cap && tg_grow(&g.lines, &g.cap, g.n + 1, sizeof *g.lines) < 0) {
            rc = TG_ERR_NOMEM;
            break;
        }
        size_t off = tg_buf_len(g.text);
        uint64_t tsc = put_record(g.text, ev, ns_is_tsc, &nc, symbolize);
        g.lines[g.n].tsc = tsc;
        g.lines[g.n].off = off;
        g.lines[g.n].len = tg_buf_len(g.text) - off;
        g.n++;
        g.ts = tg_event_trace_time_ns(ev);
    }
    if (sort_ties) {
        group_flush(&g, out);
        tg_buf_free(g.text);
        free(g.lines);
    }
    tg_hash_free(&nc.by_name);
    free(nc.spans);
    tg_buf_free(nc.text);
    if (!any)
        tg_buf_puts(out, "records:         []\n");
    tg_buf_puts(out, "...\n");
    return rc < 0 ? rc : 0;
}

static int xray_yaml_print(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                           tg_error **err)
{
    (void)opts;
    (void)err;
    return xray_yaml_write(set, it, 1, out);
}

TG_PRINT_STYLE(xray_yaml) = {
    .name = "xray-yaml",
    .print = xray_yaml_print,
};

static int xray_yaml_convert(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                             tg_error **err)
{
    (void)err;
    return xray_yaml_write(set, it, tg_options_flag(opts, "symbolize"), out);
}

static const tg_option_decl xray_yaml_options[] = {
    {"symbolize", TG_OPT_FLAG, "0",
     "name each function (from --instr-map; #ID outside it), else its id (llvm-xray convert "
     "-symbolize)",
     .short_name = 'y'},
    {0},
};

TG_CONVERTER(xray_yaml) = {
    .name = "xray-yaml",
    .convert = xray_yaml_convert,
    .options = xray_yaml_options,
};
