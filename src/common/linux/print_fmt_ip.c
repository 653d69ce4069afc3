/* print_fmt_ip.c - the kernel's IP address conversions in print fmts, as libtraceevent prints
 * them: %pI4 / %pi4 (an IPv4 address field; i: each byte to three digits; h n b l: its byte
 * order), %pI6 / %pi6 / %pI6c (an IPv6 address field: colons, none, or compressed with the
 * longest run of zero words as "::" and a mapped IPv4 tail dotted) and %pIS (a sockaddr
 * field: by its family an IPv4 or IPv6 address, p adding the port, c compressing).  Network
 * events print through them (tcp_probe's src=%pISpc, inet_sock_set_state's %pI4 and %pI6c);
 * a field of the wrong size prints INVALIDIPv4 / INVALIDIPv6, as libtraceevent does. */
#include "common/linux/print_fmt.h"

#include <string.h>

enum { FAMILY_INET = 2, FAMILY_INET6 = 10 }; /* AF_INET, AF_INET6 on Linux */

static void ip4(tg_pf_sink *out, char i, bool reverse, const uint8_t *b)
{
    for (int k = 0; k < 4; k++)
        sk_printf(out, i == 'i' ? "%s%03d" : "%s%d", k ? "." : "", b[reverse ? 3 - k : k]);
}

static void ip6(tg_pf_sink *out, char i, const uint8_t *b)
{
    for (int j = 0; j < 16; j += 2) {
        sk_hex2(out, b[j]);
        sk_hex2(out, b[j + 1]);
        if (i == 'I' && j < 14)
            sk_puts(out, ":");
    }
}

static unsigned word_at(const uint8_t *b, int k) { return (unsigned)b[2 * k] << 8 | b[2 * k + 1]; }

/* The compressed form: an IPv4-mapped (::ffff:0:0/96) or ISATAP (..:0:5efe:a.b.c.d, the 0x02
 * bit of its word 4 aside) address ends in its IPv4 address, dotted. */
static void ip6_compressed(tg_pf_sink *out, const uint8_t *b)
{
    bool mapped = !word_at(b, 0) && !word_at(b, 1) && !word_at(b, 2) && !word_at(b, 3) &&
                  !word_at(b, 4) && word_at(b, 5) == 0xffff;
    bool isatap = (word_at(b, 4) | 0x0200) == 0x0200 && word_at(b, 5) == 0x5efe;
    int range = mapped || isatap ? 6 : 8, longest = 1, at = -1;
    for (int k = 0; k < range; k++) {
        int zeros = 0;
        while (k + zeros < range && !word_at(b, k + zeros))
            zeros++;
        if (zeros > longest) {
            longest = zeros;
            at = k;
        }
    }
    bool colon = false;
    for (int k = 0; k < range; k++) {
        if (k == at) {
            sk_puts(out, colon || k == 0 ? "::" : ":");
            colon = false;
            k += longest - 1;
            continue;
        }
        if (colon)
            sk_puts(out, ":");
        sk_printf(out, "%x", word_at(b, k));
        colon = true;
    }
    if (range == 6) {
        if (colon)
            sk_puts(out, ":");
        ip4(out, 'I', false, b + 12);
    }
}

/* h n b l after the version (libtraceevent's parse_ip4_print_args): whether the address's
 * bytes are read backwards (h: host order, l: little-endian; n, b: network order). */
static bool reversed(char order, bool big_endian)
{
    return order == 'l' || (order == 'h' && !big_endian);
}

bool tg_pf_print_ip(const rctx *r, tg_pf_sink *out, const pf_item *it)
{
    const tg_pf_node *a = it->arg;
    const char *conv = it->text ? strchr(it->text + 1, 'p') : NULL;
    if (!a || a->kind != N_FIELD || !conv || a->field->offset > r->size ||
        a->field->size > r->size - a->field->offset)
        return false;
    const uint8_t *b = r->data + a->field->offset;
    size_t size = a->field->size;
    const char *rest = conv + 3; /* past p, I or i, and the version */
    char i = it->pch;
    switch (it->pch2) {
    case '4': {
        bool reverse = reversed(*rest, r->env->big_endian);
        if (size != 4)
            sk_puts(out, "INVALIDIPv4");
        else
            ip4(out, i, reverse, b);
        return true;
    }
    case '6':
        if (size != 16)
            sk_puts(out, "INVALIDIPv6");
        else if (i == 'I' && *rest == 'c')
            ip6_compressed(out, b);
        else
            ip6(out, i, b);
        return true;
    case 'S': {
        bool port = false, compressed = false;
        if (i == 'I' && *rest == 'p')
            port = true, rest++;
        if (i == 'I' && *rest == 'c')
            compressed = true, rest++;
        bool reverse = reversed(*rest, r->env->big_endian);
        unsigned family = size >= 2 ? (unsigned)tg_evf_read_num(r->env->big_endian, b, 2) : 0;
        if (family == FAMILY_INET) {
            if (size < 16) {
                sk_puts(out, "INVALIDIPv4");
                return true;
            }
            ip4(out, i, reverse, b + 4);
            if (port)
                sk_printf(out, ":%u", word_at(b, 1));
        } else if (family == FAMILY_INET6) {
            if (size < 28) {
                sk_puts(out, "INVALIDIPv6");
                return true;
            }
            if (port)
                sk_puts(out, "[");
            if (compressed)
                ip6_compressed(out, b + 8);
            else
                ip6(out, i, b + 8);
            if (port)
                sk_printf(out, "]:%u", word_at(b, 1));
        }
        return true;
    }
    default: return false;
    }
}
