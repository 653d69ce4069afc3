/* uftrace_builtin.c - uftrace's built-in events (`uftrace record -T FUNC@read=proc/statm`,
 * `read=page-fault`, `read=pmu-cycle|pmu-cache|pmu-branch`) as event classes with typed fields.
 *
 * The recorder writes a read:* record with the counters' absolute values at the function's
 * entry and a diff:* record with their change at its exit (it subtracts), each as up to three
 * 64-bit words after the event's length.  Each of the ten events is its own class, named as
 * uftrace prints it, so a consumer filters and counts them by name; read:* classes are
 * TG_KIND_COUNTER (the writers draw them as counter tracks), diff:* ones generic.  The values
 * are decoded once when the record is read (into ev->aux[1..3]) and given out as unsigned
 * (read:*) or signed (diff:*) payload fields with uftrace's names; the rendering is uftrace
 * replay's own text, with the ratios it derives. */
#include "formats/uftrace/uftrace_internal.h"

#include <inttypes.h>

struct uft_builtin {
    const char *name;
    bool diff;  /* the change at exit (signed), else absolute values at entry */
    bool kib;   /* the values count KB (proc/statm) */
    unsigned n; /* fields */
    const char *field[3];
};

/* by id - UFT_EV_BUILTIN - 1, as the recorder numbers them */
static const struct uft_builtin builtins[UFT_N_BUILTIN] = {
    {"read:proc/statm", false, true, 3, {"vmsize", "vmrss", "shared"}},
    {"read:page-fault", false, false, 2, {"major", "minor"}},
    {"diff:proc/statm", true, true, 3, {"vmsize", "vmrss", "shared"}},
    {"diff:page-fault", true, false, 2, {"major", "minor"}},
    {"read:pmu-cycle", false, false, 2, {"cycle", "instructions"}},
    {"diff:pmu-cycle", true, false, 2, {"cycle", "instructions"}},
    {"read:pmu-cache", false, false, 2, {"refers", "misses"}},
    {"diff:pmu-cache", true, false, 2, {"refers", "misses"}},
    {"read:pmu-branch", false, false, 2, {"branch", "misses"}},
    {"diff:pmu-branch", true, false, 2, {"branch", "misses"}},
};

bool uft_builtin_classes_add(tg_trace *t, struct uft_data *d)
{
    for (unsigned i = 0; i < UFT_N_BUILTIN; i++) {
        const struct uft_builtin *b = &builtins[i];
        d->cls_builtin[i] = tg_trace_add_class(t, b->name, UFT_EV_BUILTIN + 1 + i,
                                               b->diff ? TG_KIND_GENERIC : TG_KIND_COUNTER);
        if (!d->cls_builtin[i])
            return false;
    }
    return true;
}

tg_event_class *uft_builtin_class(const struct uft_data *d, uint64_t id)
{
    uint64_t k = id - UFT_EV_BUILTIN - 1;
    return k < UFT_N_BUILTIN ? d->cls_builtin[k] : NULL;
}

void uft_builtin_values(const struct uft_data *d, const uint8_t *p, size_t len, tg_event *ev)
{
    for (unsigned i = 0; i < 3; i++) {
        uint64_t v = 0;
        if (len >= (i + 1) * 8)
            v = d->big_endian ? tg_be64(p + i * 8) : tg_le64(p + i * 8);
        ev->aux[1 + i] = v;
    }
}

/* The built-in event's index, or -1 when ev is not one. */
static int builtin_of(const struct uft_data *d, const tg_event *ev)
{
    uint64_t k = ev->addr - UFT_EV_BUILTIN - 1;
    return k < UFT_N_BUILTIN && ev->cls == d->cls_builtin[k] ? (int)k : -1;
}

size_t uft_builtin_field_count(const struct uft_data *d, const tg_event *ev, tg_scope scope)
{
    int k = builtin_of(d, ev);
    return k >= 0 && scope == TG_SCOPE_PAYLOAD ? builtins[k].n : 0;
}

int uft_builtin_field(const struct uft_data *d, const tg_event *ev, tg_scope scope, size_t i,
                      tg_value *out)
{
    int k = builtin_of(d, ev);
    if (k < 0 || scope != TG_SCOPE_PAYLOAD || i >= builtins[k].n)
        return TG_ERR_USAGE;
    const struct uft_builtin *b = &builtins[k];
    *out = (tg_value){.name = b->field[i], .bits = 64, .base = 10};
    out->type = b->diff ? TG_VAL_SINT : TG_VAL_UINT;
    out->v.u = ev->aux[1 + i];
    if (b->kib)
        out->flags = TG_VALF_KIB;
    return 0;
}

/* A ratio of two counter changes as uftrace prints it (0 when there was no change). */
static int64_t percent(int64_t all, int64_t missed) { return all ? (all - missed) * 100 / all : 0; }

/* The values and the ratio uftrace derives ("vmsize=15492KB vmrss=7584KB shared=5476KB");
 * signed: a diff:* event's change with its sign (replay's "+1"), else without ("1", dump's). */
static void put_values(const struct uft_builtin *b, const tg_event *ev, bool signed_diff,
                       tg_buf *out)
{
    uint64_t v[3] = {ev->aux[1], ev->aux[2], ev->aux[3]};
    int64_t s[3] = {(int64_t)v[0], (int64_t)v[1], (int64_t)v[2]};
    const char *unit = b->kib ? "KB" : "";
    for (unsigned i = 0; i < b->n; i++) {
        if (b->diff && !signed_diff)
            tg_buf_printf(out, "%s%s=%" PRId64 "%s", i ? " " : "", b->field[i], s[i], unit);
        else if (b->diff)
            tg_buf_printf(out, "%s%s=%+" PRId64 "%s", i ? " " : "", b->field[i], s[i], unit);
        else
            tg_buf_printf(out, "%s%s=%" PRIu64 "%s", i ? " " : "", b->field[i], v[i], unit);
    }
    switch (ev->addr - UFT_EV_BUILTIN) {
    case 6: tg_buf_printf(out, " IPC=%.2f", s[0] ? (double)s[1] / (double)s[0] : 0.0); break;
    case 8: tg_buf_printf(out, " hit=%" PRId64 "%%", percent(s[0], s[1])); break;
    case 10: tg_buf_printf(out, " predict=%" PRId64 "%%", percent(s[0], s[1])); break;
    default: break;
    }
}

bool uft_builtin_render(const struct uft_data *d, const tg_event *ev, tg_buf *out)
{
    int k = builtin_of(d, ev);
    if (k < 0)
        return false;
    tg_buf_puts(out, builtins[k].name);
    tg_buf_puts(out, " (");
    put_values(&builtins[k], ev, true, out);
    tg_buf_putc(out, ')');
    return true;
}

bool uft_builtin_dump(const struct uft_data *d, const tg_event *ev, tg_buf *out)
{
    int k = builtin_of(d, ev);
    if (k < 0)
        return false;
    tg_buf_printf(out, "  %s: ", builtins[k].name);
    put_values(&builtins[k], ev, false, out);
    tg_buf_putc(out, '\n');
    return true;
}
