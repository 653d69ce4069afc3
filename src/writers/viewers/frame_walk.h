/* frame_walk.h - the one event loop under every viewer writer (Perfetto, folded,
 * speedscope, SVG).
 *
 * It reads the iterator, gives each thread a dense index, feeds every event to the library's
 * call-stack builder (each trace by its tracer's rules: uftrace data as uftrace report counts
 * it, with linux:schedule frames) on the shared timeline, and tells the writer, through hooks,
 * what a viewer needs: a thread seen for the first time, a frame opened (each frame the builder
 * opens), a frame closed (each frame the builder ends, with its self and total time; also
 * frames it unwinds and those still open at the end), and every other event.  The pairing rules
 * are the builder's; the walk only remembers, per thread, the interned name of the frame at
 * each depth, so writers can name a frame's ancestors (flame graph paths, reopening frames at a
 * split) without keeping a stack of their own. */
#ifndef TG_FRAME_WALK_H
#define TG_FRAME_WALK_H

#include "traceglot.h"
#include "writers/viewers/frame_names.h"
#include "core/hash.h"

typedef struct tg_walk_thread {
    int tid, pid;   /* as viewers show them: tid falls back to the cpu, pid to tid */
    size_t index;   /* dense: 0 for the first thread seen */
    uint32_t *path; /* interned name of the open frame at each depth */
    size_t depth, path_cap;
    tg_stream *stream; /* the stream the thread was last seen on */
    int64_t first_ns, last_ns;
} tg_walk_thread;

typedef struct tg_walk_hooks {
    /* Each returns 0 or a negative status, which stops the walk. */
    int (*thread_new)(void *ctx, tg_walk_thread *t, const tg_event *ev);
    /* frame: tid, depth, entry_ns (on the shared timeline), addr, name */
    int (*frame_open)(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name);
    /* name: the frame's interned name; depth: call->depth; ev: the event that ended it,
     * NULL for frames still open at the end. */
    int (*frame_close)(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                       const tg_event *ev);
    int (*other)(void *ctx, tg_walk_thread *t, const tg_event *ev);
    /* A call its thread was inside when the recording began (a function_graph record's depth
     * implies it) is told when it ends: frame_open at its start, then frame_close, after the
     * calls inside it.  A writer whose events must come in time order sets time_ordered and
     * is not told such calls. */
    bool time_ordered;
} tg_walk_hooks;

/* The path entry of such a call until it ends (its function is not known before). */
#define TG_WALK_IMPLIED UINT32_MAX

typedef struct tg_frame_walk {
    tg_frame_names names;
    /* per interned name: the module of the first frame of that name (tg_call.module; NULL
     * none, or a name no frame had), kept when the name is first looked up, not per frame */
    const char **name_module;
    size_t n_name_modules, name_module_cap;
    tg_walk_thread *threads;
    size_t n_threads, threads_cap;
    /* private */
    tg_hash thread_ids;
    tg_callstack *cs;
    const tg_walk_hooks *hooks;
    void *ctx;
    tg_walk_thread *current; /* the thread of the event being fed */
    const tg_event *current_ev;
    struct { /* symbol pointer -> interned name: symbols repeat */
        const char *symbol;
        uint32_t name;
    } recent[256];
    char hex[24];
    int status;
} tg_frame_walk;

/* Runs the whole iterator through the hooks, then ends the frames still open.  0, or the
 * first negative status of the iterator or a hook.  The walk's tables stay valid until
 * tg_frame_walk_free, for writers that write their tables at the end. */
int tg_frame_walk_run(tg_frame_walk *w, tg_iter *it, const tg_walk_hooks *hooks, void *ctx);
void tg_frame_walk_free(tg_frame_walk *w);

/* The interned name of a function known only by its address: "0x<addr>". */
int64_t tg_frame_walk_addr_name(tg_frame_walk *w, uint64_t addr);

#endif
