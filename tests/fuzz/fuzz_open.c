/* fuzz_open.c - libFuzzer target: the input bytes as one trace file (trace.dat, XRay log,
 * CTF packetized metadata ... whatever the probes recognise), run through everything the
 * library does.  The other targets fuzz one unit each inside a fixture; this one also
 * mutates what decides which reader runs.  Seeds: the small single-file fixtures. */
#include "fuzz_fixture.h"

static const char *const seeds[] = {
    "ftrace/func-le64-1cpu-v6.dat",
    "ftrace/func-le64-1cpu-v7.dat",
    "ftrace/fgraph-le32-2cpu-v6.dat",
    "ftrace/fgraph-le64-1cpu-v7zstd.dat",
    "ftrace/comm-idle-first-v6.dat",
    "xray/basic.xray",
    "xray/fdr.xray",
};

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_files(out, seeds, sizeof seeds / sizeof seeds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_whole_file("input", data, size);
    return 0;
}
