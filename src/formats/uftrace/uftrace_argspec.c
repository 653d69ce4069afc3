/* uftrace_argspec.c - function argument and return value specs, and their payloads.
 *
 * A record with the `more` bit carries the values uftrace saved for the function, laid out
 * by the spec that applied when recording: each value padded to 4 bytes (strings as a 16-bit
 * length and the bytes), the whole padded to 8.  Nothing in the payload says its length, so
 * the reader must find the same spec: the info file's argspec/retspec lines (-A/-R), or with
 * auto-args the .dbg file of the module (DWARF) and the argauto/retauto lists.  Specs are
 * parsed once at open; rendering follows uftrace's formatting rules value by value. */
#include "formats/uftrace/uftrace_internal.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UFT_MAX_ARGS 64

/* The decimal number at s[*i] (digits up to n), saturated at 100000: no count or size in an
 * argspec comes near it, and a longer run of digits must not overflow. */
static int read_decimal(const char *s, size_t n, size_t *i)
{
    int v = 0;
    while (*i < n && isdigit((unsigned char)s[*i])) {
        v = v * 10 + (s[(*i)++] - '0');
        if (v > 100000)
            v = 100000;
    }
    return v;
}

static int parse_item(tg_trace *t, const char *s, size_t n, struct uft_arg *a)
{
    memset(a, 0, sizeof *a);
    a->size = 8;
    size_t i = 0;
    if (n >= 6 && !strncmp(s, "retval", 6)) {
        a->idx = 0;
        i = 6;
    } else if (n >= 3 && !strncmp(s, "arg", 3)) {
        i = 3;
        int v = read_decimal(s, n, &i);
        if (v <= 0 || v > 255)
            return -1;
        a->idx = (int16_t)v;
    } else if (n >= 5 && !strncmp(s, "fparg", 5)) {
        i = 5;
        int v = read_decimal(s, n, &i);
        if (v <= 0 || v > 255)
            return -1;
        a->idx = (int16_t)(100 + v);
        a->fmt = UFT_ARG_FLOAT;
    } else {
        return -1;
    }
    bool size_only = i + 1 < n && s[i] == '/' && isdigit((unsigned char)s[i + 1]);
    if (size_only) {
        i++; /* a size alone: "fparg1/64" */
    } else if (i < n && s[i] == '/') {
        i++;
        char f = i < n ? s[i++] : 0;
        switch (f) {
        case 'd':
        case 'i':
            a->fmt = UFT_ARG_SINT;
            a->letter = f; /* the same reading; uftrace dump names the spelling */
            break;
        case 'u': a->fmt = UFT_ARG_UINT; break;
        case 'x': a->fmt = UFT_ARG_HEX; break;
        /* 'o' (octal) is refused by uftrace 0.13 ("unsupported argument type") */
        case 's': a->fmt = UFT_ARG_STR; break;
        case 'S': a->fmt = UFT_ARG_STDSTR; break;
        case 'c':
            a->fmt = UFT_ARG_CHAR;
            a->size = 1;
            break;
        case 'f': a->fmt = UFT_ARG_FLOAT; break;
        case 'p': a->fmt = UFT_ARG_PTR; break;
        case 'e':
            a->fmt = UFT_ARG_ENUM; /* saved as a long, like an integer without a size */
            if (i < n && s[i] == ':') {
                size_t st = ++i;
                while (i < n && s[i] != '%')
                    i++;
                a->enum_name = tg_arena_strndup(&t->arena, s + st, i - st);
            }
            break;
        default: return -1;
        }
    }
    {
        if (i < n && isdigit((unsigned char)s[i])) { /* size in bits, after "/" or the letter */
            int bits = read_decimal(s, n, &i);
            if (a->fmt == UFT_ARG_FLOAT && bits == 80)
                a->size = 10;
            else if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
                a->size = (uint8_t)(bits / 8);
            else
                return -1;
        }
    }
    if (i < n && s[i] != '%')
        return -1;
    return 0;
}

int uft_argspec_parse(tg_trace *t, struct uft_data *d, const char *text, size_t len,
                      struct uft_argspec *out)
{
    (void)d;
    struct uft_arg tmp[UFT_MAX_ARGS];
    size_t n = 0;
    const char *p = text, *end = text + len;
    if (p < end && *p == '@')
        p++;
    while (p < end) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        const char *ie = c ? c : end;
        while (ie > p && (ie[-1] == ' ' || ie[-1] == '\r'))
            ie--;
        struct uft_arg a;
        if (ie > p) {
            if (parse_item(t, p, (size_t)(ie - p), &a) < 0)
                return -1;
            if (a.idx == 0) {
                out->has_ret = true;
                out->ret = a;
            } else if (n < UFT_MAX_ARGS) {
                tmp[n++] = a;
            }
        }
        p = c ? c + 1 : end;
    }
    if (n) {
        out->args = tg_arena_alloc(&t->arena, n * sizeof *out->args);
        if (!out->args)
            return -1;
        memcpy(out->args, tmp, n * sizeof *tmp);
        out->n_args = (uint16_t)n;
    }
    return 0;
}

/* ---- enums ("enum name { A, B = 5, C, }") ------------------------------------------------ */

int uft_enums_parse(tg_trace *t, struct uft_data *d, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *e = p;
        while (e < end && isspace((unsigned char)*e))
            e++;
        if ((size_t)(end - e) < 5 || strncmp(e, "enum ", 5) != 0)
            return 0;
        e += 5;
        while (e < end && *e == ' ')
            e++;
        const char *ns = e;
        while (e < end && *e != ' ' && *e != '{')
            e++;
        const char *ne = e;
        const char *ob = memchr(e, '{', (size_t)(end - e));
        const char *cb = ob ? memchr(ob, '}', (size_t)(end - ob)) : NULL;
        if (!ob || !cb)
            return -1;
        struct uft_enum *en;
        if (tg_grow(&d->enums, &d->cap_enums, d->n_enums + 1, sizeof *d->enums) < 0)
            return -1;
        en = &d->enums[d->n_enums++];
        memset(en, 0, sizeof *en);
        en->name = tg_arena_strndup(&t->arena, ns, (size_t)(ne - ns));
        size_t cap = 1;
        for (const char *q = ob; q < cb; q++)
            cap += *q == ',';
        en->items = tg_arena_alloc(&t->arena, cap * sizeof *en->items);
        if (!en->items)
            return -1;
        int64_t next = 0;
        const char *q = ob + 1;
        while (q < cb) {
            while (q < cb && (isspace((unsigned char)*q) || *q == ','))
                q++;
            if (q >= cb)
                break;
            const char *is = q;
            while (q < cb && !isspace((unsigned char)*q) && *q != '=' && *q != ',')
                q++;
            const char *ie = q;
            while (q < cb && isspace((unsigned char)*q))
                q++;
            if (q < cb && *q == '=') {
                q++;
                while (q < cb && isspace((unsigned char)*q))
                    q++;
                char *xe;
                next = strtoll(q, &xe, 0);
                q = xe;
            }
            if (en->n < cap) {
                en->items[en->n].name = tg_arena_strndup(&t->arena, is, (size_t)(ie - is));
                en->items[en->n].value = next;
                en->n++;
            }
            next++;
            while (q < cb && *q != ',')
                q++;
        }
        /* largest value first, ties in declaration order (insertion sort: enums are small) */
        for (size_t i = 1; i < en->n; i++) {
            struct uft_enum_item it = en->items[i];
            size_t j = i;
            while (j > 0 && en->items[j - 1].value < it.value) {
                en->items[j] = en->items[j - 1];
                j--;
            }
            en->items[j] = it;
        }
        p = cb + 1;
        while (p < end && (*p == ';' || isspace((unsigned char)*p)))
            p++;
    }
    return 0;
}

/* ---- rules from the info file ------------------------------------------------------------ */

static bool has_regex_chars(const char *s) { return strpbrk(s, ".?*+-^$|()[]{}\\") != NULL; }

static int read_rule_list(tg_trace *t, struct uft_data *d, const char *v, size_t n, bool regex_mode,
                          struct uft_spec_rule **out, size_t *n_out)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += v[i] == ';';
    struct uft_spec_rule *r = tg_arena_alloc(&t->arena, cap * sizeof *r);
    if (!r)
        return -1;
    size_t k = 0;
    const char *p = v, *end = v + n;
    while (p < end && k < cap) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *ie = semi ? semi : end;
        const char *at = memchr(p, '@', (size_t)(ie - p));
        if (at && at > p) {
            char *name = tg_arena_strndup(&t->arena, p, (size_t)(at - p));
            struct uft_spec_rule *rule = &r[k];
            memset(rule, 0, sizeof *rule);
            if (name && uft_argspec_parse(t, d, at + 1, (size_t)(ie - at - 1), &rule->spec) == 0) {
                rule->pattern = uft_demangle(&t->arena, name);
                rule->is_regex = regex_mode && has_regex_chars(rule->pattern);
                if (rule->is_regex) {
                    regex_t *re = tg_arena_alloc(&t->arena, sizeof *re);
                    if (re && regcomp(re, rule->pattern, REG_EXTENDED | REG_NOSUB) == 0)
                        rule->regex = re;
                    else
                        rule->is_regex = false;
                }
                k++;
            }
        }
        p = semi ? semi + 1 : end;
    }
    *out = r;
    *n_out = k;
    return 0;
}

/* regcomp allocates outside the arena: the compiled rules are freed when the trace closes */
void uft_rules_free(struct uft_data *d)
{
    for (int w = 0; w < 2; w++) {
        struct uft_spec_rule *r = w ? d->rules_rets : d->rules_args;
        size_t n = w ? d->n_rules_rets : d->n_rules_args;
        for (size_t i = 0; r && i < n; i++)
            if (r[i].regex)
                regfree((regex_t *)r[i].regex);
    }
}

int uft_rules_read(tg_trace *t, struct uft_data *d, tg_error **err)
{
    size_t n;
    const char *v = uft_info_get(d, "pattern_type", &n);
    bool regex_mode = !v || (n == 5 && !strncmp(v, "regex", 5));
    v = uft_info_get(d, "auto-args", &n);
    d->auto_args = v && n && v[0] == '1';
    struct uft_spec_rule *ra = NULL, *rr = NULL, *aa = NULL, *ar = NULL;
    size_t nra = 0, nrr = 0, naa = 0, nar = 0;
    int rc = 0;
    if ((v = uft_info_get(d, "argspec", &n)) != NULL)
        rc |= read_rule_list(t, d, v, n, regex_mode, &ra, &nra);
    if ((v = uft_info_get(d, "retspec", &n)) != NULL)
        rc |= read_rule_list(t, d, v, n, regex_mode, &rr, &nrr);
    if (d->auto_args) {
        if ((v = uft_info_get(d, "argauto", &n)) != NULL)
            rc |= read_rule_list(t, d, v, n, false, &aa, &naa);
        if ((v = uft_info_get(d, "retauto", &n)) != NULL)
            rc |= read_rule_list(t, d, v, n, false, &ar, &nar);
        if ((v = uft_info_get(d, "enumauto", &n)) != NULL)
            uft_enums_parse(t, d, v, n);
    }
    if (rc < 0)
        return tg_err(err, TG_ERR_NOMEM, "%s/info: out of memory reading argument specs", d->dir);
    /* user rules first, the automatic lists after them */
    struct uft_spec_rule *all_a = tg_arena_alloc(&t->arena, (nra + naa + 1) * sizeof *all_a);
    struct uft_spec_rule *all_r = tg_arena_alloc(&t->arena, (nrr + nar + 1) * sizeof *all_r);
    if (!all_a || !all_r)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (nra)
        memcpy(all_a, ra, nra * sizeof *ra);
    if (naa)
        memcpy(all_a + nra, aa, naa * sizeof *aa);
    if (nrr)
        memcpy(all_r, rr, nrr * sizeof *rr);
    if (nar)
        memcpy(all_r + nrr, ar, nar * sizeof *ar);
    d->rules_args = all_a;
    d->rules_rets = all_r;
    d->n_user_args = nra;
    d->n_user_rets = nrr;
    d->n_rules_args = nra + naa;
    d->n_rules_rets = nrr + nar;
    return 0;
}

static bool rule_match(const struct uft_spec_rule *r, const char *name)
{
    if (r->is_regex)
        return regexec((const regex_t *)r->regex, name, 0, NULL, 0) == 0;
    return strcmp(r->pattern, name) == 0;
}

static const struct uft_dbg_func *dbg_find(const struct uft_module *m, uint64_t off)
{
    size_t lo = 0, hi = m->n_dbg;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->dbg[mid].offset == off)
            return &m->dbg[mid];
        if (m->dbg[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = 0; i < m->n_dbg; i++) /* .dbg files are sorted, but do not rely on it */
        if (m->dbg[i].offset == off)
            return &m->dbg[i];
    return NULL;
}

static bool spec_has(const struct uft_argspec *s, bool want_ret)
{
    return want_ret ? s->has_ret : s->n_args > 0;
}

static const struct uft_argspec *rules_find(const struct uft_spec_rule *rules, size_t from,
                                            size_t to, const char *name, bool want_ret)
{
    for (size_t i = from; i < to; i++)
        if (spec_has(&rules[i].spec, want_ret) && rules[i].pattern &&
            (rules[i].is_regex || rules[i].pattern[0] == name[0]) && rule_match(&rules[i], name))
            return &rules[i].spec;
    return NULL;
}

/* The user's -A/-R rules first, then (with auto-args) the DWARF spec of the function, then
 * the automatic lists uftrace knows for common library functions. */
const struct uft_argspec *uft_spec_for(struct uft_data *d, const struct uft_module *mod,
                                       const tg_symbol *sym, bool want_ret)
{
    if (!sym)
        return NULL;
    const struct uft_spec_rule *rules = want_ret ? d->rules_rets : d->rules_args;
    size_t n_user = want_ret ? d->n_user_rets : d->n_user_args;
    size_t n_all = want_ret ? d->n_rules_rets : d->n_rules_args;
    const struct uft_argspec *s = rules_find(rules, 0, n_user, sym->name, want_ret);
    if (s || !d->auto_args)
        return s;
    if (mod && sym->type != 'P') {
        const struct uft_dbg_func *f = dbg_find(mod, sym->addr);
        if (f && spec_has(&f->spec, want_ret))
            return &f->spec;
    }
    return rules_find(rules, n_user, n_all, sym->name, want_ret);
}

/* ---- payloads ---------------------------------------------------------------------------- */

static uint16_t rd16(const uint8_t *p, bool be) { return be ? tg_be16(p) : tg_le16(p); }

static size_t align(size_t v, size_t a) { return (v + a - 1) / a * a; }

long uft_payload_size(const struct uft_argspec *spec, bool is_ret, const uint8_t *p, size_t avail,
                      bool big_endian)
{
    size_t pos = 0;
    size_t n = is_ret ? (spec->has_ret ? 1 : 0) : spec->n_args;
    for (size_t i = 0; i < n; i++) {
        const struct uft_arg *a = is_ret ? &spec->ret : &spec->args[i];
        size_t sz = a->size;
        if (a->fmt == UFT_ARG_STR || a->fmt == UFT_ARG_STDSTR) {
            if (pos + 2 > avail)
                return -1;
            sz = 2 + (size_t)rd16(p + pos, big_endian);
        }
        pos += align(sz, 4);
        if (pos > avail)
            return -1;
    }
    pos = align(pos, 8);
    return pos > avail ? -1 : (long)pos;
}

size_t uft_args_count(const struct uft_argspec *spec, bool is_ret)
{
    if (!spec)
        return 0;
    return is_ret ? (spec->has_ret ? 1 : 0) : spec->n_args;
}

static uint64_t load_val(const uint8_t *p, size_t size, size_t avail, bool be)
{
    uint8_t tmp[8] = {0};
    size_t n = size < 8 ? size : 8;
    if (n > avail)
        n = avail;
    if (be) {
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++)
            v = (v << 8) | p[i];
        return v;
    }
    memcpy(tmp, p, n);
    return tg_le64(tmp);
}

/* uftrace's reading of an enum value: the item with that value, else items subtracted
 * greedily from the largest ("A|B", with "+0x.." for a rest), else the number itself. */
const char *uft_enum_text(const struct uft_data *d, const char *name, int64_t v, char *buf,
                          size_t bufsz)
{
    const struct uft_enum *e = NULL;
    for (size_t i = 0; name && i < d->n_enums && !e; i++)
        if (strcmp(d->enums[i].name, name) == 0)
            e = &d->enums[i];
    if (!e) {
        snprintf(buf, bufsz, "%lld", (long long)v);
        return buf;
    }
    for (size_t k = 0; k < e->n; k++) /* items are sorted by value, largest first */
        if (e->items[k].value == v)
            return e->items[k].name;
    size_t o = 0;
    int64_t rest = v;
    buf[0] = 0;
    for (size_t k = 0; k < e->n; k++) {
        if (e->items[k].value <= rest) {
            rest -= e->items[k].value;
            int w = snprintf(buf + o, bufsz - o, "%s%s", o ? "|" : "", e->items[k].name);
            if (w < 0 || (size_t)w >= bufsz - o)
                break;
            o += (size_t)w;
        }
        if (rest == 0)
            break;
    }
    if (o && rest)
        snprintf(buf + o, bufsz - o, "+%#llx", (unsigned long long)rest);
    else if (!o) {
        if (v > 100000 || v < -100000)
            snprintf(buf, bufsz, "%#llx", (unsigned long long)v);
        else
            snprintf(buf, bufsz, "%lld", (long long)v);
    }
    return buf;
}

static void put_escaped(tg_buf *out, const uint8_t *s, size_t n)
{
    size_t len = 0;
    bool high = false;
    while (len < n && s[len]) {
        high |= s[len] & 0x80;
        len++;
    }
    if (high) {
        tg_buf_put(out, s, n);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\b')
            tg_buf_puts(out, "\\b");
        else if (s[i] == '\n')
            tg_buf_puts(out, "\\n");
        else
            tg_buf_putc(out, (char)s[i]);
    }
}

void uft_args_render(struct uft_data *d, tg_trace *t, int tid, int64_t ts,
                     const struct uft_module *mod, const struct uft_argspec *spec, bool is_ret,
                     const uint8_t *p, size_t len, tg_buf *out)
{
    (void)mod;
    size_t n = uft_args_count(spec, is_ret);
    size_t pos = 0;
    char fmt[16], buf[512];
    for (size_t i = 0; i < n; i++) {
        const struct uft_arg *a = is_ret ? &spec->ret : &spec->args[i];
        if (i)
            tg_buf_puts(out, ", ");
        size_t avail = pos < len ? len - pos : 0;
        const uint8_t *q = p + pos;
        size_t size = a->size;
        if (a->fmt == UFT_ARG_STR || a->fmt == UFT_ARG_STDSTR) {
            size_t slen = avail >= 2 ? rd16(q, d->big_endian) : 0;
            if (slen + 2 > avail)
                slen = avail >= 2 ? avail - 2 : 0;
            if (slen == 4 && !memcmp(q + 2, "\xff\xff\xff\xff", 4)) {
                tg_buf_puts(out, "NULL");
            } else {
                tg_buf_putc(out, '"');
                put_escaped(out, q + 2, slen);
                tg_buf_putc(out, '"');
            }
            if (a->fmt == UFT_ARG_STDSTR)
                tg_buf_putc(out, 's');
            size = slen + 2;
        } else if (a->fmt == UFT_ARG_CHAR) {
            char c = avail ? (char)q[0] : 0;
            tg_buf_putc(out, '\'');
            if (c == 0)
                tg_buf_puts(out, "\\0");
            else if (c == '\b')
                tg_buf_puts(out, "\\b");
            else if (c == '\n')
                tg_buf_puts(out, "\\n");
            else
                tg_buf_putc(out, c);
            tg_buf_putc(out, '\'');
            size = 1;
        } else if (a->fmt == UFT_ARG_FLOAT) {
            uint64_t raw = load_val(q, size, avail, d->big_endian);
            if (size == 4) {
                float f;
                uint32_t r32 = (uint32_t)raw;
                memcpy(&f, &r32, 4);
                tg_buf_printf(out, "%#f", (double)f);
            } else if (size == 10) {
                long double ld = 0;
                uint8_t tmp[16] = {0};
                memcpy(tmp, q, avail < 10 ? avail : 10);
                memcpy(&ld, tmp, sizeof ld < 16 ? sizeof ld : 16);
                tg_buf_printf(out, "%#Lf", ld);
            } else {
                double f;
                memcpy(&f, &raw, 8);
                tg_buf_printf(out, "%#f", f);
            }
        } else if (a->fmt == UFT_ARG_PTR) {
            uint64_t v = load_val(q, size, avail, d->big_endian);
            const tg_symbol *sym = v ? uft_resolve(d, t, tid, ts, v, NULL) : NULL;
            if (sym) {
                tg_buf_putc(out, '&');
                tg_buf_puts(out, sym->name);
            } else if (v) {
                tg_buf_puts(out, "0x");
                tg_buf_hex(out, v);
            } else {
                tg_buf_putc(out, '0');
            }
        } else if (a->fmt == UFT_ARG_ENUM) {
            uint64_t v = load_val(q, size, avail, d->big_endian);
            int64_t sv = size >= 8 ? (int64_t)v : size == 4 ? (int32_t)v : (int64_t)v;
            tg_buf_puts(out, uft_enum_text(d, a->enum_name, sv, buf, sizeof buf));
        } else {
            uint64_t v = load_val(q, size, avail, d->big_endian);
            char f = 'd';
            size_t isz = size;
            if (a->fmt == UFT_ARG_HEX)
                f = 'x';
            else if (a->fmt == UFT_ARG_OCT)
                f = 'o';
            else if (a->fmt == UFT_ARG_UINT)
                f = v > 100000u ? 'x' : 'u';
            else if (a->fmt == UFT_ARG_AUTO) {
                int64_t sv = (int64_t)v;
                if (sv > 100000 || sv < -100000) {
                    f = 'x';
                    if (v > 0xffff0000ull && v <= 0xffffffffull) {
                        f = 'd';
                        isz = 4;
                    }
                }
            }
            /* "%#" with the length modifier of the value's size, as uftrace prints */
            const char *lm = isz == 1 ? "hh" : isz == 2 ? "h" : isz == 8 ? "ll" : "";
            snprintf(fmt, sizeof fmt, "%%#%s%c", lm, f);
            if (isz == 8)
                snprintf(buf, sizeof buf, fmt, (long long)v);
            else if (isz == 4)
                snprintf(buf, sizeof buf, fmt, (int)(uint32_t)v);
            else if (isz == 2)
                snprintf(buf, sizeof buf, fmt, (int)(uint16_t)v);
            else
                snprintf(buf, sizeof buf, fmt, (int)(uint8_t)v);
            tg_buf_puts(out, buf);
        }
        pos += align(size, 4);
    }
}

int uft_args_field(const struct uft_argspec *spec, bool is_ret, const uint8_t *p, size_t len,
                   size_t i, tg_value *out)
{
    size_t n = uft_args_count(spec, is_ret);
    if (i >= n)
        return TG_ERR_USAGE;
    size_t pos = 0;
    for (size_t k = 0; k <= i; k++) {
        const struct uft_arg *a = is_ret ? &spec->ret : &spec->args[k];
        size_t avail = pos < len ? len - pos : 0;
        const uint8_t *q = p + pos;
        size_t size = a->size;
        bool str = a->fmt == UFT_ARG_STR || a->fmt == UFT_ARG_STDSTR;
        if (str) {
            size_t slen = avail >= 2 ? tg_le16(q) : 0;
            if (slen + 2 > avail)
                slen = avail >= 2 ? avail - 2 : 0;
            size = slen + 2;
        }
        if (k == i) {
            static const char *const names[] = {"arg1", "arg2", "arg3", "arg4", "arg5",
                                                "arg6", "arg7", "arg8", "arg9"};
            memset(out, 0, sizeof *out);
            out->name = is_ret                         ? "retval"
                        : (a->idx >= 1 && a->idx <= 9) ? names[a->idx - 1]
                                                       : "arg";
            out->base = 10;
            if (str) {
                out->type = TG_VAL_STRING;
                out->v.str.ptr = (const char *)q + 2;
                out->v.str.len = size - 2;
                return 0;
            }
            uint8_t tmp[8] = {0};
            memcpy(tmp, q, size < 8 ? (size < avail ? size : avail) : (avail < 8 ? avail : 8));
            uint64_t v = tg_le64(tmp);
            out->bits = (uint16_t)(size * 8);
            switch (a->fmt) {
            case UFT_ARG_FLOAT:
                out->type = TG_VAL_FLOAT;
                if (size == 4) {
                    float f;
                    memcpy(&f, tmp, 4);
                    out->v.f = f;
                } else {
                    memcpy(&out->v.f, tmp, 8);
                }
                break;
            case UFT_ARG_UINT:
            case UFT_ARG_HEX:
            case UFT_ARG_OCT:
            case UFT_ARG_PTR:
                out->type = TG_VAL_UINT;
                out->v.u = v;
                out->base = a->fmt == UFT_ARG_OCT ? 8 : a->fmt == UFT_ARG_UINT ? 10 : 16;
                if (a->fmt == UFT_ARG_PTR)
                    out->flags = TG_VALF_POINTER;
                break;
            default:
                out->type = TG_VAL_SINT;
                out->v.s = size == 1   ? (int8_t)v
                           : size == 2 ? (int16_t)v
                           : size == 4 ? (int32_t)v
                                       : (int64_t)v;
                if (a->fmt == UFT_ARG_ENUM)
                    out->flags = TG_VALF_ENUM;
                break;
            }
            return 0;
        }
        pos += align(size, 4);
    }
    return TG_ERR_USAGE;
}
