/* lttng0_format.c - the legacy LTTng 0.x trace format object: probe, open, describe.
 *
 * Open lists the folder's tracefiles (<channel>_<cpu>, cpus possibly sparse), maps each and
 * reads its block index, takes the trace's clock from the metadata channel's first block
 * (the cycle count there is the start of the timeline, start_time its wall time), then reads
 * the whole metadata channel to learn every marker before any other channel is decoded, as
 * LTTV does.  Every tracefile, the metadata channel included, becomes one stream; events are
 * named after their marker and carry their channel as the class's system. */
#include "formats/lttng0/lttng0_internal.h"

#include "core/grow.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LT0_MAX_TRACEFILES 4096u
#define LT0_MAX_MARKER_COUNT 8192u

/* ---- probe ----------------------------------------------------------------------------- */

static int lt0_probe(const tg_probe_input *in)
{
    if (!in->is_dir || !tg_probe_dir_has(in->path, "metadata_[0-9]*"))
        return 0;
    char *p = tg_path_join(in->path, "metadata_0");
    if (!p)
        return 0;
    uint8_t head[LT0_BLOCK_HEADER_SIZE];
    FILE *f = fopen(p, "rb");
    free(p);
    if (!f)
        return 50;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    lt0_header h;
    const char *why;
    /* a damaged header still gets a reader that says what is wrong with it */
    return lt0_header_parse(head, n, &h, &why) == 0 ? 95 : 50;
}

/* ---- channels and markers -------------------------------------------------------------- */

lt0_channel *lt0_channel_get(lt0_trace *lt, const char *name, size_t len)
{
    for (size_t i = 0; i < lt->n_chans; i++)
        if (strlen(lt->chans[i]->name) == len && memcmp(lt->chans[i]->name, name, len) == 0)
            return lt->chans[i];
    if (tg_grow(&lt->chans, &lt->cap_chans, lt->n_chans + 1, sizeof *lt->chans) < 0)
        return NULL;
    lt0_channel *c = calloc(1, sizeof *c);
    char *nm = c ? malloc(len + 1) : NULL;
    if (!nm) {
        free(c);
        return NULL;
    }
    memcpy(nm, name, len);
    nm[len] = 0;
    c->name = nm;
    lt->chans[lt->n_chans++] = c;
    return c;
}

static int channel_map(lt0_channel *c, uint16_t id, lt0_marker *m)
{
    if (id >= c->n_ids) {
        size_t n = (size_t)id + 1, cap = c->n_ids;
        if (tg_grow(&c->by_id, &cap, n, sizeof *c->by_id) < 0)
            return TG_ERR_NOMEM;
        memset(c->by_id + c->n_ids, 0, (n - c->n_ids) * sizeof *c->by_id);
        c->n_ids = n;
    }
    c->by_id[id] = m;
    return 0;
}

static lt0_marker *marker_get(tg_trace *t, lt0_trace *lt, const char *chan, const char *name)
{
    for (size_t i = 0; i < lt->n_markers; i++)
        if (strcmp(lt->markers[i]->name, name) == 0 && strcmp(lt->markers[i]->channel, chan) == 0)
            return lt->markers[i];
    if (lt->n_markers >= LT0_MAX_MARKER_COUNT ||
        tg_grow(&lt->markers, &lt->cap_markers, lt->n_markers + 1, sizeof *lt->markers) < 0)
        return NULL;
    lt0_marker *m = tg_arena_alloc(&t->arena, sizeof *m);
    if (!m || !(m->channel = tg_arena_strdup(&t->arena, chan)) ||
        !(m->name = tg_arena_strdup(&t->arena, name)))
        return NULL;
    lt->markers[lt->n_markers++] = m;
    return m;
}

/* Parses m's format with its sizes; a format that does not parse leaves m without fields
 * (its events cannot be sized) and is reported at the declaring event. */
static void marker_compile(tg_trace *t, lt0_tracefile *tf, size_t off, lt0_marker *m)
{
    if (!m->format || !m->have_id)
        return;
    const char *why = NULL;
    if (lt0_format_parse(&t->arena, m->format, &m->sizes, &m->fields, &m->n_fields, &why) < 0) {
        tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, off,
                  "marker %s.%s: format \"%s\" does not parse: %s", m->channel, m->name, m->format,
                  why);
        m->format = NULL;
        m->n_fields = 0;
        return;
    }
    lt0_marker_layout(m);
}

/* ---- the metadata channel ------------------------------------------------------------ */

static const char *field_str(const lt0_marker *m, size_t i, const lt0_raw *r)
{
    size_t end;
    long off = lt0_field_offset(m, i, r->data, r->size, r->data_off, &end);
    return off >= 0 && m->fields[i].type == LT0_STRING ? (const char *)r->data + off : NULL;
}

static bool field_uint(const lt0_marker *m, size_t i, const lt0_raw *r, bool be, uint64_t *v)
{
    size_t end;
    long off = lt0_field_offset(m, i, r->data, r->size, r->data_off, &end);
    if (off < 0 || m->fields[i].type == LT0_STRING)
        return false;
    *v = lt0_read_uint(r->data + off, m->fields[i].size, be);
    return true;
}

static bool valid_size(uint64_t v) { return v == 1 || v == 2 || v == 4 || v == 8; }

static int metadata_event(tg_trace *t, lt0_trace *lt, lt0_tracefile *tf, const lt0_raw *r)
{
    const lt0_marker *m = r->m;
    bool is_id = strcmp(m->name, "core_marker_id") == 0;
    if (!is_id && strcmp(m->name, "core_marker_format") != 0)
        return 0;
    const char *chan = m->n_fields > 2 ? field_str(m, 0, r) : NULL;
    const char *name = chan ? field_str(m, 1, r) : NULL;
    if (!name || !*chan || !*name) {
        tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, r->off,
                  "%s: channel and marker names expected", m->name);
        return 0;
    }
    if (!is_id) {
        const char *fmt = field_str(m, 2, r);
        lt0_marker *d = fmt ? marker_get(t, lt, chan, name) : NULL;
        if (!d)
            return fmt ? TG_ERR_NOMEM : 0;
        if (!(d->format = tg_arena_strdup(&t->arena, fmt)))
            return TG_ERR_NOMEM;
        marker_compile(t, tf, r->off, d);
        return 0;
    }
    uint64_t v[6];
    bool be = tf->hdr.big_endian;
    for (size_t i = 0; i < 6; i++) {
        if (2 + i >= m->n_fields || !field_uint(m, 2 + i, r, be, &v[i])) {
            tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, r->off,
                      "core_marker_id %s.%s: id and type sizes expected", chan, name);
            return 0;
        }
    }
    if (!valid_size(v[1]) || !valid_size(v[2]) || !valid_size(v[3]) || !valid_size(v[4]) ||
        v[5] > 8 || v[0] > 0xFFFF) {
        tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, r->off,
                  "core_marker_id %s.%s: sizes int %u long %u pointer %u size_t %u alignment "
                  "%u are not 1, 2, 4 or 8 bytes",
                  chan, name, (unsigned)v[1], (unsigned)v[2], (unsigned)v[3], (unsigned)v[4],
                  (unsigned)v[5]);
        return 0;
    }
    lt0_marker *d = marker_get(t, lt, chan, name);
    lt0_channel *c = d ? lt0_channel_get(lt, chan, strlen(chan)) : NULL;
    if (!c)
        return TG_ERR_NOMEM;
    d->id = (uint16_t)v[0];
    d->have_id = true;
    d->sizes =
        (lt0_sizes){(uint8_t)v[1], (uint8_t)v[2], (uint8_t)v[3], (uint8_t)v[4], (uint8_t)v[5]};
    TG_TRY(channel_map(c, d->id, d));
    marker_compile(t, tf, r->off, d);
    return 0;
}

/* The two markers the metadata channel is written with, known before it says so. */
static int boot_markers(tg_trace *t, lt0_trace *lt)
{
    static const char *const formats[2] = {
        "channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu "
        "size_t #1u%zu alignment #1u%u",
        "channel %s name %s format %s",
    };
    static const char *const names[2] = {"core_marker_id", "core_marker_format"};
    lt0_channel *c = lt0_channel_get(lt, "metadata", 8);
    if (!c)
        return TG_ERR_NOMEM;
    uint8_t a = lt->hdr.arch_size;
    for (uint16_t i = 0; i < 2; i++) {
        lt0_marker *m = marker_get(t, lt, "metadata", names[i]);
        if (!m)
            return TG_ERR_NOMEM;
        m->id = i;
        m->have_id = true;
        m->format = formats[i];
        m->sizes = (lt0_sizes){4, a, a, a, lt->hdr.alignment};
        const char *why;
        TG_TRY(lt0_format_parse(&t->arena, m->format, &m->sizes, &m->fields, &m->n_fields, &why));
        lt0_marker_layout(m);
        TG_TRY(channel_map(c, i, m));
    }
    return 0;
}

int lt0_metadata_read(tg_trace *t, lt0_trace *lt, tg_error **err)
{
    TG_TRY(boot_markers(t, lt));
    for (size_t i = 0; i < lt->n_files; i++) {
        lt0_tracefile *tf = &lt->files[i];
        if (strcmp(tf->chan->name, "metadata") != 0)
            continue;
        lt0_cursor c;
        lt0_cursor_init(&c, lt, tf, NULL); /* small, read once at open */
        for (;;) {
            lt0_raw r;
            tg_error *e = NULL;
            int rc = lt0_cursor_next(&c, &r, &e);
            tg_error_free(e); /* the stream meets and reports the same damage again */
            if (rc == 0)
                break;
            if (rc == 1 && metadata_event(t, lt, tf, &r) < 0)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}

/* ---- open ------------------------------------------------------------------------------ */

static int cmp_file(const void *a, const void *b)
{
    const lt0_tracefile *x = a, *y = b;
    int c = strcmp(x->chan->name, y->chan->name);
    return c ? c : (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* "<channel>_<cpu>" -> channel length and cpu; false for other names. */
static bool split_name(const char *name, size_t *chan_len, int *cpu)
{
    const char *us = strrchr(name, '_');
    if (!us || us == name || !us[1] || strlen(us + 1) > 6)
        return false;
    for (const char *p = us + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    *chan_len = (size_t)(us - name);
    *cpu = atoi(us + 1);
    return true;
}

static int list_tracefiles(tg_trace *t, lt0_trace *lt, const char *path, tg_error **err)
{
    DIR *d = opendir(path);
    if (!d)
        return tg_err(err, TG_ERR_IO, "%s: cannot open the trace folder", path);
    size_t cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        size_t chan_len;
        int cpu;
        if (de->d_name[0] == '.' || !split_name(de->d_name, &chan_len, &cpu))
            continue;
        char *full = tg_path_join(path, de->d_name);
        struct stat st;
        if (!full || stat(full, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(full);
            continue;
        }
        lt0_channel *ch = lt0_channel_get(lt, de->d_name, chan_len);
        if (lt->n_files == LT0_MAX_TRACEFILES || !ch ||
            tg_grow(&lt->files, &cap, lt->n_files + 1, sizeof *lt->files) < 0) {
            free(full);
            rc = lt->n_files == LT0_MAX_TRACEFILES
                     ? tg_err(err, TG_ERR_LIMIT, "%s: more than %u tracefiles", path,
                              LT0_MAX_TRACEFILES)
                     : tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
        lt0_tracefile *tf = &lt->files[lt->n_files++];
        memset(tf, 0, sizeof *tf);
        tf->name = tg_arena_strdup(&t->arena, de->d_name);
        tf->path = tg_arena_strdup(&t->arena, full);
        free(full);
        tf->cpu = cpu;
        tf->chan = ch;
        if (!tf->name || !tf->path) {
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
    }
    closedir(d);
    if (rc == 0 && lt->n_files > 1)
        qsort(lt->files, lt->n_files, sizeof *lt->files, cmp_file);
    return rc;
}

/* The typed attributes from the first metadata block's header.  Event times are the cycle
 * counter turned into ns (start_freq / freq_scale ticks a second), counted from the counter's
 * zero; start_time is the wall time (gettimeofday) of the block's first cycle count, so the
 * trace carries one realtime reading: realtime = event time + sync_offset_ns. */
static int set_attributes(tg_trace *t, const lt0_trace *lt)
{
    const lt0_header *h = &lt->hdr;
    int64_t wall = (int64_t)(h->start_sec * 1000000000ull + h->start_usec * 1000ull), off;
    if (__builtin_sub_overflow(wall, lt->start_ns, &off)) /* damaged: no offset is true */
        off = 0;
    tg_clock_info c = {.name = "tsc",
                       .origin = TG_CLOCK_CYCLES,
                       .frequency_hz =
                           h->freq_scale ? h->start_freq / h->freq_scale : h->start_freq,
                       .sync_origin = TG_CLOCK_REALTIME,
                       .sync_offset_ns = off};
    TG_TRY(tg_trace_set_clock_info(t, &c));
    tg_host_info host = {.word_bits = h->arch_size == 4 || h->arch_size == 8 ? h->arch_size * 8 : 0,
                         .byte_order = h->big_endian ? 2 : 1};
    TG_TRY(tg_trace_set_host(t, &host));
    TG_TRY(tg_trace_set_tracer(t, "ltt", NULL));
    TG_TRY(tg_trace_add_env_int(t, "start_freq", (int64_t)h->start_freq));
    TG_TRY(tg_trace_add_env_int(t, "freq_scale", h->freq_scale));
    TG_TRY(tg_trace_add_env_int(t, "start_time_sec", (int64_t)h->start_sec));
    TG_TRY(tg_trace_add_env_int(t, "start_time_usec", (int64_t)h->start_usec));
    TG_TRY(tg_trace_add_env_int(t, "alignment", h->alignment));
    return 0;
}

static int lt0_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    lt0_trace *lt = calloc(1, sizeof *lt);
    if (!lt)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = lt;
    TG_TRY(list_tracefiles(t, lt, path, err));
    lt0_tracefile *meta = NULL;
    for (size_t i = 0; i < lt->n_files; i++) {
        lt0_tracefile *tf = &lt->files[i];
        TG_TRY(tg_map_open(&tf->map, tf->path, err));
        tg_error *first = NULL;
        if (lt0_blocks_index(tf, &first) < 0) {
            if (tg_error_status(first) == TG_ERR_NOMEM ||
                (!meta && strcmp(tf->chan->name, "metadata") == 0)) {
                tg_err_append(err, first);
                return tg_err_wrap(err, "%s: not a readable LTTng 0.x tracefile", tf->name);
            }
            tg_err_append(&tf->damage, first); /* this stream only reports it */
            continue;
        }
        if (!meta && strcmp(tf->chan->name, "metadata") == 0 && tf->n_blocks)
            meta = tf;
    }
    if (!meta)
        return tg_err(err, TG_ERR_FORMAT, "%s: no metadata_<cpu> tracefile with a block", path);
    lt->hdr = meta->hdr;
    lt->ns_per_cycle_num = 1e9 * (double)lt->hdr.freq_scale;
    lt->start_ns = lt0_tsc_to_ns(lt, meta->blocks[0].begin_tsc);
    lt->start_tsc = meta->blocks[0].begin_tsc;

    char ver[16];
    snprintf(ver, sizeof ver, "%u.%u", lt->hdr.major, lt->hdr.minor);
    tg_trace_set_version(t, ver);
    TG_TRY(set_attributes(t, lt));

    TG_TRY(lt0_metadata_read(t, lt, err));
    for (size_t i = 0; i < lt->n_markers; i++) {
        lt0_marker *m = lt->markers[i];
        if (!m->have_id)
            continue;
        size_t chan_index = 0;
        while (chan_index < lt->n_chans && strcmp(lt->chans[chan_index]->name, m->channel))
            chan_index++;
        m->cls =
            tg_trace_add_class(t, m->name, ((uint64_t)chan_index << 16) | m->id, TG_KIND_GENERIC);
        if (!m->cls)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        m->cls->system = m->channel;
    }
    lt->lost_cls = tg_trace_add_class(t, "lost events", UINT64_MAX, TG_KIND_LOST);
    if (!lt->lost_cls)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < lt->n_files; i++)
        if (lt0_stream_add(t, lt, &lt->files[i]) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

/* ---- describe and close ------------------------------------------------------------------ */

static int lt0_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    (void)err;
    const lt0_trace *lt = t->priv;
    const lt0_header *h = &lt->hdr;
    tg_buf_printf(out, "LTTng 0.x trace format %u.%u, %s-endian, %u-byte pointers, %s\n", h->major,
                  h->minor, h->big_endian ? "big" : "little", h->arch_size,
                  h->alignment ? "aligned" : "packed");
    tg_buf_printf(out, "start time: %llu.%06llu (cycle count %llu)\n",
                  (unsigned long long)h->start_sec, (unsigned long long)h->start_usec,
                  (unsigned long long)lt->start_tsc);
    tg_buf_printf(out, "cycle counter: %llu Hz / %u\n", (unsigned long long)h->start_freq,
                  h->freq_scale);
    size_t n_markers = 0;
    for (size_t i = 0; i < lt->n_markers; i++)
        n_markers += lt->markers[i]->have_id;
    tg_buf_printf(out, "markers: %zu in %zu channels\ntracefiles: %zu\n", n_markers, lt->n_chans,
                  lt->n_files);
    for (size_t i = 0; i < lt->n_files; i++) {
        const lt0_tracefile *tf = &lt->files[i];
        uint32_t lost = tf->n_blocks ? tf->blocks[tf->n_blocks - 1].events_lost : 0;
        tg_buf_printf(out, "  %-20s %zu blocks, %zu bytes, %u events lost%s\n", tf->name,
                      tf->n_blocks, tf->map.size, lost, tf->damage ? ", damaged" : "");
    }
    return 0;
}

static void lt0_close(tg_trace *t)
{
    lt0_trace *lt = t->priv;
    if (!lt)
        return;
    for (size_t i = 0; i < lt->n_files; i++) {
        tg_map_close(&lt->files[i].map);
        free(lt->files[i].blocks);
        tg_error_free(lt->files[i].damage);
    }
    for (size_t i = 0; i < lt->n_chans; i++) {
        free(lt->chans[i]->by_id);
        free((char *)lt->chans[i]->name);
        free(lt->chans[i]);
    }
    free(lt->files);
    free(lt->chans);
    free(lt->markers);
    free(lt);
    t->priv = NULL;
}

TG_FORMAT(lttng0) = {
    .name = "lttng0",
    .probe = lt0_probe,
    .open = lt0_open,
    .describe = lt0_describe,
    .close = lt0_close,
};
