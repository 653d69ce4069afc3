/* ctf_live_proto.c - encoding of lttng-live requests and decoding of the relay's replies
 * (ctf_live_proto.h).  Each decoder reads a buffer of its reply's exact size, which the
 * caller received whole; what it checks is what the protocol promises: names end with a
 * NUL inside their field, statuses and flags are among the defined ones. */
#include "formats/ctf/ctf_live_proto.h"
#include "io/byte_reader.h"

#include <stdio.h>
#include <string.h>

#define WHY_MAX 200

static void put_be32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static size_t header(uint8_t *out, uint32_t cmd, uint64_t payload)
{
    put_be64(out, payload);
    put_be32(out + 8, cmd);
    put_be32(out + 12, 0); /* cmd_version: unused by the protocol */
    return LIVE_CMD_HEADER_SIZE;
}

size_t ctf_live_req_connect(uint8_t *out)
{
    size_t n = header(out, LIVE_CMD_CONNECT, LIVE_CONNECT_SIZE);
    put_be64(out + n, 0); /* the relay assigns the viewer session id */
    put_be32(out + n + 8, LIVE_PROTO_MAJOR);
    put_be32(out + n + 12, LIVE_PROTO_MINOR);
    put_be32(out + n + 16, 1); /* a command connection */
    return n + LIVE_CONNECT_SIZE;
}

size_t ctf_live_req_plain(uint8_t *out, uint32_t cmd) { return header(out, cmd, 0); }

size_t ctf_live_req_attach(uint8_t *out, uint64_t session_id)
{
    size_t n = header(out, LIVE_CMD_ATTACH_SESSION, 20);
    put_be64(out + n, session_id);
    put_be64(out + n + 8, 0);  /* offset: unused */
    put_be32(out + n + 16, 1); /* from the beginning: every packet the relay still has */
    return n + 20;
}

size_t ctf_live_req_stream(uint8_t *out, uint32_t cmd, uint64_t id)
{
    size_t n = header(out, cmd, 8);
    put_be64(out + n, id);
    return n + 8;
}

size_t ctf_live_req_packet(uint8_t *out, uint64_t stream_id, uint64_t offset, uint32_t len)
{
    size_t n = header(out, LIVE_CMD_GET_PACKET, 20);
    put_be64(out + n, stream_id);
    put_be64(out + n + 8, offset);
    put_be32(out + n + 16, len);
    return n + 20;
}

/* Copies a NUL-terminated name of a fixed-size field; -1 when the field holds no NUL. */
static int fixed_name(char *dst, const uint8_t *src, size_t field, const char *what, char *why)
{
    const void *nul = memchr(src, 0, field);
    if (!nul) {
        snprintf(why, WHY_MAX, "%s is not terminated within its %zu bytes", what, field);
        return -1;
    }
    memcpy(dst, src, (size_t)((const uint8_t *)nul - src) + 1);
    return 0;
}

static int bad_status(const char *what, uint32_t status, uint32_t last, char *why)
{
    if (status >= 1 && status <= last)
        return 0;
    snprintf(why, WHY_MAX, "%s status %u is not one the protocol defines (1-%u)", what, status,
             last);
    return -1;
}

int ctf_live_parse_connect(const uint8_t *p, uint32_t *major, uint32_t *minor, char *why)
{
    *major = tg_be32(p + 8);
    *minor = tg_be32(p + 12);
    if (*major != LIVE_PROTO_MAJOR) {
        snprintf(why, WHY_MAX, "the relay speaks protocol %u.%u, this viewer %u.%u", *major, *minor,
                 LIVE_PROTO_MAJOR, LIVE_PROTO_MINOR);
        return -1;
    }
    return 0;
}

int ctf_live_parse_session(const uint8_t *p, live_session *out, char *why)
{
    out->id = tg_be64(p);
    out->live_timer = tg_be32(p + 8);
    out->clients = tg_be32(p + 12);
    out->streams = tg_be32(p + 16);
    if (fixed_name(out->host, p + 20, LIVE_HOST_MAX, "session host name", why) < 0 ||
        fixed_name(out->name, p + 20 + LIVE_HOST_MAX, LIVE_NAME_MAX, "session name", why) < 0)
        return -1;
    return 0;
}

int ctf_live_parse_stream(const uint8_t *p, live_stream_info *out, char *why)
{
    out->id = tg_be64(p);
    out->ctf_trace_id = tg_be64(p + 8);
    uint32_t flag = tg_be32(p + 16);
    if (flag > 1) {
        snprintf(why, WHY_MAX, "stream %llu: metadata flag %u (0 or 1 expected)",
                 (unsigned long long)out->id, flag);
        return -1;
    }
    out->metadata = flag == 1;
    if (fixed_name(out->path, p + 20, LIVE_PATH_MAX, "stream path", why) < 0 ||
        fixed_name(out->channel, p + 20 + LIVE_PATH_MAX, LIVE_NAME_MAX, "channel name", why) < 0)
        return -1;
    return 0;
}

int ctf_live_parse_index(const uint8_t *p, live_index *out, char *why)
{
    uint64_t *f[] = {&out->offset, &out->packet_size, &out->content_size, &out->ts_begin,
                     &out->ts_end, &out->discarded,   &out->stream_id};
    for (size_t i = 0; i < 7; i++)
        *f[i] = tg_be64(p + 8 * i);
    out->status = tg_be32(p + 56);
    out->flags = tg_be32(p + 60);
    if (bad_status("index", out->status, LIVE_INDEX_EOF, why) < 0)
        return -1;
    if (out->status == LIVE_INDEX_OK) {
        /* sizes in bits, whole bytes; the packet is fetched whole, so its size is bounded
         * by what one GET_PACKET can say (a 32-bit byte count) */
        if (out->packet_size % 8 || out->content_size % 8 || out->content_size > out->packet_size ||
            out->packet_size == 0 || out->packet_size / 8 > UINT32_MAX) {
            snprintf(why, WHY_MAX,
                     "index: packet size %llu bits, content %llu bits (whole bytes, content "
                     "within the packet, at most 4 GiB expected)",
                     (unsigned long long)out->packet_size, (unsigned long long)out->content_size);
            return -1;
        }
    }
    return 0;
}

int ctf_live_parse_streams_reply(const uint8_t *p, bool attach, live_reply *out, char *why)
{
    out->status = tg_be32(p);
    out->count_or_len = tg_be32(p + 4);
    out->flags = 0;
    return bad_status(attach ? "attach" : "new streams", out->status,
                      attach ? LIVE_ATTACH_NO_SESSION : LIVE_STREAMS_HUP, why);
}

int ctf_live_parse_packet_reply(const uint8_t *p, live_reply *out, char *why)
{
    out->status = tg_be32(p);
    out->count_or_len = tg_be32(p + 4);
    out->flags = tg_be32(p + 8);
    out->len = out->count_or_len;
    return bad_status("packet", out->status, LIVE_PACKET_EOF, why);
}

int ctf_live_parse_metadata_reply(const uint8_t *p, live_reply *out, char *why)
{
    out->len = tg_be64(p);
    out->status = tg_be32(p + 8);
    out->flags = 0;
    return bad_status("metadata", out->status, LIVE_METADATA_HUP, why);
}

bool ctf_live_safe_name(const char *name)
{
    if (!name[0] || name[0] == '.')
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return false;
    return true;
}
