/* read_window.h - reading a mapped region front to back with bounded resident memory.
 *
 * Trace files are mapped and decoded in place; a reader that goes through a region once (a
 * thread's uftrace .dat, a CTF stream file, a CPU's ring pages in trace.dat, an LTTng 0.x
 * tracefile, an XRay FDR block) would otherwise end with the whole file resident.  The window
 * keeps about two chunks of the region resident: as the reader moves on it maps the next chunk
 * in with one call (MADV_POPULATE_READ: no page fault per page) and gives back the pages more
 * than a chunk behind (MADV_DONTNEED).  Data given back stays readable: the mapping is private
 * and never written, so a page touched again is read back from the page cache.  The reader
 * calls tg_window_at with its position (the check is one comparison, the work is done once a
 * chunk), and tg_window_done when it is through with the region. */
#ifndef TG_READ_WINDOW_H
#define TG_READ_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TG_WINDOW_CHUNK ((size_t)2 << 20)

typedef struct tg_window {
    const uint8_t *data; /* the region, inside a read-only private mapping */
    size_t size;
    size_t at;       /* the position of the last move; one before it (a jump back, as a
                        ring buffer's wrap-around makes) moves the window too */
    size_t next;     /* a position at or past this moves the window */
    size_t released; /* the pages wholly before this offset were given back */
    bool populate;   /* map the chunk ahead in at once (a hint; failure is harmless) */
    size_t chunk;    /* TG_WINDOW_CHUNK unless the reader sets less after init (a reader
                        beside another one over the same bytes) */
} tg_window;

void tg_window_init(tg_window *w, const uint8_t *data, size_t size, bool populate);
void tg_window_move(tg_window *w, size_t pos);
/* The reader is done with the region (it may still touch it): every page wholly inside it
 * is given back. */
void tg_window_done(tg_window *w);
static inline void tg_window_at(tg_window *w, size_t pos)
{
    if (pos >= w->next || pos < w->at)
        tg_window_move(w, pos);
}

#endif
