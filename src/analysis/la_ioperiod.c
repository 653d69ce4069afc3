/* la_ioperiod.c - what the I/O analyses' period holds (la_io.h), as lttng-analyses' IoAnalysis
 * builds it from the state's notifications while the period is open: per thread (by tid, in
 * first-seen order) its requests, its bytes read and written by descriptor type and its
 * block bytes, its process' descriptor lifetimes; per disk and per network interface their
 * requests and bytes.
 *
 * Its definitions, kept: a read or write that succeeded on a descriptor the period does not
 * know (opened before it) is not counted at all; bytes count what the call returned, by the
 * type of the descriptor (disk for files opened, network for sockets and "maybe network"
 * ones, unknown otherwise); a disk is named by the statedump, or "(major,minor)". */
#include "analysis/la_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t la_io_str(la_io *io, const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[n])
        n++;
    if (io->n_strs >= UINT32_MAX - 1 ||
        tg_grow(&io->strs, &io->cap_strs, io->n_strs + 1, sizeof *io->strs) < 0)
        return LA_IO_NOSTR;
    char *copy = strndup(s, n);
    if (!copy)
        return LA_IO_NOSTR;
    io->strs[io->n_strs] = copy;
    return (uint32_t)io->n_strs++;
}

la_io_pstats *la_io_pstats_of(la_io *io, int64_t tid)
{
    uint64_t *v = tg_hash_find(&io->ps_by_tid, (uint64_t)tid);
    return v ? &io->ps[*v] : NULL;
}

/* the period's thread of the state's record (new from its pid, tid and name) */
static la_io_pstats *pstats(la_io *io, size_t proc)
{
    const la_proc *p = la_proc_at(&io->run->st, proc);
    uint64_t *slot;
    int added = tg_hash_insert(&io->ps_by_tid, (uint64_t)p->tid, &slot);
    if (added < 0 || (added && tg_grow(&io->ps, &io->cap_ps, io->n_ps + 1, sizeof *io->ps) < 0)) {
        io->nomem = true;
        return NULL;
    }
    if (added) {
        *slot = io->n_ps;
        la_io_pstats *s = &io->ps[io->n_ps++];
        memset(s, 0, sizeof *s);
        s->tid = p->tid;
        s->pid = p->pid;
        snprintf(s->comm, sizeof s->comm, "%s", p->comm);
    }
    return &io->ps[*slot];
}

static struct la_io_fdlist *fdlist(la_io_pstats *p, int64_t fd)
{
    for (size_t i = 0; i < p->n_fds; i++)
        if (p->fds[i].fd == fd)
            return &p->fds[i];
    return NULL;
}

static struct la_io_fdlist *new_fdlist(la_io *io, la_io_pstats *p, int64_t fd)
{
    if (tg_grow(&p->fds, &p->cap_fds, p->n_fds + 1, sizeof *p->fds) < 0) {
        io->nomem = true;
        return NULL;
    }
    struct la_io_fdlist *l = &p->fds[p->n_fds++];
    memset(l, 0, sizeof *l);
    l->fd = fd;
    return l;
}

/* FDStats.new_from_fd: the state's descriptor, open from ts, appended to its list */
static void add_fdstats(la_io *io, struct la_io_fdlist *l, const la_io_fd *fd, int64_t ts)
{
    if (tg_grow(&io->fdstats, &io->cap_fdstats, io->n_fdstats + 1, sizeof *io->fdstats) < 0 ||
        tg_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items) < 0) {
        io->nomem = true;
        return;
    }
    io->fdstats[io->n_fdstats] = (la_io_fdstats){.fd = fd->fd,
                                                 .open_ts = ts,
                                                 .close_ts = LA_NONE,
                                                 .family = fd->family,
                                                 .filename = fd->filename,
                                                 .fd_type = fd->fd_type};
    l->items[l->n++] = io->n_fdstats++;
}

static const la_io_fd *state_fd(la_io *io, size_t proc, int64_t fd)
{
    if (proc >= io->n_procs)
        return NULL;
    const struct la_io_sproc *s = &io->procs[proc];
    for (size_t i = 0; i < s->n_fds; i++)
        if (s->fds[i].fd == fd)
            return &s->fds[i];
    return NULL;
}

/* _get_fd_by_timestamp's search over items[lo, hi), kept as written: an open descriptor
 * opened after ts ends the search */
static la_io_fdstats *fd_at(la_io *io, const struct la_io_fdlist *l, size_t lo, size_t hi,
                            int64_t ts)
{
    while (hi > lo) {
        size_t mid = lo + (hi - lo) / 2;
        la_io_fdstats *f = &io->fdstats[l->items[mid]];
        if (f->close_ts == LA_NONE)
            return ts >= f->open_ts ? f : NULL;
        if (f->open_ts <= ts && ts <= f->close_ts)
            return f;
        if (ts < f->open_ts)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

la_io_fdstats *la_io_get_fd(la_io *io, la_io_pstats *p, int64_t fd, int64_t ts)
{
    const struct la_io_fdlist *l = p ? fdlist(p, fd) : NULL;
    if (!l || !l->n)
        return NULL;
    if (ts != LA_NONE)
        return fd_at(io, l, 0, l->n, ts);
    la_io_fdstats *f = &io->fdstats[l->items[l->n - 1]];
    return f->close_ts == LA_NONE ? f : NULL;
}

void la_io_notify_create_fd(la_io *io, size_t parent, int64_t fd, int64_t ts)
{
    const la_io_fd *sfd = state_fd(io, parent, fd);
    la_io_pstats *p;
    if (!io->open || !sfd || !(p = pstats(io, parent)))
        return;
    struct la_io_fdlist *l = fdlist(p, fd);
    if (!l && !(l = new_fdlist(io, p, fd)))
        return;
    add_fdstats(io, l, sfd, ts);
}

void la_io_notify_close_fd(la_io *io, size_t parent, int64_t fd, int64_t ts)
{
    if (!io->open)
        return;
    la_io_fdstats *f =
        la_io_get_fd(io, la_io_pstats_of(io, la_proc_at(&io->run->st, parent)->tid), fd, LA_NONE);
    if (f)
        f->close_ts = ts;
}

void la_io_notify_update_fd(la_io *io, size_t proc, int64_t fd, int64_t ts)
{
    const la_io_fd *sfd = state_fd(io, proc, fd);
    la_io_pstats *p;
    if (!io->open || !sfd || !(p = la_io_pstats_of(io, la_proc_at(&io->run->st, proc)->tid)))
        return;
    struct la_io_fdlist *l = fdlist(p, fd);
    if (!l) {
        if (!(l = new_fdlist(io, p, fd)))
            return;
        add_fdstats(io, l, sfd, ts);
    }
    if (l->n)
        io->fdstats[l->items[l->n - 1]].filename = sfd->filename;
}

static bool add_rq(la_io *io, size_t **rqs, size_t *n, size_t *cap, size_t rq)
{
    if (tg_grow(rqs, cap, *n + 1, sizeof **rqs) < 0) {
        io->nomem = true;
        return false;
    }
    (*rqs)[(*n)++] = rq;
    return true;
}

static void count_bytes(la_io_pstats *p, bool read, int64_t size, uint8_t fd_type)
{
    int64_t *disk = read ? &p->disk_read : &p->disk_write;
    int64_t *net = read ? &p->net_read : &p->net_write;
    int64_t *unk = read ? &p->unk_read : &p->unk_write;
    if (fd_type == LA_FD_DISK)
        *disk += size;
    else if (fd_type == LA_FD_NET || fd_type == LA_FD_MAYBE_NET)
        *net += size;
    else
        *unk += size;
}

void la_io_notify_rq_exit(la_io *io, size_t proc, size_t parent, size_t rqi)
{
    if (!io->open || !pstats(io, proc) || !pstats(io, parent))
        return;
    const la_proc *sp = la_proc_at(&io->run->st, proc), *spp = la_proc_at(&io->run->st, parent);
    la_io_pstats *p = la_io_pstats_of(io, sp->tid), *pp = la_io_pstats_of(io, spp->tid);
    const la_iorq *rq = &io->rqs[rqi];
    bool rw = rq->op == LA_IO_READ || rq->op == LA_IO_WRITE;
    uint8_t fd_type = LA_FD_UNKNOWN;
    if (!rq->err && rw) {
        const la_io_fdstats *f = la_io_get_fd(io, pp, rq->fd, LA_NONE);
        if (!f)
            return;
        fd_type = f->fd_type;
    }
    if (!add_rq(io, &p->rqs, &p->n_rqs, &p->cap_rqs, rqi))
        return;
    if (rq->size != LA_NONE && !rq->err && rw)
        count_bytes(p, rq->op == LA_IO_READ, rq->returned_size, fd_type);
    la_io_fdstats *f = !rq->err && rq->fd != LA_NONE ? la_io_get_fd(io, pp, rq->fd, LA_NONE) : NULL;
    if (f && rq->op == LA_IO_READ)
        f->read += rq->returned_size;
    else if (f && rq->op == LA_IO_WRITE)
        f->write += rq->returned_size;
    if (strcmp(p->comm, sp->comm) != 0)
        snprintf(p->comm, sizeof p->comm, "%s", sp->comm);
    if (strcmp(pp->comm, spp->comm) != 0)
        snprintf(pp->comm, sizeof pp->comm, "%s", spp->comm);
}

void la_io_notify_parent(la_io *io, size_t proc, size_t parent)
{
    if (!io->open || !pstats(io, proc) || !pstats(io, parent))
        return;
    la_io_pstats *p = la_io_pstats_of(io, la_proc_at(&io->run->st, proc)->tid);
    la_io_pstats *pp = la_io_pstats_of(io, la_proc_at(&io->run->st, parent)->tid);
    if (p == pp)
        return;
    p->pid = pp->tid;
    for (size_t i = 0; i < p->n_fds; i++) {
        struct la_io_fdlist *have = fdlist(pp, p->fds[i].fd);
        if (!have) {
            struct la_io_fdlist moved = p->fds[i];
            struct la_io_fdlist *l = new_fdlist(io, pp, moved.fd);
            if (!l)
                return;
            *l = moved;
            p->fds[i].items = NULL;
            continue;
        }
        la_io_fdstats *pf = la_io_get_fd(io, pp, p->fds[i].fd, LA_NONE);
        la_io_fdstats *tf = la_io_get_fd(io, p, p->fds[i].fd, LA_NONE);
        if (pf && tf && !*la_io_text(io, pf->filename))
            pf->filename = tf->filename;
    }
    for (size_t i = 0; i < p->n_fds; i++)
        free(p->fds[i].items);
    p->n_fds = 0;
}

static la_io_pdisk *pdisk(la_io *io, int64_t dev, uint32_t name)
{
    uint64_t *slot;
    int added = tg_hash_insert(&io->pdisk_by_dev, (uint64_t)dev, &slot);
    if (added < 0 || (added && tg_grow(&io->pdisks, &io->cap_pdisks, io->n_pdisks + 1,
                                       sizeof *io->pdisks) < 0)) {
        io->nomem = true;
        return NULL;
    }
    if (added) {
        if (name == LA_IO_NOSTR) { /* _get_name_from_dev */
            char text[48];
            int n = snprintf(text, sizeof text, "(%lld,%lld)", (long long)(dev >> 20),
                             (long long)(dev & ((1 << 20) - 1)));
            if ((name = la_io_str(io, text, (size_t)n)) == LA_IO_NOSTR) {
                io->nomem = true;
                return NULL;
            }
        }
        *slot = io->n_pdisks;
        io->pdisks[io->n_pdisks++] = (la_io_pdisk){.dev = dev, .name = name};
    }
    return &io->pdisks[*slot];
}

void la_io_notify_block(la_io *io, size_t rqi, long proc, int64_t dev, uint32_t diskname)
{
    la_io_pdisk *d;
    if (!io->open || !(d = pdisk(io, dev, diskname)))
        return;
    const la_iorq *rq = &io->rqs[rqi];
    d->sectors += rq->nr_sector;
    d->duration += rq->end - rq->begin;
    if (!add_rq(io, &d->rqs, &d->n_rqs, &d->cap_rqs, rqi) || proc < 0)
        return;
    la_io_pstats *p = pstats(io, (size_t)proc);
    if (!p || !add_rq(io, &p->rqs, &p->n_rqs, &p->cap_rqs, rqi))
        return;
    if (rq->op == LA_IO_READ)
        p->block_read += rq->size;
    else if (rq->op == LA_IO_WRITE)
        p->block_write += rq->size;
}

void la_io_notify_disk(la_io *io, int64_t dev, uint32_t diskname)
{
    if (!io->open)
        return;
    bool had = tg_hash_find(&io->pdisk_by_dev, (uint64_t)dev) != NULL;
    la_io_pdisk *d = pdisk(io, dev, diskname);
    if (d && had)
        d->name = diskname;
}

void la_io_notify_net(la_io *io, uint32_t name, int64_t bytes, bool sent)
{
    if (!io->open)
        return;
    la_io_iface *f = NULL;
    for (size_t i = 0; i < io->n_ifaces && !f; i++)
        if (strcmp(la_io_text(io, io->ifaces[i].name), la_io_text(io, name)) == 0)
            f = &io->ifaces[i];
    if (!f) {
        if (tg_grow(&io->ifaces, &io->cap_ifaces, io->n_ifaces + 1, sizeof *io->ifaces) < 0) {
            io->nomem = true;
            return;
        }
        f = &io->ifaces[io->n_ifaces++];
        *f = (la_io_iface){.name = name};
    }
    if (sent)
        f->sent += bytes;
    else
        f->recv += bytes;
}

void la_io_period_free(la_io *io)
{
    for (size_t i = 0; i < io->n_ps; i++) {
        for (size_t k = 0; k < io->ps[i].n_fds; k++)
            free(io->ps[i].fds[k].items);
        free(io->ps[i].fds);
        free(io->ps[i].rqs);
    }
    free(io->ps);
    tg_hash_free(&io->ps_by_tid);
    free(io->fdstats);
    for (size_t i = 0; i < io->n_pdisks; i++)
        free(io->pdisks[i].rqs);
    free(io->pdisks);
    tg_hash_free(&io->pdisk_by_dev);
    free(io->ifaces);
}
