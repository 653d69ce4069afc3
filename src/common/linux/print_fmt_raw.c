/* print_fmt_raw.c - an event's raw fields, as trace-cmd report -R prints them.
 *
 * " name=value" per field of the event's own fields.  A field the print fmt prints with a
 * conversion of its own is printed through that conversion (found as libtraceevent finds
 * it: searching round the format from after the previous match, with a "0x" kept when the
 * literal before it ends so); other fields print by type: printable char arrays as strings
 * (until one of them printed as an array: TG_EVF_RAW_ARRAY), other arrays as ARRAY[..],
 * pointers and longs in hex, signed and unsigned decimals. */
#include "common/linux/print_fmt.h"

#include <ctype.h>
#include <string.h>

static bool printable_array(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len && p[i]; i++)
        if (!isprint(p[i]) && !isspace(p[i]))
            return false;
    return true;
}

static void raw_default(const rctx *r, const tg_evf_field *fl, tg_pf_sink *out)
{
    if (fl->flags & TG_EVF_ARRAY) {
        size_t off = fl->offset, len = fl->size, have = len;
        if (fl->flags & TG_EVF_DYNAMIC) {
            if (!dyn_loc(r, fl, &off, &len))
                return;
            have = len;
        } else if (off > r->avail) {
            return;
        } else if (len > r->avail - off) {
            have = r->avail - off; /* the declared length runs past the bytes trace-cmd holds */
        }
        const uint8_t *p = r->data + off;
        if ((fl->flags & (TG_EVF_STRING | TG_EVF_RAW_ARRAY)) == TG_EVF_STRING &&
            printable_array(p, have)) {
            /* "%s": up to the NUL, even past a zero-sized "char buf[]" */
            size_t l = strnlen((const char *)p, off < r->size ? r->size - off : have);
            if (r->strip_nl && l && p[l - 1] == '\n')
                l--;
            sk_put(out, p, l);
        } else {
            /* the declared length: past the bytes held (the end of the file's pages or
             * of an inflated chunk, where trace-cmd prints its own memory) as zeros */
            ((tg_evf_field *)fl)->flags |= TG_EVF_RAW_ARRAY; /* see event_format.h */
            sk_puts(out, "ARRAY[");
            for (size_t i = 0; i < len; i++) {
                if (i)
                    sk_puts(out, ", ");
                sk_hex2(out, i < have ? p[i] : 0);
            }
            sk_putc(out, ']');
        }
        return;
    }
    uint64_t v = read_field(r, fl);
    if (fl->flags & TG_EVF_POINTER) {
        tg_pf_put_hex0x(out, v);
    } else if (fl->flags & TG_EVF_SIGNED) {
        switch (fl->size) {
        case 4:
            if (fl->flags & TG_EVF_LONG) {
                tg_pf_put_hex0x(out, (uint32_t)v);
            } else {
                sk_i64(out, (int32_t)v);
            }
            break;
        case 2: sk_printf(out, "%2d", (short)v); break;
        case 1: sk_printf(out, "%1d", (signed char)v); break;
        default: sk_i64(out, (int64_t)v);
        }
    } else if (fl->flags & TG_EVF_LONG) {
        tg_pf_put_hex0x(out, v);
    } else {
        sk_u64(out, v);
    }
}

void tg_pf_render_raw(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail,
                      tg_pf_sink *out)
{
    rctx r = {e, e->env, data, size, false, avail > size ? avail : size};
    tg_pf_compile_event(e);
    const struct tg_pf *pf = e->pf_state > 0 ? e->pf : NULL;
    size_t pos = 0;
    for (size_t i = 0; i < e->n_fields; i++) {
        const tg_evf_field *fl = &e->fields[i];
        r.strip_nl = i + 1 == e->n_fields;
        sk_putc(out, ' ');
        sk_puts(out, fl->name);
        sk_putc(out, '=');
        bool done = false;
        if (pf && pf->n && !(fl->flags & TG_EVF_ARRAY)) {
            /* the conversion the print fmt applies to this very field, if any: searched
             * round the format from after the previous match (once a match was the last
             * conversion, libtraceevent's cursor is NULL and nothing matches any more) */
            bool has_0x = false;
            size_t k = pos;
            if (pos < pf->n) {
                do {
                    const pf_item *it = &pf->items[k];
                    size_t nk = k + 1 < pf->n ? k + 1 : 0;
                    if (it->type == IT_TEXT) {
                        has_0x =
                            it->text_len >= 2 && memcmp(it->text + it->text_len - 2, "0x", 2) == 0;
                        k = nk;
                        continue;
                    }
                    const tg_pf_node *a = it->arg;
                    while (a && a->kind == N_CAST)
                        a = a->a;
                    if (a && a->kind == N_FIELD && a->field == fl) {
                        if (has_0x)
                            sk_puts(out, "0x");
                        int plen = it->len_arg ? (int)tg_pf_eval(&r, it->len_arg) : -1;
                        if (it->type == IT_DIGIT)
                            tg_pf_put_num(out, it, plen, tg_pf_eval(&r, it->arg));
                        else if (it->type == IT_PTR)
                            tg_pf_print_pointer(&r, out, it, plen);
                        else
                            tg_pf_print_str_arg(&r, out, it, plen, it->arg);
                        done = true;
                        pos = k + 1;
                        break;
                    }
                    k = nk;
                } while (k != pos);
            }
        }
        if (!done)
            raw_default(&r, fl, out);
    }
}

void tg_pf_render_raw_buf(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail,
                          tg_buf *out)
{
    tg_pf_sink o;
    sk_open(&o, out);
    tg_pf_render_raw(e, data, size, avail, &o);
    sk_close(&o);
}
