/* replay_main.c - main() of a fuzz target built without libFuzzer: the plain-CI driver that
 * replays the inputs a fuzzing run found (tests/fuzz/regressions/TARGET/), as zstd's
 * regression driver does, so a fixed crash stays fixed in every build (also under ASan and
 * UBSan, in make check).
 *
 *   T_replay FILE|DIR...   runs the target on each file (a folder's files in name
 *                               order); passing means no crash, sanitizer report or hang
 *   T_replay --seeds DIR   writes the target's seeds into DIR
 *   T_replay --self-test   writes the seeds into a scratch folder and replays them
 *                               (the harness itself is tested: its fixtures are there and
 *                               every seed runs) */
#include "fuzz_fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_file(const char *path)
{
    size_t n = 0;
    uint8_t *b = tg_fuzz_slurp(path, &n);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    printf("replay %s (%zu bytes)\n", path, n);
    fflush(stdout);
    LLVMFuzzerTestOneInput(b, n);
    free(b);
    return 1;
}

/* Replays path (a file, or every file of a folder); how many were replayed, -1 on error. */
static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, names[i]);
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && replay_file(file) > 0)
            count++;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0) {
        mkdir(argv[2], 0755);
        int n = tg_fuzz_seeds(argv[2]);
        printf("%d seeds written to %s\n", n, argv[2]);
        return n > 0 ? 0 : 1;
    }
    int total = 0;
    if (argc == 2 && strcmp(argv[1], "--self-test") == 0) {
        char dir[256];
        if (tg_fuzz_scratch("self-test-seeds", dir, sizeof dir) != 0 || mkdir(dir, 0700) != 0)
            return 1;
        if (tg_fuzz_seeds(dir) <= 0) {
            printf("SKIP: the target has no seeds here (fixtures or tools missing)\n");
            return 77;
        }
        total = replay(dir);
    } else {
        for (int i = 1; i < argc; i++) {
            int n = replay(argv[i]);
            if (n < 0)
                return 1;
            total += n;
        }
    }
    if (total <= 0) {
        printf("SKIP: no inputs to replay\n");
        return 77;
    }
    printf("%d inputs replayed without a crash\n", total);
    return 0;
}
