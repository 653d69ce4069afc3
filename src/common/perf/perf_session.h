/* perf_session.h - what perf's session knows while it delivers events: threads and maps.
 *
 * perf script and perf report name a sample's thread and shared object from the records
 * delivered before it: COMM names a thread, FORK gives the child its parent's name (and, for
 * a new process, a copy of the parent's maps), MMAP/MMAP2 add a map to a process (pid -1:
 * the kernel's; executable memory without a file is named "/tmp/perf-PID.map", the JIT
 * symbol file perf looks for).  A thread never named is ":TID", as perf's thread__new names it.  The
 * session is fed every event in delivery order (perf_session_update) and answers the
 * printers' questions (the thread's name, the map holding an address).  The kernel's map
 * also says where the recording saw the kernel and which build id the kernel had (what
 * perf_symbols needs to find and move its kallsyms). */
#ifndef TG_PERF_SESSION_H
#define TG_PERF_SESSION_H

#include "core/consumer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ps_map {
    uint64_t start, end, pgoff;
    const char *dso; /* perf's dso name: the path, "[kernel.kallsyms]", "[module]" */
    bool identity;   /* memory without a file (//anon, [heap], ...): addresses are the ip's */
} ps_map;

/* The address perf shows for ip in map m (NULL: none): relative to the mapped file, or the
 * ip itself in memory without a file. */
static inline uint64_t perf_map_addr(const ps_map *m, uint64_t ip)
{
    return m && !m->identity ? ip - m->start + m->pgoff : ip;
}

typedef struct ps_maps {
    ps_map *v;
    size_t n, cap;
} ps_maps;

typedef struct ps_thread {
    int32_t pid, tid;
    char comm[32];
} ps_thread;

typedef struct perf_session {
    ps_thread *threads;
    size_t n_threads, cap_threads;
    tg_hash thread_of; /* tid -> index into threads */
    ps_maps *procs;
    size_t n_procs, cap_procs;
    tg_hash proc_of; /* pid -> index into procs */
    ps_maps kernel;
    char **names; /* dso names (owned) */
    size_t n_names, cap_names;
    uint64_t maps_version; /* changes whenever a map is added (what was found may change) */
    /* the kernel's map as the recording saw it: the reference symbol its MMAP names
     * ("[kernel.kallsyms]_text": "_text", empty when none) at its pgoff, and the build id
     * the file recorded for [kernel.kallsyms] (size 0: none) */
    char kernel_reloc[64];
    uint64_t kernel_reloc_addr;
    uint8_t kernel_build_id[20];
    size_t kernel_build_id_size;
    bool nomem;
} perf_session;

void perf_session_free(perf_session *s);
/* Feeds one event (a PERF_RECORD_* event changes the state; samples do not). */
void perf_session_update(perf_session *s, const tg_event *ev);
/* The thread tid of process pid, made as perf's findnew makes it; NULL when out of memory. */
ps_thread *perf_session_thread(perf_session *s, int32_t pid, int32_t tid);
/* The map holding addr in process pid (kernel: the kernel's maps), or NULL. */
const ps_map *perf_session_map(const perf_session *s, int32_t pid, bool kernel, uint64_t addr);

#endif
