/* perf_session.c - threads and maps as perf's machine builds them from the records.
 *
 * Each process's maps are kept in the order they were added; a look-up takes the newest map
 * holding the address, which is what perf's maps__fixup_overlappings leaves (an older map
 * cut around a newer one keeps its own offset for the parts left).  Names of shared objects
 * are those perf prints: the mapped file's path, "[kernel.kallsyms]" for the kernel text and
 * "[name]" for a kernel module (its file name without ".ko", '-' as '_'). */
#include "common/perf/perf_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void maps_free(ps_maps *m) { free(m->v); }

void perf_session_free(perf_session *s)
{
    for (size_t i = 0; i < s->n_procs; i++)
        maps_free(&s->procs[i]);
    free(s->procs);
    maps_free(&s->kernel);
    free(s->threads);
    for (size_t i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    tg_hash_free(&s->thread_of);
    tg_hash_free(&s->proc_of);
    memset(s, 0, sizeof *s);
}

ps_thread *perf_session_thread(perf_session *s, int32_t pid, int32_t tid)
{
    uint64_t *v = tg_hash_find(&s->thread_of, (uint32_t)tid);
    if (v) {
        ps_thread *t = &s->threads[*v];
        if (t->pid == -1 && pid != -1)
            t->pid = pid;
        return t;
    }
    if (tg_grow(&s->threads, &s->cap_threads, s->n_threads + 1, sizeof *s->threads) < 0 ||
        tg_hash_insert(&s->thread_of, (uint32_t)tid, &v) < 0) {
        s->nomem = true;
        return NULL;
    }
    *v = s->n_threads;
    ps_thread *t = &s->threads[s->n_threads++];
    t->pid = pid;
    t->tid = tid;
    snprintf(t->comm, sizeof t->comm, ":%d", (int)tid);
    return t;
}

static ps_maps *proc_maps(perf_session *s, int32_t pid, bool make)
{
    uint64_t *v = tg_hash_find(&s->proc_of, (uint32_t)pid);
    if (v)
        return &s->procs[*v];
    if (!make)
        return NULL;
    if (tg_grow(&s->procs, &s->cap_procs, s->n_procs + 1, sizeof *s->procs) < 0 ||
        tg_hash_insert(&s->proc_of, (uint32_t)pid, &v) < 0) {
        s->nomem = true;
        return NULL;
    }
    *v = s->n_procs;
    ps_maps *m = &s->procs[s->n_procs++];
    memset(m, 0, sizeof *m);
    return m;
}

static int maps_add(ps_maps *m, const ps_map *map)
{
    TG_TRY(tg_grow(&m->v, &m->cap, m->n + 1, sizeof *m->v));
    m->v[m->n++] = *map;
    return 0;
}

/* perf's name of the object a map holds. */
static const char *dso_name(perf_session *s, const char *file, size_t len)
{
    char buf[4096];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, file, len);
    buf[len] = 0;
    if (strncmp(buf, "[kernel.kallsyms]", 17) == 0)
        buf[17] = 0;
    else if (buf[0] == '/' && strstr(buf, ".ko")) {
        const char *base = strrchr(buf, '/') + 1;
        size_t n = (size_t)(strstr(base, ".ko") - base);
        char mod[256];
        if (n > sizeof mod - 3)
            n = sizeof mod - 3;
        mod[0] = '[';
        for (size_t i = 0; i < n; i++)
            mod[1 + i] = base[i] == '-' ? '_' : base[i];
        mod[1 + n] = ']';
        mod[2 + n] = 0;
        snprintf(buf, sizeof buf, "%s", mod);
    }
    for (size_t i = s->n_names; i-- > 0;)
        if (strcmp(s->names[i], buf) == 0)
            return s->names[i];
    char *copy = strdup(buf);
    if (!copy || tg_grow(&s->names, &s->cap_names, s->n_names + 1, sizeof *s->names) < 0) {
        free(copy);
        s->nomem = true;
        return NULL;
    }
    s->names[s->n_names++] = copy;
    return copy;
}

static bool field_u64(const tg_event *ev, const char *name, uint64_t *v)
{
    tg_value val;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, name, &val) < 0)
        return false;
    *v = val.type == TG_VAL_SINT ? (uint64_t)val.v.s : val.v.u;
    return true;
}

/* The kernel's MMAP: its reference symbol (the name after "[kernel.kallsyms]") and the
 * build id the trace recorded for the kernel. */
static void kernel_map_seen(perf_session *s, const tg_event *ev, const char *reloc, size_t len,
                            uint64_t addr)
{
    if (len >= sizeof s->kernel_reloc)
        len = 0;
    memcpy(s->kernel_reloc, reloc, len);
    s->kernel_reloc[len] = 0;
    s->kernel_reloc_addr = addr;
    const tg_build_id_info *b = tg_trace_build_id_find(tg_event_trace(ev), "[kernel.kallsyms]");
    s->kernel_build_id_size = b ? b->size : 0;
    if (b)
        memcpy(s->kernel_build_id, b->id, b->size);
}

static void on_mmap(perf_session *s, const tg_event *ev)
{
    uint64_t pid, addr, len, pgoff;
    tg_value file;
    if (!field_u64(ev, "pid", &pid) || !field_u64(ev, "addr", &addr) ||
        !field_u64(ev, "len", &len) || !field_u64(ev, "pgoff", &pgoff) ||
        tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "filename", &file) < 0 ||
        file.type != TG_VAL_STRING)
        return;
    /* map__new: anonymous memory and memory of no file map addresses to themselves, and
     * the executable ones are named after the process's JIT symbol file */
    const char *fn = file.v.str.ptr;
    size_t fl = file.v.str.len;
    bool anon = (fl == 6 && memcmp(fn, "//anon", 6) == 0) ||
                (fl >= 9 && memcmp(fn, "/dev/zero", 9) == 0) ||
                (fl >= 14 && memcmp(fn, "/anon_hugepage", 14) == 0);
    bool no_dso = (fl >= 6 && memcmp(fn, "[stack", 6) == 0) ||
                  (fl >= 5 && memcmp(fn, "/SYSV", 5) == 0) ||
                  (fl == 6 && memcmp(fn, "[heap]", 6) == 0);
    uint64_t prot = 4; /* PROT_EXEC: what perf assumes of an MMAP record's code map */
    field_u64(ev, "prot", &prot);
    char jit[32];
    if ((anon || no_dso) && (prot & 4)) {
        snprintf(jit, sizeof jit, "/tmp/perf-%d.map", (int)(int32_t)pid);
        fn = jit;
        fl = strlen(jit);
    }
    ps_map m = {addr, addr + len, pgoff, dso_name(s, fn, fl), anon || no_dso};
    if (!m.dso)
        return;
    bool kernel = (uint32_t)pid == UINT32_MAX;
    if (kernel && strcmp(m.dso, "[kernel.kallsyms]") == 0) {
        m.end = UINT64_MAX; /* perf extends the kernel text map to the end (maps__fixup_end) */
        kernel_map_seen(s, ev, fn + 17, fl - 17, pgoff);
    }
    ps_maps *maps = kernel ? &s->kernel : proc_maps(s, (int32_t)pid, true);
    if (maps && maps_add(maps, &m) < 0)
        s->nomem = true;
}

static void on_comm(perf_session *s, const tg_event *ev)
{
    uint64_t pid, tid;
    tg_value comm;
    if (!field_u64(ev, "pid", &pid) || !field_u64(ev, "tid", &tid) ||
        tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "comm", &comm) < 0 ||
        comm.type != TG_VAL_STRING)
        return;
    ps_thread *t = perf_session_thread(s, (int32_t)pid, (int32_t)tid);
    if (!t)
        return;
    size_t n = comm.v.str.len < sizeof t->comm - 1 ? comm.v.str.len : sizeof t->comm - 1;
    memcpy(t->comm, comm.v.str.ptr, n);
    t->comm[n] = 0;
}

static void on_fork(perf_session *s, const tg_event *ev)
{
    uint64_t pid, ppid, tid, ptid;
    if (!field_u64(ev, "pid", &pid) || !field_u64(ev, "ppid", &ppid) ||
        !field_u64(ev, "tid", &tid) || !field_u64(ev, "ptid", &ptid))
        return;
    ps_thread *parent = perf_session_thread(s, (int32_t)ppid, (int32_t)ptid);
    char comm[32];
    if (!parent)
        return;
    memcpy(comm, parent->comm, sizeof comm);
    ps_thread *child = perf_session_thread(s, (int32_t)pid, (int32_t)tid);
    if (!child)
        return;
    if (comm[0] != ':')
        memcpy(child->comm, comm, sizeof comm);
    if (pid == ppid)
        return;
    /* a new process starts with a copy of its parent's maps */
    const ps_maps *from = proc_maps(s, (int32_t)ppid, false);
    if (!from || !from->n)
        return;
    size_t n = from->n;
    ps_maps *to = proc_maps(s, (int32_t)pid, true);
    from = proc_maps(s, (int32_t)ppid, false); /* the table may have moved */
    if (!to || !from)
        return;
    for (size_t i = 0; i < n; i++)
        if (maps_add(to, &from->v[i]) < 0) {
            s->nomem = true;
            return;
        }
}

void perf_session_update(perf_session *s, const tg_event *ev)
{
    const char *name = tg_event_name(ev);
    if (strncmp(name, "PERF_RECORD_", 12) != 0)
        return;
    name += 12;
    if (strcmp(name, "MMAP") == 0 || strcmp(name, "MMAP2") == 0) {
        on_mmap(s, ev);
        s->maps_version++;
    } else if (strcmp(name, "COMM") == 0) {
        on_comm(s, ev);
    } else if (strcmp(name, "FORK") == 0) {
        on_fork(s, ev);
        s->maps_version++;
    }
}

const ps_map *perf_session_map(const perf_session *s, int32_t pid, bool kernel, uint64_t addr)
{
    const ps_maps *m = &s->kernel;
    if (!kernel) {
        const uint64_t *v = tg_hash_find(&s->proc_of, (uint32_t)pid);
        if (!v)
            return NULL;
        m = &s->procs[*v];
    }
    for (size_t i = m->n; i-- > 0;)
        if (addr >= m->v[i].start && addr < m->v[i].end)
            return &m->v[i];
    return NULL;
}
