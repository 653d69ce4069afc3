/* uftrace_args.c - function arguments and return values in the uftrace data written.
 *
 * uftrace saves a function's arguments after its entry record and its return value after
 * its exit record (the record's `more` bit), laid out by the function's spec: each value
 * padded to 4 bytes (integers and floats in their size, strings as a 16-bit length and the
 * bytes), the whole padded to 8.  Nothing in the data says the layout, so the info file
 * lists the specs (argspec/retspec lines, as `uftrace record -A/-R` writes them).
 *
 * The writer takes as arguments the entry values the model names "argN" and as return value
 * the exit's return scope, and gives each function the spec of the values of its first call
 * (signed d, unsigned u, hex x, octal o, pointer p, float f, string s, with their sizes).
 * A later call whose values do not fit that spec is written without them.  A function name
 * with regex characters gets an anchored, escaped pattern; a plain name matches exactly. */
#include "writers/uftrace/uftrace_writer.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UW_MAX_STR 0xfff0u

/* The spec item of v ("arg2/d32"), or -1 when uftrace cannot hold such a value. */
static int item_spec(const tg_value *v, char *out, size_t size)
{
    const char *name = v->name ? v->name : "";
    unsigned bits = v->bits;
    int ok_bits = bits == 8 || bits == 16 || bits == 32 || bits == 64;
    switch (v->type) {
    case TG_VAL_STRING: return snprintf(out, size, "%s/s", name) < (int)size ? 0 : -1;
    case TG_VAL_FLOAT:
        if (bits != 32 && bits != 64)
            return -1;
        return snprintf(out, size, "%s/f%u", name, bits) < (int)size ? 0 : -1;
    case TG_VAL_SINT:
        if (!ok_bits)
            return -1;
        return snprintf(out, size, "%s/d%u", name, bits) < (int)size ? 0 : -1;
    case TG_VAL_UINT:
        if (!ok_bits)
            return -1;
        if (v->flags & TG_VALF_POINTER)
            return bits == 64 && snprintf(out, size, "%s/p", name) < (int)size ? 0 : -1;
        return snprintf(out, size, "%s/%c%u", name,
                        v->base == 16  ? 'x'
                        : v->base == 8 ? 'o'
                                       : 'u',
                        bits) < (int)size
                   ? 0
                   : -1;
    default: return -1;
    }
}

/* "argN" -> N, else 0 */
static unsigned arg_index(const char *name)
{
    if (!name || strncmp(name, "arg", 3) != 0 || name[3] < '1' || name[3] > '9')
        return 0;
    char *end;
    unsigned long n = strtoul(name + 3, &end, 10);
    return *end || n > 64 ? 0 : (unsigned)n;
}

/* The spec of vals[0..n) ("arg1/d32,arg2/s"), or NULL (not writable, or out of memory). */
static char *spec_of(const tg_value *vals, size_t n, int is_ret)
{
    size_t cap = 32 * n + 1, len = 0;
    char *s = malloc(cap);
    unsigned last = 0;
    for (size_t i = 0; s && i < n; i++) {
        if (is_ret ? (n != 1 || !vals[i].name || strcmp(vals[i].name, "retval") != 0)
                   : arg_index(vals[i].name) <= last) {
            free(s);
            return NULL;
        }
        if (!is_ret)
            last = arg_index(vals[i].name);
        char item[32];
        if (item_spec(&vals[i], item, sizeof item) < 0) {
            free(s);
            return NULL;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? "," : "", item);
    }
    return s;
}

/* Does vals[] still fit spec (the same items in the same order)? */
static int fits(const char *spec, const tg_value *vals, size_t n)
{
    const char *p = spec;
    for (size_t i = 0; i < n; i++) {
        char item[32];
        if (item_spec(&vals[i], item, sizeof item) < 0)
            return 0;
        size_t k = strlen(item);
        if (strncmp(p, item, k) != 0 || (p[k] != ',' && p[k] != 0))
            return 0;
        p += k + (p[k] == ',');
    }
    return *p == 0;
}

static void put_le(tg_buf *b, uint64_t v, unsigned n)
{
    uint8_t x[8];
    for (unsigned i = 0; i < n; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    tg_buf_put(b, x, n);
}

int uw_args_payload(uw_func *f, int is_ret, const tg_value *vals, size_t n, tg_buf *out)
{
    if (!n || !f)
        return 0;
    char **spec = is_ret ? &f->ret : &f->args;
    if (!*spec) {
        if (f->no_spec & (1 << is_ret))
            return 0;
        /* names uftrace's spec lists cannot hold take no values */
        if (strpbrk(f->name, ";@,\n")) {
            f->no_spec |= 1 << is_ret;
            return 0;
        }
        *spec = spec_of(vals, n, is_ret);
        if (!*spec) {
            f->no_spec |= 1 << is_ret;
            return 0;
        }
    } else if (!fits(*spec, vals, n)) {
        return 0;
    }
    size_t start = tg_buf_len(out);
    for (size_t i = 0; i < n; i++) {
        const tg_value *v = &vals[i];
        size_t at = tg_buf_len(out);
        if (v->type == TG_VAL_STRING) {
            size_t len = v->v.str.len < UW_MAX_STR ? v->v.str.len : UW_MAX_STR;
            put_le(out, len, 2);
            tg_buf_put(out, v->v.str.ptr, len);
        } else if (v->type == TG_VAL_FLOAT && v->bits == 32) {
            float x = (float)v->v.f;
            uint32_t u;
            memcpy(&u, &x, 4);
            put_le(out, u, 4);
        } else if (v->type == TG_VAL_FLOAT) {
            uint64_t u;
            memcpy(&u, &v->v.f, 8);
            put_le(out, u, 8);
        } else {
            put_le(out, v->type == TG_VAL_SINT ? (uint64_t)v->v.s : v->v.u, v->bits / 8u);
        }
        tg_buf_pad(out, 0, (int)((4 - (tg_buf_len(out) - at) % 4) % 4));
    }
    tg_buf_pad(out, 0, (int)((8 - (tg_buf_len(out) - start) % 8) % 8));
    return 1;
}

/* name as a spec pattern: itself (uftrace matches names without regex characters exactly),
 * else an anchored regex with those characters escaped */
static void put_pattern(tg_buf *b, const char *name)
{
    if (!strpbrk(name, ".?*+-^$|()[]{}\\")) {
        tg_buf_puts(b, name);
        return;
    }
    tg_buf_putc(b, '^');
    for (const char *c = name; *c; c++) {
        if (strchr(".?*+-^$|()[]{}\\", *c))
            tg_buf_putc(b, '\\');
        tg_buf_putc(b, *c);
    }
    tg_buf_putc(b, '$');
}

int uw_args_any(const uw_writer *w, int is_ret)
{
    for (size_t i = 0; i < w->n_funcs; i++)
        if (is_ret ? w->funcs[i].ret != NULL : w->funcs[i].args != NULL)
            return 1;
    return 0;
}

void uw_args_info(const uw_writer *w, tg_buf *b)
{
    int args = uw_args_any(w, 0), rets = uw_args_any(w, 1);
    tg_buf_printf(b, "argspec:lines=%d\n", args + rets);
    for (int r = 0; r < 2; r++) {
        if (!(r ? rets : args))
            continue;
        tg_buf_puts(b, r ? "retspec:" : "argspec:");
        int first = 1;
        for (size_t i = 0; i < w->n_funcs; i++) {
            const char *spec = r ? w->funcs[i].ret : w->funcs[i].args;
            if (!spec)
                continue;
            if (!first)
                tg_buf_putc(b, ';');
            first = 0;
            put_pattern(b, w->funcs[i].name);
            tg_buf_putc(b, '@');
            tg_buf_puts(b, spec);
        }
        tg_buf_putc(b, '\n');
    }
}
