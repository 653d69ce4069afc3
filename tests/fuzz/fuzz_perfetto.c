/* fuzz_perfetto.c - libFuzzer target: the input bytes as a Perfetto protobuf trace (the
 * packet framing, every TracePacket kind the reader decodes, ftrace bundles, compact_sched,
 * track events with interned state), run through everything the library does.  Seeds: the
 * Perfetto fixtures of tests/data/perfetto. */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "perfetto/ftrace.pb",
    "perfetto/track-events.pb",
};

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TG_FUZZ_DATA, seeds[i]);
        size_t len = 0;
        uint8_t *b = tg_fuzz_slurp(path, &len);
        if (b)
            n += tg_fuzz_seed(out, strrchr(seeds[i], '/') + 1, -1, b, len);
        free(b);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (tg_fuzz_scratch_put("input.pb", data, size, path, sizeof path) == 0)
        tg_exercise_path(path, NULL);
    return 0;
}
