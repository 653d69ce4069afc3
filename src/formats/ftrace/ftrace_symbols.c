/* ftrace_symbols.c - kallsyms, printk formats and saved cmdlines of a trace.dat file.
 *
 * trace-cmd prints symbols, trace_printk formats and task names the way libtraceevent looks
 * them up, and a byte-identical printer has to find the same entry: the kallsyms are the
 * trace's one symbol table (what tg_event_func_name and the analyses read too), sorted by
 * address with libtraceevent's insertion order kept among equal addresses, and a lookup is
 * libtraceevent's binary search ("addr lies in [this, next)").
 * The comm table is the one piece of mutable state: trace-cmd's sched plugin registers the
 * comm of tasks it sees in sched_switch/sched_wakeup, and later lines show them. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct sym_order {
    tg_symbol sym;
    size_t order;
} sym_order;

static int sym_order_cmp(const void *a, const void *b)
{
    const sym_order *x = a, *y = b;
    if (x->sym.addr != y->sym.addr)
        return x->sym.addr < y->sym.addr ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static inline int hexval(int c)
{
    unsigned d = (unsigned)c - '0';
    if (d < 10)
        return (int)d;
    d = ((unsigned)c | 0x20) - 'a';
    return d < 6 ? (int)d + 10 : -1;
}

/* The symbols go straight into the trace's symbol table (sized by the line count, one exact
 * allocation, no temporary copy): most kallsyms are in address order already. */
static int parse_text(ft_file *f, char *text, size_t len);

int ft_parse_kallsyms(ft_file *f, const char *text_in, size_t len)
{
    /* one copy of the text (one byte more); names are cut out of it in place */
    char *text = tg_arena_alloc(&f->trace->arena, len + 1);
    if (!text)
        return -1;
    memcpy(text, text_in, len);
    return parse_text(f, text, len);
}

int ft_parse_kallsyms_in_place(ft_file *f, char *text, size_t len)
{
    if (!len || text[len - 1] != '\n')
        return ft_parse_kallsyms(f, text, len);
    return parse_text(f, text, len);
}

/* libtraceevent prepends, so among equal addresses the order is reverse file order: in
 * address order already, only runs of equal addresses need turning round; else a sort. */
static int libtraceevent_order(tg_symbol *syms, size_t n)
{
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++)
        sorted = syms[i - 1].addr <= syms[i].addr;
    if (sorted) {
        for (size_t i = 0; i < n;) {
            size_t j = i + 1;
            while (j < n && syms[j].addr == syms[i].addr)
                j++;
            for (size_t a = i, b = j - 1; a < b; a++, b--) {
                tg_symbol t = syms[a];
                syms[a] = syms[b];
                syms[b] = t;
            }
            i = j;
        }
        return 0;
    }
    sym_order *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    for (size_t i = 0; i < n; i++)
        tmp[i] = (sym_order){syms[i], SIZE_MAX - i};
    qsort(tmp, n, sizeof *tmp, sym_order_cmp);
    for (size_t i = 0; i < n; i++)
        syms[i] = tmp[i].sym;
    free(tmp);
    return 0;
}

/* text: writable, with a byte after each name to cut it (NUL at its end).  One kallsyms per
 * file: it replaces what the table held. */
static int parse_text(ft_file *f, char *text, size_t len)
{
    tg_symtab *st = &f->trace->symbols;
    size_t cap = 1, n = 0;
    for (const char *q = text, *e = text + len; (q = memchr(q, '\n', (size_t)(e - q))); q++)
        cap++;
    st->n = 0;
    if (tg_grow(&st->syms, &st->cap, cap, sizeof *st->syms) < 0)
        return -1;
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        const char *q = p;
        uint64_t addr = 0;
        int d, nd = 0;
        while (q < le && (d = hexval((unsigned char)*q)) >= 0) {
            addr = addr << 4 | (uint64_t)d;
            q++;
            nd++;
        }
        if (nd && q + 3 < le + 1 && q < le && *q == ' ' && q + 2 < le && q[2] == ' ') {
            char ch = q[1];
            char *name = (char *)q + 3;
            /* the name ends at a '\t' (a module follows), a ' ' or the line end */
            char *ne = memchr(name, '\t', (size_t)(le - name));
            if (!ne)
                ne = le;
            char *sp = memchr(name, ' ', (size_t)(ne - name));
            if (sp)
                ne = sp;
            if (ne > name && name[0] != '$' && ch != 'A' && ch != 'a' && n < cap) {
                /* "\t[module]" to the line's end: the module, ended where the line ends */
                char *mod = ne < le && *ne == '\t' && ne[1] == '[' && le[-1] == ']' ? ne + 1 : NULL;
                int64_t module = 0;
                if (mod) {
                    *le = 0;
                    if ((module = tg_symtab_module_number(st, mod)) < 0)
                        return -1;
                }
                *ne = 0; /* ends the name: a '\t', ' ' or '\n' (or the copy's extra byte) */
                st->syms[n++] = (tg_symbol){addr, 0, name, ch, (uint32_t)module};
            }
        }
        p = le + 1;
    }
    if (libtraceevent_order(st->syms, n) < 0)
        return -1;
    st->n = n;
    st->sorted = 1;
    return 0;
}

/* libtraceevent's search: addr is a symbol's own, or lies between it and the next (the last
 * symbol matches only its own address). */
static const tg_symbol *search_func(const tg_symtab *st, uint64_t addr)
{
    size_t l = 0, u = st->n;
    while (l < u) {
        size_t idx = (l + u) / 2;
        const tg_symbol *b = &st->syms[idx];
        uint64_t next = idx + 1 < st->n ? b[1].addr : 0;
        if (addr == b->addr || (addr > b->addr && addr < next))
            return b;
        if (addr < b->addr)
            u = idx;
        else
            l = idx + 1;
    }
    return NULL;
}

/* The search, answered from f->func_hits when it answered the address before. */
const tg_symbol *ft_find_func(const ft_file *f, uint64_t addr)
{
    ft_file *m = (ft_file *)f; /* the hits are a cache: the file is otherwise read-only */
    const tg_symtab *st = &f->trace->symbols;
    if (m->func_hits_syms != st->syms || m->func_hits_n != st->n) {
        memset(m->func_hits, 0, sizeof m->func_hits);
        m->func_hits_syms = st->syms;
        m->func_hits_n = st->n;
    }
    struct ft_func_hit *h = &m->func_hits[(addr ^ (addr >> 9) ^ (addr >> 18)) % FT_FUNC_HITS];
    if (h->sym && h->addr == addr)
        return h->sym;
    const tg_symbol *sym = search_func(st, addr);
    if (sym) {
        h->addr = addr;
        h->sym = sym;
    }
    return sym;
}

static int printk_cmp(const void *a, const void *b)
{
    const ft_printk *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ft_parse_printk(ft_file *f, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    size_t cap = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *colon = memchr(p, ':', (size_t)(le - p));
        if (le > p && colon) {
            uint64_t addr = 0;
            const char *q = p;
            if (q + 1 < colon && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
                q += 2;
            int d;
            while (q < colon && (d = hexval((unsigned char)*q)) >= 0)
                addr = addr << 4 | (uint64_t)d, q++;
            const char *fs = colon + 1;
            if (fs < le)
                fs++; /* the space after ':' */
            if (fs < le && *fs == '"')
                fs++;
            const char *fe = le;
            if (fe > fs && fe[-1] == '"')
                fe--;
            if (fe - fs >= 2 && fe[-2] == '\\' && fe[-1] == 'n')
                fe -= 2;
            if (tg_grow(&f->printk, &cap, f->n_printk + 1, sizeof *f->printk) != 0)
                return -1;
            const char *s = tg_arena_strndup(&f->trace->arena, fs, fe > fs ? (size_t)(fe - fs) : 0);
            if (!s)
                return -1;
            f->printk[f->n_printk].addr = addr;
            f->printk[f->n_printk].fmt = s;
            f->n_printk++;
        } else if (le > p && !colon) {
            break; /* "printk format with empty entry": trace-cmd stops here */
        }
        p = le + 1;
    }
    if (f->n_printk)
        qsort(f->printk, f->n_printk, sizeof *f->printk, printk_cmp);
    return 0;
}

const char *ft_find_printk(const ft_file *f, uint64_t addr)
{
    size_t l = 0, u = f->n_printk;
    while (l < u) {
        size_t m = (l + u) / 2;
        if (f->printk[m].addr == addr)
            return f->printk[m].fmt;
        if (addr < f->printk[m].addr)
            u = m;
        else
            l = m + 1;
    }
    return NULL;
}

/* ---- comms --------------------------------------------------------------------------------
 * saved_cmdlines may name one pid twice.  libtraceevent keeps every line (newest first among
 * equal pids, after a stable sort by pid) and finds a pid with a plain binary search, so
 * which name a duplicated pid gets depends on where the search lands: the same array and the
 * same search are used here.
 * The sort happens at the first lookup of a non-zero pid (pid 0 is "<idle>" without one).
 * Until then a name the sched plugin registers joins the list like a saved cmdline, newest
 * first, even for a pid already listed (pid 0 included: it shifts where searches land);
 * after it only a pid not yet known is added, at its place in the order.  So the name a task
 * shows depends on whether the idle task's records came first (tests/ftrace/
 * build-comm-fixtures.py holds both cases). */

static long comm_find(const ft_file *f, int pid)
{
    size_t l = 0, u = f->n_comms;
    while (l < u) {
        size_t m = (l + u) / 2;
        if (pid < f->comms[m].pid)
            u = m;
        else if (pid > f->comms[m].pid)
            l = m + 1;
        else
            return (long)m;
    }
    return -1;
}

const char *ft_comm_of(const ft_file *f, int pid, size_t *len)
{
    ft_file *mf = (ft_file *)f; /* the lookup state and the hits change */
    struct ft_comm_hit *h = &mf->comm_hits[(unsigned)pid % FT_COMM_HITS];
    if (h->valid && h->pid == pid) {
        *len = h->len;
        return h->comm;
    }
    const char *c = "<...>";
    if (pid == 0) {
        c = "<idle>";
    } else {
        mf->comms_looked_up = true;
        long i = comm_find(f, pid);
        if (i >= 0)
            c = f->comms[i].comm;
    }
    *len = strlen(c);
    h->valid = true;
    h->pid = pid;
    h->comm = c;
    h->len = *len;
    return c;
}

static int comm_reserve(ft_file *f)
{
    if (f->n_comms < f->cap_comms)
        return 0;
    return tg_grow(&f->comms, &f->cap_comms, f->n_comms + 1, sizeof *f->comms) != 0 ? -1 : 0;
}

/* A name learnt while printing (the sched plugin): before the first lookup, always, in
 * front of the pid's other names; after it, only for a pid not known yet. */
void ft_comm_register(ft_file *f, int pid, const char *comm, size_t len)
{
    if (f->comms_looked_up && (pid == 0 || comm_find(f, pid) >= 0))
        return;
    if (comm_reserve(f) < 0)
        return;
    const char *s = tg_arena_strndup(&f->trace->arena, comm, len);
    if (!s)
        return;
    size_t i = 0, u = f->n_comms; /* before the first entry of this pid or a greater one */
    while (i < u) {
        size_t m = (i + u) / 2;
        if (f->comms[m].pid < pid)
            i = m + 1;
        else
            u = m;
    }
    memmove(&f->comms[i + 1], &f->comms[i], (f->n_comms - i) * sizeof *f->comms);
    f->comms[i].pid = pid;
    f->comms[i].comm = s;
    f->comms[i].len = strlen(s);
    f->n_comms++;
    memset(f->comm_hits, 0, sizeof f->comm_hits);
}

typedef struct comm_tmp {
    ft_comm c;
    size_t order;
} comm_tmp;

static int comm_tmp_cmp(const void *a, const void *b)
{
    const comm_tmp *x = a, *y = b;
    if (x->c.pid != y->c.pid)
        return x->c.pid < y->c.pid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int ft_parse_cmdlines(ft_file *f, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    comm_tmp *tmp = NULL;
    size_t n = 0, cap = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *q = p;
        int neg = 0;
        long pid = 0;
        while (q < le && (*q == ' ' || *q == '\t'))
            q++;
        if (q < le && *q == '-')
            neg = 1, q++;
        const char *ds = q;
        while (q < le && *q >= '0' && *q <= '9' && pid < 100000000)
            pid = pid * 10 + (*q++ - '0');
        if (q > ds) {
            while (q < le && (*q == ' ' || *q == '\t'))
                q++;
            if (q < le) {
                if (tg_grow(&tmp, &cap, n + 1, sizeof *tmp) != 0) {
                    free(tmp);
                    return -1;
                }
                const char *s = tg_arena_strndup(&f->trace->arena, q, (size_t)(le - q));
                if (!s) {
                    free(tmp);
                    return -1;
                }
                tmp[n].c.pid = (int32_t)(neg ? -pid : pid);
                tmp[n].c.comm = s;
                tmp[n].c.len = (size_t)(le - q);
                tmp[n].order = SIZE_MAX - n; /* registered by prepending: newest first */
                n++;
            }
        }
        p = le + 1;
    }
    if (n)
        qsort(tmp, n, sizeof *tmp, comm_tmp_cmp);
    for (size_t i = 0; i < n; i++) {
        if (comm_reserve(f) < 0) {
            free(tmp);
            return -1;
        }
        f->comms[f->n_comms++] = tmp[i].c;
    }
    free(tmp);
    memset(f->comm_hits, 0, sizeof f->comm_hits);
    return 0;
}
