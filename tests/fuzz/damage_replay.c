/* damage_replay.c - damaged copies of every fixture, run through everything the library
 * does (plain-CI companion of the fuzz target).
 *
 * For each fixture under the roots given on the command line (a file or a directory that
 * tg_open accepts), it makes deterministic damaged copies in a temporary directory: the
 * file truncated at several points, and single bytes flipped at pseudo-random places (for
 * a directory fixture, each of its files in turn).  Each copy goes through tg_exercise_path.
 * Passing means: no crash, no sanitizer report, no hang (ctest's timeout).  With TG_SAMPLE=N
 * in the environment (the sanitizer suite) every N-th copy is read: the same copies as the
 * whole sweep (the damage is drawn for every copy), N times fewer runs. */
#include "exercise.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLIPS_PER_FILE 12
#define MAX_FILES_PER_DIR 24

struct run {
    char tmp[256];
    uint64_t rng;
    unsigned copies, fixtures;
    unsigned sample, seen; /* read every sample-th copy of the seen ones */
};

/* Reads the damaged copy at target when it is one of the sampled ones. */
static void exercise(struct run *r, const char *target, const tg_options *o)
{
    if (r->seen++ % r->sample)
        return;
    tg_exercise_path(target, o);
    r->copies++;
}

static uint64_t next_rand(struct run *r)
{
    r->rng ^= r->rng << 13;
    r->rng ^= r->rng >> 7;
    r->rng ^= r->rng << 17;
    return r->rng;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(len > 0 ? (size_t)len : 1);
    *n = p && len > 0 ? fread(p, 1, (size_t)len, f) : 0;
    fclose(f);
    return p;
}

static void spill(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(p, 1, n, f);
    fclose(f);
}

/* Paths here come from our own directory walk; quoted for the shell. */
static int shell(const char *fmt, const char *a, const char *b)
{
    char cmd[2600];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    return system(cmd);
}

/* Damages file `victim` (inside the copy at `target`) in every way and exercises `target`. */
static void damage_file(struct run *r, const char *target, const char *victim, const tg_options *o)
{
    size_t n;
    unsigned char *orig = slurp(victim, &n);
    if (!orig)
        return;
    size_t cuts[] = {0, n / 4, n / 2, n - n / 4, n ? n - 1 : 0};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        spill(victim, orig, cuts[i]);
        exercise(r, target, o);
    }
    for (int i = 0; n && i < FLIPS_PER_FILE; i++) {
        size_t at = (size_t)(next_rand(r) % n);
        unsigned char saved = orig[at];
        orig[at] ^= (unsigned char)(1u << (next_rand(r) % 8)) | (i & 1 ? 0x80 : 0);
        spill(victim, orig, n);
        exercise(r, target, o);
        orig[at] = saved;
    }
    spill(victim, orig, n);
    free(orig);
}

static void damage_fixture(struct run *r, const char *path, const tg_options *o)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s/%s", r->tmp, base);
    shell("rm -rf '%s'%s", copy, "");
    shell("cp -r '%s' '%s'", path, copy);
    shell("chmod -R u+w '%s'%s", copy, "");
    r->fixtures++;
    if (!S_ISDIR(st.st_mode)) {
        damage_file(r, copy, copy, o);
        return;
    }
    DIR *d = opendir(copy);
    struct dirent *e;
    int files = 0;
    while (d && (e = readdir(d)) != NULL && files < MAX_FILES_PER_DIR) {
        char victim[1400];
        snprintf(victim, sizeof victim, "%s/%s", copy, e->d_name);
        if (stat(victim, &st) == 0 && S_ISREG(st.st_mode)) {
            damage_file(r, copy, victim, o);
            files++;
        }
    }
    if (d)
        closedir(d);
}

/* Walks root: whatever tg_open accepts is a fixture; other directories are searched. */
static void walk(struct run *r, const char *root, const tg_options *o, int depth)
{
    struct stat st;
    if (depth > 6 || stat(root, &st) < 0)
        return;
    const char *paths[1] = {root};
    tg_error *err = NULL;
    tg_set *set = tg_open(paths, 1, o, &err);
    tg_error_free(err);
    if (set) {
        tg_close(set);
        damage_fixture(r, root, o);
        return;
    }
    if (!S_ISDIR(st.st_mode))
        return;
    DIR *d = opendir(root);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[1400];
        snprintf(sub, sizeof sub, "%s/%s", root, e->d_name);
        walk(r, sub, o, depth + 1);
    }
    if (d)
        closedir(d);
}

int main(int argc, char **argv)
{
    struct run r = {.rng = 0x9E3779B97F4A7C15ull, .sample = 1};
    const char *sample = getenv("TG_SAMPLE");
    if (sample && atoi(sample) > 1)
        r.sample = (unsigned)atoi(sample);
    snprintf(r.tmp, sizeof r.tmp, "/tmp/tg-damage-XXXXXX");
    if (!mkdtemp(r.tmp)) {
        perror("mkdtemp");
        return 1;
    }
    tg_options *o = tg_options_new();
    for (int i = 1; i < argc; i++)
        walk(&r, argv[i], o, 0);
    tg_options_free(o);
    shell("rm -rf '%s'%s", r.tmp, "");
    if (!r.fixtures) {
        printf("SKIP: no fixtures found under the given roots\n");
        return 77;
    }
    printf("%u damaged copies of %u fixtures read without a crash\n", r.copies, r.fixtures);
    printf("%u passed, 0 failed\n", r.copies);
    return 0;
}
