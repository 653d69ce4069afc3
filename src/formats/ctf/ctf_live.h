/* ctf_live.h - the lttng-live viewer (ctf_live.c): what the CTF format offers core/ as its
 * live source (struct tg_format's live_record and live_list). */
#ifndef TG_CTF_LIVE_H
#define TG_CTF_LIVE_H

#include "core/format_api.h"
#include "io/net_socket.h"

/* Reads the sessions named host/session from the relay on net into dir (one folder per CTF
 * trace) until they end, the stop flag is set, or an error: 0 (res says which), <0 error
 * (dir keeps the whole packets received before it). */
int ctf_live_record(tg_net_conn *net, const char *where, const char *host, const char *session,
                    const char *dir, const tg_live_params *p, tg_live_result *res, tg_error **err);
/* Writes the relay's sessions as `babeltrace2 -i lttng-live net://HOST` lists them. */
int ctf_live_list(tg_net_conn *net, const char *where, tg_buf *out, const tg_live_params *p,
                  tg_error **err);

#endif
