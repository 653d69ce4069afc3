/* traceglot.h - the one public header of libtraceglot.
 *
 * libtraceglot reads the trace formats Linux tracers write (uftrace data directories, CTF,
 * ftrace trace.dat, LLVM XRay logs, ...), merges all their streams into one time-ordered
 * sequence of events and hands the events to printers and analyses.  Everything the
 * `traceglot` command does goes through this header, so a library user can do it too.
 *
 * Conventions: all types are opaque; every fallible call returns a status (0 or a positive
 * count on success, a negative tg_status on failure) and, when given a tg_error **, a cause
 * chain that says which file, which byte offset and what was expected.  The library never
 * prints and never exits. */
#ifndef TRACEGLOT_H
#define TRACEGLOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TG_VERSION_STRING "0.1.0"

/* ---- status codes and errors ---------------------------------------------------------- */

typedef enum tg_status {
    TG_OK = 0,
    TG_ERR_IO = -1,          /* a file could not be opened, mapped or written */
    TG_ERR_FORMAT = -2,      /* the bytes do not follow the format (damage, truncation) */
    TG_ERR_UNSUPPORTED = -3, /* valid but not something traceglot reads (yet) */
    TG_ERR_USAGE = -4,       /* bad argument from the caller (unknown style, bad option value) */
    TG_ERR_NOMEM = -5,
    TG_ERR_LIMIT = -6, /* a size or count read from a file exceeds a safety limit */
} tg_status;

typedef struct tg_error tg_error;

/* The whole cause chain, outermost first, "file: offset 0x...: what" joined with ": ".
 * Valid until tg_error_free. */
const char *tg_error_message(const tg_error *err);
tg_status tg_error_status(const tg_error *err);
/* The next error of a list (several damaged streams give several errors), or NULL. */
const tg_error *tg_error_next(const tg_error *err);
void tg_error_free(tg_error *err);

/* ---- output buffer ---------------------------------------------------------------------- */

/* One growable output sequence every printer writes to.  When bound to a file descriptor it
 * flushes itself whenever it grows past its flush threshold, so memory stays bounded. */
typedef struct tg_buf tg_buf;
typedef struct tg_output tg_output; /* see "outputs" below */

tg_buf *tg_buf_new(void);
tg_buf *tg_buf_new_fd(int fd);            /* flushes to fd; does not close it */
void tg_buf_free(tg_buf *b);              /* flushes first when bound to a fd */
int tg_buf_flush(tg_buf *b);              /* 0, or TG_ERR_IO */
int tg_buf_error(const tg_buf *b);        /* the first failed write's errno, 0: none */
const char *tg_buf_data(const tg_buf *b); /* NUL-terminated contents (unbound buffers) */
size_t tg_buf_len(const tg_buf *b);
void tg_buf_reset(tg_buf *b);
void tg_buf_put(tg_buf *b, const void *p, size_t n);
void tg_buf_puts(tg_buf *b, const char *s);
void tg_buf_putc(tg_buf *b, char c);
void tg_buf_printf(tg_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tg_buf_u64(tg_buf *b, uint64_t v);                          /* decimal */
void tg_buf_i64(tg_buf *b, int64_t v);                           /* decimal */
void tg_buf_u64_pad(tg_buf *b, uint64_t v, int width, char pad); /* right-aligned */
void tg_buf_hex(tg_buf *b, uint64_t v);                          /* lower-case hex, no prefix */
void tg_buf_pad(tg_buf *b, char c, int n); /* n copies of c (n <= 0: nothing) */
/* In-place writing, for printers that assemble a line at once: room for n more bytes (NULL
 * when out of memory); tg_buf_commit then says how many of them were written. */
char *tg_buf_reserve(tg_buf *b, size_t n);
void tg_buf_commit(tg_buf *b, size_t n);
/* The one digit writer, for in-place text: the decimal digits of v ending just before end
 * (returns the first digit); exactly n zero-padded decimal digits of v at p. */
char *tg_digits_dec(char *end, uint64_t v);
void tg_digits_fixed(char *p, uint64_t v, size_t n);

/* ---- options ------------------------------------------------------------------------------ */

/* Options by key, as strings ("instr-map" = "./app", "raw" = "1").  Every key is declared
 * where it is used: by a format, a text style, a converter, a report style or a command
 * (tg_option_decl below), with its type, default, help and bounds; tg_options_set refuses a
 * key nobody declares, or a value its type does not allow, with TG_ERR_USAGE, and
 * tg_options_put says why ("unknown option 'instr-mpa' (did you mean 'instr-map'?)").  A
 * flag is set with value "1" (or "0", "true", "false", "yes", "no", "on", "off"; stored as
 * "1" or "0").  Setting a key again replaces its value; a list option (TG_OPT_LIST) holds
 * its items separated by newlines.  tg_print, tg_convert, tg_report, tg_replay, tg_info and
 * tg_stats refuse with TG_ERR_USAGE an option that their style or command does not take
 * ("the native style does not take option 'raw'"). */
typedef struct tg_options tg_options;

tg_options *tg_options_new(void);
void tg_options_free(tg_options *o);
int tg_options_set(tg_options *o, const char *key, const char *value); /* copies both */
/* tg_options_set with the reason for a refusal in *err. */
int tg_options_put(tg_options *o, const char *key, const char *value, tg_error **err);
const char *tg_options_get(const tg_options *o, const char *key); /* NULL if unset */
int tg_options_flag(const tg_options *o, const char *key);        /* set and not "0" */
/* The i-th key set (0..), or NULL past the last; *value its value. */
const char *tg_options_key(const tg_options *o, size_t i, const char **value);

typedef enum tg_option_type {
    TG_OPT_FLAG = 1, /* on or off: "1" or "0" */
    TG_OPT_INT,      /* a decimal integer within [min, max] */
    TG_OPT_CHOICE,   /* one of choices ("asc|dsc") */
    TG_OPT_TEXT,     /* any text: a path, a list the user of the option parses */
    TG_OPT_LIST,     /* text items, one per setting (the CLI's repeated option), by newline */
    TG_OPT_TEXTS,    /* texts that may hold newlines (SQL), one per setting, by TG_OPT_APART */
} tg_option_type;
#define TG_OPT_APART '\037'

/* One option as its user declares it: a NULL-named entry ends a list. */
typedef struct tg_option_decl {
    const char *name; /* the key, and the CLI's --name */
    tg_option_type type;
    const char *def;     /* the default, as text, for --help (NULL: none, or unset) */
    const char *help;    /* one line */
    const char *arg;     /* the value's name in --help ("BINARY", "N"); NULL for flags */
    const char *choices; /* TG_OPT_CHOICE: "a|b|c" */
    long long min, max;  /* TG_OPT_INT: the bounds */
    char short_name;     /* the CLI's one-letter spelling, 0: none */
    /* the peer tool's own long name where it differs from name ("instr_map" for llvm-xray's
     * -instr_map): the CLI takes it too, NULL: none */
    const char *spelling;
    unsigned flags; /* TG_OPT_SINGLE_DASH */
} tg_option_decl;
/* The peer spells the option with one dash, as LLVM's command-line parser does: -name=VALUE,
 * -name VALUE, -x VALUE, -x=VALUE.  A style that declares such an option has every
 * single-dash argument longer than one letter read as a long option (-sort=count is never
 * -s ort=count). */
#define TG_OPT_SINGLE_DASH 1u

/* Who declares an option: opening (core and the formats read it as a trace is opened), a
 * command's own (replay, info, stats, convert's output), or one style or converter. */
typedef enum tg_option_owner {
    TG_OWNER_OPEN = 1,
    TG_OWNER_FORMAT,
    TG_OWNER_COMMAND,
    TG_OWNER_PRINT_STYLE,
    TG_OWNER_CONVERTER,
    TG_OWNER_REPORT_STYLE,
    TG_OWNER_GRAPH_STYLE,
} tg_option_owner;

/* The i-th declaration (0..), NULL past the last; *owner and *owner_name (the format,
 * command, style or converter: "ftrace", "replay", "trace-cmd", "perfetto") say whose.  A key
 * may be declared by several owners (a format that reads it at open and the style it is
 * for), always with the same type.  The CLI's --help and the README are made from these. */
const tg_option_decl *tg_option_declared(size_t i, tg_option_owner *owner, const char **owner_name);
/* Is key one that the style, converter or command takes (owner TG_OWNER_PRINT_STYLE, ...;
 * name "native", "perfetto", "replay"), or an option of opening?  1 yes, 0 no. */
int tg_option_taken(const char *key, tg_option_owner owner, const char *name);
/* The declared key nearest to key (a misspelling's fix), or NULL when none is near. */
const char *tg_option_nearest(const char *key);

/* The names nearest to a misspelt word among candidates offered one by one (what "did you
 * mean" says): edit distance with swaps, at most a third of the word's letters, or the word
 * as the start or end of a candidate.  All at the best distance are kept, up to
 * TG_NEAREST_MAX; count 0: none is near. */
#define TG_NEAREST_MAX 4
typedef struct tg_nearest {
    const char *word;
    const char *names[TG_NEAREST_MAX]; /* the offered pointers, not copies */
    size_t count, distance;
} tg_nearest;
void tg_nearest_init(tg_nearest *n, const char *word);
void tg_nearest_offer(tg_nearest *n, const char *candidate);
/* "PREFIXa, PREFIXb or PREFIXc" into buf (empty when none); returns the count. */
size_t tg_nearest_say(const tg_nearest *n, const char *prefix, char *buf, size_t size);

/* ---- trace sets, traces, streams ---------------------------------------------------------- */

typedef struct tg_set tg_set;       /* one or more traces opened together */
typedef struct tg_trace tg_trace;   /* one trace: a uftrace dir, a CTF trace, a trace.dat ... */
typedef struct tg_stream tg_stream; /* one time-ordered source of events inside a trace */
typedef struct tg_event_class tg_event_class; /* an event's kind of record (name, fields) */

/* Opens each path (a directory or a file), detecting its format from its content.
 * On failure returns NULL and sets *err. */
tg_set *tg_open(const char *const *paths, size_t n, const tg_options *opts, tg_error **err);
void tg_close(tg_set *set);

/* ---- live sources: an LTTng session read from lttng-relayd while it records ---------------
 * net://RELAY[:PORT]/host/TARGET/SESSION names a live session as babeltrace2 names it (port
 * 5344 by default).  tg_live_record reads it (the lttng-live protocol 2.4: metadata and
 * packets as the relay has them, from the first packet it still holds) into a folder that
 * tg_open then reads as a CTF trace, until the session is destroyed, *stop is set, or the
 * relay fails; tg_live_list writes the relay's sessions as `babeltrace2 -i lttng-live
 * net://RELAY` prints them.  Every wait is bounded by timeout_ms. */
typedef struct tg_live_result tg_live_result;
/* How far one CTF trace of the session, the folder dir/trace-ID, can be read in time order:
 * every event up to the clock value complete_to (the trace clock's counter) has been written,
 * and no packet still to come holds an earlier one (each open stream's last packet ends
 * there or later, or the relay's inactivity beacon says the stream is idle until then).
 * UINT64_MAX: every stream of the trace ended. */
typedef struct tg_live_horizon {
    uint64_t trace_id;
    uint64_t complete_to;
} tg_live_horizon;
typedef struct tg_live_params {
    const char *not_found;             /* session-not-found-action: "continue" (NULL: wait for
                                          it), "fail" (an error), "end" (nothing read) */
    const volatile sig_atomic_t *stop; /* set (by a signal handler) to stop reading; NULL */
    int timeout_ms;                    /* the longest wait for one reply (0: 10000) */
    int retry_ms;                      /* the pause when the relay has nothing new (0: 100) */
    /* Optional: called about twice a second while reading, with what came so far. */
    void (*progress)(void *ctx, const tg_live_result *res);
    void *progress_ctx;
    /* Optional: called, between whole packets written to dir, when the horizon of the
     * session's traces moved (one entry per trace folder; n >= 1), so that a caller can show
     * the events up to it while the session records (about five times a second at most while
     * packets keep coming, and each time the viewer has caught up with the relay). */
    void (*complete)(void *ctx, const tg_live_horizon *h, size_t n);
    void *complete_ctx;
} tg_live_params;

struct tg_live_result {
    uint64_t packets, bytes, streams, discarded; /* what was received */
    bool found;                                  /* the session was found and attached */
    bool ended;   /* the session ended (destroyed), or was not found with "end" */
    bool stopped; /* *stop was set */
};

/* Whether path names a live source (net://...). */
bool tg_live_is_url(const char *path);
/* Whether the URL names a session (net://RELAY/host/TARGET/SESSION) or only a relay. */
bool tg_live_names_session(const char *url);
/* Reads the session into the folder dir (which must exist): 0, or <0 with *err set, in which
 * case dir still holds the whole packets received before the failure (res says how many). */
int tg_live_record(const char *url, const char *dir, const tg_live_params *p, tg_live_result *res,
                   tg_error **err);
/* The same over an open, connected socket to a relay (fd is not closed); where names it in
 * messages. */
int tg_live_record_fd(int fd, const char *where, const char *target_host, const char *session,
                      const char *dir, const tg_live_params *p, tg_live_result *res,
                      tg_error **err);
int tg_live_list(const char *url, tg_buf *out, const tg_live_params *p, tg_error **err);
/* The same paths opened again with the same options, as a second set: a stream has one read
 * position, so two passes over the traces at once (the SQL tables' cursors) need two sets.
 * The options set was opened with must still be alive.  NULL with *err on failure. */
tg_set *tg_set_reopen(const tg_set *set, tg_error **err);

/* Progress of a long pass over a set, for a progress line: every iterator of the set
 * (tg_iter_new) calls fn every `every` events it reads (before the filter), on the thread
 * reading.  bytes_read: the streams' data read so far (from each stream's first record to
 * its current one); bytes_total: the size of the set's input files (0: unknown), so the
 * ratio is an estimate that stays below 1.  Set it before the pass; fn NULL turns it off.
 * Off, the cursor costs nothing more; on, every event takes the cursor's general path. */
typedef struct tg_progress {
    uint64_t bytes_read, bytes_total;
    uint64_t events; /* read by this iterator so far */
} tg_progress;
typedef void (*tg_progress_fn)(void *ctx, const tg_progress *p);
void tg_set_progress(tg_set *set, uint64_t every, tg_progress_fn fn, void *ctx);

/* What the peer a style imitates prints on its standard error while it goes on, beside its
 * output (llvm-xray account's and stack's report of each record -keep-going skips): the styles
 * write the peer's lines, in order, into notes; NULL (the default) drops them.  Set it before
 * the call; notes must outlive the calls on set.  tg_set_notes_out: that buffer, or NULL. */
void tg_set_notes(tg_set *set, tg_buf *notes);
tg_buf *tg_set_notes_out(const tg_set *set);

size_t tg_set_trace_count(const tg_set *set);
tg_trace *tg_set_trace(const tg_set *set, size_t i);

const char *tg_trace_path(const tg_trace *t);
/* The path given to tg_open under which the trace was found (an LTTng session folder holding
 * it), or its own path. */
const char *tg_trace_input_path(const tg_trace *t);
/* The trace's format: "uftrace" (a uftrace data directory), "ctf" (CTF 1.8 and CTF 2),
 * "ftrace" (trace-cmd's trace.dat), "xray" (LLVM XRay logs), "lttng0" (LTTng 0.x
 * tracefiles), "perf" (perf.data), "perfetto" (Perfetto protobuf traces), "json" (Chrome's
 * Trace Event Format) or "gecko" (the Firefox Profiler's JSON profiles): one of the names
 * tg_format_name lists. */
const char *tg_trace_format(const tg_trace *t);
const char *tg_trace_version(const tg_trace *t); /* format version as the file says it */
/* tg_trace_clock(t)->name ("monotonic", "local", "tsc", ...) and ->offset_ns (added to event
 * times for wall time). */
const char *tg_trace_clock_name(const tg_trace *t);
int64_t tg_trace_clock_offset_ns(const tg_trace *t);
/* Name of format i (0, 1, ...) as tg_trace_format returns it, NULL past the last. */
const char *tg_format_name(size_t i);
/* What the reader accepted with a warning (an unknown metadata attribute, ...), in order. */
size_t tg_trace_warning_count(const tg_trace *t);
/* Why the trace's function addresses cannot be named, or NULL: the part of the trace that
 * maps them to modules is missing (a uftrace session's sid-*.map).  Its events still read;
 * what refuses such a trace (uftrace replay, report, graph) refuses it with this text. */
const char *tg_trace_symbols_missing(const tg_trace *t);
const char *tg_trace_warning(const tg_trace *t, size_t i);
/* What the reader counted under trace_processor's stat names (Perfetto and Chrome JSON
 * traces: events it could not use, and why), in the order it declared them; the SQL stats
 * table lists them. */
typedef struct tg_trace_stat {
    const char *name;
    const char *severity; /* "info", "error", "data_loss" */
    int64_t value;
    /* trace_processor's source ("trace", "analysis") and description; NULL: the reader's
     * count of what it could not use */
    const char *source, *description;
    int64_t idx; /* an indexed stat's index (a buffer's, a CPU's), -1 none */
} tg_trace_stat;
size_t tg_trace_stat_count(const tg_trace *t);
const tg_trace_stat *tg_trace_stat_at(const tg_trace *t, size_t i); /* NULL past the end */
/* The event classes the trace declares (every event format of a trace.dat, every CTF event
 * class), whether or not an event of them occurs. */
size_t tg_trace_class_count(const tg_trace *t);
const tg_event_class *tg_trace_class(const tg_trace *t, size_t i); /* NULL past the end */
size_t tg_trace_stream_count(const tg_trace *t);
tg_stream *tg_trace_stream(const tg_trace *t, size_t i);
/* The format's own description (what `uftrace info`, `trace-cmd report --stat` ... show),
 * appended to out.  Returns 0, or a negative status. */
int tg_trace_describe(const tg_trace *t, tg_buf *out, tg_error **err);
/* A part of what the tracer's own tool prints about the file rather than its events,
 * appended to out: for ftrace "stat" (`trace-cmd report --stat`), "events" (`report -E`, the
 * event formats the file stores) and "printk" (`report -P`, its printk formats); for CTF
 * "babeltrace2-metadata-info" and "babeltrace2-trace-infos" (babeltrace2's queries).  1 when
 * written, 0 when the format has no such part, or a negative status. */
int tg_trace_render(const tg_trace *t, const char *part, tg_buf *out, tg_error **err);
/* The same of a file that is no trace but that a format's tool reads: for "xray",
 * "llvm-xray-extract" (`llvm-xray extract BINARY`: the instrumentation map as YAML),
 * "llvm-xray-extract-symbolize" (-s) and "llvm-xray-extract-symbolize-mangled" (-s
 * --no-demangle).  1 when written, 0 when the format has no such part, or a negative
 * status (TG_ERR_USAGE: no such format). */
int tg_render_file(const char *format, const char *path, const char *part, tg_buf *out,
                   tg_error **err);
/* The name of the function whose code holds addr, as the tracer's tool looks it up in the
 * trace's symbols (kallsyms of a trace.dat: libtraceevent's search), or NULL. */
const char *tg_trace_symbol(const tg_trace *t, uint64_t addr);

/* ---- trace attributes: clock, host, process, tracer, environment -------------------------- */

/* What a trace records about itself, typed, filled by its format when it is opened (a
 * consumer never parses tg_trace_describe's text).  The structures are read-only views owned
 * by the trace; a string is NULL and a number 0 (pid -1) when the trace does not say. */

/* Which clock a trace's timestamps count, by its origin. */
typedef enum tg_clock_origin {
    TG_CLOCK_UNKNOWN = 0,
    TG_CLOCK_MONOTONIC,     /* CLOCK_MONOTONIC: since boot, without suspend, NTP-slewed */
    TG_CLOCK_MONOTONIC_RAW, /* CLOCK_MONOTONIC_RAW: same start, not slewed */
    TG_CLOCK_BOOT,          /* CLOCK_BOOTTIME: monotonic plus the time suspended */
    TG_CLOCK_REALTIME,      /* CLOCK_REALTIME: wall time since the Unix epoch */
    TG_CLOCK_TAI,           /* CLOCK_TAI: realtime without leap seconds */
    TG_CLOCK_CYCLES,        /* a CPU cycle counter (x86 TSC) */
    TG_CLOCK_LOCAL,         /* the kernel's per-CPU scheduler clock (ftrace local, global,
                             * perf): about ns since boot, not monotonic across CPUs and not
                             * the same clock as CLOCK_MONOTONIC */
} tg_clock_origin;

/* "unknown", "monotonic", "monotonic-raw", "boot", "realtime", "tai", "cycles", "local" */
const char *tg_clock_origin_name(tg_clock_origin origin);

typedef struct tg_clock_info {
    const char *name;        /* as the trace names it: "monotonic", "mono", "local", "tsc" */
    const char *description; /* the format's description of the clock, or NULL */
    tg_clock_origin origin;
    uint64_t frequency_hz; /* ticks per second of the counter (1000000000 for ns clocks) */
    /* Event times minus offset_ns are times on the origin clock (an LTTng clock's offset,
     * trace.dat's OFFSET option); 0 when event times count from the origin itself. */
    int64_t offset_ns;
    bool raw_cycles; /* event times are raw counter ticks, not ns (ftrace x86-tsc) */
    bool has_uuid;
    uint8_t uuid[16]; /* the format's clock uuid (LTTng: the host's boot id) */
    /* Where the trace recorded a reading of another clock taken together with its own (an
     * LTTng clock's offset and `trace-cmd record --date`: realtime; XRay FDR buffer markers:
     * monotonic), sync_origin names that clock (TG_CLOCK_UNKNOWN: none) and a time on the
     * origin clock plus sync_offset_ns is the time on it. */
    tg_clock_origin sync_origin;
    int64_t sync_offset_ns;
    /* A CTF clock class as the metadata gives it (after babeltrace2's normalisation of the
     * cycles below one second): offset_ns = offset_seconds * 1e9 + ns(offset_cycles);
     * precision in cycles.  0 where the format does not say. */
    int64_t offset_seconds;
    uint64_t offset_cycles;
    uint64_t precision;
} tg_clock_info;

typedef struct tg_host_info {
    const char *hostname;
    const char *kernel; /* "Linux 6.1.0-13-amd64" */
    const char *arch;   /* "x86_64", "aarch64" */
    int word_bits;      /* 32 or 64 */
    int byte_order;     /* 1 little, 2 big endian (as tg_value.byte_order) */
    uint32_t page_size;
    const char *boot_id; /* "xxxxxxxx-xxxx-...": the kernel's boot id, where known */
} tg_host_info;

typedef struct tg_process_info {
    int64_t pid;            /* -1 when unknown (or several processes) */
    const char *name;       /* the command name */
    const char *executable; /* path of the executable */
    const char *cmdline;
} tg_process_info;

typedef struct tg_tracer_info {
    const char *name;    /* "uftrace", "lttng-ust", "trace-cmd", "xray" */
    const char *version; /* "0.13", "2.13", "3.1.6" */
} tg_tracer_info;

/* One key of the format's environment (CTF env block, uftrace info keys, trace.dat
 * options): value as text; integer values also as numbers. */
typedef struct tg_env_entry {
    const char *key;
    const char *value;
    bool is_integer;
    int64_t integer;
} tg_env_entry;

/* A thread the trace lists apart from its events (uftrace's task.txt): its process, the
 * process that forked it and its command name, so a thread is named even when no event of
 * its own names it (a forked child shows its parent's command, as `uftrace info` does). */
typedef struct tg_task_info {
    int64_t tid, pid, ppid; /* -1 when unknown */
    const char *name;       /* command name, NULL when unknown */
    int64_t start_ns;       /* when the trace lists it from (uftrace's TASK or FORK line time),
                             * on the trace's clock; 0 when unknown */
    bool forked;            /* listed as a forked process (uftrace's FORK line) */
    /* a process's main thread: what the trace says of the process (Perfetto's process_tree:
     * its argv[0], its whole command line, its start on the trace's clock) */
    const char *process_name, *cmdline; /* NULL when unknown */
    bool process_started;               /* process_start_ns is known */
    int64_t process_start_ns;
    /* a process listed without a thread of its pid (Perfetto's generic kernel process tree):
     * no thread is made for it */
    bool process_only;
    int8_t main_thread; /* the trace says it is its process's main thread (1) or not (-1);
                         * 0: tid == pid says */
    bool idle;          /* a CPU's idle task besides tid 0 (generic process tree) */
    /* a tid the trace listed before, reused (Perfetto's thread descriptors: another pid, or a
     * second descriptor of the same thread): a thread of its own, new_process also a new
     * process of its pid (the pid reused) */
    bool new_thread, new_process;
    /* a process's main thread: the args the trace gives the process (Perfetto's
     * ChromeProcessDescriptor: process.arg_set_id), in the trace's arena; NULL none */
    const struct tg_value *process_args;
    size_t n_process_args;
} tg_task_info;

const tg_clock_info *tg_trace_clock(const tg_trace *t);
const tg_host_info *tg_trace_host(const tg_trace *t);
const tg_process_info *tg_trace_process(const tg_trace *t);
const tg_tracer_info *tg_trace_tracer(const tg_trace *t);
size_t tg_trace_env_count(const tg_trace *t);
const tg_env_entry *tg_trace_env(const tg_trace *t, size_t i);             /* NULL past the end */
const tg_env_entry *tg_trace_env_find(const tg_trace *t, const char *key); /* NULL: absent */
/* A build id the trace records for an object its events map (perf.data's build-id
 * feature): the process (-1: the kernel's objects), the object's path as recorded
 * ("[kernel.kallsyms]", "/usr/lib/x86_64-linux-gnu/libc.so.6") and the id's bytes. */
typedef struct tg_build_id_info {
    int64_t pid;
    const char *path;
    bool kernel; /* recorded for a kernel object (the kernel or a module) */
    uint8_t size;
    uint8_t id[20];
} tg_build_id_info;
size_t tg_trace_build_id_count(const tg_trace *t);
const tg_build_id_info *tg_trace_build_id(const tg_trace *t, size_t i); /* NULL past the end */
/* The build id recorded for the object at path, NULL when none. */
const tg_build_id_info *tg_trace_build_id_find(const tg_trace *t, const char *path);
/* The call stacks a trace states already resolved (Perfetto's interned profile data): as
 * trace_processor's stack_profile_* tables have them, a callsite is a frame under its parent
 * callsite (depth 0: the outermost frame), a frame a place in a mapping (its address
 * relative to the mapped file, its function's name), a mapping a mapped file.  A sample
 * event of such a trace (tg_event_callsite) names its callsite by index. */
typedef struct tg_profile_mapping {
    const char *name;     /* "/usr/lib/x86_64-linux-gnu/libc.so.6" */
    const char *build_id; /* lowercase hex, "" when the trace gives none */
    uint64_t exact_offset, start_offset, start, end, load_bias;
} tg_profile_mapping;
typedef struct tg_profile_frame {
    const char *name; /* the function's, "" when the trace gives none */
    size_t mapping;
    uint64_t rel_pc;
} tg_profile_frame;
typedef struct tg_profile_callsite {
    int64_t parent; /* -1: the outermost frame */
    size_t frame;
    uint32_t depth;
} tg_profile_callsite;
size_t tg_trace_profile_callsite_count(const tg_trace *t);
/* NULL past the end. */
const tg_profile_callsite *tg_trace_profile_callsite(const tg_trace *t, size_t i);
const tg_profile_frame *tg_trace_profile_frame(const tg_trace *t, size_t i);
const tg_profile_mapping *tg_trace_profile_mapping(const tg_trace *t, size_t i);
size_t tg_trace_task_count(const tg_trace *t);
const tg_task_info *tg_trace_task(const tg_trace *t, size_t i); /* NULL past the end */
/* The task listed with this tid (a linear search: once per thread), NULL when none. */
const tg_task_info *tg_trace_task_find(const tg_trace *t, int64_t tid);

/* What a trace says about one of the machine's CPUs (Perfetto's CpuInfo: the cpu table's
 * processor, cluster_id, capacity and args), as its reader found it. */
typedef struct tg_cpu_info {
    int64_t cpu;
    const char *processor;       /* NULL when unknown */
    int64_t cluster_id;          /* -1 when unknown */
    int64_t capacity;            /* -1 when unknown */
    const struct tg_value *args; /* Perfetto's args of the CPU (scalar values, named) */
    size_t n_args;
} tg_cpu_info;

size_t tg_trace_cpu_info_count(const tg_trace *t);
const tg_cpu_info *tg_trace_cpu_info(const tg_trace *t, size_t i); /* NULL past the end */

/* An arg set a trace holds of itself, apart from its events' and its tracks' (Perfetto's
 * content analysis: a TrackEvent category and name, as trace_processor lists them). */
typedef struct tg_arg_set {
    const struct tg_value *args; /* named values; a string of NULL text is a NULL string */
    size_t n_args;
} tg_arg_set;

size_t tg_trace_arg_set_count(const tg_trace *t);
const tg_arg_set *tg_trace_arg_set(const tg_trace *t, size_t i); /* NULL past the end */

/* ---- one timeline: clock domains and alignment ------------------------------------------- */

/* When several traces are opened together, tg_open puts them on one timeline: the clock of
 * the first trace that has a known clock (its own times).  Each other trace gets a shift
 * (added to its event times; tg_event_time_ns includes it, tg_event_trace_time_ns does not)
 * found from what the traces say about their clocks and hosts:
 *   - the same clock on the same host (monotonic with monotonic once an LTTng clock's
 *     offset is taken off): exact;
 *   - a reading of the timeline's clock the trace recorded (XRay's buffer markers): exact to
 *     the marker's precision;
 *   - both related to the wall clock (LTTng's offset, trace-cmd --date, through another
 *     trace of the same clock and host): by wall time;
 *   - otherwise (ftrace's local clock, monotonic clocks of different hosts, unknown clocks):
 *     own times, and tg_set_warnings says why.
 * Options: "clock-align" = "auto" (the above, default), "none" (every trace keeps its own
 * times) or "realtime" (the timeline is the wall clock; traces that cannot be related to it
 * keep their own times); "clock-offset" = "PATH=+DURATION" lines (several separated by
 * newlines; DURATION like 1.5ms, 20us, 3s, 250ns): added to the shift of the traces opened
 * from PATH - and a trace that would not be aligned is aligned as if it counted the
 * timeline's clock (the user says its clock is that one). */
typedef enum tg_alignment {
    TG_ALIGN_OWN = 0, /* own times: the timeline's clock itself, or alignment is off */
    TG_ALIGN_EXACT,   /* the timeline's clock on the same host, offsets taken off */
    TG_ALIGN_MARKER,  /* through the trace's own reading of the timeline's clock */
    TG_ALIGN_WALL,    /* by wall time (realtime readings) */
    TG_ALIGN_USER,    /* only by the offset the user gave */
    TG_ALIGN_NONE,    /* no clock shared with the timeline: own times (a warning says why) */
} tg_alignment;

const char *tg_alignment_name(tg_alignment a); /* "own", "exact", "marker", "wall", ... */
tg_alignment tg_trace_alignment(const tg_trace *t);
int64_t tg_trace_shift_ns(const tg_trace *t); /* added to the trace's event times */
/* The trace's clock domain: "ORIGIN@HOST" ("monotonic@vm"), "realtime", "unknown". */
const char *tg_trace_clock_domain(const tg_trace *t);
/* How the shift was found, or why there is none (one line, for `info` and warnings). */
const char *tg_trace_alignment_note(const tg_trace *t);
/* Warnings of tg_open (a list: see tg_error_next), or NULL: traces left on their own times. */
const tg_error *tg_set_warnings(const tg_set *set);

const char *tg_stream_name(const tg_stream *s);
int tg_stream_cpu(const tg_stream *s); /* -1 when unknown */
int tg_stream_tid(const tg_stream *s); /* -1 when unknown */
/* The stream's class id and its own id, as babeltrace2 numbers CTF data streams (the packet
 * header's stream id and stream instance id, else streams of a class in order); false when
 * the format has no such ids. */
bool tg_stream_ids(const tg_stream *s, uint64_t *class_id, uint64_t *id);
tg_trace *tg_stream_trace(const tg_stream *s);
/* After a tg_stream_iter read the stream to its end: the time on the set's shared timeline up
 * to which the stream's records say it is whole, which may pass its last event (a CTF
 * packet's end time; following a trace being written, a stream's later events come after
 * it); false when the format does not say. */
bool tg_stream_end_time(const tg_stream *s, int64_t *ns);

/* ---- event classes ---------------------------------------------------------------------- */

typedef enum tg_event_kind {
    TG_KIND_GENERIC = 0,
    TG_KIND_FUNC_ENTRY,     /* function entry: tg_event_func_addr, tg_event_depth */
    TG_KIND_FUNC_EXIT,      /* function exit (normal return) */
    TG_KIND_FUNC_TAIL_EXIT, /* exit through a tail call: exits the frame without a return */
    TG_KIND_LOST,           /* records were lost here: tg_event_lost_count */
    TG_KIND_TASK_FORK,
    TG_KIND_TASK_EXIT,
    TG_KIND_TASK_EXEC,
    TG_KIND_SCHED_OUT, /* the thread was scheduled out (uftrace linux:sched-out) */
    TG_KIND_SCHED_IN,
    TG_KIND_SCHED_OUT_PREEMPTED, /* scheduled out while still runnable (pre-empted) */
    TG_KIND_TASK_NAME,           /* a thread was named (uftrace linux:task-name) */
    TG_KIND_EXTERN,              /* data written into the trace from outside, of no thread (uftrace
                         * extern.dat: shown in the thread of the record before it) */
    TG_KIND_STATEDUMP,           /* the state when tracing started, not an event in time (LTTng
                         * lttng_ust_statedump:*, lttng_statedump_*) */
    TG_KIND_COUNTER, /* the payload's integer fields are counter samples at this time (uftrace's
                      * read:* events: -T FUNC@read=proc/statm, page-fault, pmu-*) */
    /* Only from an iterator that asked for them (tg_iter_want_messages): where a stream
     * begins and ends, where a packet of it begins (its packet context readable as the
     * event's TG_SCOPE_PACKET_CONTEXT) and ends, each at its time (a stream's beginning
     * before every time of the set) and its clock value (tg_event_clock_value). */
    TG_KIND_STREAM_BEGIN,
    TG_KIND_STREAM_END,
    TG_KIND_PACKET_BEGIN,
    TG_KIND_PACKET_END,
    /* whole packets of the stream were lost before the packet that begins next (a CTF
     * stream's packet sequence numbers skip: babeltrace2's discarded-packets message):
     * tg_event_lost_count of them, the gap's clock values tg_event_clock_span (the previous
     * packet's end, this one's beginning).  The other iterators see such a gap as a
     * TG_KIND_LOST of unknown count. */
    TG_KIND_PACKETS_LOST,
} tg_event_kind;

typedef struct tg_event_class tg_event_class;

const char *tg_event_class_name(const tg_event_class *c);
/* The log level a class declares (CTF's loglevel: 0 emergency .. 14 debug); false when it
 * declares none.  Its Eclipse Modeling Framework URI (CTF model.emf.uri), or NULL. */
bool tg_event_class_log_level(const tg_event_class *c, int *level);
const char *tg_event_class_emf_uri(const tg_event_class *c);
/* The group the class belongs to (ftrace's system, a CTF provider), or NULL. */
const char *tg_event_class_system(const tg_event_class *c);
uint64_t tg_event_class_id(const tg_event_class *c);
tg_event_kind tg_event_class_kind(const tg_event_class *c);
/* Function entries/exits of kernel functions recorded beside a user program's own (uftrace
 * record -k: kernel-cpuN.dat) rather than the program's. */
bool tg_event_class_is_kernel(const tg_event_class *c);

/* ---- values -------------------------------------------------------------------------------- */

typedef enum tg_value_type {
    TG_VAL_NONE = 0,
    TG_VAL_SINT,     /* v.s */
    TG_VAL_UINT,     /* v.u */
    TG_VAL_FLOAT,    /* v.f */
    TG_VAL_STRING,   /* v.str (not NUL-terminated in general; len is exact) */
    TG_VAL_BYTES,    /* v.str: raw bytes */
    TG_VAL_ARRAY,    /* count elements, fetched with tg_value_child */
    TG_VAL_SEQUENCE, /* like an array whose length came from another field */
    TG_VAL_STRUCT,   /* count named members */
    TG_VAL_VARIANT,  /* one member: the selected option (its name is the option's name) */
} tg_value_type;

typedef enum tg_value_flag {
    TG_VALF_ENUM = 1,     /* integer with an enumeration mapping: see label */
    TG_VALF_TEXT = 2,     /* array/sequence of bytes meant as text */
    TG_VALF_POINTER = 4,  /* integer that is an address */
    TG_VALF_SYMBOLIC = 8, /* integer whose label names it (function address, enum) */
    TG_VALF_KIB = 16,     /* integer counting KiB, 1024 bytes (uftrace's proc/statm "KB") */
    TG_VALF_LONG = 32,    /* integer of the C type long (ftrace formats): it may hold an
                           * address, which libtraceevent's filters compare as a symbol */
} tg_value_flag;

struct tg_value_ops;

typedef struct tg_value {
    tg_value_type type;
    const char *name; /* field name; NULL for array elements */
    union {
        int64_t s;
        uint64_t u;
        double f;
        struct {
            const char *ptr;
            size_t len;
        } str;
    } v;
    uint16_t bits;     /* integer or float size in bits (0: unknown) */
    uint8_t base;      /* display base for integers: 2, 8, 10 or 16 */
    uint8_t flags;     /* tg_value_flag bits */
    int8_t byte_order; /* 0 native/unknown, 1 little, 2 big (as the schema said) */
    const char *label; /* enum label(s) or symbol name; NULL when none */
    const char *fmt;   /* the conversion the trace's schema gives this field, printf-like
                          * ("%lu", "0x%lX": LTTng 0.x markers); NULL when none */
    size_t count;      /* elements or members of compound values */
    /* private: how to fetch children; set by the format that produced the value */
    const struct tg_value_ops *ops;
    const void *ctx[4];
} tg_value;

/* Child i of an array, sequence, struct or variant.  0 on success. */
int tg_value_child(const tg_value *v, size_t i, tg_value *out);
/* Up to n integer elements of an array or sequence from element first on, into out (signed
 * ones as their two's complement): the count copied, which is smaller than n only at the
 * end of the array or at an element that is not an integer.  The same values as
 * tg_value_child gives one by one, read in bulk where the format can (a call chain). */
size_t tg_value_uints(const tg_value *v, size_t first, uint64_t *out, size_t n);
/* True when v is an integer, with its value in *out (an unsigned one as its two's
 * complement); false, *out untouched, for any other type. */
bool tg_value_int(const tg_value *v, int64_t *out);

/* ---- events -------------------------------------------------------------------------------- */

typedef struct tg_event tg_event;

/* Which group of fields of an event to read.  Formats fill the scopes they have. */
typedef enum tg_scope {
    TG_SCOPE_PAYLOAD = 0,    /* the event's own fields (CTF payload, ftrace fields, args) */
    TG_SCOPE_PACKET_CONTEXT, /* CTF packet context */
    TG_SCOPE_EVENT_HEADER,   /* CTF event header */
    TG_SCOPE_STREAM_CONTEXT, /* CTF stream event context */
    TG_SCOPE_EVENT_CONTEXT,  /* CTF event context */
    TG_SCOPE_COMMON,         /* ftrace common_* fields */
    TG_SCOPE_RETURN,         /* function return value(s) on exits */
    TG_SCOPE_COUNT
} tg_scope;

int64_t tg_event_time_ns(const tg_event *ev);       /* on the set's shared timeline */
int64_t tg_event_trace_time_ns(const tg_event *ev); /* on the trace's own clock (peer styles) */
const tg_event_class *tg_event_class_of(const tg_event *ev);
const char *tg_event_name(const tg_event *ev);
tg_event_kind tg_event_kind_of(const tg_event *ev);
tg_stream *tg_event_stream(const tg_event *ev);
tg_trace *tg_event_trace(const tg_event *ev);
int tg_event_cpu(const tg_event *ev);         /* -1 when unknown */
int tg_event_pid(const tg_event *ev);         /* -1 when unknown */
int tg_event_tid(const tg_event *ev);         /* -1 when unknown */
uint64_t tg_event_offset(const tg_event *ev); /* byte offset of the record in its file */

/* Where a sample was taken: a perf.data record's cpumode (its header's misc, as
 * include/uapi/linux/perf_event.h numbers them); TG_CPU_MODE_UNKNOWN for other events. */
typedef enum tg_cpu_mode {
    TG_CPU_MODE_UNKNOWN = 0,
    TG_CPU_MODE_KERNEL = 1,
    TG_CPU_MODE_USER = 2,
    TG_CPU_MODE_HYPERVISOR = 3,
    TG_CPU_MODE_GUEST_KERNEL = 4,
    TG_CPU_MODE_GUEST_USER = 5,
} tg_cpu_mode;
tg_cpu_mode tg_event_cpu_mode(const tg_event *ev);
/* Perfetto's names of the modes (perf_sample.cpu_mode): "unknown", "kernel", "user",
 * "hypervisor", "guest_kernel", "guest_user". */
const char *tg_cpu_mode_name(tg_cpu_mode mode);
/* A sample of a trace whose call stacks are resolved (tg_trace_profile_callsite): its
 * callsite's index in its trace, -1 for other events and for a sample without a stack. */
int64_t tg_event_callsite(const tg_event *ev);

/* Function traces: the function's address, its symbol (NULL when unknown), the call depth
 * the tracer recorded (-1 when it recorded none). */
uint64_t tg_event_func_addr(const tg_event *ev);
const char *tg_event_func_name(const tg_event *ev);
/* The module holding the function: the executable or shared library path as the tracer
 * recorded it, "[kernel.kallsyms]" or "[MODULE]" for a kernel function; NULL when unknown. */
const char *tg_event_func_module(const tg_event *ev);
/* The category a viewer trace (Perfetto's TrackEvent categories, Chrome JSON's "cat") gives
 * the slice a function entry begins; NULL when none. */
const char *tg_event_func_category(const tg_event *ev);
/* The time (ns) the event's thread had run on a CPU when the event happened, where a viewer
 * trace records it (Chrome JSON's "tts", "tts" + "tdur" at a complete event's end): false
 * when it is not recorded.  The slice table's thread_ts and thread_dur. */
bool tg_event_thread_time(const tg_event *ev, int64_t *ns);
/* A function exit's call as its tracer timed it (function_graph's calltime and rettime, taken
 * before the records are written), in ns on the timeline as tg_event_time_ns gives times:
 * false when the record holds no such times, or they count another clock than the trace's
 * (then only their difference is known: tg_call's times use it). */
bool tg_event_call_times(const tg_event *ev, int64_t *call_ns, int64_t *ret_ns);
/* The flows (arrows between slices: Perfetto's flow_ids, terminating_flow_ids, a legacy
 * event's bind_id) that the slice a function entry begins, or an exit ends, takes part in:
 * *flows points at n of them (valid while the event is).  A flow links the slices that name
 * its id in turn: IN draws the arrow from the slice that was its source into this one, OUT
 * makes this slice its source, END ends the flow (its id may start a new one). */
enum { TG_FLOW_IN = 1, TG_FLOW_OUT = 2, TG_FLOW_END = 4 };
typedef struct tg_flow {
    uint64_t id;
    unsigned flags; /* TG_FLOW_ bits */
} tg_flow;
size_t tg_event_flows(const tg_event *ev, const tg_flow **flows);
/* The symbol holding the function, as the tracer's symbol table gives it: its name, start
 * and size in bytes (the distance to the next symbol where the table gives none), and
 * TG_FUNC_PLT for a library call recorded at its PLT entry (uftrace's 'P' symbols). */
typedef struct tg_func_symbol {
    const char *name; /* NULL when unknown */
    uint64_t addr, size;
    unsigned flags;
} tg_func_symbol;
enum { TG_FUNC_PLT = 1 };
/* 1 with *out filled, 0 when no symbol holds the address (*out zeroed). */
int tg_event_func_symbol(const tg_event *ev, tg_func_symbol *out);
/* The trace's function symbols one by one (every module of its symbol tables; uftrace
 * filters name functions by them): 1 with *out filled for i = 0, 1, ..., 0 past the end. */
int tg_trace_func_symbol(const tg_trace *t, size_t i, tg_func_symbol *out);
int tg_event_depth(const tg_event *ev);
/* Lost events or packets (TG_KIND_LOST, TG_KIND_PACKETS_LOST): how many (0 when unknown). */
uint64_t tg_event_lost_count(const tg_event *ev);

/* Payload fields, decoded on demand. */
size_t tg_event_field_count(const tg_event *ev, tg_scope scope);
int tg_event_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out);
/* Field by name in a scope; TG_ERR_USAGE when there is none. */
int tg_event_field_by_name(const tg_event *ev, tg_scope scope, const char *name, tg_value *out);
/* The event rendered the way its own tracer renders it (ftrace's print fmt, a uftrace
 * event's text), appended to out.  1 when written, 0 when the format has no own rendering,
 * TG_RENDER_WITH_NEXT when the text also shows the record that follows in the event's stream
 * (trace-cmd's function_graph leaf: "func();" with its exit's duration): a printer that
 * prints it so drops that record (tg_stream_drop_next), as the tracer's printer does.
 * Rendering never changes what a stream yields. */
#define TG_RENDER_WITH_NEXT 2
int tg_event_render(const tg_event *ev, tg_buf *out);
/* Drops the next record of s unread (after tg_event_render said TG_RENDER_WITH_NEXT of the
 * event s yielded last).  0, or TG_ERR_UNSUPPORTED for a stream that cannot. */
int tg_stream_drop_next(tg_stream *s);
/* The same with babeltrace2's name options (sink.text.pretty's name-payload, name-context,
 * name-scope): without field names in the payload or in the contexts, with each scope's name
 * ("stream.packet.context = ").  flags 0 is tg_event_render. */
typedef enum tg_render_flag {
    TG_RENDER_NO_PAYLOAD_NAMES = 1,
    TG_RENDER_NO_CONTEXT_NAMES = 2,
    TG_RENDER_SCOPE_NAMES = 4,
    /* babeltrace2's details sink instead (alone): the lines after an event's name line (its
     * common context, specific context and payload, one field a line), or after a packet
     * beginning's (its context) */
    TG_RENDER_DETAILS = 8,
} tg_render_flag;
int tg_event_render_with(const tg_event *ev, tg_buf *out, unsigned flags);
/* The raw value of the clock that timed the event (a CTF clock's cycles: babeltrace2
 * --clock-cycles); false where the format keeps none. */
bool tg_event_clock_value(const tg_event *ev, uint64_t *cycles);
/* Of a gap (TG_KIND_LOST, TG_KIND_PACKETS_LOST) from an iterator that asked for messages:
 * the clock values where the gap begins and ends, and the end's time on the trace clock (a
 * CTF stream's previous packet end and its packet's end, or for lost packets its packet's
 * beginning, as babeltrace2's discarded-events and discarded-packets messages have them);
 * false where the format keeps none (a CTF packet context without both packet times). */
bool tg_event_clock_span(const tg_event *ev, uint64_t *begin, uint64_t *end, int64_t *end_ns);

/* ---- field schema ------------------------------------------------------------------------
 *
 * The declared type of each field of an event class, for consumers that write the fields
 * again in a self-describing format (the CTF writer).  Each scope's schema is a struct whose
 * members are the fields tg_event_field returns for that scope, in the same order.  Formats
 * that declare types (CTF) fill it; for the others tg_event_class_schema returns NULL and the
 * types are those their values carry (tg_value's type, bits, base, byte order). */
typedef enum tg_field_kind {
    TG_FT_INT,      /* bits, align, is_signed, byte_order, base, encoding */
    TG_FT_ENUM,     /* an integer (as TG_FT_INT) with label mappings */
    TG_FT_FLOAT,    /* exp_dig + mant_dig == bits */
    TG_FT_STRING,   /* NUL-terminated; encoding */
    TG_FT_STRUCT,   /* members */
    TG_FT_VARIANT,  /* members are the options; ref names the tag (an enum field) */
    TG_FT_ARRAY,    /* length elements of element */
    TG_FT_SEQUENCE, /* as many elements as the integer field ref says */
} tg_field_kind;

typedef struct tg_field_type tg_field_type;

typedef struct tg_enum_mapping {
    const char *label;
    int64_t lo, hi; /* compared as unsigned when the container is unsigned */
} tg_enum_mapping;

typedef struct tg_field_member {
    const char *name;      /* as tg_value.name gives it */
    const char *decl_name; /* as the format declared it (CTF: before its '_' is dropped) */
    const tg_field_type *type;
} tg_field_member;

struct tg_field_type {
    tg_field_kind kind;
    uint16_t bits;  /* integers, enums, floats */
    uint16_t align; /* in bits: 1, 8, 16, ... */
    uint8_t is_signed;
    uint8_t byte_order; /* 1 little, 2 big */
    uint8_t base;       /* 2, 8, 10 or 16 */
    uint8_t encoding;   /* 0 none, 1 UTF-8, 2 ASCII (strings, text arrays' elements) */
    uint16_t exp_dig, mant_dig;
    const tg_enum_mapping *mappings;
    size_t n_mappings;
    const tg_field_member *members;
    size_t n_members;
    const char *ref; /* sequence length / variant tag: the path as the format wrote it */
    const tg_field_type *element;
    uint64_t length; /* arrays */
};

/* The schema of one scope of an event class (a TG_FT_STRUCT), or NULL when the format
 * declares no types or the class has no such scope.  Valid while the set is open. */
const tg_field_type *tg_event_class_schema(const tg_event_class *c, tg_scope scope);
/* The name of field i of a scope as the class declares it, without an event (from the
 * schema, or the format's own declaration: an ftrace event format's fields); NULL past the
 * last field or when the format does not say. */
const char *tg_event_class_field_name(const tg_event_class *c, tg_scope scope, size_t i);

/* ---- iteration: filters and the merge ----------------------------------------------------- */

typedef struct tg_filter tg_filter;

tg_filter *tg_filter_new(void);
void tg_filter_free(tg_filter *f);
/* Time bounds: "S.NNNNNNNNN" absolute seconds on the trace clock, or "+1.5ms"/"+20us"/"+3s"
 * relative to the first event.  0, or TG_ERR_USAGE with a message in *err. */
int tg_filter_set_begin(tg_filter *f, const char *spec, tg_error **err);
int tg_filter_set_end(tg_filter *f, const char *spec, tg_error **err); /* NULL: no end */
/* babeltrace2's forms are taken too: "2024-03-01 04:02:28.48" (a date and time), "04:02:28.48"
 * (a time of day on the first event's date), "-2.5" (seconds before the origin); dates and
 * times of day are local times, or GMT after tg_filter_set_gmt(f, true) (--clock-gmt). */
int tg_filter_set_gmt(tg_filter *f, bool gmt);
/* Comma-separated lists: event-name globs ("sched_*,irq:*"), tids, cpus (with ranges:
 * "0-3,6").  A beginning after the end (both absolute, or both relative) is TG_ERR_USAGE, as
 * babeltrace2 refuses it. */
int tg_filter_set_events(tg_filter *f, const char *globs, tg_error **err);
int tg_filter_set_tids(tg_filter *f, const char *list, tg_error **err);
/* Processes: the events of the threads of these processes.  The iterator applies it after
 * the kernel model gave each event its thread (tg_iter_follow_threads), so on a kernel trace
 * a thread counts from when its process is known (statedump, fork, a recorded pid context);
 * tg_filter_match does not look at it. */
int tg_filter_set_pids(tg_filter *f, const char *list, tg_error **err);
int tg_filter_set_cpus(tg_filter *f, const char *list, tg_error **err);
int tg_filter_match(const tg_filter *f, const tg_event *ev);
/* The filter held against what set holds, before a run: event globs none of which matches
 * an event class of the traces are TG_ERR_USAGE (one error per glob, naming the nearest
 * names); one glob of several matching none, a CPU or a thread no stream has, is a warning
 * appended to *warnings.  A CPU or thread the traces know only from their events (perf.data,
 * LTTng 0.x, CTF, a format without CPUs) is held against the events of the first pass of an
 * iterator with f that reads them all: see tg_set_run_warnings. */
int tg_filter_check(const tg_filter *f, tg_set *set, tg_error **warnings, tg_error **err);
/* The CPUs and threads of tg_filter_check's filter that a whole pass over the events did not
 * meet (a list, as tg_set_warnings; each said once), or NULL. */
const tg_error *tg_set_run_warnings(const tg_set *set);

typedef struct tg_iter tg_iter;

/* All events of all streams of the set, in time order (ties: stream order, then position),
 * that pass the filter (which may be NULL and must outlive the iterator). */
tg_iter *tg_iter_new(tg_set *set, const tg_filter *f, tg_error **err);
/* Before the first tg_iter_next: order and bound events by each trace's own clock, ignoring
 * the shared timeline's shifts (what a peer tool does with several traces). */
void tg_iter_use_trace_clocks(tg_iter *it);
/* Before the first tg_iter_next: the streams that can also give their structure (a CTF
 * stream's beginning, end and packets: TG_KIND_STREAM_BEGIN ...) give it as events, in the
 * merge like the others (babeltrace2's messages, for its details sink). */
void tg_iter_want_messages(tg_iter *it);
/* Before the first tg_iter_next: every event gets its thread from the kernel state model
 * (the task running on its CPU, from sched_switch, where the trace recorded no thread:
 * LTTng kernel traces, LTTng 0.x), so tg_event_tid and tg_event_pid answer for it.  An
 * iterator whose filter names threads or processes does it by itself.  0 or TG_ERR_NOMEM. */
int tg_iter_follow_threads(tg_iter *it);
/* 1 with *ev set (valid until the next call), 0 at the end.  Damage found in a stream is
 * recorded (tg_iter_errors) and that stream skips past it or stops; the others go on. */
int tg_iter_next(tg_iter *it, const tg_event **ev);
/* Up to max next events at once: evs[0..n) are the events tg_iter_next would give one after
 * the other, all valid until the next call on the iterator.  Returns n (at least 1 before
 * the end), 0 at the end.  Streams that decode runs of records at once (uftrace's TID.dat)
 * give long batches; others may give short ones.  May be mixed with tg_iter_next. */
int tg_iter_next_batch(tg_iter *it, const tg_event **evs, size_t max);
/* The errors met so far (a list: see tg_error_next), or NULL. */
const tg_error *tg_iter_errors(const tg_iter *it);
void tg_iter_free(tg_iter *it);

/* One stream's events in the stream's own order, without merge or filter: for analyses that
 * must follow a tool's own record order (llvm-xray account reads an XRay log stream after
 * stream).  Use either these or a tg_iter over a set, not both: a stream has one read
 * position.  next: 1 with *ev set (valid until the next call), 0 at the end, or a negative
 * status with *err set for damage; call again to go on past it. */
typedef struct tg_stream_iter tg_stream_iter;
tg_stream_iter *tg_stream_iter_new(tg_stream *s);
int tg_stream_iter_next(tg_stream_iter *it, const tg_event **ev, tg_error **err);
/* Up to max next events at once (as tg_iter_next_batch): n, 0 at the end, or a negative
 * status for damage (call again to go on).  Damage goes to *err, or, when err is NULL, into
 * the iterator's own list (tg_stream_iter_errors).  A stream is dropped after 64 errors in a
 * row, as in the merge. */
int tg_stream_iter_next_batch(tg_stream_iter *it, const tg_event **evs, size_t max, tg_error **err);
const tg_error *tg_stream_iter_errors(const tg_stream_iter *it);
tg_stream *tg_stream_iter_stream(const tg_stream_iter *it);
void tg_stream_iter_free(tg_stream_iter *it);

/* Runs fn over each of streams[0..n), each through its own tg_stream_iter, on up to
 * `workers` threads (worker 0 is the caller's thread; fn gets the worker's number, so it can
 * keep one accumulator per worker and sum them after).  For analyses whose result is a sum
 * over streams.  Returns 0; fn's first negative status (the other workers stop taking
 * streams); or TG_ERR_FORMAT with the streams' damage in *err (in stream order) after every
 * stream was read. */
typedef int (*tg_stream_fn)(void *ctx, unsigned worker, tg_stream_iter *it);
int tg_streams_run(tg_stream *const *streams, size_t n, unsigned workers, tg_stream_fn fn,
                   void *ctx, tg_error **err);

/* ---- call stacks of function traces -------------------------------------------------------- */

/* The one call-stack builder for every function-trace format (uftrace, XRay, LTTng-UST
 * cyg-profile, ...).  Feed it events in each thread's time order (a tg_iter or a
 * tg_stream_iter gives them); it keeps one stack per thread, pairs each exit with its entry
 * and calls on_call once per finished call, with its total and self time.  Irregular traces:
 * an exit whose function is not on top unwinds to the matching frame (the frames above end
 * there, flagged NO_EXIT); an exit with no matching entry is reported alone, flagged
 * NO_ENTRY; a tail exit ends its frame (TAIL); lost records end the thread's open frames at
 * the lost event (LOST | NO_EXIT); frames still open at tg_callstack_finish end at their
 * thread's last time (NO_EXIT).  Where tracers differ, the rule is a parameter
 * (tg_callstack_set_rules).  Memory: threads x deepest stack, no allocation per event. */
typedef enum tg_call_flags {
    TG_CALL_NO_EXIT = 1,   /* the exit was never seen: ended by unwinding, lost records, end */
    TG_CALL_NO_ENTRY = 2,  /* an exit without an entry: entry_ns is unknown (== exit_ns),
                            * unless the exit holds the call's duration as its tracer measured
                            * it (function_graph): then entry_ns is exit_ns minus it.  Where
                            * the records declare their depth (function_graph), a thread whose
                            * recording begins inside calls starts its stack there: each such
                            * call is opened NO_ENTRY (on_open: no function, entry_ns the time
                            * of the record that implies it) and, if its exit comes, ends
                            * NO_ENTRY at its depth with the calls inside it as children; one
                            * whose exit never comes is no call */
    TG_CALL_TAIL = 4,      /* ended by a tail exit */
    TG_CALL_RECURSIVE = 8, /* the same function is lower on the thread's stack */
    TG_CALL_LOST = 16,     /* ended by lost records (its exit may have been among them) */
} tg_call_flags;

typedef struct tg_call {
    int tid, pid;
    uint64_t addr;
    const char *name;          /* symbol at entry time, or NULL */
    const char *module;        /* its module at entry time (tg_event_func_module), or NULL */
    int depth;                 /* 0 for a thread's outermost frame */
    int64_t entry_ns, exit_ns; /* in the unit of the times fed (ns, or cycles: feed_at) */
    int64_t total_ns;          /* exit_ns - entry_ns */
    int64_t child_ns;          /* total time of the direct children */
    int64_t self_ns;           /* total_ns - child_ns */
    unsigned flags;            /* tg_call_flags */
    tg_trace *trace;
    const tg_event *exit; /* the event that ended the call (NULL at finish); valid during
                            * the callback only */
} tg_call;

typedef enum tg_stack_rules {
    TG_STACK_UNWIND = 0, /* the default, as above */
    TG_STACK_TOP_ONLY,   /* llvm-xray account: an exit must match the top frame; any other
                            * exit is reported NO_ENTRY and leaves the stack as it is */
    TG_STACK_UFTRACE,    /* uftrace's own (what `uftrace report` counts): a thread's stack
                            * is a count every record moves (a record's depth seeds it, at
                            * the thread's start and after lost records), a context switch
                            * is a call of the virtual function linux:schedule (sched-out to
                            * sched-in), lost records end the frames above the user stack,
                            * exec and longjmp cut the stack; calls carry uftrace's total and
                            * self times.  Frames the rules drop without an end are reported
                            * NO_EXIT, and frames a record implies (a thread that starts
                            * deep) are opened, so opens and ends always pair */
    TG_STACK_BY_TRACER,  /* each trace by its tracer's rules: TG_STACK_UFTRACE for uftrace
                            * data, TG_STACK_UNWIND for the others */
    TG_STACK_LLVM_XRAY,  /* `llvm-xray account`'s: TG_STACK_TOP_ONLY on 32-bit function ids
                            * (addr's low 32 bits), times compared unsigned (cycles), any
                            * record timed before the first record fed is skipped, and lost
                            * records change nothing */
} tg_stack_rules;

typedef void (*tg_call_fn)(void *ctx, const tg_call *call);
typedef struct tg_callstack tg_callstack;

tg_callstack *tg_callstack_new(tg_call_fn on_call, void *ctx);
void tg_callstack_free(tg_callstack *cs);
/* Optional: on_open is called when a frame opens, with the call's tid, pid, addr, name,
 * module, depth and entry_ns set (the rest 0), before any call inside it ends. */
void tg_callstack_on_open(tg_callstack *cs, tg_call_fn on_open);
/* 0, or TG_ERR_USAGE for an unknown rule.  Set before the first event. */
int tg_callstack_set_rules(tg_callstack *cs, tg_stack_rules rules);
/* Feeds one event at its own time, or at a time the caller gives (the shared timeline, or
 * llvm-xray's cycles).  Feed every event: the uftrace rules read context switches and every
 * record's time; the others ignore all but function entries and exits and lost records.
 * 0, or TG_ERR_NOMEM. */
int tg_callstack_feed(tg_callstack *cs, const tg_event *ev);
int tg_callstack_feed_at(tg_callstack *cs, const tg_event *ev, int64_t time);
/* Ends every open frame (at each thread's last time) and reports it. */
void tg_callstack_finish(tg_callstack *cs);
/* Current depth of a thread's stack (0 when empty or unknown). */
int tg_callstack_depth(const tg_callstack *cs, int tid);

/* ---- printing, converting, analysing ------------------------------------------------------- */

/* Prints every event of the set in a text style: "native" (traceglot's own), or a peer's
 * ("trace-cmd", "babeltrace", "xray-yaml", ...).  Options are read by key.  Returns 0, or a
 * negative status with *err; damage in the input is returned as TG_ERR_FORMAT after all the
 * readable events were printed. */
int tg_print(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
             tg_buf *out, tg_error **err);
/* Name of print style i (0, 1, ...), NULL past the last. */
const char *tg_print_style_name(size_t i);
/* Name of converter i (tg_convert's `to`: "chrome", "ctf", ...) and of report style i
 * ("uftrace", "xray"), NULL past the last. */
const char *tg_converter_name(size_t i);
const char *tg_report_style_name(size_t i);

/* Converts to another format ("chrome": Chrome Trace Event JSON), streamed into out. */
int tg_convert(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts, tg_buf *out,
               tg_error **err);

/* ---- outputs: written under a temporary name, renamed when whole ------------------------- */

/* An output at a path: one file, a folder, or numbered parts beside the path, written under a
 * temporary name in the path's folder (PATH.tmp-XXXXXX) and renamed to the path by
 * tg_output_commit once whole.  What is not committed is removed by tg_output_discard,
 * tg_output_free or, from a signal handler, tg_output_remove_now, so that a failure (damaged
 * input, a full disk) or an interrupted command leaves nothing behind.  A path that is not a
 * regular file (a device, a pipe, /dev/stdout) is written in place and never renamed over.
 * An existing file is replaced only with TG_OUTPUT_FORCE; an existing folder never is.  Files
 * and folders follow the umask.  Errors name the path and the system's reason ("out.json:
 * cannot create the output file: Permission denied"). */
#define TG_OUTPUT_FORCE 1u
tg_output *tg_output_new(const char *path, unsigned flags, tg_error **err);
void tg_output_free(tg_output *o); /* discards what was not committed */
const char *tg_output_path(const tg_output *o);
/* The output as one file: a descriptor to write (owned by o), or a negative status. */
int tg_output_open_file(tg_output *o, tg_error **err);
/* The output as a folder: *dir is the temporary folder to fill.  0 or a negative status. */
int tg_output_open_dir(tg_output *o, const char **dir, tg_error **err);
/* The output as parts: the part `name` (a file name placed beside the path, "run-0001.json"),
 * a descriptor the caller closes, or a negative status. */
int tg_output_open_part(tg_output *o, const char *name, tg_error **err);
/* What is being written now: the temporary file or folder (the path itself when written in
 * place), NULL before an open. */
const char *tg_output_writing(const tg_output *o);
int tg_output_commit(tg_output *o, tg_error **err); /* 0 or a negative status */
void tg_output_discard(tg_output *o);
/* Removes what is written and not committed, with system calls only: for a signal handler
 * (SIGINT, SIGTERM, ...), which then ends the program.  o stays allocated. */
void tg_output_remove_now(tg_output *o);

/* Converts into o and commits it: a stream converter into the file (or, with "split-size" or
 * "split-time", into its parts), a directory converter into the folder, "sqlite" into the
 * file.  On failure o is discarded and *err says why; damage in the input keeps a stream's
 * readable events (TG_ERR_FORMAT, committed) and refuses a folder or a database (nothing
 * written).  Returns 0 or a negative status. */
int tg_convert_to(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                  tg_output *o, tg_error **err);

/* Converts to a format that is a directory ("ctf": CTF 1.8, "uftrace": a uftrace data
 * directory) written at dir, which must not exist: tg_convert_to on a tg_output of dir (the
 * option "force" replaces nothing here: a folder is never replaced).  Returns 0 or a negative
 * status. */
int tg_convert_dir(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                   const char *dir, tg_error **err);
/* 1 when converter `to` writes a directory (tg_convert_dir), 0 when a stream (tg_convert),
 * 2 when a file at a path (tg_convert_file), TG_ERR_USAGE when there is no such converter. */
int tg_convert_writes_dir(const char *to);
/* 1 when converter `to` writes a binary stream (a Perfetto protobuf), 0 when text or not a
 * stream, TG_ERR_USAGE when there is no such converter. */
int tg_convert_is_binary(const char *to);
/* Converts to a format that is one file written at path ("sqlite": an SQLite database holding
 * the SQL tables as real tables): tg_convert_to on a tg_output of path, replacing an existing
 * file only with the option "force".  Returns 0 or a negative status. */
int tg_convert_file(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                    const char *path, tg_error **err);

/* Function-call timeline (uftrace replay), function accounting (uftrace report, llvm-xray
 * account: style "uftrace" or "xray"), per-class statistics and the set's description. */
int tg_replay(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out, tg_error **err);
/* The function call graph in a graph style: "uftrace" (the default, style NULL: `uftrace
 * graph`, the whole program's call graph with func NULL, else FUNC's backtraces and the graph
 * of what it calls) or "xray" (`llvm-xray graph`: a DOT digraph of the calls with per-edge
 * timing statistics; func must be NULL). */
int tg_graph(tg_set *set, const tg_filter *f, const char *style, const char *func,
             const tg_options *opts, tg_buf *out, tg_error **err);
/* Name of graph style i ("uftrace", "xray"), NULL past the last. */
const char *tg_graph_style_name(size_t i);
int tg_report(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
              tg_buf *out, tg_error **err);
/* `llvm-xray stack` (style "xray", the only one; NULL: it): the top call stacks by leaf sum
 * and count, or every stack as flamegraph.pl's lines (options of group "stack"). */
int tg_stack(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
             tg_buf *out, tg_error **err);
int tg_stats(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out, tg_error **err);
/* lttng-analyses 0.6.1's command lttng-NAME on a kernel trace (name "cputop", "schedstats",
 * ...; options of group "analyze"): its text byte for byte, or with format=json the LAMI 1.0
 * document lttng-NAME-mi prints. */
int tg_analyze(tg_set *set, const char *name, const tg_options *opts, tg_buf *out, tg_error **err);
/* Name of analysis i ("cputop", ...), NULL past the last. */
const char *tg_analysis_name(size_t i);
int tg_info(tg_set *set, const tg_options *opts, tg_buf *out, tg_error **err);

/* ---- SQL: Perfetto's tables over the events, on SQLite ------------------------------------- */

/* An in-memory SQLite database with traceglot's tables over set: Perfetto trace_processor's
 * slice, thread, process, thread_track, counter, counter_track, sched_slice, thread_state,
 * ftrace_event and args (with EXTRACT_ARG), and traceglot's own trace and stats.  They are
 * virtual tables: rows are read through the cursor as scans ask for them (ts ranges, name,
 * cpu and utid constraints are applied while reading; a scan stops after the last ts it is
 * asked for), never copied whole; joins and sorts are SQLite's, in its temporary store.
 * f (may be NULL) filters what the tables see.  set and f must outlive the database, which
 * reads set (a set whose streams are read once, CTF or trace.dat, is then used up) and opens
 * the same paths again (tg_set_reopen) for scans at once. */
struct sqlite3;
int tg_sql_open(tg_set *set, const tg_filter *f, const tg_options *opts, struct sqlite3 **db,
                tg_error **err);
/* The damage the scans met so far (a list: see tg_error_next), or NULL.  Valid until the next
 * statement or tg_sql_close. */
const tg_error *tg_sql_errors(struct sqlite3 *db);
void tg_sql_close(struct sqlite3 *db);
/* Runs the statements of sql, one after the other, and writes their rows to out as "table"
 * (aligned columns under a header), "csv" (what `sqlite3 -csv -header` writes) or "json" (one
 * array of objects per statement, numbers as numbers).  Bad SQL: TG_ERR_USAGE with SQLite's
 * own message.  Damage met while reading is not an error here: see tg_sql_errors. */
int tg_sql_run(struct sqlite3 *db, const char *sql, const char *format, tg_buf *out,
               tg_error **err);
/* tg_sql_run of each text in turn, as one run: in "json" the rows make one document - the
 * array of the one statement, or, when the texts hold several statements, an array of the
 * arrays of those that return columns.  Formats also "list" (sqlite3's list mode), and
 * "csv,noheader", "list,header" (sqlite3's .headers). */
/* The i-th table of tg_sql_open's connection (0..; the views are SQLite's schema's), NULL past
 * the last. */
const char *tg_sql_table_name(size_t i);
/* Its columns as CREATE TABLE declares them ("id INTEGER, ts INTEGER, ..."), NULL past the
 * last: what the manual page lists. */
const char *tg_sql_table_columns(size_t i);
/* Does sql end with a complete statement (sqlite3_complete: a ";" outside strings, comments
 * and triggers)?  The shell's rule for when a statement typed over several lines runs. */
int tg_sql_complete(const char *sql);
int tg_sql_run_texts(struct sqlite3 *db, const char *const *texts, size_t n, const char *format,
                     tg_buf *out, tg_error **err);

/* Comparing two runs: set is the run shown (PATH), other the run it is compared with (OTHER,
 * the run before), both opened by the caller; functions and event classes match by name,
 * so the two may be of different formats.
 *   tg_report_diff: style "uftrace" prints `uftrace report --diff OTHER -d PATH` (options
 *     "diff-policy", "sort", "sort-column", "output-fields", "avg-total", "avg-self"; f
 *     filters set only, other is read whole, as uftrace does); "xray" prints llvm-xray
 *     account's columns with a delta each (f filters both).
 *   tg_convert_diff: to "folded" (`path OTHER_NS PATH_NS` lines, flamegraph.pl's
 *     difffolded.pl) or "svg" (a differential flame graph); f filters both.
 *   tg_stats_diff: per event class both counts and rates and the change; f filters both. */
int tg_report_diff(tg_set *set, tg_set *other, const tg_filter *f, const char *style,
                   const tg_options *opts, tg_buf *out, tg_error **err);
int tg_convert_diff(tg_set *set, tg_set *other, const tg_filter *f, const char *to,
                    const tg_options *opts, tg_buf *out, tg_error **err);
int tg_stats_diff(tg_set *set, tg_set *other, const tg_filter *f, const tg_options *opts,
                  tg_buf *out, tg_error **err);

#ifdef __cplusplus
}
#endif
#endif /* TRACEGLOT_H */
