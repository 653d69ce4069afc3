/* la_iostate.c - lttng-analyses' I/O state (la_io.h), fed by every event from the trace's
 * first: the descriptors of each process, the I/O request of the system call each thread is
 * in, the pending block requests of each disk (la_ioblock.c); what changes is told to the period
 * (la_ioperiod.c).
 *
 * Its definitions, kept: a thread's descriptors are its process' (its pid's record); the
 * thread is the one lttng-analyses saw switched in on the event's CPU; open, openat, socket,
 * dup, dup2, dup3 and fcntl(F_DUPFD) open a descriptor (named by the call's file name, the
 * duplicated one's name or "socket"), close closes it when it returns 0, and any call on a
 * descriptor it does not know (a read, fsync, close...) that succeeds makes one named
 * "unknown"; accept, splice and sendfile64 are not followed; connect(AF_INET) renames the
 * descriptor "a.b.c.d:port"; a write that sends a network packet makes its unknown
 * descriptor "maybe network".  A block request runs from block_rq_issue to the
 * block_rq_complete of the same disk, sector and size (a remapped request counts for its
 * first disk); its thread is block_rq_issue's tid (ftrace's: the issuing thread), its
 * direction rwbs' (rq_writes).
 *
 * Each event class is looked at once: its role, and where the fields its role reads are;
 * a call recorded by number (raw_syscalls, LTTng 0.x) is the one la_state names, its fields
 * raw_syscalls' args at the call's parameter positions (la_ioargs.c), and on LTTng 0.x the
 * fs events inside it (read, write, close: fd; open: filename) and the file_descriptor
 * statedump give what its syscall_entry does not hold. */
#include "analysis/la_io.h"
#include "analysis/la_ioclass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what an I/O system call does (lttng-analyses' SyscallConsts lists) */
enum io_call {
    CALL_OTHER = 0, /* not an I/O call */
    CALL_OPEN,      /* open, openat */
    CALL_SOCKET,
    CALL_DUP, /* dup, dup2, dup3, fcntl */
    CALL_CLOSE,
    CALL_READ,
    CALL_WRITE,
    CALL_SYNC,
    CALL_UNTRACKED, /* splice, sendfile64: I/O calls no request is made for */
};

static const char *const field_names[N_FIELDS] = {
    "fd",        "len",    "filename", "flags",      "fildes",   "oldfd", "newfd",     "cmd",
    "family",    "v4addr", "dport",    "ret",        "tid",      "pid",   "dev",       "sector",
    "nr_sector", "rwbs",   "old_dev",  "old_sector", "diskname", "name",  "child_tid", "parent_pid",
};

static const struct {
    const char *event;
    enum io_role role;
} role_names[] = {
    {"syscall_entry_connect", IO_CONNECT},
    {"lttng_statedump_process_state", IO_DUMP_PROC},
    {"lttng_statedump_file_descriptor", IO_DUMP_FD},
    {"lttng_statedump_block_device", IO_DUMP_BLOCK},
    {"block_rq_issue", IO_RQ_ISSUE},
    {"block_rq_complete", IO_RQ_COMPLETE},
    {"block_bio_remap", IO_BIO_REMAP},
    {"block_bio_backmerge", IO_BIO_BACKMERGE},
    {"net_dev_xmit", IO_NET_XMIT},
    {"netif_receive_skb", IO_NET_RECV},
    {"sched_process_fork", IO_FORK},
    {"sched_process_exec", IO_EXEC},
};

static bool in_list(const char *name, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

static const char *const read_calls[] = {"read",  "recvmsg", "recvfrom", "readv",
                                         "pread", "pread64", "preadv",   NULL};
static const char *const write_calls[] = {"write",  "sendmsg",  "sendto",  "writev",
                                          "pwrite", "pwrite64", "pwritev", NULL};

static enum io_call call_of(const char *name)
{
    static const char *const dup[] = {"fcntl", "dup", "dup2", "dup3", NULL};
    static const char *const sync[] = {"sync", "sync_file_range", "fsync", "fdatasync", NULL};
    if (strcmp(name, "open") == 0 || strcmp(name, "openat") == 0)
        return CALL_OPEN;
    if (strcmp(name, "socket") == 0)
        return CALL_SOCKET;
    if (in_list(name, dup))
        return CALL_DUP;
    if (strcmp(name, "close") == 0)
        return CALL_CLOSE;
    if (in_list(name, read_calls))
        return CALL_READ;
    if (in_list(name, write_calls))
        return CALL_WRITE;
    if (in_list(name, sync))
        return CALL_SYNC;
    if (strcmp(name, "splice") == 0 || strcmp(name, "sendfile64") == 0)
        return CALL_UNTRACKED;
    return CALL_OTHER;
}

static struct la_io_class *class_of(la_io *io, const tg_event *ev)
{
    static struct la_io_class none = {.role = IO_NONE};
    if (!ev->cls)
        return &none;
    size_t n = ev->cls->number;
    if (n >= io->n_classes && tg_grow_zeroed(&io->classes, &io->n_classes, &io->cap_classes, n + 1,
                                             sizeof *io->classes) < 0)
        return NULL;
    struct la_io_class *c = &io->classes[n];
    if (c->role != IO_UNKNOWN)
        return c;
    const char *name = ev->cls->name;
    c->role = IO_NONE;
    for (size_t i = 0; i < sizeof role_names / sizeof *role_names; i++)
        if (strcmp(role_names[i].event, name) == 0)
            c->role = (uint8_t)role_names[i].role;
    const char *call = NULL;
    const char *colon = strrchr(name, ':'); /* perf's "raw_syscalls:sys_enter" */
    const char *bare = colon ? colon + 1 : name;
    const char *format = ev->cls->trace ? tg_trace_format(ev->cls->trace) : NULL;
    bool lttng0 = format && strcmp(format, "lttng0") == 0;
    static const char *const lttng0_fs[] = {"read",  "write", "readv", "writev",
                                            "close", "open",  NULL};
    if (strcmp(bare, "sys_enter") == 0 || strcmp(bare, "syscall_entry") == 0)
        c->role = IO_ENTRY_BY_NUMBER;
    else if (strcmp(bare, "sys_exit") == 0 || strcmp(bare, "syscall_exit") == 0)
        c->role = IO_EXIT;
    else if (lttng0 && in_list(name, lttng0_fs))
        c->role = IO_FS;
    else if (lttng0 && strcmp(name, "file_descriptor") == 0)
        c->role = IO_DUMP_FD; /* LTTng 0.x's statedump: pid, fd, filename */
    if (c->role == IO_NONE) {
        if (strncmp(name, "sys_enter_", 10) == 0) /* ftrace's, as la_state.c reads them */
            call = name + 10;
        else if (strncmp(name, "sys_exit_", 9) == 0)
            c->role = IO_EXIT;
        else if (strncmp(name, "sys_", 4) == 0)
            call = name + 4;
        else if (strncmp(name, "syscall_entry_", 14) == 0)
            call = name + 14;
        else if (strncmp(name, "exit_syscall", 12) == 0 || strncmp(name, "syscall_exit_", 13) == 0)
            c->role = IO_EXIT;
    }
    if (call) {
        c->role = IO_ENTRY;
        c->call = (uint8_t)call_of(call);
        if ((c->name = la_io_str(io, call, strlen(call))) == LA_IO_NOSTR)
            return NULL;
    }
    for (size_t k = 0; k < N_FIELDS; k++)
        c->field[k] = c->arg[k] = -1;
    c->args = -1;
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 127; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name)
            continue;
        for (size_t k = 0; k < N_FIELDS; k++)
            if (c->field[k] < 0 && strcmp(field_names[k], v.name) == 0)
                c->field[k] = (int8_t)i;
        if (strcmp(v.name, "args") == 0)
            c->args = (int8_t)i;
    }
    return c;
}

/* The class of the call a by-number entry (class by) enters, named by la_state (x86_64's
 * table, LTTng 0.x's sys_call_table): one per name, its fields among by's raw arguments
 * (la_ioargs.c); NULL when it enters no known call. */
static const struct la_io_class *call_class(la_io *io, const tg_event *ev,
                                            const struct la_io_class *by)
{
    long idx = la_state_call(&io->run->st, ev);
    if (idx < 0)
        return NULL;
    const char *call = io->run->st.names[idx];
    uint64_t *slot;
    int added = tg_hash_insert(&io->call_class_by_name, (uint64_t)idx, &slot);
    if (added < 0)
        goto nomem;
    if (added) {
        if (tg_grow(&io->call_classes, &io->cap_call_classes, io->n_call_classes + 1,
                    sizeof *io->call_classes) < 0)
            goto nomem;
        struct la_io_class *c = &io->call_classes[io->n_call_classes];
        *c = (struct la_io_class){
            .role = IO_ENTRY, .call = (uint8_t)call_of(call), .args = by->args};
        if ((c->name = la_io_str(io, call, strlen(call))) == LA_IO_NOSTR)
            goto nomem;
        for (size_t k = 0; k < N_FIELDS; k++) {
            c->field[k] = -1;
            c->arg[k] = (int8_t)(by->args >= 0 ? la_io_arg_position(call, field_names[k]) : -1);
        }
        *slot = io->n_call_classes++;
    }
    return &io->call_classes[*slot];
nomem:
    io->nomem = true;
    return NULL;
}

/* Argument k of a call recorded by number: raw_syscalls' args, six unsigned longs (ftrace
 * and perf give them as the ring buffer's bytes, in the trace's byte order), or an array. */
static bool raw_arg(const tg_event *ev, const struct la_io_class *c, size_t k, int64_t *out)
{
    tg_value v;
    if (tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->args, &v) < 0)
        return false;
    if (v.type == TG_VAL_ARRAY || v.type == TG_VAL_SEQUENCE) {
        tg_value e;
        if (tg_value_child(&v, k, &e) < 0 || (e.type != TG_VAL_SINT && e.type != TG_VAL_UINT))
            return false;
        *out = e.type == TG_VAL_SINT ? e.v.s : (int64_t)e.v.u;
        return true;
    }
    size_t word = v.v.str.len / 6;
    if (v.type != TG_VAL_BYTES || (word != 4 && word != 8))
        return false;
    int order = v.byte_order;
    if (!order) {
        const tg_host_info *host = ev->cls->trace ? tg_trace_host(ev->cls->trace) : NULL;
        order = host && host->byte_order ? host->byte_order : 1;
    }
    const unsigned char *p = (const unsigned char *)v.v.str.ptr + k * word;
    uint64_t x = 0;
    for (size_t i = 0; i < word; i++)
        x |= (uint64_t)p[order == 2 ? word - 1 - i : i] << (8 * i);
    *out = (int64_t)x;
    return true;
}

bool la_io_int_field(const tg_event *ev, const struct la_io_class *c, enum io_field f, int64_t *out)
{
    if (c->arg[f] >= 0) /* a call by number: one of its raw arguments */
        return raw_arg(ev, c, (size_t)c->arg[f], out);
    tg_value v;
    return c->field[f] >= 0 && tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[f], &v) == 0 &&
           tg_value_int(&v, out);
}

int64_t la_io_int_or(const tg_event *ev, const struct la_io_class *c, enum io_field f, int64_t dflt)
{
    int64_t x;
    return la_io_int_field(ev, c, f, &x) ? x : dflt;
}

uint32_t la_io_str_field(la_io *io, const tg_event *ev, const struct la_io_class *c,
                         enum io_field f)
{
    tg_value v;
    if (c->field[f] < 0 || tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[f], &v) < 0 ||
        v.type != TG_VAL_STRING)
        return LA_IO_NOSTR;
    uint32_t s = la_io_str(io, v.v.str.ptr, v.v.str.len);
    if (s == LA_IO_NOSTR)
        io->nomem = true;
    return s;
}

/* the process record's I/O state */
static struct la_io_sproc *sproc(la_io *io, size_t i)
{
    if (i >= io->n_procs) {
        size_t old = io->n_procs;
        if (tg_grow_zeroed(&io->procs, &io->n_procs, &io->cap_procs, i + 1, sizeof *io->procs) <
            0) {
            io->nomem = true;
            return NULL;
        }
        for (size_t k = old; k < io->n_procs; k++)
            io->procs[k].rq = -1;
    }
    return &io->procs[i];
}

/* The record of the thread running ev, -1: none (idle or unknown): the kernel model's thread
 * (the task switched in on the event's CPU, or the tid the trace recorded, as la_state.c's
 * system calls read it), else the task lttng-analyses saw switched in on the CPU. */
static long current_proc(la_io *io, const tg_event *ev)
{
    la_state *st = &io->run->st;
    if (ev->tid > 0) {
        long i = la_state_find(st, ev->tid);
        if (i < 0 && (i = la_state_make(st, ev->tid, LA_NONE)) < 0)
            io->nomem = true;
        return i;
    }
    int32_t cpu = ev->cpu;
    if (ev->tid == 0 || cpu < 0 || (size_t)cpu >= st->n_cpus || !st->cpus[cpu].known ||
        st->cpus[cpu].current_tid == LA_NONE)
        return -1;
    return la_state_find(st, st->cpus[cpu].current_tid);
}

/* _get_parent_proc: the record of the thread's process */
static size_t parent_of(la_io *io, size_t proc)
{
    const la_proc *p = la_proc_at(&io->run->st, proc);
    if (p->pid != LA_NONE && p->tid != p->pid) {
        long i = la_state_find(&io->run->st, p->pid);
        if (i >= 0)
            return (size_t)i;
    }
    return proc;
}

static la_io_fd *find_fd(struct la_io_sproc *s, int64_t fd)
{
    for (size_t i = 0; i < s->n_fds; i++)
        if (s->fds[i].fd == fd)
            return &s->fds[i];
    return NULL;
}

static la_io_fd *add_fd(la_io *io, struct la_io_sproc *s, const la_io_fd *fd)
{
    if (tg_grow(&s->fds, &s->cap_fds, s->n_fds + 1, sizeof *s->fds) < 0) {
        io->nomem = true;
        return NULL;
    }
    s->fds[s->n_fds] = *fd;
    return &s->fds[s->n_fds++];
}

static void del_fd(struct la_io_sproc *s, int64_t fd)
{
    la_io_fd *f = find_fd(s, fd);
    if (!f)
        return;
    size_t i = (size_t)(f - s->fds);
    memmove(&s->fds[i], &s->fds[i + 1], (s->n_fds - i - 1) * sizeof *s->fds);
    s->n_fds--;
}

static la_io_fd plain_fd(la_io *io, int64_t fd)
{
    return (la_io_fd){
        .fd = fd, .family = LA_NONE, .filename = io->unknown_str, .fd_type = LA_FD_UNKNOWN};
}

static void close_fd(la_io *io, size_t proc, int64_t fd, int64_t ts)
{
    size_t parent = parent_of(io, proc);
    la_io_notify_close_fd(io, parent, fd, ts);
    struct la_io_sproc *s = sproc(io, parent);
    if (s)
        del_fd(s, fd);
}

long la_io_new_rq(la_io *io, const tg_event *ev, const struct la_io_class *c, int64_t tid,
                  uint8_t op)
{
    if (tg_grow(&io->rqs, &io->cap_rqs, io->n_rqs + 1, sizeof *io->rqs) < 0) {
        io->nomem = true;
        return -1;
    }
    la_iorq *rq = &io->rqs[io->n_rqs];
    *rq = (la_iorq){.begin = ev->ts,
                    .end = LA_NONE,
                    .size = LA_NONE,
                    .returned_size = LA_NONE,
                    .fd = LA_NONE,
                    .fd_in = LA_NONE,
                    .fd_out = LA_NONE,
                    .tid = tid,
                    .family = LA_NONE,
                    .name = c ? c->name : LA_IO_NOSTR,
                    .filename = LA_IO_NOSTR,
                    .op = op};
    return (long)io->n_rqs++;
}

#define O_CLOEXEC_BIT 02000000

/* The request a system call's entry makes (-1: none) */
static long entry_rq(la_io *io, const tg_event *ev, const struct la_io_class *c, size_t proc)
{
    int64_t tid = la_proc_at(&io->run->st, proc)->tid;
    long i = -1;
    switch ((enum io_call)c->call) {
    case CALL_OPEN:
        if ((i = la_io_new_rq(io, ev, c, tid, LA_IO_OPEN)) >= 0) {
            uint32_t name = la_io_str_field(io, ev, c, F_FILENAME);
            /* ftrace records the name's address only */
            io->rqs[i].filename = name == LA_IO_NOSTR ? io->unknown_str : name;
            io->rqs[i].fd_type = LA_FD_DISK;
            io->rqs[i].cloexec = (la_io_int_or(ev, c, F_FLAGS, 0) & O_CLOEXEC_BIT) != 0;
        }
        return i;
    case CALL_SOCKET:
        if ((i = la_io_new_rq(io, ev, c, tid, LA_IO_OPEN)) >= 0) {
            io->rqs[i].filename = io->socket_str;
            io->rqs[i].fd_type = LA_FD_NET;
            io->rqs[i].family = la_io_int_or(ev, c, F_FAMILY, LA_NONE);
        }
        return i;
    case CALL_DUP: {
        const char *name = la_io_text(io, c->name);
        size_t parent = parent_of(io, proc);
        int64_t oldfd;
        if (strcmp(name, "dup") == 0) {
            oldfd = la_io_int_or(ev, c, F_FILDES, LA_NONE);
        } else if (strcmp(name, "fcntl") == 0) {
            if (la_io_int_or(ev, c, F_CMD, -1) != 0) /* F_DUPFD only */
                return -1;
            oldfd = la_io_int_or(ev, c, F_FD, LA_NONE);
        } else {
            oldfd = la_io_int_or(ev, c, F_OLDFD, LA_NONE);
            int64_t newfd = la_io_int_or(ev, c, F_NEWFD, LA_NONE);
            struct la_io_sproc *ps = sproc(io, parent);
            if (ps && find_fd(ps, newfd))
                close_fd(io, parent, newfd, ev->ts);
        }
        struct la_io_sproc *ps = sproc(io, parent);
        const la_io_fd *old = ps ? find_fd(ps, oldfd) : NULL;
        la_io_fd copy = old ? *old : plain_fd(io, LA_NONE);
        if ((i = la_io_new_rq(io, ev, c, tid, LA_IO_OPEN)) >= 0) {
            io->rqs[i].filename = copy.filename;
            io->rqs[i].fd_type = copy.fd_type;
            if (strcmp(name, "dup3") == 0)
                io->rqs[i].cloexec = (la_io_int_or(ev, c, F_FLAGS, 0) & O_CLOEXEC_BIT) != 0;
        }
        return i;
    }
    case CALL_CLOSE:
        if ((i = la_io_new_rq(io, ev, c, tid, LA_IO_CLOSE)) >= 0) {
            io->rqs[i].fd = la_io_int_or(ev, c, F_FD, LA_NONE);
            io->rqs[i].name = io->close_str;
        }
        return i;
    case CALL_READ:
    case CALL_WRITE:
        if ((i = la_io_new_rq(io, ev, c, tid, c->call == CALL_READ ? LA_IO_READ : LA_IO_WRITE)) >=
            0) {
            io->rqs[i].fd = la_io_int_or(ev, c, F_FD, LA_NONE);
        }
        return i;
    case CALL_SYNC: {
        const char *name = la_io_text(io, c->name);
        if ((i = la_io_new_rq(io, ev, c, tid, LA_IO_SYNC)) < 0)
            return i;
        if (strcmp(name, "sync") != 0)
            io->rqs[i].fd = la_io_int_or(ev, c, F_FD, LA_NONE);
        return i;
    }
    default: return -1;
    }
}

static void on_entry(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    if (c->role == IO_ENTRY_BY_NUMBER) {
        const struct la_io_class *cc = call_class(io, ev, c);
        static const struct la_io_class other = {.role = IO_ENTRY, .call = CALL_OTHER};
        c = cc ? cc : &other;
    }
    long proc = current_proc(io, ev);
    struct la_io_sproc *s = proc >= 0 ? sproc(io, (size_t)proc) : NULL;
    if (!s)
        return;
    s->in_call = true;
    s->rq = -1;
    if (c->call == CALL_OTHER || c->call == CALL_UNTRACKED)
        return;
    long rq = entry_rq(io, ev, c, (size_t)proc);
    if ((s = sproc(io, (size_t)proc)))
        s->rq = rq;
}

/* _create_fd: a call that returned >= 0 on a descriptor its process does not know */
static void create_fd(la_io *io, size_t proc, size_t rqi)
{
    size_t parent = parent_of(io, proc);
    struct la_io_sproc *ps = sproc(io, parent);
    const la_iorq *rq = &io->rqs[rqi];
    if (!ps || rq->fd == LA_NONE || find_fd(ps, rq->fd))
        return;
    la_io_fd fd = plain_fd(io, rq->fd);
    if (rq->op == LA_IO_OPEN)
        fd = (la_io_fd){.fd = rq->fd,
                        .family = rq->family,
                        .filename = rq->filename,
                        .fd_type = rq->fd_type,
                        .cloexec = rq->cloexec};
    if (add_fd(io, ps, &fd))
        la_io_notify_create_fd(io, parent, rq->fd, rq->end);
}

static void on_exit_call(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    long proc = current_proc(io, ev);
    struct la_io_sproc *s = proc >= 0 ? sproc(io, (size_t)proc) : NULL;
    if (!s || !s->in_call)
        return;
    long rqi = s->rq;
    s->in_call = false;
    s->rq = -1;
    if (rqi < 0)
        return;
    int64_t ret = la_io_int_or(ev, c, F_RET, 0);
    la_iorq *rq = &io->rqs[rqi];
    rq->end = ev->ts;
    if (ret < 0)
        rq->err = -ret;
    if (rq->op == LA_IO_OPEN && ret >= 0)
        rq->fd = ret;
    if ((rq->op == LA_IO_READ || rq->op == LA_IO_WRITE) && ret >= 0) {
        rq->returned_size = ret;
        if (rq->size == LA_NONE)
            rq->size = ret;
    }
    if (ret >= 0)
        create_fd(io, (size_t)proc, (size_t)rqi);
    la_io_notify_rq_exit(io, (size_t)proc, parent_of(io, (size_t)proc), (size_t)rqi);
    rq = &io->rqs[rqi];
    if (rq->op == LA_IO_CLOSE && ret == 0)
        close_fd(io, (size_t)proc, rq->fd, rq->end);
}

/* LTTng 0.x's fs events (read, write, readv, writev, close: fd; open: fd, filename) inside a
 * call recorded by number: the call's descriptor and an open's file name, which its
 * syscall_entry does not hold. */
static void on_fs(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    long proc = current_proc(io, ev);
    struct la_io_sproc *s = proc >= 0 ? sproc(io, (size_t)proc) : NULL;
    if (!s || !s->in_call || s->rq < 0)
        return;
    la_iorq *rq = &io->rqs[s->rq];
    if (rq->op == LA_IO_OPEN) {
        uint32_t name = la_io_str_field(io, ev, c, F_FILENAME);
        if (name != LA_IO_NOSTR && rq->filename == io->unknown_str)
            io->rqs[s->rq].filename = name;
    } else if (rq->fd == LA_NONE && rq->op != LA_IO_SYNC) {
        rq->fd = la_io_int_or(ev, c, F_FD, LA_NONE);
    }
}

/* "a.b.c.d:port" of a connect's address (format_ipv4) */
static uint32_t ipv4_name(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    tg_value v, b;
    int64_t q[4] = {0, 0, 0, 0};
    if (c->field[F_V4ADDR] < 0 ||
        tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[F_V4ADDR], &v) < 0)
        return LA_IO_NOSTR;
    if (v.type == TG_VAL_ARRAY || v.type == TG_VAL_SEQUENCE) {
        for (size_t k = 0; k < 4; k++)
            if (k < v.count && tg_value_child(&v, k, &b) == 0)
                q[k] = b.type == TG_VAL_SINT ? b.v.s : (int64_t)b.v.u;
    } else { /* an integer in network order (lttng-modules < 2.6) */
        uint64_t x = v.type == TG_VAL_SINT ? (uint64_t)v.v.s : v.v.u;
        for (size_t k = 0; k < 4; k++)
            q[k] = (int64_t)((x >> (24 - 8 * k)) & 0xff);
    }
    char text[80];
    int n =
        snprintf(text, sizeof text, "%lld.%lld.%lld.%lld:%lld", (long long)q[0], (long long)q[1],
                 (long long)q[2], (long long)q[3], (long long)la_io_int_or(ev, c, F_DPORT, 0));
    return la_io_str(io, text, (size_t)n);
}

static void on_connect(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    long proc = current_proc(io, ev);
    if (proc < 0)
        return;
    /* the system call state sees the entry too (syscall_entry_connect) */
    struct la_io_sproc *s = sproc(io, (size_t)proc);
    if (s) {
        s->in_call = true;
        s->rq = -1;
    }
    if (la_io_int_or(ev, c, F_FAMILY, -1) != 2) /* AF_INET */
        return;
    int64_t fd = la_io_int_or(ev, c, F_FD, LA_NONE);
    struct la_io_sproc *ps = sproc(io, parent_of(io, (size_t)proc));
    la_io_fd *f = ps ? find_fd(ps, fd) : NULL;
    if (f)
        f->filename = ipv4_name(io, ev, c);
    la_io_notify_update_fd(io, (size_t)proc, fd, ev->ts);
}

static void on_dump_proc(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    int64_t tid = la_io_int_or(ev, c, F_TID, 0), pid = la_io_int_or(ev, c, F_PID, 0);
    long proc = la_state_find(&io->run->st, tid), parent = la_state_find(&io->run->st, pid);
    if (pid == tid || proc < 0 || parent < 0)
        return;
    if (!sproc(io, (size_t)(proc > parent ? proc : parent)))
        return;
    struct la_io_sproc *ts = &io->procs[proc], *ps = &io->procs[parent];
    for (size_t i = 0; i < ts->n_fds; i++) {
        la_io_fd *have = find_fd(ps, ts->fds[i].fd);
        if (!have)
            add_fd(io, ps, &ts->fds[i]);
        else if (!*la_io_text(io, have->filename))
            have->filename = ts->fds[i].filename;
    }
    ts->n_fds = 0;
    la_io_notify_parent(io, (size_t)proc, (size_t)parent);
}

static void on_dump_fd(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    int64_t pid = la_io_int_or(ev, c, F_PID, 0), fd = la_io_int_or(ev, c, F_FD, 0);
    uint32_t filename = la_io_str_field(io, ev, c, F_FILENAME);
    long proc = la_state_find(&io->run->st, pid);
    if (proc < 0 && (proc = la_state_make(&io->run->st, pid, pid)) < 0) {
        io->nomem = true;
        return;
    }
    struct la_io_sproc *s = sproc(io, (size_t)proc);
    if (!s)
        return;
    la_io_fd *have = find_fd(s, fd);
    if (have) {
        have->filename = filename;
        la_io_notify_update_fd(io, (size_t)proc, fd, ev->ts);
        return;
    }
    la_io_fd nfd = {.fd = fd,
                    .family = LA_NONE,
                    .filename = filename,
                    .fd_type = LA_FD_UNKNOWN,
                    .cloexec = (la_io_int_or(ev, c, F_FLAGS, 0) & O_CLOEXEC_BIT) != 0};
    if (add_fd(io, s, &nfd))
        la_io_notify_create_fd(io, (size_t)proc, fd, ev->ts);
}

static void on_net(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    tg_value v;
    uint32_t name = LA_IO_NOSTR;
    if (c->field[F_NAME] >= 0 &&
        tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[F_NAME], &v) == 0 &&
        v.type == TG_VAL_STRING) {
        size_t n = 0;
        while (n < v.v.str.len && v.v.str.ptr[n])
            n++;
        for (size_t i = 0; i < io->n_ifaces && name == LA_IO_NOSTR; i++) {
            const char *have = la_io_text(io, io->ifaces[i].name);
            if (strlen(have) == n && memcmp(have, v.v.str.ptr, n) == 0)
                name = io->ifaces[i].name;
        }
        if (name == LA_IO_NOSTR)
            name = la_io_str(io, v.v.str.ptr, n);
    }
    la_io_notify_net(io, name, la_io_int_or(ev, c, F_LEN, 0), c->role == IO_NET_XMIT);
    if (c->role != IO_NET_XMIT)
        return;
    long proc = current_proc(io, ev);
    struct la_io_sproc *s = proc >= 0 ? sproc(io, (size_t)proc) : NULL;
    if (!s || !s->in_call || s->rq < 0)
        return;
    const la_iorq *rq = &io->rqs[s->rq];
    if (!in_list(la_io_text(io, rq->name), write_calls))
        return;
    struct la_io_sproc *ps = sproc(io, parent_of(io, (size_t)proc));
    la_io_fd *f = ps ? find_fd(ps, rq->fd) : NULL;
    if (f && f->fd_type == LA_FD_UNKNOWN)
        f->fd_type = LA_FD_MAYBE_NET;
}

/* a fork: the child's record (new) gets a copy of its parent process' descriptors */
static void on_fork(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    long parent = la_state_find(&io->run->st, la_io_int_or(ev, c, F_PARENT_PID, 0));
    long child = la_state_find(&io->run->st, la_io_int_or(ev, c, F_CHILD_TID, 0));
    if (parent < 0 || child < 0 || parent == child ||
        !sproc(io, (size_t)(parent > child ? parent : child)))
        return;
    struct la_io_sproc *cs = &io->procs[child];
    cs->n_fds = 0;
    for (size_t i = 0; i < io->procs[parent].n_fds; i++) {
        la_io_fd fd = io->procs[parent].fds[i];
        if (!add_fd(io, &io->procs[child], &fd))
            return;
        la_io_notify_create_fd(io, (size_t)child, fd.fd, ev->ts);
    }
}

/* an exec closes the thread's close-on-exec descriptors */
static void on_exec(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    long proc = la_state_find(&io->run->st, la_io_int_or(ev, c, F_TID, 0));
    struct la_io_sproc *s = proc >= 0 ? sproc(io, (size_t)proc) : NULL;
    for (size_t i = 0; s && i < s->n_fds;) {
        if (!s->fds[i].cloexec) {
            i++;
            continue;
        }
        la_io_notify_close_fd(io, (size_t)proc, s->fds[i].fd, ev->ts);
        del_fd(s, s->fds[i].fd);
    }
}

int la_io_state_event(la_io *io, const tg_event *ev)
{
    const struct la_io_class *c = class_of(io, ev);
    if (!c)
        return TG_ERR_NOMEM;
    switch ((enum io_role)c->role) {
    case IO_ENTRY:
    case IO_ENTRY_BY_NUMBER: on_entry(io, ev, c); break;
    case IO_FS: on_fs(io, ev, c); break;
    case IO_EXIT: on_exit_call(io, ev, c); break;
    case IO_CONNECT: on_connect(io, ev, c); break;
    case IO_DUMP_PROC: on_dump_proc(io, ev, c); break;
    case IO_DUMP_FD: on_dump_fd(io, ev, c); break;
    case IO_DUMP_BLOCK: la_io_on_dump_block(io, ev, c); break;
    case IO_RQ_ISSUE:
    case IO_RQ_COMPLETE:
    case IO_BIO_REMAP:
    case IO_BIO_BACKMERGE: la_io_on_block(io, ev, c); break;
    case IO_NET_XMIT:
    case IO_NET_RECV: on_net(io, ev, c); break;
    case IO_FORK: on_fork(io, ev, c); break;
    case IO_EXEC: on_exec(io, ev, c); break;
    default: break;
    }
    return io->nomem ? TG_ERR_NOMEM : 0;
}

void la_io_state_free(la_io *io)
{
    for (size_t i = 0; i < io->n_procs; i++)
        free(io->procs[i].fds);
    free(io->procs);
    for (size_t i = 0; i < io->n_disks; i++)
        tg_hash_free(&io->disks[i].pending);
    free(io->disks);
    tg_hash_free(&io->disk_by_dev);
    free(io->remaps);
    free(io->classes);
    free(io->call_classes);
    tg_hash_free(&io->call_class_by_name);
}
