/* print_fmt_print.c - an event's text: the compiled print fmt rendered on one record.
 *
 * Each item prints as libtraceevent prints it: integers through the conversion (the common
 * ones without printf, digits from core's digit table), strings with width and precision,
 * __print_symbolic and __print_flags falling back to hex, %p like glibc, %ps/%pS/%pF looked
 * up in kallsyms (with +0x offset for the capital letters), MAC and IPv4 addresses, bitmasks
 * and hex dumps.  ftrace's bprint events take their format from the printk table and their
 * arguments from the binary buffer (vbin_printf layout).  A trailing newline of the text is
 * dropped as trace-cmd drops it. */
#include "common/linux/print_fmt.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const tg_evf_field *tg_pf_find_field(const tg_pf_event *e, const char *name)
{
    for (size_t i = 0; i < e->n_fields; i++)
        if (strcmp(e->fields[i].name, name) == 0)
            return &e->fields[i];
    for (size_t i = 0; i < e->n_common; i++)
        if (strcmp(e->common[i].name, name) == 0)
            return &e->common[i];
    return NULL;
}

/* The printk format at addr, NULL when the reader knows none. */
static const char *pf_printk(const rctx *r, uint64_t addr)
{
    return r->env->printk ? r->env->printk(r->env->owner, addr) : NULL;
}

void sk_printf(tg_pf_sink *o, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k > 0)
        sk_put(o, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

void tg_pf_put_printf_num(tg_pf_sink *out, const pf_item *it, int plen, uint64_t val)
{
    char buf[128];
    int n;
    const char *fmt = it->text;
    if (plen >= 0) {
        switch (it->ls) {
        case -2: n = snprintf(buf, sizeof buf, fmt, plen, (char)val); break;
        case -1: n = snprintf(buf, sizeof buf, fmt, plen, (short)val); break;
        case 0: n = snprintf(buf, sizeof buf, fmt, plen, (int)val); break;
        case 1: n = snprintf(buf, sizeof buf, fmt, plen, (long)val); break;
        default: n = snprintf(buf, sizeof buf, fmt, plen, (long long)val); break;
        }
    } else {
        switch (it->ls) {
        case -2: n = snprintf(buf, sizeof buf, fmt, (char)val); break;
        case -1: n = snprintf(buf, sizeof buf, fmt, (short)val); break;
        case 0: n = snprintf(buf, sizeof buf, fmt, (int)val); break;
        case 1: n = snprintf(buf, sizeof buf, fmt, (long)val); break;
        default: n = snprintf(buf, sizeof buf, fmt, (long long)val); break;
        }
    }
    if (n > 0)
        sk_put(out, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* print_str_to_seq: the string through the conversion (width, precision, '-'). */
/* strip: the string ends the event's text, where trace-cmd drops one trailing newline */
void tg_pf_put_str(tg_pf_sink *out, const pf_item *it, int plen, const char *s, size_t n,
                   bool strip)
{
    size_t l = strnlen(s, n);
    if (strip && l && s[l - 1] == '\n')
        l--;
    if (!it || (it->text_len == 2 && plen < 0)) { /* plain "%s" */
        sk_put(out, s, l);
        return;
    }
    char tmp[4096];
    if (l >= sizeof tmp)
        l = sizeof tmp - 1;
    memcpy(tmp, s, l);
    tmp[l] = 0;
    char buf[8192];
    int k = plen >= 0 ? snprintf(buf, sizeof buf, it->text, plen, tmp)
                      : snprintf(buf, sizeof buf, it->text, tmp);
    if (k > 0)
        sk_put(out, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

void tg_pf_put_hex0x(tg_pf_sink *out, uint64_t v)
{
    if (out->cap - out->n < 20)
        sk_flush(out);
    if (out->cap - out->n < 20) { /* scrap: dropped */
        sk_puts(out, "0x");
        sk_hex(out, v);
        return;
    }
    char *w = out->b + out->n;
    size_t hl = tg_hex_len(v);
    w[0] = '0';
    w[1] = 'x';
    tg_hex_write(w + 2 + hl, v);
    out->n += 2 + hl;
}

void tg_pf_put_glibc_ptr(tg_pf_sink *out, uint64_t v)
{
    if (!v)
        sk_puts(out, "(nil)");
    else
        tg_pf_put_hex0x(out, v);
}

static void print_bitmask(const rctx *r, tg_pf_sink *out, const pf_item *it, int plen,
                          const uint8_t *data, size_t size)
{
    if (size > 1024)
        size = 1024;
    size_t nr_bits = size * 8;
    size_t str_size = (nr_bits + 3) / 4 + (nr_bits ? (nr_bits - 1) / 32 : 0);
    char str[4096];
    if (str_size >= sizeof str)
        return;
    str[str_size] = 0;
    size_t len = 0;
    for (long i = (long)str_size - 2; i >= 0; i -= 2) {
        size_t index = r->env->big_endian ? size - (len + 1) : len;
        memcpy(str + i, tg_hex_pairs + 2 * data[index], 2);
        len++;
        if (!(len & 3) && i > 0) {
            i--;
            str[i] = ',';
        }
    }
    tg_pf_put_str(out, it, plen, str, str_size, r->strip_nl);
}

void tg_pf_print_str_arg(const rctx *r, tg_pf_sink *out, const pf_item *it, int plen,
                         const tg_pf_node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_ATOM:
    case N_BSTR: tg_pf_put_str(out, it, plen, n->str, SIZE_MAX, r->strip_nl); return;
    case N_FIELD: {
        const tg_evf_field *fl = n->field;
        if (!(fl->flags & TG_EVF_ARRAY) && fl->size == (uint32_t)r->env->long_size) {
            uint64_t addr = read_field(r, fl);
            const char *pk = pf_printk(r, addr);
            if (pk)
                sk_puts(out, pk);
            else
                sk_hex(out, addr);
            return;
        }
        if (fl->offset > r->size)
            return;
        size_t len = fl->size ? fl->size : r->size - fl->offset;
        if (len > r->size - fl->offset)
            len = r->size - fl->offset;
        tg_pf_put_str(out, it, plen, (const char *)r->data + fl->offset, len, r->strip_nl);
        return;
    }
    case N_FLAGS: {
        uint64_t val = tg_pf_eval(r, n->a);
        bool print = false;
        for (size_t i = 0; i < n->n_syms; i++) {
            uint64_t fv = n->syms[i].value;
            /* values are long long: a name libtraceevent does not know is -1 */
            if (!val && (int64_t)fv < 0) {
                tg_pf_put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                break;
            }
            if ((int64_t)fv > 0 && (val & fv) == fv) {
                if (print && n->str)
                    sk_puts(out, n->str);
                tg_pf_put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                print = true;
                val &= ~fv;
            }
        }
        if (val) {
            if (print && n->str)
                sk_puts(out, n->str);
            tg_pf_put_hex0x(out, val);
        }
        return;
    }
    case N_SYM: {
        uint64_t val = tg_pf_eval(r, n->a);
        for (size_t i = 0; i < n->n_syms; i++)
            if (n->syms[i].value == val) {
                tg_pf_put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                return;
            }
        tg_pf_put_hex0x(out, val);
        return;
    }
    case N_HEX:
    case N_HEXSTR:
    case N_ARRAY: {
        const tg_pf_node *base = n->a;
        size_t off, avail;
        if (base && base->kind == N_DYNARR && base->field) {
            size_t l;
            if (!dyn_loc(r, base->field, &off, &l))
                return;
            /* libtraceevent ignores the relative part here */
            off = (size_t)(read_field(r, base->field) & 0xffff);
        } else if (base && base->kind == N_FIELD) {
            off = base->field->offset;
        } else {
            return;
        }
        if (off > r->size)
            return;
        avail = r->size - off;
        const uint8_t *p = r->data + off;
        uint64_t len = tg_pf_eval(r, n->b);
        if (n->kind != N_ARRAY) {
            for (uint64_t i = 0; i < len && i < avail; i++) {
                if (i && n->kind == N_HEX)
                    sk_putc(out, ' ');
                sk_hex2(out, p[i]);
            }
            return;
        }
        uint64_t el = tg_pf_eval(r, n->c);
        for (uint64_t i = 0; i < len; i++) {
            if (i)
                sk_putc(out, ' ');
            size_t es = (el == 1 || el == 2 || el == 4 || el == 8) ? (size_t)el : 1;
            if (es > avail)
                return;
            /* host-order load, as libtraceevent does */
            uint64_t v = 0;
            if (es == 1)
                v = p[0];
            else if (es == 2) {
                uint16_t t;
                memcpy(&t, p, 2);
                v = t;
            } else if (es == 4) {
                uint32_t t;
                memcpy(&t, p, 4);
                v = t;
            } else {
                memcpy(&v, p, 8);
            }
            if (es != (size_t)el) {
                sk_printf(out, "BAD SIZE:%d 0x%x", (int)el, p[0]);
            } else {
                sk_u64(out, v);
            }
            p += es;
            avail -= es;
        }
        return;
    }
    case N_GETSTR: {
        size_t off, len;
        if (!n->field || !dyn_loc(r, n->field, &off, &len))
            return;
        tg_pf_put_str(out, it, plen, (const char *)r->data + off, r->size - off, r->strip_nl);
        return;
    }
    case N_BITMASK: {
        size_t off, len;
        if (!n->field || !dyn_loc(r, n->field, &off, &len))
            return;
        print_bitmask(r, out, it, plen, r->data + off, len);
        return;
    }
    case N_BIN:
        /* the only op for a string is ?: */
        if (n->opstr[0] == '?' && n->b)
            tg_pf_print_str_arg(r, out, it, plen, tg_pf_eval(r, n->a) ? n->b->a : n->b->b);
        return;
    default: return;
    }
}

void tg_pf_print_function(const rctx *r, tg_pf_sink *out, char pch, uint64_t val)
{
    const tg_symbol *fn = (r->env->func ? r->env->func(r->env->owner, val) : NULL);
    if (fn) {
        sk_puts(out, fn->name);
        if (pch == 'F' || pch == 'S') {
            sk_puts(out, "+0x");
            sk_hex(out, val - fn->addr);
        }
        return;
    }
    if (r->env->long_size == 4)
        val = (uint64_t)(long)val;
    tg_pf_put_hex0x(out, val);
}

void tg_pf_print_pointer(const rctx *r, tg_pf_sink *out, const pf_item *it, int plen)
{
    const tg_pf_node *a = it->arg;
    if (a && a->kind == N_BSTR) {
        sk_puts(out, a->str);
        return;
    }
    switch (it->pch) {
    case 'F':
    case 'f':
    case 'S':
    case 's': tg_pf_print_function(r, out, it->pch, tg_pf_eval(r, a)); return;
    case 'M':
    case 'm': {
        if (!a || a->kind != N_FIELD) {
            sk_printf(out, "ARG TYPE NOT FIELD BUT %d", a ? 1 : 0);
            return;
        }
        if (a->field->size != 6 || a->field->offset + 6 > r->size) {
            sk_puts(out, "INVALIDMAC");
            return;
        }
        const uint8_t *b = r->data + a->field->offset;
        const char *sep = it->pch == 'm' ? "" : it->pch2 == 'F' ? "-" : ":";
        bool rev = it->pch2 == 'R';
        for (int i = 0; i < 6; i++) {
            if (i)
                sk_puts(out, sep);
            uint8_t v = b[rev ? 5 - i : i];
            sk_hex2(out, v);
        }
        return;
    }
    case 'I':
    case 'i':
        if (!tg_pf_print_ip(r, out, it))
            tg_pf_put_glibc_ptr(out, tg_pf_eval(r, a));
        return;
    default:
        (void)plen;
        tg_pf_put_glibc_ptr(out, tg_pf_eval(r, a));
        return;
    }
}

/* ---- compiling the format string ----------------------------------------------------------- */

static uint64_t read_direct(const rctx *r, const pf_item *it)
{
    if (it->d_idx > r->size || it->d_off > r->size || it->d_size > r->size - it->d_off)
        return 0;
    const uint8_t *p = r->data + it->d_off;
    uint64_t v;
    if (!r->env->big_endian) {
        switch (it->d_size) {
        case 1: v = p[0]; break;
        case 2: v = tg_le16(p); break;
        case 4: v = tg_le32(p); break;
        case 8: v = tg_le64(p); break;
        default: v = 0; break;
        }
    } else {
        v = tg_evf_read_num(r->env->big_endian, p, it->d_size);
    }
    return it->d_mask ? v & it->d_mask : v;
}

/* An event with a fast plan (see struct tg_pf): false when the record is shorter than the
 * plan reads (or the sink has no room), for render_items to print it. */
static inline bool render_plan(const rctx *r, const struct tg_pf *pf, tg_pf_sink *out)
{
    if (r->size < pf->need)
        return false;
    if (out->cap - out->n < pf->room) {
        sk_flush(out);
        if (out->cap - out->n < pf->room)
            return false;
    }
    char *w = out->b + out->n;
    const uint8_t *d = r->data;
    for (size_t i = 0; i < pf->n_plan; i++) {
        const pf_step *st = &pf->plan[i];
        memcpy(w, st->text, TG_PF_TEXT_PAD); /* padded: see dup_text */
        w += st->text_len;
        const pf_item *it = st->num;
        if (!it)
            break;
        const uint8_t *p = d + it->d_off;
        uint64_t v;
        switch (it->d_size) {
        case 1: v = p[0]; break;
        case 2: v = tg_le16(p); break;
        case 4: v = tg_le32(p); break;
        default: v = tg_le64(p); break;
        }
        if (it->d_mask)
            v &= it->d_mask;
        w = tg_pf_num_text(w, it, v);
    }
    out->n = (size_t)(w - out->b);
    return true;
}

void tg_pf_render_item(const rctx *r, const pf_item *it, tg_pf_sink *out)
{
    int plen = it->len_arg ? (int)tg_pf_eval(r, it->len_arg) : -1;
    switch (it->type) {
    case IT_TEXT: {
        size_t n =
            it->text_len - (r->strip_nl && it->text_len && it->text[it->text_len - 1] == '\n');
        if (n <= TG_PF_TEXT_PAD && out->cap - out->n >= TG_PF_TEXT_PAD) {
            memcpy(out->b + out->n, it->text, TG_PF_TEXT_PAD); /* padded: see dup_text */
            out->n += n;
        } else {
            sk_put(out, it->text, n);
        }
        break;
    }
    case IT_DIGIT:
        tg_pf_put_num(out, it, plen, it->direct ? read_direct(r, it) : tg_pf_eval(r, it->arg));
        break;
    case IT_PTR: tg_pf_print_pointer(r, out, it, plen); break;
    case IT_STR: tg_pf_print_str_arg(r, out, it, plen, it->arg); break;
    }
}

static void render_items(const rctx *r0, const struct tg_pf *pf, tg_pf_sink *out)
{
    rctx last = *r0;
    last.strip_nl = true;
    for (size_t i = 0; i < pf->n; i++)
        tg_pf_render_item(i + 1 == pf->n ? &last : r0, &pf->items[i], out);
}

/* bprint: the format comes from the printk table, the arguments from the binary buffer. */
static void render_bprint(const rctx *r, tg_pf_sink *out)
{
    const tg_pf_event *e = r->ev;
    const tg_evf_field *ipf = tg_pf_find_field(e, "ip"), *fmtf = tg_pf_find_field(e, "fmt"),
                       *buff = tg_pf_find_field(e, "buf");
    if (!ipf || !fmtf || !buff)
        return;
    uint64_t ip = read_field(r, ipf);
    uint64_t faddr = read_field(r, fmtf);
    const char *pk = pf_printk(r, faddr);
    char *fmt;
    char nf[96];
    if (pk) {
        size_t l = strlen(pk);
        fmt = malloc(l + 6);
        if (!fmt)
            return;
        memcpy(fmt, "%ps: ", 5);
        memcpy(fmt + 5, pk, l + 1);
    } else {
        snprintf(nf, sizeof nf, "%%ps: (NO FORMAT FOUND at %llx)\n", (unsigned long long)faddr);
        fmt = strdup(nf);
        if (!fmt)
            return;
    }
    struct tg_pf *pf = tg_pf_new();
    if (!pf) {
        free(fmt);
        return;
    }
    tg_pf_node *argv[64];
    size_t na = 0;
    tg_pf_node *ipn = tg_arena_alloc(&pf->arena, sizeof *ipn);
    if (ipn) {
        ipn->kind = N_ATOM;
        ipn->num = ip;
        ipn->str = "";
        argv[na++] = ipn;
    }
    /* make_bprint_args: walk the printk format, reading values 4-byte aligned */
    size_t bp = buff->offset;
    const char *p = pk ? pk : "";
    for (; bp < r->size && *p && na < 64; p++) {
        if (*p != '%')
            continue;
        int ls = 0;
        bool done = false;
        while (!done) {
            p++;
            char ch = *p;
            size_t vsize = 0;
            bool is_str = false;
            if (!ch) {
                p--;
                break;
            }
            switch (ch) {
            case '%': done = true; continue;
            case 'l': ls++; continue;
            case 'L': ls = 2; continue;
            case '.':
            case '0':
            case '1':
            case '2':
            case '3':
            case '4':
            case '5':
            case '6':
            case '7':
            case '8':
            case '9': continue;
            case 'z':
            case 'Z': ls = 1; continue;
            case 'p':
                ls = 1;
                if (isalnum((unsigned char)p[1])) {
                    p++;
                    char pc = *p;
                    if (pc == 's' || pc == 'S' || pc == 'x')
                        ;
                    else if ((pc == 'f' || pc == 'F') && p[1] != 'w')
                        ;
                    else if (bp < r->size && isprint(r->data[bp]))
                        is_str = true;
                }
                /* fall through */
            case 'd':
            case 'u':
            case 'i':
            case 'x':
            case 'X':
            case 'o':
                vsize = ls == 0   ? 4
                        : ls == 1 ? (size_t)r->env->long_size
                        : ls == 2 ? 8
                                  : (size_t)ls;
                /* fall through */
            case '*':
                if (is_str)
                    goto string;
                if (ch == '*')
                    vsize = 4;
                bp = (bp + 3) & ~(size_t)3;
                {
                    uint64_t val = 0;
                    if (bp <= r->size && vsize <= r->size - bp &&
                        (vsize == 1 || vsize == 2 || vsize == 4 || vsize == 8))
                        val = tg_evf_read_num(r->env->big_endian, r->data + bp, (uint32_t)vsize);
                    bp += vsize;
                    tg_pf_node *n = tg_arena_alloc(&pf->arena, sizeof *n);
                    if (!n)
                        goto out;
                    n->kind = N_ATOM;
                    n->num = val;
                    n->str = "";
                    argv[na++] = n;
                }
                if (ch == '*')
                    continue;
                done = true;
                continue;
            case 's':
            string : {
                tg_pf_node *n = tg_arena_alloc(&pf->arena, sizeof *n);
                if (!n)
                    goto out;
                n->kind = N_BSTR;
                size_t avail = bp < r->size ? r->size - bp : 0;
                size_t l = avail ? strnlen((const char *)r->data + bp, avail) : 0;
                n->str = tg_arena_strndup(&pf->arena, avail ? (const char *)r->data + bp : "", l);
                if (!n->str)
                    goto out;
                bp += l + 1;
                argv[na++] = n;
                done = true;
                continue;
            }
            default: done = true; continue;
            }
        }
    }
    {
        argv_list args = {argv, na, 0};
        if (tg_pf_compile_format(pf, fmt, &args) == 0)
            render_items(r, pf, out);
    }
out:
    tg_pf_free(pf);
    free(fmt);
}

/* The event's text as libtraceevent prints it.  A trailing newline (a trace_marker string
 * ends with one) is dropped as trace-cmd and perf drop it: the last item of the text is
 * printed without it (rctx.strip_nl), so the text goes straight into out. */
void tg_pf_render(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail, tg_buf *out)
{
    tg_pf_sink o;
    sk_open(&o, out);
    rctx r = {e, e->env, data, size, false, size};
    if (e->is_bprint) {
        render_bprint(&r, &o);
    } else {
        tg_pf_compile_event(e);
        if (e->pf_state < 0) {
            sk_puts(&o, "[FAILED TO PARSE]");
            tg_pf_render_raw(e, data, size, avail, &o);
        } else if (e->pf->plan) {
            if (!render_plan(&r, e->pf, &o))
                render_items(&r, e->pf, &o);
        } else if (e->pf->ops) {
            tg_pf_run_ops(&r, e->pf, &o);
        } else {
            render_items(&r, e->pf, &o);
        }
    }
    sk_close(&o);
}
