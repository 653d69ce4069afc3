/* fuzz_ctf2_meta.c - libFuzzer target: the input bytes as the CTF 2 metadata (JSON text
 * sequence) of a trace directory, opened and run through everything the library does.
 * CTF 2 metadata goes through json-c and then the shared resolve/validate/compile passes;
 * this target reaches them directly instead of through the probes of fuzz_open.  The
 * part of the input after a line "--stream--", when there is one, is written beside the
 * metadata as a stream file, so that decoding runs too.  Seeds: the trace that
 * tests/ctf/make-ctf2-optional.py writes (optional fields), and the CTF 2 twins of the
 * corpus (ctf/ctf2) when it is there.  Dictionary: dict/ctf2_meta.dict. */
#define _GNU_SOURCE /* memmem */
#include "fuzz_fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char sep[] = "\n--stream--\n";

/* metadata, then sep and the stream file when there is one */
static int seed_trace(const char *out, const char *dir, const char *name)
{
    char path[1400 + 16]; /* dir (up to 1399 bytes) and a file name */
    size_t mn = 0, sn = 0;
    if (snprintf(path, sizeof path, "%s/metadata", dir) >= (int)sizeof path)
        return 0;
    uint8_t *m = tg_fuzz_slurp(path, &mn);
    if (snprintf(path, sizeof path, "%s/stream", dir) >= (int)sizeof path) {
        free(m);
        return 0;
    }
    uint8_t *s = tg_fuzz_slurp(path, &sn);
    uint8_t *b = m ? malloc(mn + sizeof sep + sn) : NULL;
    int k = 0;
    if (b) {
        memcpy(b, m, mn);
        size_t n = mn;
        if (s) {
            memcpy(b + n, sep, sizeof sep - 1);
            memcpy(b + n + sizeof sep - 1, s, sn);
            n += sizeof sep - 1 + sn;
        }
        k = tg_fuzz_seed(out, name, -1, b, n);
    }
    free(b);
    free(m);
    free(s);
    return k;
}

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    char dir[256], cmd[1400];
    if (tg_fuzz_scratch("ctf2-seeds", dir, sizeof dir) == 0 && mkdir(dir, 0700) == 0) {
        snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/ctf/make-ctf2-optional.py %s >/dev/null",
                 TG_FUZZ_TESTS, dir);
        if (system(cmd) == 0) {
            snprintf(cmd, sizeof cmd, "%s/ctf2-optional", dir);
            n += seed_trace(out, cmd, "ctf2-optional");
        }
    }
#ifdef TG_FUZZ_CORPUS
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf/ctf2", TG_FUZZ_CORPUS);
    DIR *d = opendir(root);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        snprintf(cmd, sizeof cmd, "%s/%s", root, e->d_name);
        struct stat st;
        if (e->d_name[0] != '.' && stat(cmd, &st) == 0 && S_ISDIR(st.st_mode))
            n += seed_trace(out, cmd, e->d_name);
    }
    if (d)
        closedir(d);
#endif
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[256];
    if (tg_fuzz_scratch("ctf2", dir, sizeof dir) != 0)
        return 0;
    mkdir(dir, 0700);
    const uint8_t *s = size >= sizeof sep - 1 ? memmem(data, size, sep, sizeof sep - 1) : NULL;
    size_t meta_len = s ? (size_t)(s - data) : size;
    tg_fuzz_put(dir, "metadata", data, meta_len);
    char path[300];
    snprintf(path, sizeof path, "%s/stream", dir);
    if (s)
        tg_fuzz_put(dir, "stream", s + sizeof sep - 1, size - meta_len - (sizeof sep - 1));
    else
        unlink(path);
    tg_exercise_path(dir, NULL);
    return 0;
}
