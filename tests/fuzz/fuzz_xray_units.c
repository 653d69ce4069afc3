/* fuzz_xray_units.c - libFuzzer targets for LLVM XRay, one binary per unit
 * (TG_FUZZ_UNIT_<unit>, tests/fuzz/CMakeLists.txt):
 *
 *   basic      a basic ("naive") mode log: the 32-byte file header, then 32-byte records
 *              (function entry/exit/tail, argument records) of every thread
 *   fdr        a flight data recorder log: the header with its buffer size, then per thread
 *              buffers of metadata records (new buffer, wall time, pid, new cpu, tsc wrap,
 *              custom and typed events, end of buffer) and 8-byte function records;
 *              also as `llvm-xray fdr-dump` reads a log's bytes (both units)
 *   instr_map  the instrumented ELF binary --instr-map reads (its xray_instr_map and
 *              xray_fn_idx sections, relocations, symbols, DWARF lines), with the basic log
 *              of the fixtures recorded from it                (first byte picks the log)
 *
 * The logs are read with the instrumentation map of the fixtures' binary when the build
 * made it (TG_FUZZ_XRAY_APP, from tests/xray/build-app.sh with clang++-14), so functions
 * get names, modules and lines.  Seeds: the fixtures' logs and binary; tests/fuzz/run.sh
 * adds logs the XRay runtime writes live and the synthetic logs of every layout version
 * (tests/xray/gen_synthetic.py). */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef TG_FUZZ_XRAY_APP
#define TG_FUZZ_XRAY_APP ""
#endif

static const char *const logs[] = {"xray/basic.xray", "xray/fdr.xray"};

static int seed_file(const char *out, const char *path, const char *name, int pick)
{
    size_t n = 0;
    uint8_t *b = tg_fuzz_slurp(path, &n);
    int k = b ? tg_fuzz_seed(out, name, pick, b, n) : 0;
    free(b);
    return k;
}

/* Exercises path with the fixtures' binary as instrumentation map (when there is one). */
static void run_log(const char *path, const char *map)
{
    tg_options *o = tg_options_new();
    if (o && map[0] && access(map, R_OK) == 0)
        tg_options_set(o, "instr-map", map);
    tg_exercise_path(path, o);
    tg_options_free(o);
    /* the same bytes as llvm-xray fdr-dump reads them, record by record */
    tg_buf *b = tg_buf_new();
    tg_error *err = NULL;
    if (b)
        (void)tg_render_file("xray", path, "llvm-xray-fdr-dump", b, &err);
    tg_error_free(err);
    tg_buf_free(b);
}

#if TG_FUZZ_UNIT_basic || TG_FUZZ_UNIT_fdr
#if TG_FUZZ_UNIT_basic
enum { LOG = 0 };
#else
enum { LOG = 1 };
#endif

int tg_fuzz_seeds(const char *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TG_FUZZ_DATA, logs[LOG]);
    return seed_file(out, path, LOG ? "fdr.xray" : "basic.xray", -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (tg_fuzz_scratch_put("log.xray", data, size, path, sizeof path) == 0)
        run_log(path, TG_FUZZ_XRAY_APP);
    return 0;
}
#elif TG_FUZZ_UNIT_instr_map
int tg_fuzz_seeds(const char *out)
{
    int n = seed_file(out, TG_FUZZ_XRAY_APP, "xray_app-basic", 0);
    return n + seed_file(out, TG_FUZZ_XRAY_APP, "xray_app-fdr", 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char map[256], log[1024];
    snprintf(log, sizeof log, "%s/%s", TG_FUZZ_DATA, logs[data[0] % 2]);
    if (tg_fuzz_scratch_put("instr-map.elf", data + 1, size - 1, map, sizeof map) == 0)
        run_log(log, map);
    return 0;
}
#else
#error "TG_FUZZ_UNIT_<unit> must be set"
#endif
