/* uftrace_session.c - sessions, tasks, memory maps and symbol files of a uftrace directory.
 *
 * task.txt says which session (memory map) each task used when: SESS lines open a session
 * for a pid (at exec), TASK/FORK lines name the threads and children, DLOP lines add a
 * library loaded later.  sid-<id>.map lists each module's address range; <module>.sym holds
 * its function symbols as offsets from the module's base, <module>.dbg the argument specs
 * DWARF gave (while the recording runs and no .sym is written, the module's ELF file names
 * its functions).  uft_module_load reads them once per module (the format's open calls it for
 * every module); uft_resolve then only reads the tables. */
#include "formats/uftrace/uftrace_internal.h"
#include "common/elf/elf_funcs.h"

#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define UFT_TEXT_MAX (64u << 20)
#define UFT_MAX_TASKS 1000000u

/* "1138.777235186" -> ns */
static int64_t parse_ts(const char *s)
{
    char *e;
    unsigned long long sec = strtoull(s, &e, 10);
    unsigned long long ns = 0;
    if (*e == '.') {
        const char *f = e + 1;
        int digits = 0;
        while (isdigit((unsigned char)*f) && digits < 9) {
            ns = ns * 10 + (unsigned)(*f - '0');
            f++;
            digits++;
        }
        while (digits++ < 9)
            ns *= 10;
    }
    return (int64_t)(sec * 1000000000ull + ns);
}

/* value of " key=" in a line (NULL when absent); quoted values lose their quotes in *len */
static const char *field(const char *line, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    const char *p = line;
    while ((p = strstr(p, key)) != NULL) {
        if ((p == line || p[-1] == ' ') && p[kl] == '=') {
            const char *v = p + kl + 1;
            if (*v == '"') {
                const char *q = strchr(v + 1, '"');
                if (!q)
                    q = v + strlen(v);
                *len = (size_t)(q - v - 1);
                return v + 1;
            }
            *len = strcspn(v, " \n");
            return v;
        }
        p += kl;
    }
    return NULL;
}

static const char *base_name(const char *path, size_t len, size_t *blen)
{
    const char *b = path;
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/')
            b = path + i + 1;
    *blen = (size_t)(path + len - b);
    return b;
}

/* The module of a path (plen bytes), by its base name: made at the first path naming it,
 * which it keeps as its path. */
static struct uft_module *module_get(tg_trace *t, struct uft_data *d, const char *path, size_t plen)
{
    size_t len;
    const char *name = base_name(path, plen, &len);
    for (size_t i = 0; i < d->n_modules; i++)
        if (strlen(d->modules[i]->name) == len && memcmp(d->modules[i]->name, name, len) == 0)
            return d->modules[i];
    if (tg_grow(&d->modules, &d->cap_modules, d->n_modules + 1, sizeof *d->modules) < 0)
        return NULL;
    struct uft_module *m = tg_arena_alloc(&t->arena, sizeof *m);
    if (!m)
        return NULL;
    m->path = tg_arena_strndup(&t->arena, path, plen);
    if (!m->path)
        return NULL;
    m->name = m->path + (name - path); /* the base name ends the path */
    tg_symtab_init(&m->syms);
    d->modules[d->n_modules++] = m;
    return m;
}

/* ---- sid-<id>.map ------------------------------------------------------------------------ */

static int read_map(tg_trace *t, struct uft_data *d, struct uft_session *s, tg_error **err)
{
    char name[64];
    snprintf(name, sizeof name, "sid-%s.map", s->sid);
    char *path = tg_path_join(d->dir, name);
    char *text = NULL;
    size_t len = 0;
    struct stat st;
    if (path && d->growing && (stat(path, &st) != 0 || st.st_size == 0)) {
        /* uftrace writes the map at the session's start and again (truncated first) when
         * the recording ends: not there or empty, it is being written */
        int rc = tg_err_at(err, TG_ERR_FORMAT, path, 0,
                           "empty or missing session map: uftrace is writing it");
        free(path);
        return rc;
    }
    if (path && stat(path, &st) != 0 && errno == ENOENT) {
        /* no map: the session's addresses stay unnamed; what the directory says besides
         * (info, tasks, records) is still read, as `uftrace info` reads it, and what uftrace
         * refuses without it refuses with uftrace's words */
        char why[4200];
        snprintf(why, sizeof why, "cannot open maps file: %s: No such file or directory", path);
        tg_trace_set_symbols_missing(t, why);
        free(path);
        return 0;
    }
    int rc = path ? tg_read_text_file(path, UFT_TEXT_MAX, &text, &len, err)
                  : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        free(path);
        return rc;
    }
    size_t n_lines = 1;
    for (size_t i = 0; i < len; i++)
        n_lines += text[i] == '\n';
    s->maps = tg_arena_alloc(&t->arena, n_lines * sizeof *s->maps);
    if (!s->maps) {
        free(text);
        free(path);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    char *line = text;
    size_t lineno = 0;
    while (line < text + len) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        unsigned long long start, end;
        char perms[8];
        int off = 0;
        if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &start, &end, perms, &off) >= 3 &&
            off > 0) {
            const char *p = line + off;
            size_t plen = strcspn(p, " ");
            if (plen && p[0] != '[') {
                struct uft_map *prev = s->n_maps ? &s->maps[s->n_maps - 1] : NULL;
                struct uft_module *m = module_get(t, d, p, plen);
                if (!m) {
                    free(text);
                    free(path);
                    return tg_err(err, TG_ERR_NOMEM, "out of memory");
                }
                if (prev && prev->mod == m && prev->end <= start) {
                    prev->end = end; /* further segments of the same module */
                } else if (perms[2] == 'x' || !prev || prev->mod != m) {
                    s->maps[s->n_maps].start = start;
                    s->maps[s->n_maps].end = end;
                    s->maps[s->n_maps].mod = m;
                    s->n_maps++;
                }
            }
        } else if (line[0]) {
            rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(line - text),
                           "line %zu: expected \"START-END PERMS OFFSET DEV INODE PATH\"", lineno);
            free(text);
            free(path);
            return rc;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    free(path);
    return 0;
}

/* ---- task.txt ---------------------------------------------------------------------------- */

struct uft_task *uft_task_find(const struct uft_data *d, int tid)
{
    for (size_t i = 0; i < d->n_tasks; i++)
        if (d->tasks[i].tid == tid)
            return &d->tasks[i];
    return NULL;
}

static int read_tids(tg_trace *t, struct uft_data *d, tg_error **err)
{
    size_t len;
    const char *v = uft_info_get(d, "taskinfo:tids", &len);
    if (!v)
        return 0;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += v[i] == ',';
    if (n > UFT_MAX_TASKS)
        return tg_err(err, TG_ERR_LIMIT, "%s/info: %zu tasks exceed the limit", d->dir, n);
    d->tasks = tg_arena_alloc(&t->arena, n * sizeof *d->tasks);
    if (!d->tasks)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const char *p = v, *end = v + len;
    while (p < end) {
        char *e;
        long tid = strtol(p, &e, 10);
        if (e == p)
            break;
        struct uft_task *tk = &d->tasks[d->n_tasks++];
        tk->tid = (int)tid;
        tk->pid = (int)tid;
        tk->ppid = -1;
        p = e;
        while (p < end && (*p == ',' || *p == ' '))
            p++;
    }
    return 0;
}

int uft_sessions_read(tg_trace *t, struct uft_data *d, tg_error **err)
{
    TG_TRY(read_tids(t, d, err));
    char *path = tg_path_join(d->dir, "task.txt");
    char *text = NULL;
    size_t len = 0;
    int rc = path ? tg_read_text_file(path, UFT_TEXT_MAX, &text, &len, err)
                  : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        free(path);
        return rc;
    }
    size_t n_lines = 1;
    for (size_t i = 0; i < len; i++)
        n_lines += text[i] == '\n';
    d->sessions = tg_arena_alloc(&t->arena, n_lines * sizeof *d->sessions);
    d->dlopens = tg_arena_alloc(&t->arena, n_lines * sizeof *d->dlopens);
    if (d->growing) /* no info: the TASK and FORK lines list the tasks */
        d->tasks = tg_arena_alloc(&t->arena, n_lines * sizeof *d->tasks);
    if (!d->sessions || !d->dlopens || (d->growing && !d->tasks)) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto out;
    }
    char *line = text;
    size_t lineno = 0;
    while (line < text + len) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        size_t l1, l2;
        const char *ts = field(line, "timestamp", &l1);
        if (!strncmp(line, "SESS ", 5)) {
            const char *pid = field(line, "pid", &l2);
            size_t ls, le = 0;
            const char *sid = field(line, "sid", &ls);
            const char *exe = field(line, "exename", &le);
            bool sid_ok = sid && ls > 0 && ls <= 32;
            for (size_t k = 0; sid_ok && k < ls; k++) /* it names a file: hex digits only */
                sid_ok = (sid[k] >= '0' && sid[k] <= '9') || (sid[k] >= 'a' && sid[k] <= 'f') ||
                         (sid[k] >= 'A' && sid[k] <= 'F');
            if (!ts || !pid || !sid_ok) {
                rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(line - text),
                               "line %zu: SESS line without timestamp, pid or a hex sid", lineno);
                goto out;
            }
            struct uft_session *s = &d->sessions[d->n_sessions++];
            s->ts = parse_ts(ts);
            s->pid = atoi(pid);
            s->sid = tg_arena_strndup(&t->arena, sid, ls);
            s->exename = exe ? tg_arena_strndup(&t->arena, exe, le) : "";
            rc = read_map(t, d, s, err);
            if (rc < 0)
                goto out;
        } else if (!strncmp(line, "TASK ", 5) || !strncmp(line, "FORK ", 5)) {
            bool fork = line[0] == 'F';
            const char *tid = field(line, fork ? "pid" : "tid", &l2);
            if (!ts || !tid) {
                rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(line - text),
                               "line %zu: %.4s line without timestamp or tid", lineno, line);
                goto out;
            }
            struct uft_task *tk = uft_task_find(d, atoi(tid));
            if (!tk && d->growing) {
                tk = &d->tasks[d->n_tasks++];
                memset(tk, 0, sizeof *tk);
                tk->tid = atoi(tid);
                tk->pid = tk->tid;
                tk->ppid = -1;
            }
            if (tk) {
                size_t lp;
                const char *pid = field(line, fork ? "pid" : "pid", &lp);
                const char *ppid = fork ? field(line, "ppid", &lp) : NULL;
                tk->ts = parse_ts(ts);
                tk->forked = fork;
                if (pid)
                    tk->pid = atoi(pid);
                if (ppid)
                    tk->ppid = atoi(ppid);
            }
        } else if (!strncmp(line, "DLOP ", 5)) {
            size_t lb, ll;
            const char *tid = field(line, "tid", &l2);
            const char *base = field(line, "base", &lb);
            const char *lib = field(line, "libname", &ll);
            if (ts && base && lib) {
                struct uft_dlopen *dl = &d->dlopens[d->n_dlopens++];
                dl->ts = parse_ts(ts);
                dl->pid = tid ? atoi(tid) : -1;
                dl->base = strtoull(base, NULL, 16);
                dl->mod = module_get(t, d, lib, ll);
                if (!dl->mod) {
                    rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
                    goto out;
                }
            }
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    if (d->n_sessions == 0)
        rc = tg_err_at(err, TG_ERR_FORMAT, path, 0, "no SESS line: no session to resolve symbols");
    /* default comm: the session's program name, as uftrace shows it without perf data */
    for (size_t i = 0; i < d->n_tasks && rc >= 0; i++) {
        struct uft_task *tk = &d->tasks[i];
        const struct uft_session *s = NULL;
        for (size_t k = 0; k < d->n_sessions; k++)
            if (d->sessions[k].pid == tk->pid && (!s || d->sessions[k].ts <= tk->ts))
                s = &d->sessions[k];
        if (!s && tk->ppid >= 0)
            for (size_t k = 0; k < d->n_sessions; k++)
                if (d->sessions[k].pid == tk->ppid)
                    s = &d->sessions[k];
        if (!s)
            s = &d->sessions[0];
        size_t bl;
        const char *b = base_name(s->exename, strlen(s->exename), &bl);
        if (bl > 15)
            bl = 15;
        memcpy(tk->comm, b, bl);
        tk->comm[bl] = 0;
    }
out:
    free(text);
    free(path);
    return rc;
}

/* ---- symbol files ------------------------------------------------------------------------ */

struct raw_sym {
    uint64_t addr;
    uint64_t size; /* uftrace >= 0.14 writes it; 0: up to the next symbol */
    char type;
    const char *name;
    size_t name_len;
    size_t order;
};

static int cmp_raw(const void *a, const void *b)
{
    const struct raw_sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Every symbol uftrace wrote but its end markers ('?': __sym_end, __dynsym_end, ...):
 * functions name records, data symbols name pointer arguments (&_IO_stdin_used). */
static bool is_func_type(char c) { return c != '?'; }

/* One symbol line as uftrace writes it: "ADDRESS TYPE NAME", or since uftrace 0.14
 * "ADDRESS SIZE TYPE NAME" (hex, the size in 8 digits); the name may be empty (PLT entries
 * without one: "00000000000210e0 P ").  False for a damaged line, which uftrace skips. */
static bool sym_line(char *line, struct raw_sym *out)
{
    char *e;
    out->addr = strtoull(line, &e, 16);
    if (e == line || e[0] != ' ')
        return false;
    char *p = e + 1;
    out->size = 0;
    if (p[0] && p[1] && p[1] != ' ') { /* a size column before the type */
        out->size = strtoull(p, &e, 16);
        if (e == p || e[0] != ' ')
            return false;
        p = e + 1;
    }
    if (!p[0] || p[0] == ' ' || (p[1] != ' ' && p[1] != 0))
        return false;
    if (p[1] == 0) /* no space after the type: uftrace skips the line */
        return false;
    out->type = p[0];
    out->name = p + 2;
    out->name_len = strcspn(p + 2, "\t\r"); /* kallsyms: "\t[module]" follows */
    return true;
}

int uft_symfile_load(tg_trace *t, tg_symtab *syms, const char *path, tg_error **err)
{
    char *text = NULL;
    size_t len = 0;
    TG_TRY(tg_read_text_file(path, UFT_TEXT_MAX, &text, &len, err));
    size_t n_lines = 1;
    for (size_t i = 0; i < len; i++)
        n_lines += text[i] == '\n';
    struct raw_sym *raw = malloc(n_lines * sizeof *raw);
    if (!raw) {
        free(text);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    size_t n = 0, lineno = 0, damaged = 0, first_damaged = 0;
    char *line = text;
    int rc = 0;
    while (line < text + len) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (nl)
            *nl = 0;
        lineno++;
        if (line[0] && line[0] != '#') {
            if (sym_line(line, &raw[n])) {
                raw[n].order = n;
                n++;
            } else if (!damaged++) {
                first_damaged = lineno;
            }
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    if (damaged)
        tg_trace_warn(t,
                      "%s: line %zu: expected \"ADDRESS [SIZE] TYPE NAME\": %zu damaged line%s "
                      "skipped (the symbol%s lost, not the trace)",
                      path, first_damaged, damaged, damaged > 1 ? "s" : "", damaged > 1 ? "s" : "");
    if (rc >= 0) {
        qsort(raw, n, sizeof *raw, cmp_raw);
        uint64_t last_addr = UINT64_MAX;
        for (size_t i = 0; i < n && rc >= 0; i++) {
            if (!is_func_type(raw[i].type) || raw[i].addr == last_addr)
                continue;
            last_addr = raw[i].addr;
            uint64_t size = raw[i].size;
            for (size_t k = i + 1; k < n && !size; k++)
                if (raw[k].addr > raw[i].addr) {
                    size = raw[k].addr - raw[i].addr;
                    break;
                }
            char *name = tg_arena_strndup(&t->arena, raw[i].name, raw[i].name_len);
            const char *shown = name ? uft_demangle(&t->arena, name) : NULL;
            if (!shown || tg_symtab_add(syms, raw[i].addr, size ? size : 1, shown, raw[i].type) < 0)
                rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
        tg_symtab_sort(syms);
    }
    free(raw);
    free(text);
    return rc;
}

static int load_dbg(tg_trace *t, struct uft_data *d, struct uft_module *m, const char *path,
                    tg_error **err)
{
    char *text = NULL;
    size_t len = 0;
    TG_TRY(tg_read_text_file(path, UFT_TEXT_MAX, &text, &len, err));
    size_t n_f = 0;
    for (size_t i = 0; i + 1 < len; i++)
        n_f += (i == 0 || text[i - 1] == '\n') && text[i] == 'F' && text[i + 1] == ':';
    m->dbg = n_f ? tg_arena_alloc(&t->arena, n_f * sizeof *m->dbg) : NULL;
    if (n_f && !m->dbg) {
        free(text);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    struct uft_dbg_func *cur = NULL;
    char *line = text;
    size_t lineno = 0;
    int rc = 0;
    while (line < text + len && rc >= 0) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (nl)
            *nl = 0;
        lineno++;
        if (line[0] == 'F' && line[1] == ':') {
            char *e;
            unsigned long long off = strtoull(line + 2, &e, 16);
            if (e == line + 2 || m->n_dbg >= n_f) {
                rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(line - text),
                               "line %zu: expected \"F: OFFSET NAME\"", lineno);
                break;
            }
            cur = &m->dbg[m->n_dbg++];
            cur->offset = off;
        } else if ((line[0] == 'A' || line[0] == 'R') && line[1] == ':' && cur) {
            const char *s = line + 2;
            while (*s == ' ')
                s++;
            struct uft_argspec tmp = {0};
            rc = uft_argspec_parse(t, d, s, strlen(s), &tmp);
            if (rc < 0) {
                rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(line - text),
                               "line %zu: bad argument spec \"%s\"", lineno, s);
                break;
            }
            if (line[0] == 'A') {
                cur->spec.args = tmp.args;
                cur->spec.n_args = tmp.n_args;
            } else if (tmp.has_ret) {
                cur->spec.has_ret = true;
                cur->spec.ret = tmp.ret;
            }
        } else if (line[0] == 'E' && line[1] == ':') {
            uft_enums_parse(t, d, line + 2, strlen(line + 2));
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    return rc;
}

int uft_module_load(tg_trace *t, struct uft_data *d, struct uft_module *m, tg_error **err)
{
    if (m->loaded)
        return 0;
    m->loaded = true;
    size_t nl = strlen(m->name);
    char *name = malloc(nl + 5);
    if (!name)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    memcpy(name, m->name, nl);
    memcpy(name + nl, ".sym", 5);
    char *path = tg_path_join(d->dir, name);
    int rc = 0;
    if (d->growing) { /* a .sym seen now may be half written: uftrace is ending */
        rc = uft_elf_symbols_load(t, m, err);
    } else if (path && tg_probe_dir_has(d->dir, name)) {
        rc = uft_symfile_load(t, &m->syms, path, err);
        m->has_syms = rc >= 0;
    }
    free(path);
    memcpy(name + nl, ".dbg", 5);
    path = tg_path_join(d->dir, name);
    if (rc >= 0 && path && tg_probe_dir_has(d->dir, name))
        rc = load_dbg(t, d, m, path, err);
    free(path);
    free(name);
    return rc;
}

/* ---- a module's ELF file, while its .sym is not written ----------------------------------- */

struct elf_fill {
    tg_trace *t;
    struct uft_module *m;
};

static int add_elf_func(void *ctx, const tg_elf_func *f)
{
    struct elf_fill *w = ctx;
    char *name = tg_arena_strdup(&w->t->arena, f->name);
    const char *shown = name ? uft_demangle(&w->t->arena, name) : NULL;
    if (!shown)
        return -1;
    return tg_symtab_add(&w->m->syms, f->addr, f->size ? f->size : 1, shown, f->plt ? 'P' : 'T');
}

/* The functions and PLT entries of the module's file (the path the map gave), as uftrace
 * writes them to <module>.sym when the recording ends. */
int uft_elf_symbols_load(tg_trace *t, struct uft_module *m, tg_error **err)
{
    struct elf_fill w = {t, m};
    if (tg_elf_funcs_read(m->path, TG_ELF_FUNCS_PLT, add_elf_func, &w) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_symtab_sort(&m->syms);
    m->has_syms = m->syms.n > 0;
    return 0;
}

/* ---- address resolution ------------------------------------------------------------------ */

static const struct uft_session *session_of_pid(const struct uft_data *d, int pid, int64_t ts)
{
    const struct uft_session *best = NULL, *earliest = NULL;
    for (size_t k = 0; k < d->n_sessions; k++) {
        const struct uft_session *s = &d->sessions[k];
        if (s->pid != pid)
            continue;
        if (s->ts <= ts && (!best || s->ts >= best->ts))
            best = s;
        if (!earliest || s->ts < earliest->ts)
            earliest = s;
    }
    return best ? best : earliest;
}

/* The session whose memory map a task used at time ts: its process's latest session
 * started before ts, else its parent's (a forked child shares the parent's map). */
static const struct uft_session *session_for(const struct uft_data *d, int tid, int64_t ts)
{
    const struct uft_task *tk = uft_task_find(d, tid);
    const struct uft_session *s = session_of_pid(d, tk ? tk->pid : tid, ts);
    for (int hops = 0; !s && tk && tk->ppid >= 0 && hops < 16; hops++) {
        s = session_of_pid(d, tk->ppid, ts);
        if (!s)
            tk = uft_task_find(d, tk->ppid);
    }
    return s ? s : (d->n_sessions ? &d->sessions[0] : NULL);
}

const tg_symbol *uft_resolve(struct uft_data *d, tg_trace *t, int tid, int64_t ts, uint64_t addr,
                             struct uft_module **mod_out)
{
    const struct uft_session *s = session_for(d, tid, ts);
    if (mod_out)
        *mod_out = NULL;
    if (!s)
        return NULL;
    for (size_t i = 0; i < s->n_maps; i++) {
        const struct uft_map *mp = &s->maps[i];
        if (addr < mp->start || addr >= mp->end)
            continue;
        if (!mp->mod->loaded && uft_module_load(t, d, mp->mod, NULL) < 0)
            return NULL;
        if (mod_out)
            *mod_out = mp->mod;
        uint64_t off = (d->feat_mask & UFT_FEAT_SYM_REL_ADDR) ? addr - mp->start : addr;
        return tg_symtab_lookup(&mp->mod->syms, off);
    }
    for (size_t i = 0; i < d->n_dlopens; i++) {
        const struct uft_dlopen *dl = &d->dlopens[i];
        if (dl->ts > ts || addr < dl->base)
            continue;
        if (!dl->mod->loaded && uft_module_load(t, d, dl->mod, NULL) < 0)
            continue;
        const tg_symbol *sym = tg_symtab_lookup(&dl->mod->syms, addr - dl->base);
        if (sym) {
            if (mod_out)
                *mod_out = dl->mod;
            return sym;
        }
    }
    return NULL;
}
