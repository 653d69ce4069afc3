/* perf_kallsyms.c - a kallsyms file read as perf's dso__load_kallsyms reads it (see the
 * header for the rules).  The file is read line by line (/proc/kallsyms has no size to map);
 * every line kept becomes an entry, sorted by address with the file's order among equal
 * addresses (perf's symbol tree), then the ends, the duplicates and the move are worked out
 * in passes over the sorted array, as perf does them over its tree. */
#include "common/perf/perf_kallsyms.h"
#include "core/consumer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ks_entry {
    uint64_t start, end;
    size_t name; /* offset in the names buffer: "name" or "name\t[module]" */
    size_t order;
    char type;
    bool module;
    bool dropped;
} ks_entry;

typedef struct ks_load {
    ks_entry *v;
    size_t n, cap;
    char *names;
    size_t names_len, names_cap;
} ks_load;

/* perf's symbol_type__filter: functions and data, not the read-only or absolute ones */
static bool kept_type(char t)
{
    char u = (char)toupper((unsigned char)t);
    return u == 'T' || u == 'W' || u == 'D' || u == 'B' || t == 'u' || t == 'l';
}

static int add_line(ks_load *l, const char *line, size_t len)
{
    char *end;
    uint64_t addr = strtoull(line, &end, 16);
    if (end == line || (size_t)(end - line) + 3 > len || end[0] != ' ' || end[2] != ' ')
        return 0;
    char type = end[1];
    const char *name = end + 3;
    size_t nl = len - (size_t)(name - line);
    if (!kept_type(type) || nl == 0 || name[0] == '$')
        return 0;
    TG_TRY(tg_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v));
    TG_TRY(tg_grow(&l->names, &l->names_cap, l->names_len + nl + 1, 1));
    memcpy(l->names + l->names_len, name, nl);
    l->names[l->names_len + nl] = 0;
    l->v[l->n] =
        (ks_entry){addr, addr, l->names_len, l->n, type, memchr(name, '[', nl) != NULL, false};
    l->n++;
    l->names_len += nl + 1;
    return 0;
}

static int by_address(const void *a, const void *b)
{
    const ks_entry *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t roundup_page(uint64_t a) { return (a + 4095) & ~(uint64_t)4095; }

/* symbols__fixup_end */
static void fix_ends(ks_entry *v, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        ks_entry *prev = &v[i], *curr = &v[i + 1];
        if (prev->end != prev->start)
            continue;
        if (prev->module != curr->module) /* the last of the kernel's or a module's run */
            prev->end = roundup_page(prev->end + 4096);
        else
            prev->end = curr->start;
    }
    if (n && v[n - 1].end == v[n - 1].start)
        v[n - 1].end = roundup_page(v[n - 1].start) + 4096;
}

enum { KS_WEAK, KS_GLOBAL, KS_LOCAL };

static int binding(char type)
{
    return type == 'W' ? KS_WEAK : isupper((unsigned char)type) ? KS_GLOBAL : KS_LOCAL;
}

static size_t underscores(const char *s)
{
    size_t k = 0;
    while (s[k] == '_')
        k++;
    return k;
}

/* choose_best_symbol: true when a is kept over b */
static bool better(const ks_load *l, const ks_entry *a, const ks_entry *b)
{
    bool az = a->end == a->start, bz = b->end == b->start;
    if (az != bz)
        return bz;
    int ba = binding(a->type), bb = binding(b->type);
    if ((ba == KS_WEAK) != (bb == KS_WEAK))
        return bb == KS_WEAK;
    if ((ba == KS_GLOBAL) != (bb == KS_GLOBAL))
        return ba == KS_GLOBAL;
    const char *na = l->names + a->name, *nb = l->names + b->name;
    size_t ua = underscores(na), ub = underscores(nb);
    if (ua != ub)
        return ua < ub;
    size_t la = strlen(na), lb = strlen(nb);
    return la >= lb;
}

/* symbols__fixup_duplicate: one symbol per address */
static void drop_duplicates(ks_load *l)
{
    size_t keep = 0;
    for (size_t i = 1; i < l->n; i++) {
        ks_entry *a = &l->v[keep], *b = &l->v[i];
        if (a->start != b->start) {
            keep = i;
            continue;
        }
        if (better(l, a, b)) {
            b->dropped = true;
        } else {
            a->dropped = true;
            keep = i;
        }
    }
}

/* kallsyms__delta: where the file has the reference symbol (a function, or an alias) */
static bool reloc_delta(const ks_load *l, const char *name, uint64_t addr, uint64_t *delta)
{
    for (size_t i = 0; i < l->n; i++) { /* in the file's order: before the sort */
        const ks_entry *e = &l->v[i];
        char u = (char)toupper((unsigned char)e->type);
        if ((u == 'T' || u == 'W' || e->type == 'A') && strcmp(l->names + e->name, name) == 0) {
            *delta = e->start - addr;
            return true;
        }
    }
    return false;
}

/* The kept kernel symbols, moved, into k. */
static int take(perf_kallsyms *k, ks_load *l, uint64_t delta)
{
    size_t n = 0, bytes = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].dropped && !l->v[i].module) {
            n++;
            bytes += strlen(l->names + l->v[i].name) + 1;
        }
    if (!n)
        return 0;
    k->v = calloc(n, sizeof *k->v);
    k->names = malloc(bytes);
    if (!k->v || !k->names)
        return TG_ERR_NOMEM;
    size_t off = 0;
    for (size_t i = 0; i < l->n; i++) {
        const ks_entry *e = &l->v[i];
        if (e->dropped || e->module)
            continue;
        size_t len = strlen(l->names + e->name) + 1;
        memcpy(k->names + off, l->names + e->name, len);
        k->v[k->n++] = (ps_sym){e->start - delta, e->end - delta, k->names + off};
        off += len;
    }
    k->start = k->v[0].start;
    k->end = k->v[k->n - 1].end;
    return 1;
}

int perf_kallsyms_load(perf_kallsyms *k, const char *path, const char *reloc_name,
                       uint64_t reloc_addr)
{
    memset(k, 0, sizeof *k);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    ks_load l = {0};
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t got;
    int rc = 0;
    while (rc == 0 && (got = getline(&line, &line_cap, f)) > 0) {
        size_t len = (size_t)got;
        if (line[len - 1] == '\n')
            len--;
        rc = add_line(&l, line, len);
    }
    free(line);
    fclose(f);
    uint64_t delta = 0;
    bool found = rc == 0 && (!reloc_name || reloc_delta(&l, reloc_name, reloc_addr, &delta));
    if (found) { /* without the reference symbol perf loads nothing */
        if (l.n)
            qsort(l.v, l.n, sizeof *l.v, by_address);
        fix_ends(l.v, l.n);
        drop_duplicates(&l);
        rc = take(k, &l, delta);
    }
    free(l.v);
    free(l.names);
    if (rc == 1)
        return 1;
    perf_kallsyms_free(k);
    return rc == TG_ERR_NOMEM ? rc : 0;
}

const ps_sym *perf_kallsyms_find(const perf_kallsyms *k, uint64_t addr)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->v[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const ps_sym *s = &k->v[lo - 1];
    return addr < s->end ? s : NULL;
}

void perf_kallsyms_free(perf_kallsyms *k)
{
    free(k->v);
    free(k->names);
    memset(k, 0, sizeof *k);
}

size_t perf_running_kernel_build_id(uint8_t id[20])
{
    FILE *f = fopen("/sys/kernel/notes", "rb");
    if (!f)
        return 0;
    uint8_t buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    /* ELF notes in the kernel's byte order: namesz, descsz, type, name, desc (4-aligned) */
    size_t pos = 0;
    while (pos + 12 <= n) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, buf + pos, 4);
        memcpy(&descsz, buf + pos + 4, 4);
        memcpy(&type, buf + pos + 8, 4);
        size_t name_at = pos + 12, desc_at = name_at + ((namesz + 3u) & ~3u);
        if (namesz > n || descsz > n || desc_at + descsz > n)
            return 0;
        if (type == 3 && namesz == 4 && memcmp(buf + name_at, "GNU", 4) == 0) {
            size_t len = descsz < 20 ? descsz : 20;
            memcpy(id, buf + desc_at, len);
            return len;
        }
        pos = desc_at + ((descsz + 3u) & ~3u);
    }
    return 0;
}
