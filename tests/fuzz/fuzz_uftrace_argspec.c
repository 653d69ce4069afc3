/* fuzz_uftrace_argspec.c - libFuzzer target: uftrace's argument and return value specs
 * ("add@arg1,arg2/s;pick@arg1/p,fparg1/64") and enum definitions ("enum e { A, B = 4 };"),
 * with the records whose payloads they describe.
 *
 * The input's first line becomes info's argspec: line, its second line the retspec: line,
 * the rest the enumauto: line (with auto-args on, so "e:NAME" specs find them), in the info
 * file of a fixture recorded with -A/-R on functions of every argument kind; its TID.dat
 * payloads are then decoded and printed with the mutated specs.  Seeds: the fixture's own
 * specs with enums.  Dictionary: dict/uftrace_argspec.dict. */
#define _GNU_SOURCE /* memmem */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fixture[] = "uftrace/args-spec.data";
static const char *const replaced[] = {"argspec:", "retspec:", "enumauto:", "auto-args:"};

/* The value of info's line KEY: (the one that is not "KEY:lines=N"), or "". */
static size_t info_value(const char *text, size_t n, const char *key, const char **v)
{
    size_t kl = strlen(key);
    for (const char *p = text; p < text + n;) {
        const char *nl = memchr(p, '\n', (size_t)(text + n - p));
        const char *le = nl ? nl : text + n;
        if ((size_t)(le - p) > kl && memcmp(p, key, kl) == 0 &&
            !((size_t)(le - p) >= kl + 6 && memcmp(p + kl, "lines=", 6) == 0)) {
            *v = p + kl;
            return (size_t)(le - p) - kl;
        }
        p = le + 1;
    }
    *v = "";
    return 0;
}

int tg_fuzz_seeds(const char *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/info", TG_FUZZ_DATA, fixture);
    size_t n = 0;
    char *info = (char *)tg_fuzz_slurp(path, &n);
    if (!info || n < 40)
        abort();
    const char *a, *r;
    size_t an = info_value(info + 40, n - 40, "argspec:", &a);
    size_t rn = info_value(info + 40, n - 40, "retspec:", &r);
    static const char enums[] = "enum color { RED, GREEN = 2, BLUE = 0x10, };"
                                "enum uft_mmap_prot { PROT_NONE, PROT_READ, PROT_WRITE, "
                                "PROT_EXEC = 4, };";
    char *seed = malloc(an + rn + sizeof enums + 2);
    int count = 0;
    if (seed) {
        memcpy(seed, a, an);
        seed[an] = '\n';
        memcpy(seed + an + 1, r, rn);
        seed[an + 1 + rn] = '\n';
        memcpy(seed + an + rn + 2, enums, sizeof enums - 1);
        count += tg_fuzz_seed(out, "args-spec", -1, seed, an + rn + 2 + sizeof enums - 1);
        static const char other[] = "add@arg1/e:color,arg2/i8;neg@arg1/x16;name_len@arg1/S;"
                                    "upper@arg1/o;pick@arg1/p,arg2/s,arg3/u64;scale@fparg1/80\n"
                                    "add@retval/e:color;neg@retval/i16;name_len@retval/s;"
                                    "pick@retval/e:uft_mmap_prot\n";
        char *two = malloc(sizeof other + sizeof enums);
        if (two) {
            memcpy(two, other, sizeof other - 1);
            memcpy(two + sizeof other - 1, enums, sizeof enums - 1);
            count += tg_fuzz_seed(out, "kinds", -1, two, sizeof other + sizeof enums - 2);
            free(two);
        }
        free(seed);
    }
    free(info);
    return count;
}

static bool is_replaced(const char *line, size_t n)
{
    for (size_t i = 0; i < sizeof replaced / sizeof replaced[0]; i++) {
        size_t k = strlen(replaced[i]);
        if (n >= k && memcmp(line, replaced[i], k) == 0)
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[512];
    if (tg_fuzz_copy(fixture, dir, sizeof dir) != 0)
        abort();
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/info", TG_FUZZ_DATA, fixture);
    size_t n = 0;
    char *info = (char *)tg_fuzz_slurp(path, &n);
    char *out = info && n >= 40 ? malloc(n + size + 64) : NULL;
    if (!out)
        abort();
    memcpy(out, info, 40);
    size_t len = 40;
    for (const char *p = info + 40; p < info + n;) {
        const char *nl = memchr(p, '\n', (size_t)(info + n - p));
        size_t ll = (size_t)((nl ? nl + 1 : info + n) - p);
        if (!is_replaced(p, ll)) {
            memcpy(out + len, p, ll);
            len += ll;
        }
        p += ll;
    }
    const char *in = (const char *)data, *end = in + size;
    static const char *const keys[] = {"argspec:", "retspec:", "enumauto:"};
    for (int k = 0; k < 3; k++) {
        const char *nl = k < 2 ? memchr(in, '\n', (size_t)(end - in)) : NULL;
        const char *le = nl ? nl : end;
        len += (size_t)sprintf(out + len, "%s", keys[k]);
        memcpy(out + len, in, (size_t)(le - in));
        len += (size_t)(le - in);
        out[len++] = '\n';
        in = nl ? nl + 1 : end;
    }
    len += (size_t)sprintf(out + len, "auto-args:1\n");
    if (tg_fuzz_put(dir, "info", out, len) == 0)
        tg_exercise_path(dir, NULL);
    free(out);
    free(info);
    return 0;
}
