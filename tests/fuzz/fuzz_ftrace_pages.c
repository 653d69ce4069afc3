/* fuzz_ftrace_pages.c - libFuzzer target for the ring-buffer page decoder with function and
 * function_graph records.
 *
 * A whole trace.dat spends most mutations on its headers; here the headers stay valid and
 * the input becomes the ring-buffer pages.  The first input byte picks one of the hand-built
 * fixtures (function or function_graph formats, 32/64-bit, both byte orders: their kallsyms
 * and formats give the records meaning); the rest replaces the first cpu's data (padded to
 * whole pages; the other cpus get none) and the file runs through everything the library
 * does (tg_exercise_path): trace-cmd's function plugin and function_graph folding, replay,
 * reports, chrome.  Seeds: the first cpu's pages of each fixture. */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdlib.h>
#include <string.h>

static const char *const templates[] = {
    "func-le64-1cpu-v6.dat", "fgraph-le64-1cpu-v6.dat", "fgraph-le32-2cpu-v6.dat",
    "func-be32-4cpu-v6.dat", "fgraph-be64-4cpu-v6.dat",
};
enum { N_TEMPLATES = sizeof templates / sizeof templates[0], PAGE = 4096 };

static uint64_t get64(const tg_fuzz_dat *d, const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[d->big_endian ? 7 - i : i] << (8 * i);
    return v;
}

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (int i = 0; i < N_TEMPLATES; i++) {
        tg_fuzz_dat d;
        uint8_t *t;
        tg_fuzz_dat_load(templates[i], &d, &t);
        const uint8_t *table = t + d.options_end + 10;
        uint64_t off = get64(&d, table), size = get64(&d, table + 8);
        if (off <= d.size && size <= d.size - off)
            n += tg_fuzz_seed(out, templates[i], i, t + off, size);
        free(t);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t body = size - 1, padded = (body + PAGE - 1) / PAGE * PAGE;
    if (padded > 64 * PAGE)
        return 0;
    tg_fuzz_dat d;
    uint8_t *t;
    tg_fuzz_dat_load(templates[data[0] % N_TEMPLATES], &d, &t);
    /* the first cpu's data is the input (padded), the other cpus have none */
    uint8_t *file = calloc(1, d.data_start + padded);
    if (file) {
        memcpy(file, t, d.data_start);
        uint8_t *table = file + d.options_end + 10;
        tg_fuzz_dat_put64(&d, table, d.data_start);
        tg_fuzz_dat_put64(&d, table + 8, padded);
        for (uint32_t c = 1; c < d.cpus; c++) {
            tg_fuzz_dat_put64(&d, table + 16 * c, d.data_start + padded);
            tg_fuzz_dat_put64(&d, table + 16 * c + 8, 0);
        }
        memcpy(file + d.data_start, data + 1, body);
        char path[256];
        if (tg_fuzz_scratch_put("trace.dat", file, d.data_start + padded, path, sizeof path) == 0)
            tg_exercise_path(path, NULL);
        free(file);
    }
    free(t);
    return 0;
}
