/* kernel_import_track_set.c - sets of tracks of one name for slices that overlap (Perfetto's
 * async track sets and track compressor): a buffer's life, a queued resource, a command.
 *
 * A set is the tracks of one key, all named alike, numbered in the order they are made.  A
 * slice goes on the set's first track that is free when it begins (nothing open on it, and
 * the last slice of known length over), a new one when none is: slices of one track never
 * overlap, and as few tracks are made as the slices need.  A slice begun by a cookie (a
 * buffer's id) ends on the track it holds. */
#include "core/kernel_import.h"

enum { SET_TRACKS_MAX = 4096 }; /* a set's tracks at most: a slice past it is dropped */

static uint64_t part_key(uint64_t set, uint64_t seed, uint64_t k)
{
    uint64_t parts[2] = {set, k};
    return km_imp_key(seed, parts, sizeof parts);
}

/* The k-th track of set: open (whether a slice is open on it) and free_at (when the last
 * slice of known length ends) are kept in slots. */
static int64_t track_at(tg_kcursor *c, uint64_t set, uint64_t k, const km_imp_how *how,
                        const char *name, size_t n)
{
    return km_imp_track(c, part_key(set, 0x74726b73u, k), how, name, n);
}

/* The first track of set free at ts (marked open when open, else busy until ts + dur): its
 * number, -1 when the set is full, TG_ERR_NOMEM. */
static int64_t free_track(tg_kcursor *c, uint64_t set, int64_t ts, bool open, int64_t dur)
{
    for (uint64_t k = 0; k < SET_TRACKS_MAX; k++) {
        uint64_t *is_open = km_imp_slot(c, part_key(set, 0x6f70656eu, k));
        if (!is_open)
            return TG_ERR_NOMEM;
        if (*is_open)
            continue;
        uint64_t *free_at = km_imp_slot(c, part_key(set, 0x66726565u, k));
        if (!free_at)
            return TG_ERR_NOMEM;
        if ((int64_t)*free_at > ts)
            continue;
        if (open) {
            if (!(is_open = km_imp_slot(c, part_key(set, 0x6f70656eu, k))))
                return TG_ERR_NOMEM;
            *is_open = 1;
        } else {
            *free_at = (uint64_t)(ts + dur);
        }
        return (int64_t)k;
    }
    return -1;
}

int64_t km_imp_set_begin(tg_kcursor *c, uint64_t set, uint64_t cookie, int64_t ts,
                         const km_imp_how *how, const char *name, size_t n)
{
    uint64_t *held = km_imp_slot(c, part_key(set, 0x636f6f6bu, cookie));
    if (!held)
        return TG_ERR_NOMEM;
    if (*held) /* begun again before its end: the same track */
        return track_at(c, set, *held - 1, how, name, n);
    int64_t k = free_track(c, set, ts, true, 0);
    if (k < 0)
        return k;
    if (!(held = km_imp_slot(c, part_key(set, 0x636f6f6bu, cookie))))
        return TG_ERR_NOMEM;
    *held = (uint64_t)k + 1;
    return track_at(c, set, (uint64_t)k, how, name, n);
}

int64_t km_imp_set_end(tg_kcursor *c, uint64_t set, uint64_t cookie, const km_imp_how *how,
                       const char *name, size_t n)
{
    uint64_t key = part_key(set, 0x636f6f6bu, cookie);
    uint64_t *held = km_imp_slot(c, key);
    if (!held)
        return TG_ERR_NOMEM;
    if (!*held)
        return -1; /* begun before the trace */
    uint64_t k = *held - 1;
    km_imp_forget(c, key);
    km_imp_forget(c, part_key(set, 0x6f70656eu, k));
    return track_at(c, set, k, how, name, n);
}

int64_t km_imp_set_scoped(tg_kcursor *c, uint64_t set, int64_t ts, int64_t dur,
                          const km_imp_how *how, const char *name, size_t n)
{
    int64_t k = free_track(c, set, ts, false, dur);
    return k < 0 ? k : track_at(c, set, (uint64_t)k, how, name, n);
}
