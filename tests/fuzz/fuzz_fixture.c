/* fuzz_fixture.c - see fuzz_fixture.h. */
#define _GNU_SOURCE /* nftw's FTW_DEPTH | FTW_PHYS */
#include "fuzz_fixture.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint8_t *tg_fuzz_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)len + 1)) != NULL &&
        fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[len] = 0; /* texts may be read as strings */
        *n = (size_t)len;
    }
    return b;
}

int tg_fuzz_put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    const char *c = p;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, c + done, n - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fd);
    return done == n ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void process_dir(char *out, size_t size)
{
    snprintf(out, size, "/tmp/tg-fuzz-%ld", (long)getpid());
}

static void remove_process_dir(void)
{
    char dir[64];
    process_dir(dir, sizeof dir);
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* This process's folder, made (and its removal at exit registered) on first use. */
static int ensure_process_dir(char *dir, size_t size)
{
    process_dir(dir, size);
    struct stat st;
    if (stat(dir, &st) == 0)
        return 0;
    if (mkdir(dir, 0700) != 0)
        return -1;
    atexit(remove_process_dir);
    return 0;
}

int tg_fuzz_scratch(const char *name, char *path, size_t path_size)
{
    char dir[64];
    if (ensure_process_dir(dir, sizeof dir) != 0)
        return -1;
    snprintf(path, path_size, "%s/%s", dir, name);
    return 0;
}

int tg_fuzz_scratch_put(const char *name, const void *p, size_t n, char *path, size_t path_size)
{
    char dir[64];
    if (ensure_process_dir(dir, sizeof dir) != 0 || tg_fuzz_put(dir, name, p, n) != 0)
        return -1;
    snprintf(path, path_size, "%s/%s", dir, name);
    return 0;
}

int tg_fuzz_copy(const char *fixture, char *dir, size_t dir_size)
{
    char base[64];
    if (ensure_process_dir(base, sizeof base) != 0)
        return -1;
    char flat[256];
    snprintf(flat, sizeof flat, "%s", fixture);
    for (char *c = flat; *c; c++)
        if (*c == '/')
            *c = '_';
    snprintf(dir, dir_size, "%s/%s", base, flat);
    struct stat st;
    if (stat(dir, &st) == 0)
        return 0;
    /* copied under another name and renamed: a folder that exists is complete */
    char part[1100], src[1024];
    snprintf(part, sizeof part, "%s.part", dir);
    snprintf(src, sizeof src, "%s/%s", TG_FUZZ_DATA, fixture);
    DIR *d = opendir(src);
    if (!d || mkdir(part, 0700) != 0) {
        if (d)
            closedir(d);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char from[1400];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        size_t n = 0;
        uint8_t *b = tg_fuzz_slurp(from, &n);
        rc = b ? tg_fuzz_put(part, e->d_name, b, n) : -1;
        free(b);
    }
    closedir(d);
    return rc == 0 ? rename(part, dir) : -1;
}

int tg_fuzz_find(const char *dir, const char *pattern, char *name, size_t name_size)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = -1;
    while ((e = readdir(d)) != NULL) {
        /* the first in name order: the same file in the fixture and in its copy */
        if (fnmatch(pattern, e->d_name, 0) == 0 && (rc != 0 || strcmp(e->d_name, name) < 0)) {
            snprintf(name, name_size, "%s", e->d_name);
            rc = 0;
        }
    }
    closedir(d);
    return rc;
}

void tg_fuzz_dir_unit(const char *fixture, const char *pattern, const uint8_t *data, size_t size,
                      const tg_options *opts)
{
    char dir[512], name[256];
    if (tg_fuzz_copy(fixture, dir, sizeof dir) != 0 ||
        tg_fuzz_find(dir, pattern, name, sizeof name) != 0) {
        fprintf(stderr, "fuzz: fixture %s/%s (unit %s) missing\n", TG_FUZZ_DATA, fixture, pattern);
        abort(); /* a target that fuzzes nothing must not pass */
    }
    if (tg_fuzz_put(dir, name, data, size) == 0)
        tg_exercise_path(dir, opts);
}

void tg_fuzz_dir_unit_pick(const char *const *fixtures, size_t n, const char *pattern,
                           const uint8_t *data, size_t size, const tg_options *opts)
{
    if (size < 1)
        return;
    tg_fuzz_dir_unit(fixtures[data[0] % n], pattern, data + 1, size - 1, opts);
}

int tg_fuzz_seed(const char *out, const char *name, int pick, const void *p, size_t n)
{
    uint8_t *b = malloc(n + 1);
    if (!b)
        return 0;
    size_t at = 0;
    if (pick >= 0)
        b[at++] = (uint8_t)pick;
    if (n)
        memcpy(b + at, p, n);
    int ok = tg_fuzz_put(out, name, b, at + n) == 0;
    free(b);
    return ok;
}

int tg_fuzz_seed_units(const char *out, const char *const *fixtures, size_t n, const char *pattern,
                       int pick)
{
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char dir[1024], name[256], path[1400], seed[300];
        snprintf(dir, sizeof dir, "%s/%s", TG_FUZZ_DATA, fixtures[i]);
        if (tg_fuzz_find(dir, pattern, name, sizeof name) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        size_t len = 0;
        uint8_t *b = tg_fuzz_slurp(path, &len);
        if (!b)
            continue;
        snprintf(seed, sizeof seed, "%s", fixtures[i]);
        for (char *c = seed; *c; c++)
            if (*c == '/')
                *c = '_';
        count += tg_fuzz_seed(out, seed, pick ? (int)i : -1, b, len);
        free(b);
    }
    return count;
}

int tg_fuzz_seed_files(const char *out, const char *const *files, size_t n)
{
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TG_FUZZ_DATA, files[i]);
        const char *slash = strrchr(files[i], '/');
        size_t len = 0;
        uint8_t *b = tg_fuzz_slurp(path, &len);
        if (b)
            count += tg_fuzz_seed(out, slash ? slash + 1 : files[i], -1, b, len);
        free(b);
    }
    return count;
}

void tg_fuzz_whole_file(const char *name, const uint8_t *data, size_t size)
{
    char path[256];
    if (tg_fuzz_scratch_put(name, data, size, path, sizeof path) == 0)
        tg_exercise_path(path, NULL);
}

/* libFuzzer calls this first: with TG_FUZZ_SEEDS=DIR the binary only writes its seeds. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *out = getenv("TG_FUZZ_SEEDS");
    if (!out)
        return 0;
    mkdir(out, 0755);
    int n = tg_fuzz_seeds(out);
    printf("%d seeds written to %s\n", n, out);
    exit(n > 0 ? 0 : 1);
}
