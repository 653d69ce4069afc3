/* test_io_read_window.c - the read window keeps a file read front to back at about two
 * chunks resident, the data stays right after pages were given back (read again, after a
 * jump back, and after tg_window_done gave back the whole region), and the same walk
 * without the window leaves the whole file resident (so the
 * measure, the mapping's Rss in /proc/self/smaps, can tell the two apart). */
#include "core/file_input.h"
#include "io/read_window.h"
#include "tg_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_MB 24

/* Rss of the mapping that starts at addr, in KB; -1 when not found. */
static long mapping_rss_kb(const void *addr)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int in = 0;
    long kb = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's first line */
            in = lo == (uintptr_t)addr;
        else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    return kb;
}

/* Reads a u64 every 4 KB from first to last, through the window when w is set; 1 when every
 * value is the offset it was written at.  *peak_kb: the largest Rss seen (every 1 MB). */
static int walk(const tg_map *m, tg_window *w, size_t first, long *peak_kb)
{
    int ok = 1;
    for (size_t off = first; off + 8 <= m->size; off += 4096) {
        if (w)
            tg_window_at(w, off);
        uint64_t v;
        memcpy(&v, m->data + off, 8);
        ok &= v == off;
        if (off % (1u << 20) == 0) {
            long kb = mapping_rss_kb(m->data);
            if (kb > *peak_kb)
                *peak_kb = kb;
        }
    }
    return ok;
}

int main(void)
{
    struct tg_test_counts tc = {0};
    char path[] = "/tmp/tg-read-window-XXXXXX";
    int fd = mkstemp(path);
    CHECK(&tc, fd >= 0);
    if (fd < 0)
        return tg_test_done(&tc);
    static uint64_t block[512];
    for (size_t off = 0; off < (size_t)FILE_MB << 20; off += sizeof block) {
        for (size_t i = 0; i < 512; i++)
            block[i] = off + i * 8 - (off + i * 8) % 4096; /* each 4 KB: its offset */
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            break;
    }
    close(fd);
    tg_map m;
    CHECK(&tc, tg_map_open(&m, path, NULL) == 0 && m.size == (size_t)FILE_MB << 20);

    long chunks_kb = (long)(TG_WINDOW_CHUNK >> 10), peak = 0;
    tg_window w;
    tg_window_init(&w, m.data, m.size, true);
    CHECK(&tc, walk(&m, &w, 0, &peak));
    CHECK(&tc, peak > 0 && peak <= 3 * chunks_kb);
    /* a jump back (a ring buffer's wrap-around): right data, still bounded */
    peak = 0;
    CHECK(&tc, walk(&m, &w, 4096, &peak));
    CHECK(&tc, peak > 0 && peak <= 5 * chunks_kb);
    /* done: the region's pages given back, and still readable */
    tg_window_done(&w);
    CHECK(&tc, mapping_rss_kb(m.data) >= 0 && mapping_rss_kb(m.data) <= 8);
    uint64_t v;
    memcpy(&v, m.data + 4096 * 7, 8);
    CHECK(&tc, v == 4096 * 7);
    tg_map_close(&m);

    /* the same walk without the window keeps the file */
    CHECK(&tc, tg_map_open(&m, path, NULL) == 0);
    peak = 0;
    CHECK(&tc, walk(&m, NULL, 0, &peak));
    CHECK(&tc, mapping_rss_kb(m.data) >= (FILE_MB - 2) * 1024L);
    tg_map_close(&m);
    unlink(path);
    return tg_test_done(&tc);
}
