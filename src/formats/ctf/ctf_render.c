/* ctf_render.c - an event's scopes in babeltrace2's text form (the stream op `render`).
 *
 * CTF has no text form of its own; the reference rendering of CTF events is babeltrace2's
 * (sink.text.pretty): `{ packet context }, { stream event context }, { event context },
 * { payload }` with the visible fields of each scope.  The fields are printed by the step
 * interpreter's print mode (ctf_decode.c, with ctf_text.h), straight from the packet bits,
 * into the output itself when it has ample room before its next flush (else into one scratch
 * tg_buf per stream, then one tg_buf_put), so that an event that fails half-way prints
 * nothing and the usual one is written once.  This file decides which scopes print and caches what
 * repeats: the packet context is rendered once per packet, the stream event context (thread
 * ids, process name) once per change of its bytes.
 *
 * An event with no payload block prints no payload; an empty one prints { }. */
#include "formats/ctf/ctf_stream.h"
#include "formats/ctf/ctf_text.h"

#include <stddef.h>
#include <string.h>

/* The room out must have left before its next flush for an event to be rendered in place:
 * far more than an event's usual text, so that one failing half-way (out of memory) is taken
 * back whole; the others go through the stream's scratch buffer. */
#define CTF_RENDER_DIRECT_ROOM ((size_t)16 << 10)

/* The scope names babeltrace2 prints with --names=scope, by scope. */
enum { SC_PACKET, SC_STREAM, SC_EVENT_CONTEXT, SC_PAYLOAD };
static const char *const scope_names[] = {
    "stream.packet.context = ", "stream.event.context = ", "event.context = ", "event.fields = "};

/* Renders one scope from bit position start if it is visible: 1 printed, 0 not, <0 error.
 * *empty_text (when given) says whether a text of it printed empty. */
static int put_scope(tg_buf *w, ctf_dstream *ds, const ctf_prog *prog, uint64_t start, bool first,
                     bool *empty_text, unsigned flags, int scope)
{
    if (!prog || !prog->n || !prog->steps[0].in_ir)
        return 0;
    ctf_dec d; /* the reader's state but what only reading sets (quiet passes never read it) */
    memcpy(&d, &ds->d, CTF_DEC_QUIET_COPY);
    d.clock_value = 0;
    d.clock_seen = false;
    d.seen = 0;
    d.uuid = NULL;
    d.msg[0] = 0;
    d.pos = start;
    d.tree = NULL;
    d.quiet = true;
    d.owner = ds;
    d.no_names =
        flags & (scope == SC_PAYLOAD ? TG_RENDER_NO_PAYLOAD_NAMES : TG_RENDER_NO_CONTEXT_NAMES);
    if (!first)
        TG_BUF_LIT(w, ", ");
    if (flags & TG_RENDER_SCOPE_NAMES)
        tg_buf_put(w, scope_names[scope], strlen(scope_names[scope]));
    d.empty_text = false;
    int rc = ctf_run_print(&d, prog, w);
    if (empty_text)
        *empty_text = d.empty_text;
    return rc < 0 ? rc : 1;
}

/* The stream event context (thread ids, process name in LTTng traces) changes rarely: its
 * text is kept with the bytes it came from and reused while they are the same, unless a
 * text of it is empty (babeltrace2's text for it depends on the events before). */
static int put_context(tg_buf *w, ctf_dstream *ds, uint64_t start, uint64_t end, bool first,
                       unsigned flags)
{
    const ctf_prog *prog = ds->sc->prog_event_context;
    if (!prog || !prog->n || !prog->steps[0].in_ir)
        return 0;
    uint64_t b0 = start / 8, b1 = (end + 7) / 8;
    size_t nbytes = (size_t)(b1 - b0);
    if (nbytes == 0 || nbytes > sizeof ds->sc_raw || !prog->self_contained)
        return put_scope(w, ds, prog, start, first, NULL, flags, SC_STREAM);
    const uint8_t *raw = ds->d.buf + b0;
    if (ds->sc_raw_len == nbytes && ds->sc_raw_shift == (start & 7) &&
        !memcmp(ds->sc_raw, raw, nbytes)) {
        if (!first)
            TG_BUF_LIT(w, ", ");
        tg_buf_put_fast(w, ds->sc_text->p, ds->sc_text->len);
        return 1;
    }
    if (!first)
        TG_BUF_LIT(w, ", ");
    size_t at = w->len;
    uint64_t flushed = w->flushed;
    bool empty_text = false;
    int rc = put_scope(w, ds, prog, start, true, &empty_text, flags, SC_STREAM);
    if (rc <= 0 || w->failed)
        return rc;
    if (w->flushed != flushed || empty_text) {
        /* written out meanwhile (a text longer than the output's room), or not reusable */
        ds->sc_raw_len = 0;
        return rc;
    }
    size_t n = w->len - at;
    tg_buf_reset(ds->sc_text);
    tg_buf_put_fast(ds->sc_text, w->p + at, n);
    if (ds->sc_text->failed) {
        ds->sc_raw_len = 0;
    } else {
        memcpy(ds->sc_raw, raw, nbytes);
        ds->sc_raw_len = (uint32_t)nbytes;
        ds->sc_raw_shift = (uint8_t)(start & 7);
    }
    return rc;
}

int ctf_render(const tg_event *ev, tg_buf *out) { return ctf_render_with(ev, out, 0); }

int ctf_render_with(const tg_event *ev, tg_buf *out, unsigned flags)
{
    if (flags & TG_RENDER_DETAILS)
        return ctf_details_event(ev, out);
    if (!ev->stream || ev->stream->ops != &ctf_stream_ops || !ev->auxp)
        return 0;
    ctf_dstream *ds = ev->stream->priv;
    const ctf_event_decl *e = ev->auxp;
    if (!ds->rbuf && !(ds->rbuf = tg_buf_new()))
        return 0;
    if (!ds->pc_text && !(ds->pc_text = tg_buf_new()))
        return 0;
    if (!ds->sc_text && !(ds->sc_text = tg_buf_new()))
        return 0;
    if (flags != ds->render_flags) { /* the cached texts were rendered with other flags */
        ds->render_flags = flags;
        ds->pc_for = 0;
        ds->sc_raw_len = 0;
    }
    bool first = true;
    int rc;
    /* the packet context, rendered once per packet */
    if (ds->pc_for != ds->pkt_index + 1) {
        tg_buf *pw = ds->pc_text;
        tg_buf_reset(pw);
        rc = put_scope(pw, ds, ds->sc->prog_packet_context, ds->pc_pos, true, NULL, flags,
                       SC_PACKET);
        if (pw->failed || rc <= 0)
            tg_buf_reset(pw);
        ds->pc_for = ds->pkt_index + 1;
    }
    /* Straight into out when it has room for a usual event before its next flush; else
     * into the scratch, copied once whole */
    bool direct = out->room_end - out->len >= CTF_RENDER_DIRECT_ROOM;
    tg_buf *w = direct ? out : ds->rbuf;
    if (!direct)
        w->len = 0;
    size_t at = w->len;
    uint64_t flushed = w->flushed;
    int failed = w->failed;
    if (ds->pc_text->len) {
        tg_buf_put_fast(w, ds->pc_text->p, ds->pc_text->len);
        first = false;
    }
    if ((rc = put_context(w, ds, ev->aux[1], ev->aux[2], first, flags)) > 0) {
        first = false;
        if (ctf_debuginfo_applies(ds) && w->len >= 2 && !memcmp(w->p + w->len - 2, " }", 2)) {
            /* babeltrace2's debug-info filter adds a member at the end of this context */
            w->len -= 2;
            ctf_debuginfo_render(ev, w);
            TG_BUF_LIT(w, " }");
        }
    }
    if (rc >= 0 && (rc = put_scope(w, ds, e->prog_context, ev->aux[2], first, NULL, flags,
                                   SC_EVENT_CONTEXT)) > 0)
        first = false;
    if (rc >= 0)
        rc = put_scope(w, ds, e->prog_fields, ev->aux[3], first, NULL, flags, SC_PAYLOAD);
    if ((w->failed && !failed) || rc < 0) {
        if (direct && w->flushed == flushed)
            w->len = at; /* nothing of it printed */
        return 0;
    }
    if (!direct && w->len)
        tg_buf_put(out, w->p, w->len);
    return 1;
}
