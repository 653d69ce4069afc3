/* ctf_clock.c - the clock of an output CTF trace, and event times as its values.
 *
 * An output trace keeps its input's clock class: name, description, uuid, frequency,
 * precision and offset (seconds plus cycles, as the format gave them; formats that give
 * only an offset in ns get it split at the second).  Event times are ns on that clock, so
 * each is written as the clock value babeltrace2 turns back into the same ns: the value
 * itself at 1 GHz, else the value c with ns(c) = time - base, where ns(c) is babeltrace2's
 * conversion (1e9 * c / freq in double, truncated).  At 1 GHz and above every ns has such a
 * value; below, every time the input's own clock produced has one.
 *
 * A clock without a uuid in its input gets one made from its clock domain ("ORIGIN@HOST"):
 * babeltrace2 puts traces on one timeline only when their clocks share a uuid, and traces
 * of one domain do share their clock.  A clock of no known domain (unknown clock or host)
 * gets the trace's own uuid: it shares its timeline with no other trace. */
#include "writers/ctf/ctf_writer.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

#define NS_PER_S 1000000000

static uint64_t cycles_ns(uint64_t freq, uint64_t x)
{
    if (freq == NS_PER_S)
        return x;
    double ns = 1e9 * (double)x / (double)freq;
    return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

/* A name-based uuid (RFC 4122 version 5 layout, FNV-1a instead of SHA-1: it only has to be
 * the same for the same domain). */
static void uuid_of_name(uint8_t *u, const char *name)
{
    uint64_t h[2] = {1469598103934665603ull, 0x9e3779b97f4a7c15ull};
    for (const char *c = name; *c; c++) {
        h[0] = (h[0] ^ (uint8_t)*c) * 1099511628211ull;
        h[1] = (h[1] ^ (uint8_t)*c ^ (h[0] >> 29)) * 1099511628211ull;
    }
    for (int i = 0; i < 16; i++)
        u[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
    u[6] = (uint8_t)((u[6] & 0x0f) | 0x50);
    u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

void cw_clock_of(cw_clock *c, const tg_trace *t, const uint8_t *trace_uuid)
{
    const tg_clock_info *in = tg_trace_clock(t);
    memset(c, 0, sizeof *c);
    cw_tsdl_identifier(c->name, sizeof c->name, in->name);
    c->description = in->description;
    /* times in raw counter ticks are written as they are, as traceglot shows them */
    c->freq = in->frequency_hz && !in->raw_cycles ? in->frequency_hz : NS_PER_S;
    c->precision = in->precision;
    c->offset_s = in->offset_seconds;
    c->offset_cycles = in->offset_cycles;
    if (c->offset_cycles >= c->freq ||
        (int64_t)((uint64_t)c->offset_s * NS_PER_S + cycles_ns(c->freq, c->offset_cycles)) !=
            in->offset_ns) {
        /* only the offset in ns is known: whole seconds, and the rest in cycles */
        int64_t s = in->offset_ns / NS_PER_S, rem = in->offset_ns % NS_PER_S;
        if (rem < 0) {
            s--;
            rem += NS_PER_S;
        }
        c->offset_s = s;
        c->offset_cycles = (uint64_t)((unsigned __int128)rem * c->freq / NS_PER_S);
    }
    c->base_ns = (int64_t)((uint64_t)c->offset_s * NS_PER_S + cycles_ns(c->freq, c->offset_cycles));
    const char *domain = tg_trace_clock_domain(t);
    size_t n = domain ? strlen(domain) : 0;
    if (in->has_uuid)
        memcpy(c->uuid, in->uuid, sizeof c->uuid);
    else if (n > 2 && strchr(domain, '@') && strcmp(domain + n - 2, "@?") != 0)
        uuid_of_name(c->uuid, domain);
    else
        memcpy(c->uuid, trace_uuid, sizeof c->uuid);
}

int cw_clock_cycles(const cw_clock *c, int64_t ns, uint64_t *cycles, tg_error **err)
{
    if (ns < c->base_ns)
        return tg_err(err, TG_ERR_UNSUPPORTED,
                      "event time %lld ns is before the origin of clock %s (%lld ns)",
                      (long long)ns, c->name, (long long)c->base_ns);
    uint64_t rel = (uint64_t)(ns - c->base_ns);
    if (c->freq == NS_PER_S) {
        *cycles = rel;
        return 0;
    }
    uint64_t x = (uint64_t)((unsigned __int128)rel * c->freq / NS_PER_S);
    /* the double conversion may land a little off the exact one: step to the last value
     * whose time is not after ns (a few steps at most) */
    for (int i = 0; i < 64 && x > 0 && cycles_ns(c->freq, x) > rel; i++)
        x--;
    for (int i = 0; i < 64 && cycles_ns(c->freq, x + 1) <= rel; i++)
        x++;
    *cycles = x;
    return 0;
}
