/* perf_sample.c - the fields of perf.data records: samples by sample_type, and the rest.
 *
 * A SAMPLE record holds, in this order, the fields its attribute's sample_type asks for
 * (include/uapi/linux/perf_event.h, PERF_RECORD_SAMPLE): identifier, ip, pid/tid, time,
 * addr, id, stream_id, cpu, period, read values, call chain, raw data, branch stack, user
 * registers, user stack, weight, data source, transaction, interrupt registers, physical
 * address, cgroup, data and code page sizes, aux data.  Other kernel records carry the
 * same id fields at their end when sample_id_all is set (tid, time, id, stream_id, cpu,
 * identifier).  Every field is decoded in place from the mapped (or inflated) record, on
 * demand; nothing is stored per event. */
#include "formats/perf/perf_internal.h"

#include <string.h>

int perf_sample_parse(const perf_file *pf, const perf_attr *a, const uint8_t *p, size_t n,
                      perf_sample *s)
{
    memset(s, 0, sizeof *s);
    uint64_t st = a->sample_type;
    size_t at = 0;
#define NEED(k)                                                                                    \
    do {                                                                                           \
        if ((k) > n - at)                                                                          \
            return -1;                                                                             \
    } while (0)
#define U64(dst)                                                                                   \
    do {                                                                                           \
        NEED(8);                                                                                   \
        (dst) = perf_u64(pf, p + at);                                                              \
        at += 8;                                                                                   \
    } while (0)
    if (st & PERF_ST_IDENTIFIER)
        U64(s->id);
    if (st & PERF_ST_IP)
        U64(s->ip);
    if (st & PERF_ST_TID) {
        NEED(8);
        s->pid = perf_u32(pf, p + at);
        s->tid = perf_u32(pf, p + at + 4);
        at += 8;
    }
    if (st & PERF_ST_TIME)
        U64(s->time);
    if (st & PERF_ST_ADDR)
        U64(s->addr);
    if (st & PERF_ST_ID)
        U64(s->id);
    if (st & PERF_ST_STREAM_ID)
        U64(s->stream_id);
    if (st & PERF_ST_CPU) {
        NEED(8);
        s->cpu = perf_u32(pf, p + at);
        at += 8;
    }
    if (st & PERF_ST_PERIOD)
        U64(s->period);
    if (st & PERF_ST_READ) {
        uint64_t rf = a->read_format, per = 1 + !!(rf & PERF_RF_ID) + !!(rf & PERF_RF_LOST);
        uint64_t head = !!(rf & PERF_RF_TOTAL_TIME_ENABLED) + !!(rf & PERF_RF_TOTAL_TIME_RUNNING);
        size_t start = at;
        if (rf & PERF_RF_GROUP) {
            uint64_t nr;
            U64(nr);
            if (nr > (n - at) / 8 / per)
                return -1;
            at += 8 * (size_t)(head + nr * per);
            if (at > n)
                return -1;
        } else {
            NEED(8 * (size_t)(head + per));
            at += 8 * (size_t)(head + per);
        }
        s->read = p + start;
        s->read_len = at - start;
    }
    if (st & PERF_ST_CALLCHAIN) {
        U64(s->callchain_nr);
        if (s->callchain_nr > (n - at) / 8)
            return -1;
        s->callchain = p + at;
        at += 8 * (size_t)s->callchain_nr;
    }
    if (st & PERF_ST_RAW) {
        NEED(4);
        s->raw_size = perf_u32(pf, p + at);
        at += 4;
        NEED(s->raw_size);
        s->raw = p + at;
        at += s->raw_size;
    }
    if (st & PERF_ST_BRANCH_STACK) {
        size_t start = at;
        uint64_t nr;
        U64(nr);
        if (a->branch_sample_type & PERF_BRANCH_HW_INDEX) {
            NEED(8);
            at += 8;
        }
        if (nr > (n - at) / 24)
            return -1;
        at += 24 * (size_t)nr;
        s->branch = p + start;
        s->branch_len = at - start;
    }
    if (st & PERF_ST_REGS_USER) {
        size_t start = at;
        uint64_t abi;
        U64(abi);
        if (abi) {
            size_t k = 8 * (size_t)__builtin_popcountll(a->sample_regs_user);
            NEED(k);
            at += k;
        }
        s->regs_user = p + start;
        s->regs_user_len = at - start;
    }
    if (st & PERF_ST_STACK_USER) {
        size_t start = at;
        uint64_t size;
        U64(size);
        if (size > n - at)
            return -1;
        at += (size_t)size;
        if (size) {
            NEED(8);
            at += 8;
        }
        s->stack_user = p + start;
        s->stack_user_len = at - start;
    }
    if (st & (PERF_ST_WEIGHT | PERF_ST_WEIGHT_STRUCT))
        U64(s->weight);
    if (st & PERF_ST_DATA_SRC)
        U64(s->data_src);
    if (st & PERF_ST_TRANSACTION)
        U64(s->transaction);
    if (st & PERF_ST_REGS_INTR) {
        size_t start = at;
        uint64_t abi;
        U64(abi);
        if (abi) {
            size_t k = 8 * (size_t)__builtin_popcountll(a->sample_regs_intr);
            NEED(k);
            at += k;
        }
        s->regs_intr = p + start;
        s->regs_intr_len = at - start;
    }
    if (st & PERF_ST_PHYS_ADDR)
        U64(s->phys_addr);
    if (st & PERF_ST_CGROUP)
        U64(s->cgroup);
    if (st & PERF_ST_DATA_PAGE_SIZE)
        U64(s->data_page_size);
    if (st & PERF_ST_CODE_PAGE_SIZE)
        U64(s->code_page_size);
    if (st & PERF_ST_AUX) {
        uint64_t size;
        U64(size);
        if (size > n - at)
            return -1;
        s->aux = p + at;
        s->aux_len = (size_t)size;
        at += (size_t)size;
    }
#undef U64
#undef NEED
    s->present = st;
    return 0;
}

const perf_attr *perf_sample_attr(const perf_file *pf, const uint8_t *rec, size_t size)
{
    if (pf->n_attrs <= 1)
        return pf->n_attrs ? &pf->attrs[0] : NULL;
    uint64_t st = pf->attrs[0].sample_type;
    size_t at = 8;
    if (!(st & PERF_ST_IDENTIFIER)) {
        if (!(st & PERF_ST_ID))
            return &pf->attrs[0];
        at += 8 * (!!(st & PERF_ST_IP) + !!(st & PERF_ST_TID) + !!(st & PERF_ST_TIME) +
                   !!(st & PERF_ST_ADDR));
    }
    if (at + 8 > size)
        return &pf->attrs[0];
    return perf_attr_of_id(pf, perf_u64(pf, rec + at));
}

bool perf_sample_id(const perf_file *pf, const uint8_t *rec, size_t size, uint64_t *time,
                    uint64_t *id, int32_t *cpu, int32_t *pid, int32_t *tid)
{
    *time = UINT64_MAX;
    if (!pf->sample_id_len || (size_t)pf->sample_id_len > size - 8)
        return false;
    uint64_t st = pf->attrs[0].sample_type;
    const uint8_t *p = rec + size - (size_t)pf->sample_id_len;
    if (st & PERF_ST_TID) {
        *pid = (int32_t)perf_u32(pf, p);
        *tid = (int32_t)perf_u32(pf, p + 4);
        p += 8;
    }
    if (st & PERF_ST_TIME)
        *time = perf_u64(pf, p), p += 8;
    if (st & PERF_ST_ID)
        *id = perf_u64(pf, p), p += 8;
    if (st & PERF_ST_STREAM_ID)
        p += 8;
    if (st & PERF_ST_CPU)
        *cpu = (int32_t)perf_u32(pf, p), p += 8;
    if (st & PERF_ST_IDENTIFIER)
        *id = perf_u64(pf, p);
    return true;
}

/* ---- fields ------------------------------------------------------------------------------ */

enum { K_U32, K_S32, K_U64, K_HEX, K_STR, K_U16 };

typedef struct rec_field {
    const char *name;
    uint16_t off;
    uint8_t kind;
} rec_field;

typedef struct rec_layout {
    const rec_field *f;
    size_t n;
} rec_layout;

static const rec_field f_mmap[] = {{"pid", 8, K_U32},    {"tid", 12, K_U32},
                                   {"addr", 16, K_HEX},  {"len", 24, K_HEX},
                                   {"pgoff", 32, K_HEX}, {"filename", 40, K_STR}};
static const rec_field f_mmap2[] = {
    {"pid", 8, K_U32},   {"tid", 12, K_U32},   {"addr", 16, K_HEX},
    {"len", 24, K_HEX},  {"pgoff", 32, K_HEX}, {"maj", 40, K_U32},
    {"min", 44, K_U32},  {"ino", 48, K_U64},   {"ino_generation", 56, K_U64},
    {"prot", 64, K_U32}, {"flags", 68, K_U32}, {"filename", 72, K_STR}};
static const rec_field f_comm[] = {{"pid", 8, K_U32}, {"tid", 12, K_U32}, {"comm", 16, K_STR}};
static const rec_field f_task[] = {{"pid", 8, K_U32},
                                   {"ppid", 12, K_U32},
                                   {"tid", 16, K_U32},
                                   {"ptid", 20, K_U32},
                                   {"time", 24, K_U64}};
static const rec_field f_lost[] = {{"id", 8, K_U64}, {"lost", 16, K_U64}};
static const rec_field f_throttle[] = {
    {"time", 8, K_U64}, {"id", 16, K_U64}, {"stream_id", 24, K_U64}};
static const rec_field f_aux[] = {
    {"aux_offset", 8, K_HEX}, {"aux_size", 16, K_HEX}, {"flags", 24, K_HEX}};
static const rec_field f_pidtid[] = {{"pid", 8, K_U32}, {"tid", 12, K_U32}};
static const rec_field f_lost_samples[] = {{"lost", 8, K_U64}};
static const rec_field f_switch_wide[] = {{"next_prev_pid", 8, K_U32},
                                          {"next_prev_tid", 12, K_U32}};
static const rec_field f_ksymbol[] = {{"addr", 8, K_HEX},
                                      {"len", 16, K_U32},
                                      {"ksym_type", 20, K_U16},
                                      {"flags", 22, K_U16},
                                      {"name", 24, K_STR}};

#define LAYOUT(a)                                                                                  \
    {                                                                                              \
        a, sizeof a / sizeof *a                                                                    \
    }
static const rec_layout layouts[PERF_REC_KERNEL_MAX] = {
    [PERF_REC_MMAP] = LAYOUT(f_mmap),
    [PERF_REC_MMAP2] = LAYOUT(f_mmap2),
    [PERF_REC_COMM] = LAYOUT(f_comm),
    [PERF_REC_FORK] = LAYOUT(f_task),
    [PERF_REC_EXIT] = LAYOUT(f_task),
    [PERF_REC_LOST] = LAYOUT(f_lost),
    [PERF_REC_THROTTLE] = LAYOUT(f_throttle),
    [PERF_REC_UNTHROTTLE] = LAYOUT(f_throttle),
    [PERF_REC_AUX] = LAYOUT(f_aux),
    [PERF_REC_ITRACE_START] = LAYOUT(f_pidtid),
    [PERF_REC_READ] = LAYOUT(f_pidtid),
    [PERF_REC_LOST_SAMPLES] = LAYOUT(f_lost_samples),
    [PERF_REC_SWITCH_CPU_WIDE] = LAYOUT(f_switch_wide),
    [PERF_REC_KSYMBOL] = LAYOUT(f_ksymbol),
};

/* The sample fields in record order: the bit that brings each. */
typedef struct sample_field_desc {
    const char *name;
    uint32_t bit;
} sample_field_desc;

static const sample_field_desc sample_fields[] = {
    {"ip", PERF_ST_IP},
    {"pid", PERF_ST_TID},
    {"tid", PERF_ST_TID},
    {"time", PERF_ST_TIME},
    {"addr", PERF_ST_ADDR},
    {"id", PERF_ST_ID | PERF_ST_IDENTIFIER},
    {"stream_id", PERF_ST_STREAM_ID},
    {"cpu", PERF_ST_CPU},
    {"period", PERF_ST_PERIOD},
    {"read", PERF_ST_READ},
    {"callchain", PERF_ST_CALLCHAIN},
    {"raw", PERF_ST_RAW},
    {"branch_stack", PERF_ST_BRANCH_STACK},
    {"regs_user", PERF_ST_REGS_USER},
    {"stack_user", PERF_ST_STACK_USER},
    {"weight", PERF_ST_WEIGHT | PERF_ST_WEIGHT_STRUCT},
    {"data_src", PERF_ST_DATA_SRC},
    {"transaction", PERF_ST_TRANSACTION},
    {"regs_intr", PERF_ST_REGS_INTR},
    {"phys_addr", PERF_ST_PHYS_ADDR},
    {"cgroup", PERF_ST_CGROUP},
    {"data_page_size", PERF_ST_DATA_PAGE_SIZE},
    {"code_page_size", PERF_ST_CODE_PAGE_SIZE},
    {"aux", PERF_ST_AUX},
};
#define N_SAMPLE_FIELDS (sizeof sample_fields / sizeof *sample_fields)

static const perf_file *file_of(const tg_event *ev) { return ev->stream->trace->priv; }

/* The scope of a sample's own fields: a tracepoint's payload is its format's fields (as in
 * trace.dat: the event's own, and common_* in TG_SCOPE_COMMON), the sample's in the event
 * context. */
static tg_scope sample_scope(const perf_attr *a)
{
    return a->tp ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
}

size_t perf_field_count(const tg_event *ev, tg_scope scope)
{
    uint64_t type = ev->aux[PERF_AUX_TYPE];
    if (type == PERF_REC_SAMPLE) {
        const perf_file *pf = file_of(ev);
        const perf_attr *a = &pf->attrs[ev->aux[PERF_AUX_ATTR]];
        if (a->tp && scope == TG_SCOPE_PAYLOAD)
            return a->tp->fmt.n_fields;
        if (a->tp && scope == TG_SCOPE_COMMON)
            return a->tp->fmt.n_common;
        if (scope != sample_scope(a))
            return 0;
        uint64_t st = a->sample_type;
        size_t n = 0;
        for (size_t i = 0; i < N_SAMPLE_FIELDS; i++)
            n += (st & sample_fields[i].bit) != 0;
        return n;
    }
    if (scope != TG_SCOPE_PAYLOAD)
        return 0;
    return type < PERF_REC_KERNEL_MAX ? layouts[type].n : 0;
}

static int callchain_child(const tg_value *v, size_t i, tg_value *out)
{
    const perf_file *pf = v->ctx[0];
    const uint8_t *p = v->ctx[1];
    memset(out, 0, sizeof *out);
    if (i >= v->count)
        return TG_ERR_USAGE;
    out->type = TG_VAL_UINT;
    out->bits = 64;
    out->base = 16;
    out->flags = TG_VALF_POINTER;
    out->v.u = perf_u64(pf, p + 8 * i);
    return 0;
}

static size_t callchain_uints(const tg_value *v, size_t first, uint64_t *out, size_t n)
{
    const perf_file *pf = v->ctx[0];
    const uint8_t *p = (const uint8_t *)v->ctx[1] + 8 * first;
    for (size_t i = 0; i < n; i++)
        out[i] = perf_u64(pf, p + 8 * i);
    return n;
}

static const struct tg_value_ops callchain_ops = {.child = callchain_child,
                                                  .uints = callchain_uints};

static void set_uint(tg_value *out, uint64_t v, int bits, int base)
{
    out->type = TG_VAL_UINT;
    out->v.u = v;
    out->bits = (uint16_t)bits;
    out->base = (uint8_t)base;
}

static void set_bytes(tg_value *out, const uint8_t *p, size_t n)
{
    out->type = TG_VAL_BYTES;
    out->v.str.ptr = (const char *)p;
    out->v.str.len = n;
}

static int sample_field(const tg_event *ev, size_t i, tg_value *out)
{
    const perf_file *pf = file_of(ev);
    const perf_attr *a = &pf->attrs[ev->aux[PERF_AUX_ATTR]];
    perf_sample s;
    if (perf_sample_parse(pf, a, ev->data + 8, ev->size - 8, &s) < 0)
        return TG_ERR_FORMAT;
    size_t k = 0;
    const sample_field_desc *f = NULL;
    for (size_t j = 0; j < N_SAMPLE_FIELDS; j++)
        if ((a->sample_type & sample_fields[j].bit) && k++ == i) {
            f = &sample_fields[j];
            break;
        }
    if (!f)
        return TG_ERR_USAGE;
    out->name = f->name;
    switch (f->bit) {
    case PERF_ST_IP: set_uint(out, s.ip, 64, 16), out->flags = TG_VALF_POINTER; break;
    case PERF_ST_TID: set_uint(out, f->name[0] == 'p' ? s.pid : s.tid, 32, 10); break;
    case PERF_ST_TIME: set_uint(out, s.time, 64, 10); break;
    case PERF_ST_ADDR: set_uint(out, s.addr, 64, 16), out->flags = TG_VALF_POINTER; break;
    case PERF_ST_ID | PERF_ST_IDENTIFIER: set_uint(out, s.id, 64, 10); break;
    case PERF_ST_STREAM_ID: set_uint(out, s.stream_id, 64, 10); break;
    case PERF_ST_CPU: set_uint(out, s.cpu, 32, 10); break;
    case PERF_ST_PERIOD: set_uint(out, s.period, 64, 10); break;
    case PERF_ST_READ: set_bytes(out, s.read, s.read_len); break;
    case PERF_ST_CALLCHAIN:
        out->type = TG_VAL_ARRAY;
        out->count = (size_t)s.callchain_nr;
        out->ops = &callchain_ops;
        out->ctx[0] = pf;
        out->ctx[1] = s.callchain;
        break;
    case PERF_ST_RAW: set_bytes(out, s.raw, s.raw_size); break;
    case PERF_ST_BRANCH_STACK: set_bytes(out, s.branch, s.branch_len); break;
    case PERF_ST_REGS_USER: set_bytes(out, s.regs_user, s.regs_user_len); break;
    case PERF_ST_STACK_USER: set_bytes(out, s.stack_user, s.stack_user_len); break;
    case PERF_ST_WEIGHT | PERF_ST_WEIGHT_STRUCT: set_uint(out, s.weight, 64, 10); break;
    case PERF_ST_DATA_SRC: set_uint(out, s.data_src, 64, 16); break;
    case PERF_ST_TRANSACTION: set_uint(out, s.transaction, 64, 16); break;
    case PERF_ST_REGS_INTR: set_bytes(out, s.regs_intr, s.regs_intr_len); break;
    case PERF_ST_PHYS_ADDR: set_uint(out, s.phys_addr, 64, 16), out->flags = TG_VALF_POINTER; break;
    case PERF_ST_CGROUP: set_uint(out, s.cgroup, 64, 10); break;
    case PERF_ST_DATA_PAGE_SIZE: set_uint(out, s.data_page_size, 64, 10); break;
    case PERF_ST_CODE_PAGE_SIZE: set_uint(out, s.code_page_size, 64, 10); break;
    case PERF_ST_AUX: set_bytes(out, s.aux, s.aux_len); break;
    default: return TG_ERR_USAGE;
    }
    return 0;
}

/* A tracepoint field of the sample's raw data. */
static int tracepoint_field(const tg_event *ev, const perf_attr *a, const tg_evf_field *fl,
                            tg_value *out)
{
    const perf_file *pf = file_of(ev);
    perf_sample s;
    if (perf_sample_parse(pf, a, ev->data + 8, ev->size - 8, &s) < 0 || !s.raw)
        return TG_ERR_FORMAT;
    tg_evf_value(fl, s.raw, s.raw_size, pf->tracing_big_endian, out);
    return 0;
}

int perf_render(const tg_event *ev, tg_buf *out)
{
    if (ev->aux[PERF_AUX_TYPE] != PERF_REC_SAMPLE)
        return 0;
    const perf_file *pf = file_of(ev);
    const perf_attr *a = &pf->attrs[ev->aux[PERF_AUX_ATTR]];
    perf_sample s;
    if (!a->tp || perf_sample_parse(pf, a, ev->data + 8, ev->size - 8, &s) < 0 || !s.raw)
        return 0;
    tg_pf_render(&a->tp->pfe, s.raw, s.raw_size, s.raw_size, out);
    return 1;
}

int perf_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    memset(out, 0, sizeof *out);
    uint64_t type = ev->aux[PERF_AUX_TYPE];
    const perf_file *pf = file_of(ev);
    if (type == PERF_REC_SAMPLE) {
        const perf_attr *a = &pf->attrs[ev->aux[PERF_AUX_ATTR]];
        if (a->tp && scope == TG_SCOPE_PAYLOAD && i < a->tp->fmt.n_fields)
            return tracepoint_field(ev, a, &a->tp->fmt.fields[i], out);
        if (a->tp && scope == TG_SCOPE_COMMON && i < a->tp->fmt.n_common)
            return tracepoint_field(ev, a, &a->tp->fmt.common[i], out);
        if (scope != sample_scope(a))
            return TG_ERR_USAGE;
        return sample_field(ev, i, out);
    }
    if (scope != TG_SCOPE_PAYLOAD || type >= PERF_REC_KERNEL_MAX || i >= layouts[type].n)
        return TG_ERR_USAGE;
    const rec_field *f = &layouts[type].f[i];
    /* the record's own bytes end where its sample id fields begin */
    size_t end = ev->size;
    if (pf->sample_id_len && (size_t)pf->sample_id_len <= end - 8)
        end -= (size_t)pf->sample_id_len;
    out->name = f->name;
    size_t w = f->kind == K_STR ? 0 : f->kind == K_U16 ? 2 : f->kind <= K_S32 ? 4 : 8;
    if (f->off + w > end)
        return TG_ERR_FORMAT;
    const uint8_t *p = ev->data + f->off;
    switch (f->kind) {
    case K_U16: set_uint(out, perf_u16(pf, p), 16, 10); break;
    case K_U32: set_uint(out, perf_u32(pf, p), 32, 10); break;
    case K_S32:
        out->type = TG_VAL_SINT;
        out->v.s = (int32_t)perf_u32(pf, p);
        out->bits = 32;
        out->base = 10;
        break;
    case K_U64: set_uint(out, perf_u64(pf, p), 64, 10); break;
    case K_HEX: set_uint(out, perf_u64(pf, p), 64, 16); break;
    case K_STR:
        out->type = TG_VAL_STRING;
        out->v.str.ptr = (const char *)p;
        out->v.str.len = strnlen((const char *)p, end - f->off);
        break;
    default: return TG_ERR_USAGE;
    }
    return 0;
}
