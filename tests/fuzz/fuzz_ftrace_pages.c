/* fuzz_ftrace_pages.c - libFuzzer target for the ring-buffer page decoder with function and
 * function_graph records.
 *
 * A whole trace.dat spends most mutations on its headers; here the headers stay valid and
 * the input becomes the ring-buffer pages.  The first input byte picks one of the hand-built
 * fixtures (function or function_graph formats, 32/64-bit, both byte orders: their kallsyms
 * and formats give the records meaning); the rest replaces the first cpu's data (padded to
 * whole pages; the other cpus get none) and the file runs through everything the library
 * does (tg_exercise_path): trace-cmd's function plugin and function_graph folding, replay,
 * reports, chrome.  The fixture is read per input (no state kept between inputs).  Seeds:
 * tests/ftrace/fuzz-seeds.sh cuts them from the same fixtures.  TG_FUZZ_FTRACE_DIR (set by
 * CMake) is the fixtures' folder. */
#define _GNU_SOURCE /* memmem */
#include "exercise.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TG_FUZZ_FTRACE_DIR
#error "TG_FUZZ_FTRACE_DIR must name tests/data/ftrace"
#endif

static const char *const templates[] = {
    "func-le64-1cpu-v6.dat", "fgraph-le64-1cpu-v6.dat", "fgraph-le32-2cpu-v6.dat",
    "func-be32-4cpu-v6.dat", "fgraph-be64-4cpu-v6.dat",
};
enum { N_TEMPLATES = sizeof templates / sizeof templates[0], PAGE = 4096 };

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len > 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)len)) != NULL &&
            fread(b, 1, (size_t)len, f) != (size_t)len) {
            free(b);
            b = NULL;
        }
        *n = len > 0 ? (size_t)len : 0;
    }
    fclose(f);
    return b;
}

static void put64(uint8_t *p, uint64_t v, int big)
{
    for (int i = 0; i < 8; i++)
        p[big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p, int big)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[big ? 7 - i : i] << (8 * i);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char tpath[1024];
    snprintf(tpath, sizeof tpath, "%s/%s", TG_FUZZ_FTRACE_DIR, templates[data[0] % N_TEMPLATES]);
    size_t tn = 0;
    uint8_t *t = slurp(tpath, &tn);
    if (!t)
        abort(); /* the fixtures must be there: a silent pass would fuzz nothing */
    /* the flyrecord table: "flyrecord\0", then (offset, size) of each cpu */
    static const char fly[] = "flyrecord";
    uint8_t *at = memmem(t, tn, fly, sizeof fly);
    int big = tn > 20 && t[12] == 1; /* "\x17\x08\x44tracing6\0" then the endian byte */
    if (!at)
        abort();
    uint8_t *table = at + sizeof fly;
    uint64_t off0 = get64(table, big);
    size_t body = size - 1, padded = (body + PAGE - 1) / PAGE * PAGE;
    if (off0 > tn || padded > 64 * PAGE) {
        free(t);
        return 0;
    }
    char path[] = "/tmp/tg-fuzz-ft-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        put64(table + 8, padded, big);
        /* the other cpus: no data, at the end of the file */
        for (uint8_t *c = table + 16; c + 16 <= t + off0 && get64(c, big) >= off0; c += 16) {
            put64(c, off0 + padded, big);
            put64(c + 8, 0, big);
        }
        uint8_t *file = calloc(1, (size_t)off0 + padded);
        if (file) {
            memcpy(file, t, (size_t)off0);
            memcpy(file + off0, data + 1, body);
            if (write(fd, file, (size_t)off0 + padded) == (ssize_t)(off0 + padded))
                tg_exercise_path(path, NULL);
            free(file);
        }
        close(fd);
        unlink(path);
    }
    free(t);
    return 0;
}
