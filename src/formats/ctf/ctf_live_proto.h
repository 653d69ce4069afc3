/* ctf_live_proto.h - the lttng-live viewer protocol's messages, as bytes (protocol 2.4).
 *
 * lttng-relayd serves a running LTTng session to viewers over TCP: the viewer sends a
 * command (a 16-byte header and a fixed payload), the relay answers with a fixed-size reply,
 * sometimes followed by a list of fixed-size records or by data whose length the reply gave.
 * Every integer is big-endian.  This file only encodes requests and decodes replies from
 * byte buffers of the exact sizes below (no I/O: ctf_live.c moves the bytes), so each
 * decoder is a pure function the fuzz target can drive.  A decoder refuses what no relay
 * sends - a name without its NUL, a status outside the protocol - with the reason in words. */
#ifndef TG_CTF_LIVE_PROTO_H
#define TG_CTF_LIVE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    LIVE_CMD_CONNECT = 1,
    LIVE_CMD_LIST_SESSIONS = 2,
    LIVE_CMD_ATTACH_SESSION = 3,
    LIVE_CMD_GET_NEXT_INDEX = 4,
    LIVE_CMD_GET_PACKET = 5,
    LIVE_CMD_GET_METADATA = 6,
    LIVE_CMD_GET_NEW_STREAMS = 7,
    LIVE_CMD_CREATE_SESSION = 8,
};

/* the reply flags of GET_NEXT_INDEX and GET_PACKET */
#define LIVE_FLAG_NEW_METADATA 1u
#define LIVE_FLAG_NEW_STREAM 2u

enum {
    LIVE_ATTACH_OK = 1,
    LIVE_ATTACH_ALREADY,
    LIVE_ATTACH_UNKNOWN,
    LIVE_ATTACH_NOT_LIVE,
    LIVE_ATTACH_SEEK_ERR,
    LIVE_ATTACH_NO_SESSION
};
enum {
    LIVE_INDEX_OK = 1,
    LIVE_INDEX_RETRY,
    LIVE_INDEX_HUP,
    LIVE_INDEX_ERR,
    LIVE_INDEX_INACTIVE,
    LIVE_INDEX_EOF
};
enum { LIVE_PACKET_OK = 1, LIVE_PACKET_RETRY, LIVE_PACKET_ERR, LIVE_PACKET_EOF };
enum { LIVE_METADATA_OK = 1, LIVE_METADATA_NO_NEW, LIVE_METADATA_ERR, LIVE_METADATA_HUP };
enum { LIVE_STREAMS_OK = 1, LIVE_STREAMS_NO_NEW, LIVE_STREAMS_ERR, LIVE_STREAMS_HUP };
enum { LIVE_CREATE_OK = 1, LIVE_CREATE_ERR };

#define LIVE_PROTO_MAJOR 2u
#define LIVE_PROTO_MINOR 4u
#define LIVE_HOST_MAX 64
#define LIVE_NAME_MAX 255
#define LIVE_PATH_MAX 4096

/* sizes on the wire */
#define LIVE_CMD_HEADER_SIZE 16
#define LIVE_CONNECT_SIZE 20
#define LIVE_SESSION_SIZE (8 + 4 + 4 + 4 + LIVE_HOST_MAX + LIVE_NAME_MAX)
#define LIVE_STREAM_SIZE (8 + 8 + 4 + LIVE_PATH_MAX + LIVE_NAME_MAX)
#define LIVE_INDEX_SIZE (7 * 8 + 4 + 4)
#define LIVE_PACKET_REPLY_SIZE 12
#define LIVE_METADATA_REPLY_SIZE 12
#define LIVE_LIST_REPLY_SIZE 4    /* count */
#define LIVE_STREAMS_REPLY_SIZE 8 /* status, count (attach and new streams) */
#define LIVE_REQUEST_MAX (LIVE_CMD_HEADER_SIZE + 20)

typedef struct live_session {
    uint64_t id;
    uint32_t live_timer, clients, streams;
    char host[LIVE_HOST_MAX + 1];
    char name[LIVE_NAME_MAX + 1];
} live_session;

typedef struct live_stream_info {
    uint64_t id, ctf_trace_id;
    bool metadata;
    char path[LIVE_PATH_MAX + 1];
    char channel[LIVE_NAME_MAX + 1];
} live_stream_info;

typedef struct live_index {
    uint64_t offset, packet_size, content_size, ts_begin, ts_end, discarded, stream_id;
    uint32_t status, flags;
} live_index;

typedef struct live_reply {
    uint32_t status, count_or_len, flags; /* as the reply in question has them */
    uint64_t len;
} live_reply;

/* Requests: write the header and payload into out (LIVE_REQUEST_MAX bytes), return the size. */
size_t ctf_live_req_connect(uint8_t *out);
size_t ctf_live_req_plain(uint8_t *out, uint32_t cmd); /* no payload: list, create */
size_t ctf_live_req_attach(uint8_t *out, uint64_t session_id);
size_t ctf_live_req_stream(uint8_t *out, uint32_t cmd, uint64_t id); /* index, metadata, new */
size_t ctf_live_req_packet(uint8_t *out, uint64_t stream_id, uint64_t offset, uint32_t len);

/* Replies: 0, or -1 with why (a short text of at most 200 bytes) filled. */
int ctf_live_parse_connect(const uint8_t *p, uint32_t *major, uint32_t *minor, char *why);
int ctf_live_parse_session(const uint8_t *p, live_session *out, char *why);
int ctf_live_parse_stream(const uint8_t *p, live_stream_info *out, char *why);
int ctf_live_parse_index(const uint8_t *p, live_index *out, char *why);
/* attach / new streams: status, stream count */
int ctf_live_parse_streams_reply(const uint8_t *p, bool attach, live_reply *out, char *why);
int ctf_live_parse_packet_reply(const uint8_t *p, live_reply *out, char *why);
int ctf_live_parse_metadata_reply(const uint8_t *p, live_reply *out, char *why);
/* A stream's channel name is used as a file name: only [A-Za-z0-9_.-], no leading dot. */
bool ctf_live_safe_name(const char *name);

#endif
