/* net_socket.h - a TCP connection read and written with bounded waits.
 *
 * The live readers talk to a server (lttng-relayd) that may answer slowly, stop answering or
 * go away.  Every send and receive here waits at most the connection's timeout and looks at
 * the caller's stop flag (set by a signal handler) between short polls, so a reader never
 * hangs and an interrupt ends a wait at once.  Receives are exact: the caller says how many
 * bytes the next reply holds, and gets them all or a status saying why not.  io/ knows no
 * error objects: callers turn a status (and the errno kept in the connection) into one. */
#ifndef TG_NET_SOCKET_H
#define TG_NET_SOCKET_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tg_net_status {
    TG_NET_OK = 0,
    TG_NET_CLOSED = -1,  /* the peer closed the connection (or reset it) */
    TG_NET_TIMEOUT = -2, /* nothing came (or could be sent) within the timeout */
    TG_NET_STOPPED = -3, /* the stop flag was set while waiting */
    TG_NET_FAILED = -4,  /* a system call failed: errno in conn->why */
    TG_NET_RESOLVE = -5  /* the host name does not resolve (conn->resolve_error) */
} tg_net_status;

typedef struct tg_net_conn {
    int fd;                            /* -1: not connected */
    int timeout_ms;                    /* the longest wait for one send or receive */
    const volatile sig_atomic_t *stop; /* NULL: never stopped */
    int why;                           /* errno of the last TG_NET_FAILED */
    const char *resolve_error;         /* gai_strerror of the last TG_NET_RESOLVE */
    uint64_t received;                 /* bytes received so far */
} tg_net_conn;

/* Connects to host:port (a name or a numeric address, IPv4 or IPv6). */
tg_net_status tg_net_connect(tg_net_conn *c, const char *host, const char *port);
/* Wraps an open, connected socket (the connection's owner closes it). */
void tg_net_adopt(tg_net_conn *c, int fd);
tg_net_status tg_net_send(tg_net_conn *c, const void *data, size_t n);
tg_net_status tg_net_recv(tg_net_conn *c, void *data, size_t n);
/* Waits ms milliseconds unless the stop flag is set first (TG_NET_STOPPED). */
tg_net_status tg_net_pause(const tg_net_conn *c, int ms);
void tg_net_close(tg_net_conn *c);
/* What a status means, in words ("the connection was closed by the peer", ...). */
const char *tg_net_status_text(const tg_net_conn *c, tg_net_status st);

#endif
