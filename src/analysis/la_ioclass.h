/* la_ioclass.h - how the I/O state (la_iostate.c, la_ioblock.c) sees an event class: the role
 * of its events and where the fields that role reads are, looked up once per class; and the
 * field readers and request maker both files share. Internal to the I/O analyses. */
#ifndef TG_LA_IOCLASS_H
#define TG_LA_IOCLASS_H

#include "analysis/la_io.h"

enum io_role {
    IO_UNKNOWN = 0,
    IO_NONE,
    IO_ENTRY,
    IO_ENTRY_BY_NUMBER, /* raw_syscalls' sys_enter, LTTng 0.x's syscall_entry */
    IO_FS,              /* LTTng 0.x's fs events in a call: its descriptor, an open's name */
    IO_EXIT,
    IO_CONNECT,
    IO_DUMP_PROC,
    IO_DUMP_FD,
    IO_DUMP_BLOCK,
    IO_RQ_ISSUE,
    IO_RQ_COMPLETE,
    IO_BIO_REMAP,
    IO_BIO_BACKMERGE,
    IO_NET_XMIT,
    IO_NET_RECV,
    IO_FORK,
    IO_EXEC,
};

/* the fields roles read, by name */
enum io_field {
    F_FD,
    F_LEN,
    F_FILENAME,
    F_FLAGS,
    F_FILDES,
    F_OLDFD,
    F_NEWFD,
    F_CMD,
    F_FAMILY,
    F_V4ADDR,
    F_DPORT,
    F_RET,
    F_TID,
    F_PID,
    F_DEV,
    F_SECTOR,
    F_NR_SECTOR,
    F_RWBS,
    F_OLD_DEV,
    F_OLD_SECTOR,
    F_DISKNAME,
    F_NAME,
    F_CHILD_TID,
    F_PARENT_PID,
    N_FIELDS
};

struct la_io_class {
    uint8_t role, call;
    uint32_t name; /* the system call's name */
    int8_t field[N_FIELDS];
    int8_t args;          /* a call by number: the payload position of its raw arguments */
    int8_t arg[N_FIELDS]; /* and each field's position among them, -1: none */
};

/* an integer field of ev (false: absent or not an integer) */
bool la_io_int_field(const tg_event *ev, const struct la_io_class *c, enum io_field f,
                     int64_t *out);
/* an integer field of ev, dflt when absent */
int64_t la_io_int_or(const tg_event *ev, const struct la_io_class *c, enum io_field f,
                     int64_t dflt);
/* a text field as a string of the run (LA_IO_NOSTR: absent) */
uint32_t la_io_str_field(la_io *io, const tg_event *ev, const struct la_io_class *c,
                         enum io_field f);
/* a new request of thread tid begun by ev (c: the system call's class, NULL for a block
 * request); its index, -1 when out of memory */
long la_io_new_rq(la_io *io, const tg_event *ev, const struct la_io_class *c, int64_t tid,
                  uint8_t op);

/* the block layer's events (la_ioblock.c) */
void la_io_on_dump_block(la_io *io, const tg_event *ev, const struct la_io_class *c);
void la_io_on_block(la_io *io, const tg_event *ev, const struct la_io_class *c);

#endif
