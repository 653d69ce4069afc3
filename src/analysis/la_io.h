/* la_io.h - lttng-analyses' I/O analyses (`traceglot analyze iolatencytop`, iolatencystats,
 * iolatencyfreq, iousagetop, iolog): what the parts share.
 *
 * lttng-analyses 0.6.1 answers them from two layers, kept apart here as there:
 * - the state (la_iostate.c), fed by every event from the first: each process' open file
 *   descriptors (the statedump's, and those opened, duplicated, closed and renamed by system
 *   calls), the I/O system call each thread is in, each disk's pending block requests;
 * - the period (la_ioperiod.c), which hears the state's notifications while the analysis'
 *   period is open: per thread the requests it completed and the bytes by descriptor type,
 *   per process its descriptors' lifetimes and bytes, per disk its requests, per network
 *   interface its bytes.  A descriptor opened before the period is unknown to the period,
 *   so reads and writes on it are not counted there (lttng-analyses' definition).
 * The views print the period: la_iolog.c (top, log, latency statistics and distributions)
 * and la_iousage.c (usage).  Requests live in one array for the run (la_io.rqs), referred to
 * by index from the state and from the period, as lttng-analyses shares the objects. */
#ifndef TG_LA_IO_H
#define TG_LA_IO_H

#include "analysis/la_run.h"

enum la_io_op {
    LA_IO_OPEN = 1,
    LA_IO_READ,
    LA_IO_WRITE,
    LA_IO_CLOSE,
    LA_IO_SYNC,
    LA_IO_READ_WRITE, /* splice, sendfile64: both */
};

enum la_fd_type { LA_FD_UNKNOWN, LA_FD_DISK, LA_FD_NET, LA_FD_MAYBE_NET };

#define LA_IO_NOSTR UINT32_MAX /* no string (Python's None) */

/* An I/O request: a system call's (lttng-analyses' SyscallIORequest) or a block request's. */
typedef struct la_iorq {
    int64_t begin, end;          /* end: LA_NONE until it completes */
    int64_t size, returned_size; /* bytes; LA_NONE: None */
    int64_t fd, fd_in, fd_out;   /* LA_NONE: None */
    int64_t err;                 /* errno (-ret), 0: none */
    int64_t tid;
    int64_t family;                 /* open: the socket's family, LA_NONE: None */
    int64_t dev, sector, nr_sector; /* block requests */
    uint32_t name;                  /* system call name (a string) */
    uint32_t filename;              /* open: the name the descriptor gets */
    uint8_t op, fd_type;
    bool block, cloexec;
} la_iorq;

/* A descriptor of the state (lttng-analyses' FD) */
typedef struct la_io_fd {
    int64_t fd, family;
    uint32_t filename;
    uint8_t fd_type;
    bool cloexec;
} la_io_fd;

/* A process record's state (indexed as la_state.procs) */
struct la_io_sproc {
    la_io_fd *fds; /* insertion order, as a Python dict */
    size_t n_fds, cap_fds;
    int64_t rq;   /* its system call's request, -1: none */
    bool in_call; /* in a system call (any) */
};

/* A descriptor's lifetime in the period (lttng-analyses' FDStats) */
typedef struct la_io_fdstats {
    int64_t fd, open_ts, close_ts; /* close_ts: LA_NONE while open */
    int64_t family, read, write;
    uint32_t filename;
    uint8_t fd_type;
} la_io_fdstats;

/* the lifetimes of one fd number in a process, oldest first */
struct la_io_fdlist {
    int64_t fd;
    size_t *items; /* indices into la_io.fdstats */
    size_t n, cap;
};

/* A thread in the period (lttng-analyses' ProcessIOStats) */
typedef struct la_io_pstats {
    int64_t tid, pid;
    char comm[LA_COMM_MAX];
    int64_t disk_read, disk_write, net_read, net_write, unk_read, unk_write, block_read,
        block_write;
    struct la_io_fdlist *fds;
    size_t n_fds, cap_fds;
    size_t *rqs; /* its requests, system calls and block */
    size_t n_rqs, cap_rqs;
} la_io_pstats;

typedef struct la_io_pdisk {
    int64_t dev, sectors, duration;
    uint32_t name;
    size_t *rqs;
    size_t n_rqs, cap_rqs;
} la_io_pdisk;

typedef struct la_io_iface {
    uint32_t name;
    int64_t recv, sent;
} la_io_iface;

struct la_io_sdisk {
    int64_t dev;
    uint32_t name;   /* LA_IO_NOSTR: None */
    tg_hash pending; /* sector -> request */
};

struct la_io_remap {
    int64_t dev, sector, old_dev, old_sector;
};

struct la_io_class;

typedef struct la_io {
    la_run *run;
    char **strs;
    size_t n_strs, cap_strs;
    uint32_t unknown_str, socket_str, close_str; /* "unknown", "socket", "close" */
    la_iorq *rqs;
    size_t n_rqs, cap_rqs;
    /* the state */
    struct la_io_class *classes;
    size_t n_classes, cap_classes;
    /* system calls recorded by number: a class per call, by la_state's names index */
    struct la_io_class *call_classes;
    size_t n_call_classes, cap_call_classes;
    tg_hash call_class_by_name;
    struct la_io_sproc *procs;
    size_t n_procs, cap_procs;
    struct la_io_sdisk *disks;
    size_t n_disks, cap_disks;
    tg_hash disk_by_dev;
    struct la_io_remap *remaps;
    size_t n_remaps, cap_remaps;
    /* the period */
    bool open;
    la_io_pstats *ps;
    size_t n_ps, cap_ps;
    tg_hash ps_by_tid;
    la_io_fdstats *fdstats;
    size_t n_fdstats, cap_fdstats;
    la_io_pdisk *pdisks;
    size_t n_pdisks, cap_pdisks;
    tg_hash pdisk_by_dev;
    la_io_iface *ifaces;
    size_t n_ifaces, cap_ifaces;
    bool nomem;
} la_io;

/* a copy of s (len bytes, up to a NUL) in the run's strings; LA_IO_NOSTR when out of memory */
uint32_t la_io_str(la_io *io, const char *s, size_t len);
/* The position among a call's six raw arguments of parameter `field` ("fd", "filename",
 * "flags", "family", "fildes", "oldfd", "newfd", "cmd") of I/O system call `call`, -1 when
 * it has none (la_ioargs.c). */
int la_io_arg_position(const char *call, const char *field);
static inline const char *la_io_text(const la_io *io, uint32_t s)
{
    return s == LA_IO_NOSTR ? "" : io->strs[s];
}

/* ---- the state (la_iostate.c) ---- */
int la_io_state_event(la_io *io, const tg_event *ev);
void la_io_state_free(la_io *io);

/* ---- the period's notifications (la_ioperiod.c); nothing happens while it is not open ---- */
void la_io_notify_create_fd(la_io *io, size_t parent, int64_t fd, int64_t ts);
void la_io_notify_close_fd(la_io *io, size_t parent, int64_t fd, int64_t ts);
void la_io_notify_update_fd(la_io *io, size_t proc, int64_t fd, int64_t ts);
void la_io_notify_rq_exit(la_io *io, size_t proc, size_t parent, size_t rq);
void la_io_notify_parent(la_io *io, size_t proc, size_t parent);
void la_io_notify_block(la_io *io, size_t rq, long proc, int64_t dev, uint32_t diskname);
void la_io_notify_disk(la_io *io, int64_t dev, uint32_t diskname);
void la_io_notify_net(la_io *io, uint32_t name, int64_t bytes, bool sent);
void la_io_period_free(la_io *io);

/* the period's thread of tid (NULL: none) and its descriptor fd as get_fd(fd, ts) finds it
 * (ts LA_NONE: the current one) */
la_io_pstats *la_io_pstats_of(la_io *io, int64_t tid);
la_io_fdstats *la_io_get_fd(la_io *io, la_io_pstats *p, int64_t fd, int64_t ts);

/* lttng-analyses' format_size: "16   B", "1.00 KiB" */
void la_io_size(char *buf, size_t size, int64_t bytes);

/* ---- the views: each prints its part, or adds its LAMI tables to r->results ---- */
/* the request passes --minsize/--maxsize, --min/--max and the time range */
bool la_io_filter(const la_run *r, const la_iorq *rq);
/* the durations of the period's system calls of op that pass the filters (la_iolog.c) */
int64_t *la_io_durations(la_run *r, la_io *io, uint8_t op, size_t *n);
int la_io_top_view(la_run *r, la_io *io, tg_buf *out);   /* --top (la_iolog.c) */
int la_io_log_view(la_run *r, la_io *io, tg_buf *out);   /* --log (la_iolog.c) */
int la_io_stats_view(la_run *r, la_io *io, tg_buf *out); /* --stats (la_iostats.c) */
int la_io_freq_view(la_run *r, la_io *io, tg_buf *out);  /* --freq (la_iostats.c) */
int la_io_usage_view(la_run *r, la_io *io, tg_buf *out); /* --usage (la_iousage.c) */

#endif
