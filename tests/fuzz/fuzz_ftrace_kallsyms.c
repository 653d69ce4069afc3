/* fuzz_ftrace_kallsyms.c - libFuzzer target: the kallsyms text of a trace.dat ("ADDRESS TYPE
 * NAME [MODULE]" lines), which names the function and function_graph records.
 *
 * The input replaces the kallsyms text of a function_graph fixture (fuzz_tracedat.h); its
 * records are then named, folded, replayed and reported through the mutated table.
 * Seeds: the kallsyms of the function fixtures.  Dictionary: dict/ftrace_kallsyms.dict. */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdlib.h>
#include <string.h>

static const char template_name[] = "fgraph-le64-4cpu-v6.dat";

static void put32(const tg_fuzz_dat *d, uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[d->big_endian ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

int tg_fuzz_seeds(const char *out)
{
    static const char *const from[] = {"fgraph-le64-4cpu-v6.dat", "func-le64-many-v6.dat",
                                       "func-be32-4cpu-v6.dat"};
    int n = 0;
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        tg_fuzz_dat d;
        uint8_t *file;
        tg_fuzz_dat_load(from[i], &d, &file);
        n += tg_fuzz_seed(out, from[i], -1, file + d.events_end + 4,
                          d.kallsyms_end - d.events_end - 4);
        free(file);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > UINT32_MAX - 4)
        return 0;
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(template_name, &d, &file);
    uint8_t *unit = malloc(size + 4);
    if (unit) {
        put32(&d, unit, (uint32_t)size);
        memcpy(unit + 4, data, size);
        tg_fuzz_dat_run(&d, d.events_end, d.kallsyms_end, unit, size + 4);
        free(unit);
    }
    free(file);
    return 0;
}
