/* kernel_import_virtio_video.c - a virtio video device's traffic as Perfetto draws it:
 *   - virtio_video_resource_queue .. virtio_video_resource_queue_done: a resource's time in
 *     a stream's queue, a slice "Resource #<resource_id>" on "virtio_video stream #<stream>
 *     INPUT" / "OUTPUT" (by queue_type; "Unknown" for another), resources queued at once on
 *     tracks of their own (a set), the done event's fields as the slice's args;
 *   - virtio_video_cmd / virtio_video_cmd_done: a command sent and answered, a slice of
 *     100 us named by the command (RESOURCE_QUEUE, ...) on "virtio_video stream #<stream>
 *     Requests" / "Responses". */
#include "core/kernel_import.h"

#include <stdio.h>
#include <string.h>

enum { VV_QUEUE, VV_QUEUE_DONE, VV_CMD, VV_CMD_DONE };

enum { QUEUE_INPUT = 0x100, QUEUE_OUTPUT = 0x101, COMMAND_DUR = 100000 };

static const char *const commands[] = {
    "QUERY_CAPABILITY", "STREAM_CREATE",  "STREAM_DESTROY",       "STREAM_DRAIN",
    "RESOURCE_CREATE",  "RESOURCE_QUEUE", "RESOURCE_DESTROY_ALL", "QUEUE_CLEAR",
    "GET_PARAMS",       "SET_PARAMS",     "QUERY_CONTROL",        "GET_CONTROL",
    "SET_CONTROL",      "GET_PARAMS_EXT", "SET_PARAMS_EXT",
}; /* from 0x100 */

static const char *queue_name(int64_t queue_type)
{
    return queue_type == QUEUE_INPUT ? "INPUT" : queue_type == QUEUE_OUTPUT ? "OUTPUT" : "Unknown";
}

static const km_imp_how global = {.type = TG_KTRACK_GLOBAL, .cpu = -1, .utid = -1, .upid = -1};

static int resource_event(tg_kcursor *c, bool done, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t stream = 0, resource = 0, queue_type = 0;
    km_imp_int(ev, "stream_id", &stream);
    km_imp_int(ev, "resource_id", &resource);
    km_imp_int(ev, "queue_type", &queue_type);
    char track_name[96];
    int n = snprintf(track_name, sizeof track_name, "virtio_video stream #%d %s", (int)stream,
                     queue_name(queue_type));
    uint64_t set = km_imp_key(0x76766971u, track_name, (size_t)n);
    int64_t ids[3] = {stream, resource, queue_type};
    uint64_t cookie = km_imp_key(0x76766363u, ids, sizeof ids);
    if (done) {
        int64_t track = km_imp_set_end(c, set, cookie, &global, track_name, (size_t)n);
        if (track < 0)
            return track == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
        km_imp_end(c, step, track);
        static const char *const ints[] = {"data_size0", "data_size1", "data_size2", "data_size3"};
        km_imp_arg_int(c, step, "stream_id", stream);
        km_imp_arg_int(c, step, "resource_id", resource);
        const char *q = queue_name(queue_type);
        TG_TRY(km_imp_arg_text(c, step, "queue_type", q, strlen(q)));
        for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
            int64_t v = 0;
            km_imp_int(ev, ints[i], &v);
            km_imp_arg_int(c, step, ints[i], v);
        }
        int64_t stamp = 0;
        km_imp_int(ev, "timestamp", &stamp);
        km_imp_arg_int(c, step, "timestamp", stamp);
        return 0;
    }
    int64_t track = km_imp_set_begin(c, set, cookie, ts, &global, track_name, (size_t)n);
    if (track < 0)
        return track == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
    char name[48];
    int len = snprintf(name, sizeof name, "Resource #%u", (unsigned)resource);
    const char *kept = km_imp_name(c, name, (size_t)len);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static int command_event(tg_kcursor *c, bool done, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t stream = 0, type = 0;
    km_imp_int(ev, "stream_id", &stream);
    km_imp_int(ev, "type", &type);
    char track_name[96];
    int n = snprintf(track_name, sizeof track_name, "virtio_video stream #%d %s", (int)stream,
                     done ? "Responses" : "Requests");
    uint64_t set = km_imp_key(0x76766971u, track_name, (size_t)n);
    int64_t track = km_imp_set_scoped(c, set, ts, COMMAND_DUR, &global, track_name, (size_t)n);
    if (track < 0)
        return track == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
    const char *command =
        type >= 0x100 && type < 0x100 + (int64_t)(sizeof commands / sizeof *commands)
            ? commands[type - 0x100]
            : "Unknown";
    const char *kept = km_imp_name(c, command, strlen(command));
    return kept ? km_imp_whole(c, step, track, kept, NULL, ts, COMMAND_DUR) : TG_ERR_NOMEM;
}

static int virtio_video_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts,
                              tg_kstep *step)
{
    if (member == VV_QUEUE || member == VV_QUEUE_DONE)
        return resource_event(c, member == VV_QUEUE_DONE, ev, ts, step);
    return command_event(c, member == VV_CMD_DONE, ev, ts, step);
}

static const char *const virtio_video_names[] = {"virtio_video_resource_queue",
                                                 "virtio_video_resource_queue_done",
                                                 "virtio_video_cmd", "virtio_video_cmd_done", NULL};
const km_importer km_import_virtio_video = {virtio_video_names, virtio_video_event};
