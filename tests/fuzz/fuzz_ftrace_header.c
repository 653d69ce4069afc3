/* fuzz_ftrace_header.c - libFuzzer target: a trace.dat's file header (magic, version, byte
 * order, long size, page size) with its header_page and header_event sections.
 *
 * The first input byte picks the template (32/64-bit, both byte orders); the rest replaces
 * the template's bytes up to the ftrace formats (fuzz_tracedat.h), so the ring-buffer pages
 * that follow are decoded with the mutated page layout.  Seeds: each template's own header. */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdlib.h>

static const char *const templates[] = {
    "func-le64-1cpu-v6.dat",
    "fgraph-be64-4cpu-v6.dat",
    "func-le32-2cpu-v6.dat",
    "comm-idle-first-v6.dat",
};
enum { N = sizeof templates / sizeof templates[0] };

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (int i = 0; i < N; i++) {
        tg_fuzz_dat d;
        uint8_t *file;
        tg_fuzz_dat_load(templates[i], &d, &file);
        n += tg_fuzz_seed(out, templates[i], i, file, d.header_end);
        free(file);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(templates[data[0] % N], &d, &file);
    tg_fuzz_dat_run(&d, 0, d.header_end, data + 1, size - 1);
    free(file);
    return 0;
}
