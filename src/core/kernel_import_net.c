/* kernel_import_net.c - network events as Perfetto draws them: inet_sock_set_state of TCP
 * sockets as the states of a stream.
 *
 * Each socket (its skaddr) is a stream with a track "TCP stream#N", numbered in the order
 * the streams are first seen; a socket that starts connecting again (SYN_SENT) is a new
 * stream.  Each state change ends the state's slice and begins the next one, named by the
 * state ("TCP_ESTABLISHED"), with who connects for SYN_SENT ("(pid=...)", the thread that
 * changed it) and the ports for ESTABLISHED ("(sport=...,dport=...)"). */
#include "core/kernel_import.h"

#include <stdio.h>

enum { TCP_PROTOCOL = 6, TCP_ESTABLISHED = 1, TCP_SYN_SENT = 2 };

static const char *const tcp_states[] = {NULL,
                                         "TCP_ESTABLISHED",
                                         "TCP_SYN_SENT",
                                         "TCP_SYN_RECV",
                                         "TCP_FIN_WAIT1",
                                         "TCP_FIN_WAIT2",
                                         "TCP_TIME_WAIT",
                                         "TCP_CLOSE",
                                         "TCP_CLOSE_WAIT",
                                         "TCP_LAST_ACK",
                                         "TCP_LISTEN",
                                         "TCP_CLOSING",
                                         "TCP_NEW_SYN_RECV"};

static int sock_set_state(tg_kcursor *c, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t protocol, state, skaddr, sport = 0, dport = 0;
    if (!km_imp_int(ev, "protocol", &protocol) || protocol != TCP_PROTOCOL ||
        !km_imp_int(ev, "newstate", &state) || !km_imp_int(ev, "skaddr", &skaddr) || state <= 0 ||
        state >= (int64_t)(sizeof tcp_states / sizeof *tcp_states))
        return 0;
    km_imp_int(ev, "sport", &sport);
    km_imp_int(ev, "dport", &dport);
    /* the socket's stream number (0: none yet), and the streams so far */
    uint64_t *streams = km_imp_slot(c, km_imp_key_int(0x74637073u, -1));
    if (!streams)
        return TG_ERR_NOMEM;
    uint64_t count = *streams;
    uint64_t *stream = km_imp_slot(c, km_imp_key_int(0x74637073u, skaddr));
    if (!stream)
        return TG_ERR_NOMEM;
    bool fresh = *stream == 0 || state == TCP_SYN_SENT;
    if (fresh)
        *stream = count + 1;
    uint64_t number = *stream;
    if (fresh && !(streams = km_imp_slot(c, km_imp_key_int(0x74637073u, -1))))
        return TG_ERR_NOMEM;
    if (fresh)
        *streams = count + 1;
    char name[96];
    int n = snprintf(name, sizeof name, "TCP stream#%llu", (unsigned long long)number);
    static const km_imp_how how = {.type = TG_KTRACK_GLOBAL, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track =
        km_imp_track(c, km_imp_key_int(0x74637074u, (int64_t)number), &how, name, (size_t)n);
    if (track < 0)
        return (int)track;
    km_imp_end(c, step, track); /* the state before ends */
    if (state == TCP_SYN_SENT)
        n = snprintf(name, sizeof name, "%s(pid=%d)", tcp_states[state], (int)ev->tid);
    else if (state == TCP_ESTABLISHED)
        n = snprintf(name, sizeof name, "%s(sport=%lld,dport=%lld)", tcp_states[state],
                     (long long)sport, (long long)dport);
    else
        n = snprintf(name, sizeof name, "%s", tcp_states[state]);
    const char *kept = km_imp_name(c, name, (size_t)n);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static int net_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member;
    return sock_set_state(c, ev, ts, step);
}

static const char *const net_names[] = {"inet_sock_set_state", NULL};
const km_importer km_import_net = {net_names, net_event};
