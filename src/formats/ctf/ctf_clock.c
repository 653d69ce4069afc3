/* ctf_clock.c - a CTF clock's values as nanoseconds from its origin, as babeltrace2 counts
 * them.  Apart from the interpreter (ctf_decode.c) because it is the clock's arithmetic, not
 * the reading of bits: the stream reader converts (and checks) every event's time with it,
 * the trace's attributes and the batch replay their clock offsets and packet times. */
#include "formats/ctf/ctf_internal.h"

#include <stdint.h>

/* Cycles to ns as babeltrace2 converts them: x itself at 1 GHz, else 1e9 * x / freq computed
 * in double and truncated (so large values lose what a double cannot hold, as there). */
static uint64_t cycles_ns(uint64_t freq, uint64_t x)
{
    if (freq == 1000000000)
        return x;
    double ns = 1e9 * (double)x / (double)freq;
    return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

int64_t ctf_clock_ns(const ctf_clock *c, uint64_t value)
{
    /* babeltrace2: the clock's base offset (offset_s * 1e9 + ns(offset cycles), the cycles
     * below one second after normalisation) plus ns(value) of the whole value */
    uint64_t freq = c->freq ? c->freq : 1000000000;
    uint64_t ns =
        c->from_offset ? 0 : (uint64_t)c->offset_s * 1000000000u + cycles_ns(freq, c->offset);
    return (int64_t)(ns + cycles_ns(freq, value));
}

bool ctf_clock_ns_fits(const ctf_clock *c, uint64_t value)
{
    uint64_t freq = c->freq ? c->freq : 1000000000;
    int64_t base, sum;
    uint64_t v = cycles_ns(freq, value);
    if (c->from_offset)
        return v <= (uint64_t)INT64_MAX;
    return !__builtin_mul_overflow(c->offset_s, (int64_t)1000000000, &base) &&
           !__builtin_add_overflow(base, (int64_t)cycles_ns(freq, c->offset), &base) &&
           v <= (uint64_t)INT64_MAX && !__builtin_add_overflow(base, (int64_t)v, &sum);
}

bool ctf_clock_ns_checked(const ctf_clock *c, uint64_t value, int64_t *ns)
{
    /* ctf_clock_ns_fits and ctf_clock_ns in one: the value converted once (every event) */
    uint64_t freq = c->freq ? c->freq : 1000000000;
    uint64_t v = cycles_ns(freq, value);
    if (c->from_offset) {
        *ns = (int64_t)v;
        return v <= (uint64_t)INT64_MAX;
    }
    uint64_t off = cycles_ns(freq, c->offset);
    *ns = (int64_t)((uint64_t)c->offset_s * 1000000000u + off + v);
    int64_t base, sum;
    return !__builtin_mul_overflow(c->offset_s, (int64_t)1000000000, &base) &&
           !__builtin_add_overflow(base, (int64_t)off, &base) && v <= (uint64_t)INT64_MAX &&
           !__builtin_add_overflow(base, (int64_t)v, &sum);
}
