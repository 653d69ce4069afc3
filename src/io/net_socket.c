/* net_socket.c - a TCP connection with bounded waits (net_socket.h).
 *
 * The socket is non-blocking; each send or receive polls in slices of at most 100 ms so the
 * stop flag is seen promptly, and gives up when the connection's timeout has passed without
 * progress (a byte moved restarts the clock: a slow but living peer is not cut off). */
#include "io/net_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TG_NET_SLICE_MS 100

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int stopped(const tg_net_conn *c) { return c->stop && *c->stop; }

/* Waits until fd is ready for events, the timeout passes, or the stop flag is set. */
static tg_net_status wait_ready(tg_net_conn *c, short events, int64_t deadline)
{
    for (;;) {
        if (stopped(c))
            return TG_NET_STOPPED;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return TG_NET_TIMEOUT;
        struct pollfd p = {.fd = c->fd, .events = events};
        int n = poll(&p, 1, left < TG_NET_SLICE_MS ? (int)left : TG_NET_SLICE_MS);
        if (n < 0 && errno != EINTR) {
            c->why = errno;
            return TG_NET_FAILED;
        }
        if (n > 0)
            return TG_NET_OK;
    }
}

tg_net_status tg_net_connect(tg_net_conn *c, const char *host, const char *port)
{
    c->fd = -1;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int g = getaddrinfo(host, port, &hints, &res);
    if (g != 0) {
        c->resolve_error = gai_strerror(g);
        return TG_NET_RESOLVE;
    }
    tg_net_status st = TG_NET_FAILED;
    c->why = ECONNREFUSED;
    for (struct addrinfo *a = res; a && st != TG_NET_OK; a = a->ai_next) {
        int fd =
            socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            c->why = errno;
            continue;
        }
        c->fd = fd;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            st = TG_NET_OK;
        } else if (errno == EINPROGRESS) {
            st = wait_ready(c, POLLOUT, now_ms() + c->timeout_ms);
            int soerr = 0;
            socklen_t len = sizeof soerr;
            if (st == TG_NET_OK && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 &&
                soerr != 0) {
                c->why = soerr;
                st = TG_NET_FAILED;
            }
        } else {
            c->why = errno;
        }
        if (st != TG_NET_OK) {
            close(fd);
            c->fd = -1;
            if (st == TG_NET_STOPPED)
                break;
        }
    }
    freeaddrinfo(res);
    if (st == TG_NET_OK) {
        int one = 1; /* requests are small and each waits for its reply */
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return st;
}

void tg_net_adopt(tg_net_conn *c, int fd)
{
    c->fd = fd;
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

tg_net_status tg_net_send(tg_net_conn *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    int64_t deadline = now_ms() + c->timeout_ms;
    while (n > 0) {
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            deadline = now_ms() + c->timeout_ms;
            continue;
        }
        if (k < 0 && (errno == EPIPE || errno == ECONNRESET))
            return TG_NET_CLOSED;
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            c->why = errno;
            return TG_NET_FAILED;
        }
        tg_net_status st = wait_ready(c, POLLOUT, deadline);
        if (st != TG_NET_OK)
            return st;
    }
    return TG_NET_OK;
}

tg_net_status tg_net_recv(tg_net_conn *c, void *data, size_t n)
{
    uint8_t *p = data;
    int64_t deadline = now_ms() + c->timeout_ms;
    while (n > 0) {
        ssize_t k = recv(c->fd, p, n, 0);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            c->received += (uint64_t)k;
            deadline = now_ms() + c->timeout_ms;
            continue;
        }
        if (k == 0 || (k < 0 && errno == ECONNRESET))
            return TG_NET_CLOSED;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            c->why = errno;
            return TG_NET_FAILED;
        }
        tg_net_status st = wait_ready(c, POLLIN, deadline);
        if (st != TG_NET_OK)
            return st;
    }
    return TG_NET_OK;
}

tg_net_status tg_net_pause(const tg_net_conn *c, int ms)
{
    int64_t deadline = now_ms() + ms;
    for (;;) {
        if (stopped(c))
            return TG_NET_STOPPED;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return TG_NET_OK;
        int slice = left < TG_NET_SLICE_MS ? (int)left : TG_NET_SLICE_MS;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)slice * 1000000};
        nanosleep(&ts, NULL);
    }
}

void tg_net_close(tg_net_conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

const char *tg_net_status_text(const tg_net_conn *c, tg_net_status st)
{
    switch (st) {
    case TG_NET_OK: return "ok";
    case TG_NET_CLOSED: return "the connection was closed by the relay";
    case TG_NET_TIMEOUT: return "no answer within the time limit";
    case TG_NET_STOPPED: return "interrupted";
    case TG_NET_FAILED: return strerror(c->why);
    case TG_NET_RESOLVE: return c->resolve_error ? c->resolve_error : "unknown host";
    }
    return "unknown status";
}
