/* trace_cmd_filter.c - `trace-cmd report -F FILTER` and `-v`: libtraceevent's event filter
 * language, with the meaning trace-cmd 3.1 gives it.
 *
 *   -F 'sched_switch,irq/.*:prev_pid > 10 && (CPU == 1 || !(common_flags & 0x8))'
 *
 * A filter string is a comma list of event regexes ("name" matches a system or an event name,
 * "system/name" both; anchored, case-insensitive POSIX basic regexes), then optionally ':' and
 * an expression: comparisons `field OP value` (== != < > <= >= on numbers, == != =~ !~ on
 * strings), `field & value`-style arithmetic (true when not zero), `&&`, `||`, `!` and
 * parentheses.  The parser (trace_cmd_filter_parse.c) is libtraceevent's state machine, kept
 * as it is, because users' filters mean what it makes of them: `&&` and `||` have no
 * precedence (left to right), `!` takes one comparison or one parenthesis, `prev_prio == -1`
 * is `prev_prio - 1`.  A field an event does not have (or COMM, CPU: the task name and the
 * cpu) makes the comparison false.
 * Numbers compare as unsigned 64-bit (signed fields sign-extended); a string compared with a
 * number field compares its symbol (pointer and long fields: kallsyms) or its "0x%llx".
 *
 * trace-cmd keeps the -F filters given before -v (one must match) apart from those after it
 * (none may match); an event of no positive filter is hidden, except a kernel or user stack
 * of a cpu where an event was shown before it: trace-cmd 3.1.6's flag per cpu (test_stacktrace
 * in trace-read.c) is set by each event it shows and cleared by none, so once a filtered event
 * of a cpu is shown, every later stack of that cpu is (unless -v hides it).
 *
 * The expression is parsed once into nodes; each class the filter names resolves its field
 * references once, from the fields it declares (so what trace-cmd refuses is refused before
 * any output), or at its first event for a format that declares none; an event costs one walk
 * of the tree with a field read per reference. */
#include "compat/trace-cmd/trace_cmd_filter.h"
#include "compat/trace-cmd/trace_cmd_filter_tree.h"

#include <ctype.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tc_filters {
    tg_set *set;
    size_t n_classes;
    filter **pos, **neg;
    size_t n_pos, n_neg, cap_pos, cap_neg;
    bool *last_printed; /* by cpu: the last event of the cpu was shown */
    size_t n_cpus, cap_cpus;
    char *sbuf; /* a field's text, NUL-terminated */
    size_t sbuf_cap;
};

/* ---- which events a filter names --------------------------------------------------------- */

static int bind_class(filter *f, cls_state *cs, const tg_event_class *cls, const tg_event *ev);

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static bool regex_full(regex_t *re, const char *pat)
{
    size_t n = strlen(pat);
    char *anchored = malloc(n + 3);
    if (!anchored)
        return false;
    anchored[0] = '^';
    memcpy(anchored + 1, pat, n);
    memcpy(anchored + 1 + n, "$", 2);
    bool ok = regcomp(re, anchored, REG_ICASE | REG_NOSUB) == 0;
    free(anchored);
    return ok;
}

/* Marks the classes "sys/name" (or "name": a system or an event) names; 0, or an error. */
static int select_events(tc_filters *fs, filter *f, char *entry, tg_error **err)
{
    char *save = NULL, *sys = strtok_r(entry, "/", &save), *name = strtok_r(NULL, "/", &save);
    if (!sys)
        return tg_err(err, TG_ERR_USAGE, "filter '%s': an empty event name", f->text);
    if (!name) {
        name = sys;
        sys = NULL;
    }
    regex_t ere, sre;
    if (!regex_full(&ere, trim(name)))
        return tg_err(err, TG_ERR_USAGE, "filter '%s': bad event regex '%s'", f->text, name);
    if (sys && !regex_full(&sre, trim(sys))) {
        regfree(&ere);
        return tg_err(err, TG_ERR_USAGE, "filter '%s': bad system regex '%s'", f->text, sys);
    }
    bool found = false;
    for (size_t t = 0; t < tg_set_trace_count(fs->set); t++) {
        const tg_trace *tr = tg_set_trace(fs->set, t);
        for (size_t i = 0; i < tg_trace_class_count(tr); i++) {
            const tg_event_class *c = tg_trace_class(tr, i);
            const char *s = c->system;
            if (!s)
                continue;
            bool m =
                sys ? regexec(&sre, s, 0, NULL, 0) == 0 && regexec(&ere, c->name, 0, NULL, 0) == 0
                    : regexec(&ere, s, 0, NULL, 0) == 0 || regexec(&ere, c->name, 0, NULL, 0) == 0;
            if (!m || c->number >= fs->n_classes)
                continue;
            found = true;
            cls_state *cs = &f->cls[c->number];
            if (cs->state != CS_OUT)
                continue;
            cs->state = CS_IN;
            int rc = f->root >= 0 ? bind_class(f, cs, c, NULL) : 1;
            if (rc < 0 || rc == 0)
                cs->state = rc < 0 ? CS_BAD : CS_BOUND;
            if (rc < 0) {
                regfree(&ere);
                if (sys)
                    regfree(&sre);
                return rc == TG_ERR_NOMEM ? tg_err(err, rc, "out of memory")
                                          : tg_err(err, TG_ERR_USAGE, "filter '%s' on %s: %s",
                                                   f->text, c->name, f->bad);
            }
        }
    }
    regfree(&ere);
    if (sys)
        regfree(&sre);
    if (!found)
        return tg_err(err, TG_ERR_USAGE, "filter '%s': no event matches '%s%s%s'", f->text,
                      sys ? sys : "", sys ? "/" : "", name);
    return 0;
}

/* ---- evaluation --------------------------------------------------------------------------- */

/* The index of field `name` in a scope of the class: from the class's declaration, or from
 * the event's fields when the format declares none; -1 when the class has no such field. */
static long find_field(const tg_event_class *cls, const tg_event *ev, tg_scope scope,
                       const char *name)
{
    const char *fn;
    for (size_t i = 0; !ev && (fn = tg_event_class_field_name(cls, scope, i)); i++)
        if (strcmp(fn, name) == 0)
            return (long)i;
    size_t n = ev ? tg_event_field_count(ev, scope) : 0;
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) == 0 && v.name && strcmp(v.name, name) == 0 &&
            !(scope == TG_SCOPE_COMMON && strcmp(name, "common_comm") == 0))
            return (long)i; /* common_comm is the reader's task name, not a format field */
    }
    return -1;
}

/* Resolves the names of f for a class (common fields first, then the event's, then COMM and
 * CPU), from its declared fields, or from its first event (ev) when it declares none: 0, 1
 * when it needs an event, or a negative status (what libtraceevent refuses in f->bad). */
static int bind_class(filter *f, cls_state *cs, const tg_event_class *cls, const tg_event *ev)
{
    if (!ev && !tg_event_class_field_name(cls, TG_SCOPE_COMMON, 0) &&
        !tg_event_class_field_name(cls, TG_SCOPE_PAYLOAD, 0))
        return 1;
    cs->comm = -2; /* looked up at the first COMM */
    cs->refs = calloc((size_t)(f->n_slots ? f->n_slots : 1), sizeof *cs->refs);
    if (!cs->refs)
        return TG_ERR_NOMEM;
    for (size_t k = 0; k < f->n_nodes; k++) {
        node *n = &f->nodes[k];
        if (n->kind != NK_ITEM || n->type != IT_NAME)
            continue;
        ref *r = &cs->refs[n->slot];
        static const tg_scope scopes[2] = {TG_SCOPE_COMMON, TG_SCOPE_PAYLOAD};
        for (int s = 0; s < 2 && r->kind == REF_NONE; s++) {
            long i = find_field(cls, ev, scopes[s], n->text);
            if (i >= 0)
                *r = (ref){REF_FIELD, (int8_t)scopes[s], (int32_t)i};
        }
        if (r->kind == REF_NONE && strcmp(n->text, "COMM") == 0)
            r->kind = REF_COMM;
        else if (r->kind == REF_NONE && strcmp(n->text, "CPU") == 0)
            r->kind = REF_CPU;
    }
    /* what libtraceevent refuses when the field exists */
    for (size_t k = 0; k < f->n_nodes; k++) {
        const node *n = &f->nodes[k];
        if (n->kind != NK_STR || cs->refs[f->nodes[n->left].slot].kind == REF_NONE)
            continue;
        if (n->type != C_EQ && n->type != C_NE && n->type != C_REGEX && n->type != C_NOT_REGEX)
            f->bad = "a string compared with <, >, <= or >=";
        else if ((n->type == C_REGEX || n->type == C_NOT_REGEX) && !n->regex_ok)
            f->bad = "a regex that does not compile";
        if (f->bad)
            return TG_ERR_USAGE;
    }
    return 0;
}

static uint64_t num_of(const tg_event *ev, cls_state *cs, const ref *r, const char **comm)
{
    tg_value v;
    switch (r->kind) {
    case REF_CPU: return (uint64_t)(int64_t)ev->cpu;
    case REF_COMM:
        if (cs->comm == -2) { /* the reader's task name, a COMMON field of the event */
            size_t n = tg_event_field_count(ev, TG_SCOPE_COMMON);
            cs->comm = -1;
            for (size_t i = 0; i < n && cs->comm < 0; i++)
                if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) == 0 && v.name &&
                    strcmp(v.name, "common_comm") == 0 && v.type == TG_VAL_STRING)
                    cs->comm = (int32_t)i;
        }
        *comm = cs->comm >= 0 && tg_event_field(ev, TG_SCOPE_COMMON, (size_t)cs->comm, &v) == 0
                    ? v.v.str.ptr
                    : "<...>";
        return (uint64_t)(uintptr_t)*comm;
    case REF_FIELD:
        if (tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) < 0)
            return 0;
        return v.type == TG_VAL_UINT ? v.v.u : v.type == TG_VAL_SINT ? (uint64_t)v.v.s : 0;
    default: return 0;
    }
}

/* The text a string comparison sees for a field, NUL-terminated (in fs->sbuf or hex). */
static const char *text_of(tc_filters *fs, const tg_event *ev, cls_state *cs, const ref *r,
                           char hex[32])
{
    const char *comm = NULL;
    tg_value v;
    if (r->kind == REF_FIELD && tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) == 0 &&
        v.type == TG_VAL_STRING) {
        if (tg_grow(&fs->sbuf, &fs->sbuf_cap, v.v.str.len + 1, 1) < 0)
            return "";
        memcpy(fs->sbuf, v.v.str.ptr, v.v.str.len);
        fs->sbuf[v.v.str.len] = 0;
        return fs->sbuf;
    }
    uint64_t x = num_of(ev, cs, r, &comm);
    if (r->kind == REF_COMM) {
        size_t n = strlen(comm);
        if (tg_grow(&fs->sbuf, &fs->sbuf_cap, n + 1, 1) < 0)
            return "";
        memcpy(fs->sbuf, comm, n + 1);
        return fs->sbuf;
    }
    if (r->kind == REF_FIELD && tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) == 0 &&
        (v.flags & (TG_VALF_POINTER | TG_VALF_LONG))) {
        const char *sym = tg_trace_symbol(tg_event_trace(ev), x);
        if (sym)
            return sym;
    }
    snprintf(hex, 32, "0x%llx", (unsigned long long)x);
    return hex;
}

/* An item's number; *bad when it is a string (libtraceevent's "not a number"). */
static uint64_t item_value(const filter *f, int i, const tg_event *ev, cls_state *cs, bool *bad,
                           bool *unknown)
{
    const node *n = &f->nodes[i];
    const char *comm;
    if (n->type == IT_NUMBER)
        return n->num;
    if (n->type != IT_NAME) {
        *bad = true;
        return 0;
    }
    const ref *r = &cs->refs[n->slot];
    if (r->kind == REF_NONE)
        *unknown = true;
    return num_of(ev, cs, r, &comm);
}

static bool eval(tc_filters *fs, const filter *f, int i, const tg_event *ev, cls_state *cs,
                 bool *bad)
{
    const node *n = &f->nodes[i];
    switch (n->kind) {
    case NK_BOOL: return n->value;
    case NK_OP:
        if (n->type == OP_AND)
            return eval(fs, f, n->left, ev, cs, bad) && eval(fs, f, n->right, ev, cs, bad);
        if (n->type == OP_OR)
            return eval(fs, f, n->left, ev, cs, bad) || eval(fs, f, n->right, ev, cs, bad);
        return !eval(fs, f, n->right, ev, cs, bad);
    case NK_NUM: {
        bool unknown = false;
        uint64_t l = item_value(f, n->left, ev, cs, bad, &unknown);
        uint64_t r = item_value(f, n->right, ev, cs, bad, &unknown);
        if (unknown)
            return false;
        switch (n->type) {
        case C_EQ: return l == r;
        case C_NE: return l != r;
        case C_GT: return l > r;
        case C_LT: return l < r;
        case C_GE: return l >= r;
        case C_LE: return l <= r;
        default: *bad = true; return false;
        }
    }
    case NK_STR: {
        const ref *r = &cs->refs[f->nodes[n->left].slot];
        if (r->kind == REF_NONE)
            return false;
        char hex[32];
        const char *s = text_of(fs, ev, cs, r, hex);
        switch (n->type) {
        case C_EQ: return strcmp(s, n->text) == 0;
        case C_NE: return strcmp(s, n->text) != 0;
        case C_REGEX: return regexec(&n->re, s, 0, NULL, 0) == 0;
        default: return regexec(&n->re, s, 0, NULL, 0) != 0;
        }
    }
    case NK_EXP: {
        /* a name the class lacks makes it false (libtraceevent folds it away at parse time,
         * before a string operand could make it an error) */
        bool unknown = false, not_num = false;
        uint64_t l = item_value(f, n->left, ev, cs, &not_num, &unknown);
        uint64_t r = item_value(f, n->right, ev, cs, &not_num, &unknown);
        if (unknown)
            return false;
        if (not_num) {
            *bad = true;
            return false;
        }
        switch (n->type) {
        case E_ADD: return l + r != 0;
        case E_SUB: return l - r != 0;
        case E_MUL: return l * r != 0;
        case E_DIV:
        case E_MOD:
            if (!r) { /* trace-cmd dies of SIGFPE */
                *bad = true;
                return false;
            }
            return (n->type == E_DIV ? l / r : l % r) != 0;
        case E_RSHIFT: return r < 64 && l >> r != 0;
        case E_LSHIFT: return r < 64 && l << r != 0;
        case E_AND: return (l & r) != 0;
        case E_OR: return (l | r) != 0;
        case E_XOR: return (l ^ r) != 0;
        default: *bad = true; return false;
        }
    }
    default: *bad = true; return false;
    }
}

/* tep_filter_match: 1 match, 0 miss or not the filter's event, or a negative status. */
static int filter_match(tc_filters *fs, filter *f, const tg_event *ev, tg_error **err)
{
    size_t c = ev->cls ? ev->cls->number : SIZE_MAX;
    if (c >= fs->n_classes)
        return 0;
    cls_state *cs = &f->cls[c];
    if (cs->state == CS_OUT)
        return 0;
    if (f->root < 0)
        return 1;
    if (cs->state == CS_IN) { /* a class that declares no fields: bound at its first event */
        int rc = bind_class(f, cs, ev->cls, ev);
        cs->state = rc < 0 ? CS_BAD : CS_BOUND;
        if (rc == TG_ERR_NOMEM)
            return tg_err(err, rc, "out of memory");
    }
    if (cs->state == CS_BAD)
        return tg_err(err, TG_ERR_USAGE, "filter '%s' on %s: %s", f->text, ev->cls->name,
                      f->bad ? f->bad : "cannot be applied");
    bool bad = false;
    bool m = eval(fs, f, f->root, ev, cs, &bad);
    return m && !bad;
}

/* ---- the filter set ------------------------------------------------------------------------ */

static void filter_free(filter *f, size_t n_classes)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_nodes; i++) {
        free(f->nodes[i].text);
        if (f->nodes[i].regex_ok)
            regfree(&f->nodes[i].re);
    }
    for (size_t i = 0; f->cls && i < n_classes; i++)
        free(f->cls[i].refs);
    free(f->cls);
    free(f->nodes);
    free(f->text);
    free(f->err);
    free(f);
}

tc_filters *tc_filters_new(tg_set *set)
{
    tc_filters *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->set = set;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        const tg_trace *tr = tg_set_trace(set, t);
        for (size_t i = 0; i < tg_trace_class_count(tr); i++) {
            size_t n = tg_trace_class(tr, i)->number + 1;
            if (n > fs->n_classes)
                fs->n_classes = n;
        }
    }
    return fs;
}

void tc_filters_free(tc_filters *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->n_pos; i++)
        filter_free(fs->pos[i], fs->n_classes);
    for (size_t i = 0; i < fs->n_neg; i++)
        filter_free(fs->neg[i], fs->n_classes);
    free(fs->pos);
    free(fs->neg);
    free(fs->last_printed);
    free(fs->sbuf);
    free(fs);
}

int tc_filters_add(tc_filters *fs, const char *str, bool neg, tg_error **err)
{
    filter *f = calloc(1, sizeof *f);
    char *events = NULL;
    int rc = TG_ERR_NOMEM;
    if (!f || !(f->text = strdup(str)) ||
        !(f->cls = calloc(fs->n_classes ? fs->n_classes : 1, sizeof *f->cls)))
        goto out;
    f->root = -1;
    const char *colon = strchr(str, ':');
    if (!(events = strndup(str, colon ? (size_t)(colon - str) : strlen(str))))
        goto out;
    if (colon) {
        f->in = colon + 1;
        f->len = strlen(f->in);
        rc = tc_filter_parse(f);
        if (rc < 0) {
            if (rc == TG_ERR_USAGE)
                rc = tg_err(err, TG_ERR_USAGE, "filter '%s': %s", str,
                            f->err ? f->err : "syntax error");
            goto out;
        }
    }
    if (!events[0] || events[strspn(events, ",")] == 0) {
        rc = tg_err(err, TG_ERR_USAGE, "filter '%s': no event named", str);
        goto out;
    }
    char *save = NULL;
    for (char *e = events, *tok; (tok = strtok_r(e, ",", &save)); e = NULL)
        if ((rc = select_events(fs, f, tok, err)) < 0)
            goto out;
    filter ***list = neg ? &fs->neg : &fs->pos;
    size_t *n = neg ? &fs->n_neg : &fs->n_pos, *cap = neg ? &fs->cap_neg : &fs->cap_pos;
    if (tg_grow(list, cap, *n + 1, sizeof **list) < 0) {
        rc = TG_ERR_NOMEM;
        goto out;
    }
    (*list)[(*n)++] = f;
    free(events);
    return 0;
out:
    if (rc == TG_ERR_NOMEM && !(err && *err))
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    free(events);
    filter_free(f, fs->n_classes);
    return rc;
}

static bool is_stack(const tg_event *ev)
{
    const tg_event_class *c = ev->cls;
    return c && c->system && strcmp(c->system, "ftrace") == 0 &&
           (strcmp(c->name, "kernel_stack") == 0 || strcmp(c->name, "user_stack") == 0);
}

int tc_filters_show(tc_filters *fs, const tg_event *ev, tg_error **err)
{
    bool found = false, stack = false;
    for (size_t i = 0; i < fs->n_pos && !found; i++) {
        int m = filter_match(fs, fs->pos[i], ev, err);
        if (m < 0)
            return m;
        found = m;
    }
    size_t cpu = ev->cpu >= 0 ? (size_t)ev->cpu : 0;
    if (cpu >= fs->n_cpus && tg_grow_zeroed(&fs->last_printed, &fs->n_cpus, &fs->cap_cpus, cpu + 1,
                                            sizeof *fs->last_printed) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (!found && fs->n_pos) {
        /* a stack trace of no filter of its own: shown once an event of its cpu was */
        if (!is_stack(ev) || !fs->last_printed[cpu])
            return 0;
        stack = true;
    }
    found = false;
    for (size_t i = 0; i < fs->n_neg && !found; i++) {
        int m = filter_match(fs, fs->neg[i], ev, err);
        if (m < 0)
            return m;
        found = m;
    }
    if (!stack && !found)
        fs->last_printed[cpu] = true;
    return !found;
}
