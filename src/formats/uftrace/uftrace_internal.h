/* uftrace_internal.h - the uftrace data directory as the reader holds it in memory.
 *
 * A uftrace directory is many small text files (info, task.txt, sid-*.map, *.sym, *.dbg,
 * events.txt) that describe one or more sessions, plus the binary record files (TID.dat per
 * thread, perf-cpuN.dat per cpu).  open() reads all the small files once into the structures
 * below (allocated in the trace arena: they live exactly as long as the trace), and each
 * record file becomes a stream that decodes its mapped bytes in place.  Symbols and argument
 * specs are looked up per record address through small per-stream caches, so the hot path
 * does no allocation and no string work. */
#ifndef TG_UFTRACE_INTERNAL_H
#define TG_UFTRACE_INTERNAL_H

#include "core/format_api.h"
#include "core/grow.h"
#include "io/byte_reader.h"
#include "core/file_input.h"
#include "io/read_window.h"

#include <stdbool.h>
#include <stdint.h>

/* record types (2 bits) and the 3-bit integrity magic of struct uftrace_record */
enum { UFT_ENTRY = 0, UFT_EXIT = 1, UFT_LOST = 2, UFT_EVENT = 3 };
#define UFT_RECORD_MAGIC 5

/* feature bits of the info header */
#define UFT_FEAT_KERNEL (1u << 2)
#define UFT_FEAT_ARGUMENT (1u << 3)
#define UFT_FEAT_RETVAL (1u << 4)
#define UFT_FEAT_SYM_REL_ADDR (1u << 5)
#define UFT_FEAT_PERF_EVENT (1u << 8)
#define UFT_FEAT_AUTO_ARGS (1u << 9)

/* event ids uftrace puts in the address field of EVENT records (and our class ids) */
#define UFT_EV_BUILTIN 100000u
#define UFT_N_BUILTIN 10 /* read:* and diff:* events UFT_EV_BUILTIN + 1 .. + 10 */
#define UFT_EV_PERF 200000u
#define UFT_EV_SCHED_IN 200001u
#define UFT_EV_SCHED_OUT 200002u
#define UFT_EV_SCHED_BOTH 200003u
#define UFT_EV_TASK_NEW 200004u
#define UFT_EV_TASK_EXIT 200005u
#define UFT_EV_TASK_NAME 200006u
#define UFT_EV_SCHED_OUT_PREEMPT 200007u
#define UFT_EV_SCHED_BOTH_PREEMPT 200008u
#define UFT_EV_USER 1000000u
#define UFT_EV_EXTERN 2000000u

/* ---- argument specs ("arg1/d32", "retval/s", "arg2/e:flags") --------------------------- */

enum uft_argfmt {
    UFT_ARG_AUTO,
    UFT_ARG_SINT,
    UFT_ARG_UINT,
    UFT_ARG_HEX,
    UFT_ARG_OCT,
    UFT_ARG_STR,
    UFT_ARG_STDSTR,
    UFT_ARG_CHAR,
    UFT_ARG_FLOAT,
    UFT_ARG_PTR,
    UFT_ARG_ENUM,
    UFT_ARG_INTPTR,
};

struct uft_arg {
    uint8_t fmt;  /* enum uft_argfmt */
    uint8_t size; /* bytes of the value in the record (strings: see payload) */
    int16_t idx;  /* 1.. for arguments, 0 for the return value */
    char letter;  /* a signed integer's spelling, 'd' or 'i' (uftrace dump prints it) */
    const char *enum_name;
};

struct uft_argspec {
    struct uft_arg *args; /* arguments in order; the return value (if any) apart */
    uint16_t n_args;
    bool has_ret;
    struct uft_arg ret;
};

struct uft_enum_item {
    int64_t value;
    const char *name;
};
struct uft_enum {
    const char *name;
    struct uft_enum_item *items;
    size_t n;
};

/* one name -> spec rule of the info file's argspec/retspec/argauto/retauto lines */
struct uft_spec_rule {
    const char *pattern; /* function name, or a regex when the pattern type is regex */
    bool is_regex;
    void *regex; /* regex_t, compiled once */
    struct uft_argspec spec;
};

/* ---- modules, sessions, tasks ------------------------------------------------------------ */

struct uft_dbg_func {
    uint64_t offset;
    struct uft_argspec spec;
};

struct uft_module {
    const char *name; /* basename, also the .sym / .dbg file stem */
    const char *path; /* as the first map line or DLOP line naming it recorded it */
    tg_symtab syms;   /* relative addresses */
    bool loaded, has_syms;
    struct uft_dbg_func *dbg; /* sorted by offset */
    size_t n_dbg;
};

struct uft_map {
    uint64_t start, end;
    struct uft_module *mod;
};

struct uft_session {
    const char *sid;
    int pid;
    int64_t ts;
    const char *exename;
    struct uft_map *maps;
    size_t n_maps;
};

struct uft_dlopen {
    int64_t ts;
    int pid;
    uint64_t base;
    struct uft_module *mod;
};

struct uft_task {
    int tid, pid, ppid;
    int64_t ts; /* its TASK or FORK line's time (0: none) */
    /* the time of its first perf COMM or FORK record, which uftrace takes as the task's
     * start in `info --task` (0: none) */
    int64_t perf_ts;
    char comm[17];
    bool has_dat;
    bool forked; /* a FORK line lists it */
};

struct uft_user_event {
    uint64_t id;
    const char *name; /* "provider:event" */
};

struct uft_data {
    const char *dir;
    /* info header */
    uint32_t version;
    uint16_t header_size;
    uint8_t endian, elf_class;
    uint64_t feat_mask, info_mask;
    uint16_t max_stack;
    bool big_endian;
    /* no info file yet: `uftrace record` is running (it writes info and the symbol tables
     * when it ends); uftrace's defaults stand for the header, task.txt lists the tasks, the
     * modules' ELF files name the functions and a record cut by the end of a file is one not
     * written yet */
    bool growing;
    /* uftrace dump is reading: the kernel's records of every task are shown, also of those
     * uftrace did not trace (the other readings skip them) */
    bool dump_every_task;
    char *info_text; /* key:value text (heap) */
    size_t info_len;

    struct uft_session *sessions;
    size_t n_sessions;
    struct uft_task *tasks; /* in the order of info's taskinfo:tids */
    size_t n_tasks;
    struct uft_dlopen *dlopens;
    size_t n_dlopens;
    struct uft_module **modules;
    size_t n_modules, cap_modules;

    struct uft_spec_rule *rules_args, *rules_rets;
    size_t n_rules_args, n_rules_rets; /* all rules: the user's, then automatic */
    size_t n_user_args, n_user_rets;   /* how many of them are the user's (-A/-R) */
    bool auto_args;
    struct uft_enum *enums;
    size_t n_enums, cap_enums;

    struct uft_user_event *user_events;
    size_t n_user_events;

    tg_event_class *cls_entry, *cls_exit, *cls_lost, *cls_event;
    tg_event_class *cls_sched_in, *cls_sched_out, *cls_sched_out_preempt;
    tg_event_class *cls_task_new, *cls_task_exit, *cls_task_name, *cls_extern;
    tg_event_class *cls_builtin[UFT_N_BUILTIN]; /* uftrace_builtin.c */
};

/* uftrace_info.c */
int uft_info_read(tg_trace *t, struct uft_data *d, tg_error **err);
const char *uft_info_get(const struct uft_data *d, const char *key, size_t *len);
int uft_describe(const tg_trace *t, tg_buf *out, tg_error **err);

/* uftrace_attrs.c: the trace's clock, host, process, tracer and env from info (after the
 * task list is read).  0 or TG_ERR_NOMEM. */
int uft_attrs_fill(tg_trace *t, const struct uft_data *d);

/* uftrace_session.c */
int uft_sessions_read(tg_trace *t, struct uft_data *d, tg_error **err);
struct uft_task *uft_task_find(const struct uft_data *d, int tid);
/* Symbol of addr for a task at time ts (NULL when unknown); *mod_out gets its module. */
const tg_symbol *uft_resolve(struct uft_data *d, tg_trace *t, int tid, int64_t ts, uint64_t addr,
                             struct uft_module **mod_out);
int uft_module_load(tg_trace *t, struct uft_data *d, struct uft_module *m, tg_error **err);
/* A symbol file as uftrace writes them ("ADDRESS TYPE NAME" lines: NAME.sym, kallsyms)
 * into syms, sorted; sizes run to the next symbol. */
int uft_symfile_load(tg_trace *t, tg_symtab *syms, const char *path, tg_error **err);

/* uftrace_builtin.c: the read:* and diff:* events (-T FUNC@read=...).  Classes added at
 * open (false: out of memory); the class of an event id (NULL when not built in); the values
 * of a record's payload p (len bytes) into ev->aux[1..3]; its fields and uftrace's text. */
bool uft_builtin_classes_add(tg_trace *t, struct uft_data *d);
tg_event_class *uft_builtin_class(const struct uft_data *d, uint64_t id);
void uft_builtin_values(const struct uft_data *d, const uint8_t *p, size_t len, tg_event *ev);
size_t uft_builtin_field_count(const struct uft_data *d, const tg_event *ev, tg_scope scope);
int uft_builtin_field(const struct uft_data *d, const tg_event *ev, tg_scope scope, size_t i,
                      tg_value *out);
bool uft_builtin_render(const struct uft_data *d, const tg_event *ev, tg_buf *out);
/* uftrace dump's line of a built-in event's data ("  read:page-fault: major=0 minor=800"). */
bool uft_builtin_dump(const struct uft_data *d, const tg_event *ev, tg_buf *out);

/* uftrace_dump.c: what `uftrace dump` prints of the directory (tg_trace_render part
 * "uftrace-dump"): 1. */
int uft_dump(const tg_trace *t, tg_buf *out, tg_error **err);
/* uftrace_task_table.c: what `uftrace info --task` prints (tg_trace_render part
 * "uftrace-info-task"): 1. */
int uft_task_table(const tg_trace *t, tg_buf *out, tg_error **err);

/* uftrace_argspec.c */
int uft_argspec_parse(tg_trace *t, struct uft_data *d, const char *text, size_t len,
                      struct uft_argspec *out);
int uft_rules_read(tg_trace *t, struct uft_data *d, tg_error **err);
void uft_rules_free(struct uft_data *d);
int uft_enums_parse(tg_trace *t, struct uft_data *d, const char *text, size_t len);
/* The spec that applies to a function (NULL when none). */
const struct uft_argspec *uft_spec_for(struct uft_data *d, const struct uft_module *mod,
                                       const tg_symbol *sym, bool want_ret);
/* Bytes the payload of a record occupies after its 16-byte header, or -1 when it does not
 * fit in the avail bytes. */
long uft_payload_size(const struct uft_argspec *spec, bool is_ret, const uint8_t *p, size_t avail,
                      bool big_endian);
/* uftrace's text for the arguments ("4, 0x7ffe64d835e8") or the return value ("20"). */
void uft_args_render(struct uft_data *d, tg_trace *t, int tid, int64_t ts,
                     const struct uft_module *mod, const struct uft_argspec *spec, bool is_ret,
                     const uint8_t *p, size_t len, tg_buf *out);
size_t uft_args_count(const struct uft_argspec *spec, bool is_ret);
/* uftrace's text of an enum value of the enum named name ("A|B", or the number). */
const char *uft_enum_text(const struct uft_data *d, const char *name, int64_t v, char *buf,
                          size_t bufsz);
int uft_args_field(const struct uft_argspec *spec, bool is_ret, const uint8_t *p, size_t len,
                   size_t i, tg_value *out);

/* uftrace_demangle.c */
const char *uft_demangle(tg_arena *a, const char *name);

/* streams */
int uft_dat_stream_add(tg_trace *t, struct uft_data *d, struct uft_task *task, tg_error **err);
int uft_elf_symbols_load(tg_trace *t, struct uft_module *m, tg_error **err);
int uft_perf_streams_add(tg_trace *t, struct uft_data *d, tg_error **err);
/* The per-cpu files PREFIX-cpuN.dat (perf, kernel): the next cpu after `cpu` that has one
 * (its file name in name), or -1; cpus up to 64, and past it while files follow. */
int uft_cpu_file_next(const struct uft_data *d, const char *prefix, int cpu, char *name,
                      size_t name_size);
/* Maps the data directory's file `name`: its path (malloc'ed) in *path. */
int uft_map_data_file(const struct uft_data *d, const char *name, char **path, tg_map *map,
                      tg_error **err);
int uft_extern_stream_add(tg_trace *t, struct uft_data *d, tg_error **err);
/* uftrace_kernel.c: `uftrace record -k` data (kernel_header, kernel-cpuN.dat, kallsyms):
 * one stream per cpu of the kernel's function_graph records of the traced tasks. */
int uft_kernel_streams_add(tg_trace *t, struct uft_data *d, tg_error **err);

#endif
