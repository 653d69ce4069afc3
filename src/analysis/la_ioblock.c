/* la_ioblock.c - the block layer in lttng-analyses' I/O state (la_iostate.c): the disks'
 * names from the statedump, remapped requests, and each disk's pending requests from
 * block_rq_issue to the block_rq_complete of the same disk, sector and size. */
#include "analysis/la_ioclass.h"

#include <string.h>

static struct la_io_sdisk *state_disk(la_io *io, int64_t dev)
{
    uint64_t *slot;
    int added = tg_hash_insert(&io->disk_by_dev, (uint64_t)dev, &slot);
    if (added < 0 ||
        (added && tg_grow(&io->disks, &io->cap_disks, io->n_disks + 1, sizeof *io->disks) < 0)) {
        io->nomem = true;
        return NULL;
    }
    if (added) {
        *slot = io->n_disks;
        io->disks[io->n_disks++] = (struct la_io_sdisk){.dev = dev, .name = LA_IO_NOSTR};
    }
    return &io->disks[*slot];
}

void la_io_on_dump_block(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    int64_t dev = la_io_int_or(ev, c, F_DEV, 0);
    uint32_t name = la_io_str_field(io, ev, c, F_DISKNAME);
    struct la_io_sdisk *d = state_disk(io, dev);
    if (!d)
        return;
    if (d->name == LA_IO_NOSTR)
        d->name = name;
    la_io_notify_disk(io, dev, name);
}

/* a remapped request's first disk; the remap is forgotten when complete */
static int64_t remapped(la_io *io, int64_t dev, int64_t sector, bool complete)
{
    for (size_t i = 0; i < io->n_remaps; i++) {
        struct la_io_remap *m = &io->remaps[i];
        if (m->dev == dev && m->sector == sector) {
            int64_t old = m->old_dev;
            if (complete) {
                memmove(m, m + 1, (io->n_remaps - i - 1) * sizeof *m);
                io->n_remaps--;
            }
            return old;
        }
    }
    return dev;
}

/* Whether a block request writes: LTTng's rwbs is a number whose bit 0 says write
 * (lttng-analyses: an even rwbs reads); ftrace's (trace.dat, perf.data) is blk_fill_rwbs'
 * text ("R", "WS", "FWS", "D", "N"), where only a write has a 'W'. */
static bool rq_writes(const tg_event *ev, const struct la_io_class *c)
{
    tg_value v;
    if (c->field[F_RWBS] < 0 ||
        tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[F_RWBS], &v) < 0)
        return false;
    if (v.type == TG_VAL_STRING)
        return memchr(v.v.str.ptr, 'W', v.v.str.len) != NULL;
    int64_t x;
    return la_io_int_field(ev, c, F_RWBS, &x) && x % 2 != 0;
}

/* The thread a block request is for: LTTng's block_rq_issue records it (tid); ftrace's has
 * none, the request is the issuing thread's, the kernel model's thread of the event (its
 * common_pid, else the task switched in on the event's CPU); 0 when unknown. */
static int64_t rq_tid(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    int64_t tid;
    if (la_io_int_field(ev, c, F_TID, &tid))
        return tid;
    if (ev->tid >= 0)
        return ev->tid;
    const la_state *st = &io->run->st;
    int32_t cpu = ev->cpu;
    if (cpu < 0 || (size_t)cpu >= st->n_cpus || !st->cpus[cpu].known ||
        st->cpus[cpu].current_tid == LA_NONE)
        return 0;
    return st->cpus[cpu].current_tid;
}

void la_io_on_block(la_io *io, const tg_event *ev, const struct la_io_class *c)
{
    int64_t dev = la_io_int_or(ev, c, F_DEV, 0), sector = la_io_int_or(ev, c, F_SECTOR, 0);
    if (c->role == IO_BIO_REMAP) {
        int64_t old_dev = la_io_int_or(ev, c, F_OLD_DEV, 0),
                old_sector = la_io_int_or(ev, c, F_OLD_SECTOR, 0);
        for (size_t i = 0; i < io->n_remaps; i++)
            if (io->remaps[i].dev == old_dev && io->remaps[i].sector == old_sector) {
                io->remaps[i].dev = dev;
                io->remaps[i].sector = sector;
                return;
            }
        if (tg_grow(&io->remaps, &io->cap_remaps, io->n_remaps + 1, sizeof *io->remaps) < 0) {
            io->nomem = true;
            return;
        }
        io->remaps[io->n_remaps++] = (struct la_io_remap){dev, sector, old_dev, old_sector};
        return;
    }
    if (c->role == IO_BIO_BACKMERGE) { /* removed while iterated: the next one is skipped */
        for (size_t i = 0; i < io->n_remaps; i++)
            if (io->remaps[i].dev == dev && io->remaps[i].sector == sector) {
                memmove(&io->remaps[i], &io->remaps[i + 1],
                        (io->n_remaps - i - 1) * sizeof *io->remaps);
                io->n_remaps--;
            }
        return;
    }
    int64_t nr = la_io_int_or(ev, c, F_NR_SECTOR, 0);
    if (nr == 0)
        return;
    if (c->role == IO_RQ_ISSUE) {
        long i = la_io_new_rq(io, ev, NULL, rq_tid(io, ev, c),
                              rq_writes(ev, c) ? LA_IO_WRITE : LA_IO_READ);
        if (i < 0)
            return;
        la_iorq *rq = &io->rqs[i];
        rq->block = true;
        rq->dev = dev;
        rq->sector = sector;
        rq->nr_sector = nr;
        rq->size = nr * 512;
        struct la_io_sdisk *d = state_disk(io, remapped(io, dev, sector, false));
        uint64_t *slot;
        if (!d || tg_hash_insert(&d->pending, (uint64_t)sector, &slot) < 0) {
            io->nomem = true;
            return;
        }
        *slot = (uint64_t)i;
        return;
    }
    struct la_io_sdisk *d = state_disk(io, remapped(io, dev, sector, true));
    uint64_t *slot = d ? tg_hash_find(&d->pending, (uint64_t)sector) : NULL;
    if (!slot)
        return;
    la_iorq *rq = &io->rqs[*slot];
    if (rq->nr_sector != nr)
        return;
    rq->end = ev->ts;
    size_t rqi = (size_t)*slot;
    la_io_notify_block(io, rqi, la_state_find(&io->run->st, rq->tid), d->dev, d->name);
    tg_hash_remove(&d->pending, (uint64_t)sector);
}
