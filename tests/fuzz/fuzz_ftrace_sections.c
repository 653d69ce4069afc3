/* fuzz_ftrace_sections.c - libFuzzer target: the sections of a trace.dat file version 7 (the
 * chain of options sections, the sections their options point at, compressed with zstd or
 * not, the flyrecord buffers and their compressed chunks).
 *
 * Version 7 points at its sections by file offset, so the input is the file from its first
 * offset on: the first input byte picks the template, whose bytes before that offset (magic,
 * version, byte order, sizes, compression name and version) come first, then the rest of
 * the input, at the offsets it had in the template.  Seeds: each template's own sections. */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const templates[] = {
    "func-le64-1cpu-v7.dat",
    "fgraph-le64-1cpu-v7zstd.dat",
    "comm-task-first-v7.dat",
    "func-le32-2cpu-v7zstd.dat",
};
enum { N = sizeof templates / sizeof templates[0] };

/* The template's bytes and the length of its fixed part (up to the first options offset). */
static uint8_t *load(int i, size_t *size, size_t *fixed)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ftrace/%s", TG_FUZZ_DATA, templates[i]);
    uint8_t *b = tg_fuzz_slurp(path, size);
    /* magic(10) "7\0" endian long-size page-size(4), then two strings */
    const uint8_t *z1 = b && *size > 18 ? memchr(b + 18, 0, *size - 18) : NULL;
    const uint8_t *z2 = z1 ? memchr(z1 + 1, 0, *size - (size_t)(z1 + 1 - b)) : NULL;
    if (!z2 || memcmp(b, "\x17\x08\x44tracing7", 11) != 0) {
        fprintf(stderr, "fuzz: template %s missing or not version 7\n", path);
        abort();
    }
    *fixed = (size_t)(z2 + 1 - b);
    return b;
}

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (int i = 0; i < N; i++) {
        size_t size, fixed;
        uint8_t *b = load(i, &size, &fixed);
        n += tg_fuzz_seed(out, templates[i], i, b + fixed, size - fixed);
        free(b);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t tsize, fixed;
    uint8_t *b = load(data[0] % N, &tsize, &fixed);
    uint8_t *file = malloc(fixed + size);
    char path[256];
    if (file) {
        memcpy(file, b, fixed);
        memcpy(file + fixed, data + 1, size - 1);
        if (tg_fuzz_scratch_put("trace.dat", file, fixed + size - 1, path, sizeof path) == 0)
            tg_exercise_path(path, NULL);
    }
    free(file);
    free(b);
    return 0;
}
