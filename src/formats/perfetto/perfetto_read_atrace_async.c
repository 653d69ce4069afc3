/* perfetto_read_atrace_async.c - atrace's async slices, written through ftrace print events
 * as "S|pid|name|cookie" (begin) and "F|pid|name|cookie" (finish).
 *
 * trace_processor puts them on a track of the process pid named after the slice, one per
 * (name, cookie) pair while a slice of it is open: they need not nest, so overlapping
 * cookies each have their own track.  A begin while the pair's slice is open is ignored and
 * the first finish ends it (its "saturating" rule for legacy async slices); a finish with
 * nothing open is dropped. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <string.h>

/* The digits at *at (an optional minus sign first); false when there are none. */
static bool read_int(const char **at, const char *end, int64_t *out)
{
    const char *p = *at;
    bool negative = p < end && *p == '-';
    if (negative)
        p++;
    int64_t v = 0;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9' && v < INT64_MAX / 10 - 10)
        v = v * 10 + (*p++ - '0');
    if (p == digits)
        return false;
    *at = p;
    *out = negative ? -v : v;
    return true;
}

/* The track of the (pid, name, cookie) slice: keyed apart from the trace's own uuids and from
 * atrace's thread tracks. */
static uint64_t async_key(int64_t pid, const char *name, size_t len, int64_t cookie)
{
    uint64_t h = tg_hash_bytes(name, len);
    h = (h ^ (uint64_t)pid) * 1099511628211ull;
    h = (h ^ (uint64_t)cookie) * 1099511628211ull;
    return h | 0x8000000000000000ull;
}

int pf_atrace_async(tg_trace *t, int64_t ts, const char *buf, size_t len, uint64_t offset)
{
    pf_trace *p = t->priv;
    const char *end = buf + len, *at = buf + 1;
    int64_t pid, cookie = 0;
    if (at >= end || *at++ != '|' || !read_int(&at, end, &pid) || at >= end || *at++ != '|' ||
        pid < 0 || pid > INT32_MAX)
        return 0; /* not atrace's form */
    const char *name = at;
    while (at < end && *at != '|')
        at++;
    size_t name_len = (size_t)(at - name);
    if (at < end) {
        at++;
        if (!read_int(&at, end, &cookie))
            return 0;
    }
    pf_track *k = pf_track_of(p, async_key(pid, name, name_len, cookie), true);
    if (!k)
        return TG_ERR_NOMEM;
    if (buf[0] == 'F') {
        if (!k->open)
            return 0;
        k->open = 0;
        return pf_slice_record(t, false, ts, k, k->stack[0], offset);
    }
    if (k->open)
        return 0;
    char *copy = tg_arena_strndup(&t->arena, name, name_len);
    if (!copy)
        return TG_ERR_NOMEM;
    uint64_t n = pf_name_number(t, copy);
    if (n == UINT64_MAX || tg_grow(&k->stack, &k->cap, 1, sizeof *k->stack) < 0)
        return TG_ERR_NOMEM;
    k->pid = k->tid = (int32_t)pid;
    k->process = true;
    k->name = copy;
    k->stack[k->open++] = n;
    return pf_slice_record(t, true, ts, k, n, offset);
}
