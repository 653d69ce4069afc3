/* kernel_import_net.c - network events as Perfetto draws them:
 *   - net_dev_xmit (successful ones: rc 0) and netif_receive_skb as counters of the bytes
 *     each device sent or received so far, in KB: "<dev> Transmitted KB", "<dev> Received
 *     KB", with the event's cpu and len as args;
 *   - napi_gro_receive_entry / _exit as a slice named by the device on the CPU's track "Napi
 *     Gro Cpu N", category "napi_gro", args the entry's len and the exit's ret;
 *   - inet_sock_set_state of TCP sockets as the states of a stream.
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

enum { NET_SOCK_SET_STATE, NET_DEV_XMIT, NET_RECEIVE_SKB, NET_GRO_ENTRY, NET_GRO_EXIT };

static int bytes_counter(tg_kcursor *c, int member, const tg_event *ev, tg_kstep *step)
{
    int64_t len, rc = 0;
    const char *dev;
    size_t n = km_imp_text(ev, "name", &dev);
    if (!km_imp_int(ev, "len", &len) || (km_imp_int(ev, "rc", &rc) && rc != 0))
        return 0;
    char name[160];
    int len_name = snprintf(name, sizeof name, "%.*s %s", (int)(n < 128 ? n : 128), n ? dev : "",
                            member == NET_DEV_XMIT ? "Transmitted KB" : "Received KB");
    uint64_t key = km_imp_key(0x6e6574u, name, (size_t)len_name);
    uint64_t *total = km_imp_slot(c, key);
    if (!total)
        return TG_ERR_NOMEM;
    *total += (uint64_t)len;
    double kb = (double)*total / 1024.0;
    static const km_imp_how how = {
        .type = TG_KTRACK_GLOBAL, .counter = true, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track = km_imp_track(c, key, &how, name, (size_t)len_name);
    if (track < 0)
        return (int)track;
    TG_TRY(km_imp_counter(c, step, track, kb));
    km_imp_arg_int(c, step, "cpu", ev->cpu);
    km_imp_arg_int(c, step, "len", len);
    return 0;
}

static int gro(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    if (ev->cpu < 0)
        return 0;
    char name[64];
    int n = snprintf(name, sizeof name, "Napi Gro Cpu %d", (int)ev->cpu);
    static const km_imp_how how = {.type = TG_KTRACK_GLOBAL, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track = km_imp_track(c, km_imp_key_int(0x6e617069u, ev->cpu), &how, name, (size_t)n);
    if (track < 0)
        return (int)track;
    uint64_t *len = km_imp_slot(c, km_imp_key_int(0x6e61706cu, ev->cpu)); /* len + 1 */
    if (!len)
        return TG_ERR_NOMEM;
    int64_t v;
    if (member == NET_GRO_EXIT) {
        if (*len)
            km_imp_arg_int(c, step, "len", (int64_t)*len - 1);
        if (km_imp_int(ev, "ret", &v))
            km_imp_arg_int(c, step, "ret", v);
        km_imp_end(c, step, track);
        return 0;
    }
    *len = km_imp_int(ev, "len", &v) ? (uint64_t)v + 1 : 0;
    const char *dev;
    size_t dn = km_imp_text(ev, "name", &dev);
    const char *kept = km_imp_name(c, dn ? dev : "", dn);
    return kept ? km_imp_begin(c, step, track, kept, "napi_gro", ts) : TG_ERR_NOMEM;
}

static int net_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    switch (member) {
    case NET_SOCK_SET_STATE: return sock_set_state(c, ev, ts, step);
    case NET_DEV_XMIT:
    case NET_RECEIVE_SKB: return bytes_counter(c, member, ev, step);
    default: return gro(c, member, ev, ts, step);
    }
}

static const char *const net_names[] = {"inet_sock_set_state",   "net_dev_xmit",
                                        "netif_receive_skb",     "napi_gro_receive_entry",
                                        "napi_gro_receive_exit", NULL};
const km_importer km_import_net = {net_names, net_event};
