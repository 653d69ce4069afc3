/* kernel_import_fs.c - file-system events as Perfetto draws them:
 *   - android_fs_dataread_start / _end: a slice "android_fs_data_read" for each read of a
 *     file (its inode and offset: the end may come on another thread), on a track of that
 *     read;
 *   - f2fs_iostat_latency: every latency statistic of the device as a counter
 *     "f2fs_iostat_latency.[MAJOR:MINOR].<op>_<kind>_<stat>", the kernel's field names
 *     spelled out (d_rd_peak: read_data_peak, n_wr_s_avg: write_sync_node_avg,
 *     m_wr_as_cnt: write_async_meta_cnt). */
#include "core/kernel_import.h"

#include <stdio.h>
#include <string.h>

enum { FS_DATAREAD_START, FS_DATAREAD_END, FS_F2FS_IOSTAT_LATENCY };

static int dataread(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t ino, offset;
    if (!km_imp_int(ev, "ino", &ino) || !km_imp_int(ev, "offset", &offset))
        return 0;
    static const char name[] = "android_fs_data_read";
    int64_t pair[2] = {ino, offset};
    uint64_t key = km_imp_key(0x66736472u, pair, sizeof pair);
    static const km_imp_how how = {.type = TG_KTRACK_GLOBAL, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track = km_imp_track(c, key, &how, name, sizeof name - 1);
    if (track < 0)
        return (int)track;
    if (member == FS_DATAREAD_END) {
        km_imp_end(c, step, track);
        return 0;
    }
    const char *kept = km_imp_name(c, name, sizeof name - 1);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

/* The counter name of an f2fs_iostat_latency field ("d_rd_peak"), 0 when it is none. */
static int iostat_name(const char *field, char *out, size_t size)
{
    static const struct {
        const char *abbrev, *full;
    } kinds[] = {{"d_", "data"}, {"n_", "node"}, {"m_", "meta"}},
      ops[] = {{"rd_", "read"}, {"wr_s_", "write_sync"}, {"wr_as_", "write_async"}};
    for (size_t k = 0; k < 3; k++) {
        size_t kl = strlen(kinds[k].abbrev);
        if (strncmp(field, kinds[k].abbrev, kl) != 0)
            continue;
        for (size_t o = 0; o < 3; o++) {
            size_t ol = strlen(ops[o].abbrev);
            const char *stat = field + kl + ol;
            if (strncmp(field + kl, ops[o].abbrev, ol) == 0 &&
                (!strcmp(stat, "peak") || !strcmp(stat, "avg") || !strcmp(stat, "cnt")))
                return snprintf(out, size, "%s_%s_%s", ops[o].full, kinds[k].full, stat);
        }
    }
    return 0;
}

static int iostat_latency(tg_kcursor *c, const tg_event *ev, tg_kstep *step)
{
    int64_t dev;
    if (!km_imp_int(ev, "dev", &dev))
        return 0;
    /* the device's numbers as glibc's major() and minor() read a dev_t */
    uint64_t d = (uint64_t)dev;
    unsigned major = (unsigned)(((d >> 8) & 0xfff) | ((d >> 32) & ~0xfffu));
    unsigned minor = (unsigned)((d & 0xff) | ((d >> 12) & ~0xffu));
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count; i++) {
        tg_value v;
        char stat[48], name[128];
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name ||
            (v.type != TG_VAL_UINT && v.type != TG_VAL_SINT) ||
            !iostat_name(v.name, stat, sizeof stat))
            continue;
        int n = snprintf(name, sizeof name, "f2fs_iostat_latency.[%u:%u].%s", major, minor, stat);
        static const km_imp_how how = {
            .type = TG_KTRACK_GLOBAL, .counter = true, .cpu = -1, .utid = -1, .upid = -1};
        int64_t track =
            km_imp_track(c, km_imp_key(0x66326673u, name, (size_t)n), &how, name, (size_t)n);
        if (track < 0)
            return (int)track;
        TG_TRY(
            km_imp_counter(c, step, track, v.type == TG_VAL_UINT ? (double)v.v.u : (double)v.v.s));
    }
    return 0;
}

static int fs_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    return member == FS_F2FS_IOSTAT_LATENCY ? iostat_latency(c, ev, step)
                                            : dataread(c, member, ev, ts, step);
}

static const char *const fs_names[] = {"android_fs_dataread_start", "android_fs_dataread_end",
                                       "f2fs_iostat_latency", NULL};
const km_importer km_import_fs = {fs_names, fs_event};
