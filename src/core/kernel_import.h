/* kernel_import.h - what the importer families of the kernel model share: the kernel events
 * (of any tracer: trace.dat, Perfetto's ftrace bundles, perf) that Perfetto's ftrace importers
 * turn into slices, counters and tracks of their own (a GPU's command batches, a socket's
 * states, a wakelock, a CPU's utilization), each family in its own file, read here by the
 * event's name and its fields by name.
 *
 * A family's tracks are keyed: the same key (a hash of what names the track: a device, a
 * socket, a wakelock's name) finds the same track in every pass, made at its first event in
 * the order of the events, as every track of the model.  A family's slices open and close on
 * those tracks (their depth kept per pass); a counter event may give several values. */
#ifndef TG_KERNEL_IMPORT_H
#define TG_KERNEL_IMPORT_H

#include "core/error_internal.h"
#include "core/kernel_internal.h"

#include <stdbool.h>
#include <stdint.h>

/* A family: the event names it reads (NULL-ended; member i is names[i]) and what one does. */
typedef struct km_importer {
    const char *const *names;
    int (*event)(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step);
} km_importer;

extern const km_importer km_import_kprobe, km_import_cma, km_import_wakesource, km_import_cpu_util,
    km_import_fs, km_import_net, km_import_adreno, km_import_v4l2, km_import_cros, km_import_drm,
    km_import_memory, km_import_gpu_freq, km_import_oom, km_import_virtio_video;

/* ---- fields, by name ---- */
/* The integer field name of ev in *out: true, or false when absent or not an integer. */
bool km_imp_int(const tg_event *ev, const char *name, int64_t *out);
/* The text field name of ev (*s, its length), 0 when absent or not text. */
size_t km_imp_text(const tg_event *ev, const char *name, const char **s);

/* ---- keys ---- */
/* A key of a family's state or track: a hash of its parts (FNV-1a). */
uint64_t km_imp_key(uint64_t seed, const void *bytes, size_t n);
static inline uint64_t km_imp_key_int(uint64_t seed, int64_t v)
{
    return km_imp_key(seed, &v, sizeof v);
}
/* A number a pass keeps under key (0 at first): its slot, valid until the next call; NULL
 * when out of memory. */
uint64_t *km_imp_slot(tg_kcursor *c, uint64_t key);
/* Forgets key's number. */
void km_imp_forget(tg_kcursor *c, uint64_t key);

/* ---- tracks ---- */
typedef struct km_imp_track {
    tg_ktrack_type type;   /* TG_KTRACK_GLOBAL, TG_KTRACK_CPU_COUNTER (cpu), ... */
    const char *type_name; /* Perfetto's track.type, NULL: by type */
    bool counter;
    int32_t cpu; /* -1 none */
    int64_t utid, upid;
    const char *unit;
} km_imp_how;
/* The track of key, made (named name, of length n) at its first use.  Its id, or
 * TG_ERR_NOMEM. */
int64_t km_imp_track(tg_kcursor *c, uint64_t key, const km_imp_how *how, const char *name,
                     size_t n);
/* The thread of tid now (made when the pass knows none): its utid, or TG_ERR_NOMEM. */
int64_t km_imp_utid_of_tid(tg_kcursor *c, int64_t tid);
/* The track of a thread's slices (its thread track), -1 unknown. */
int64_t km_imp_thread_track(tg_kcursor *c, int64_t utid);

/* ---- sets of tracks for overlapping slices (kernel_import_track_set.c) ---- */
/* The track of set (a key; its tracks made by how, named name) a slice begun by cookie at ts
 * goes on: the first free one.  Its id, -1 when the set is full, or TG_ERR_NOMEM. */
int64_t km_imp_set_begin(tg_kcursor *c, uint64_t set, uint64_t cookie, int64_t ts,
                         const km_imp_how *how, const char *name, size_t n);
/* The track cookie's slice is open on (and it is no longer): -1 when none is. */
int64_t km_imp_set_end(tg_kcursor *c, uint64_t set, uint64_t cookie, const km_imp_how *how,
                       const char *name, size_t n);
/* The track of set a slice from ts lasting dur goes on. */
int64_t km_imp_set_scoped(tg_kcursor *c, uint64_t set, int64_t ts, int64_t dur,
                          const km_imp_how *how, const char *name, size_t n);

/* ---- what the event does (into step) ---- */
/* A slice named name (kept once in the model) begins on track at ts. */
int km_imp_begin(tg_kcursor *c, tg_kstep *step, int64_t track, const char *name,
                 const char *category, int64_t ts);
/* The innermost slice open on track ends (nothing when none is open). */
void km_imp_end(tg_kcursor *c, tg_kstep *step, int64_t track);
/* A slice begins at begin_ts and lasts dur (an instant: 0). */
int km_imp_whole(tg_kcursor *c, tg_kstep *step, int64_t track, const char *name,
                 const char *category, int64_t begin_ts, int64_t dur);
/* A counter value on track (several per event: in the order given).  0 or TG_ERR_NOMEM. */
int km_imp_counter(tg_kcursor *c, tg_kstep *step, int64_t track, double value);
/* An arg of the slice that begins or ends here, or of the counter values (key: a static
 * string); text is kept in the model.  0 or TG_ERR_NOMEM. */
void km_imp_arg_int(tg_kcursor *c, tg_kstep *step, const char *key, int64_t value);
int km_imp_arg_text(tg_kcursor *c, tg_kstep *step, const char *key, const char *s, size_t n);
/* A flow (tg_flow: id, TG_FLOW_ flags) the slice that begins here takes part in. */
void km_imp_flow(tg_kcursor *c, tg_kstep *step, uint64_t id, unsigned flags);
/* A name kept once in the model (NULL: out of memory). */
const char *km_imp_name(tg_kcursor *c, const char *s, size_t n);

#endif
