/* perf_report_json.c - `report --style=perf --format json`: perf report's entries of each event
 * as one JSON document, for scripts that would otherwise scrape perf's rounded percentages:
 *
 *   {"lost_samples": 0,
 *    "events": [{"event": "cpu-clock:ppp", "samples": 1234, "event_count": 308500000,
 *                "entries": [{"children_period": 5000, "self_period": 2500,
 *                             "children_percent": 1.62, "self_percent": 0.81,
 *                             "command": "sh", "pid": 1234, "shared_object": "libc.so.6",
 *                             "symbol": "__libc_start_main", "level": ".",
 *                             "address": 140234}, ...]}]}
 *
 * In the text's order, with the columns --sort asks for (command; pid and its command; the
 * object, null where perf prints [unknown]; the symbol, null where perf prints an address,
 * with the address and perf's [k]/[.] level), the children columns only where the text has
 * them.  The call graphs under the entries are not in the document. */
#include "compat/perf/perf_hist.h"
#include "core/consumer.h"

#include <json-c/json.h>

static double percent(uint64_t v, uint64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

static json_object *entry_json(const ph_entry *x, const ph_hists *h, const ph_config *cfg,
                               const char *(*comm_of)(void *ctx, int32_t tid), void *ctx)
{
    json_object *o = json_object_new_object();
    if (cfg->children) {
        json_object_object_add(o, "children_period", json_object_new_int64((int64_t)x->period_acc));
        json_object_object_add(o, "children_percent",
                               json_object_new_double(percent(x->period_acc, h->total)));
    }
    json_object_object_add(o, "self_period", json_object_new_int64((int64_t)x->period));
    json_object_object_add(o, "self_percent", json_object_new_double(percent(x->period, h->total)));
    for (size_t k = 0; k < cfg->n_keys; k++) {
        switch (cfg->keys[k]) {
        case PH_COMM: json_object_object_add(o, "command", json_object_new_string(x->comm)); break;
        case PH_PID:
            json_object_object_add(o, "pid", json_object_new_int(x->tid));
            json_object_object_add(o, "pid_command", json_object_new_string(comm_of(ctx, x->tid)));
            break;
        case PH_DSO:
            json_object_object_add(o, "shared_object",
                                   x->dso ? json_object_new_string(x->dso) : NULL);
            break;
        case PH_SYM:
            json_object_object_add(o, "symbol",
                                   x->sym ? json_object_new_string(x->sym->name) : NULL);
            json_object_object_add(o, "level", json_object_new_string_len(&x->level, 1));
            json_object_object_add(o, "address", json_object_new_uint64(x->ip));
            break;
        }
    }
    return o;
}

json_object *ph_event_json(const char *event, const ph_hists *h, const ph_config *cfg,
                           const char *(*comm_of)(void *ctx, int32_t tid), void *ctx)
{
    json_object *o = json_object_new_object(), *entries = json_object_new_array();
    json_object_object_add(o, "event", json_object_new_string(event));
    json_object_object_add(o, "samples", json_object_new_int64((int64_t)h->samples));
    json_object_object_add(o, "event_count", json_object_new_int64((int64_t)h->total));
    json_object_object_add(o, "entries", entries);
    for (size_t i = 0; i < h->n; i++)
        json_object_array_add(entries, entry_json(&h->v[i], h, cfg, comm_of, ctx));
    return o;
}
