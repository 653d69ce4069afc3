/* read_window.c - the read window's moves (see read_window.h). */
#include "io/read_window.h"

#include <sys/mman.h>
#include <unistd.h>

void tg_window_init(tg_window *w, const uint8_t *data, size_t size, bool populate)
{
    *w = (tg_window){.data = data, .size = size, .populate = populate, .chunk = TG_WINDOW_CHUNK};
}

static uintptr_t page_floor(uintptr_t a, uintptr_t page) { return a / page * page; }

void tg_window_done(tg_window *w)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start = (uintptr_t)w->data;
    uintptr_t from = page_floor(start + w->released + page - 1, page);
    uintptr_t to = page_floor(start + w->size, page);
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
    w->released = w->size;
    w->at = w->size;
    w->next = SIZE_MAX;
}

void tg_window_move(tg_window *w, size_t pos)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start = (uintptr_t)w->data;
    if (pos > w->size)
        pos = w->size;
    if (pos < w->at) /* a jump back: what is behind the new position may be given back */
        w->released = 0;
    w->at = pos;
    /* give back the pages a chunk behind, those wholly inside the region */
    if (pos > w->chunk) {
        uintptr_t from = page_floor(start + w->released + page - 1, page);
        uintptr_t to = page_floor(start + pos - w->chunk, page);
        if (to > from) {
            madvise((void *)from, to - from, MADV_DONTNEED);
            w->released = to - start;
        }
    }
    size_t ahead = w->size - pos < w->chunk ? w->size - pos : w->chunk;
    if (w->populate && ahead) {
        uintptr_t from = page_floor(start + pos, page), to = start + pos + ahead;
#ifdef MADV_POPULATE_READ
        if (madvise((void *)from, to - from, MADV_POPULATE_READ) != 0)
#endif
            madvise((void *)from, to - from, MADV_WILLNEED);
    }
    w->next = pos + ahead < w->size ? pos + ahead : SIZE_MAX;
}
