/* svg_writer.c - an interactive flame graph as one self-contained SVG file,
 * `traceglot convert --to svg`.
 *
 * The call tree of flame_tree is drawn the classic way: the root at the bottom, each frame
 * as wide as the self time of its whole subtree (so widths agree with the folded output
 * and with uftrace report's self times), children left to right in first-seen order.
 * Every frame is a <g> with a hover <title> (name, module, time, share of the whole), a
 * rect and a label; its position in time units and its depth are kept in data attributes so the small
 * script embedded at the end can zoom (click a frame; "Reset zoom") and search ("Search",
 * or the ?s= parameter of the URL) without anything from the network.  Frames narrower than
 * a tenth of a pixel at full width are left out, as flamegraph.pl does.  Colours: one hue
 * family per module (svg_palette.c), and a legend under the frames names the modules drawn
 * (the first LEGEND_MAX; each frame's module is also its data-m attribute).  A perf.data
 * file's samples are drawn from the stacks `--to folded` counts (sample_stacks.h): under
 * the root each thread name, widths in samples.
 *
 * --diff OTHER draws PATH's frames (threads merged, so that runs with other thread ids
 * match) coloured by the change of each frame's self time against the same call path in
 * OTHER, as flamegraph.pl's differential graphs: red slower, blue faster, the colour the
 * stronger the larger the change against the largest change of the graph; a frame whose
 * path OTHER does not have is outlined dashed.  Its title gives both self times, both total
 * times and the change, and data-a / data-b hold OTHER's and PATH's self time in ns.  The
 * paths only OTHER has are listed under the graph, largest first. */
#include "core/consumer.h"
#include "writers/viewers/flame_tree.h"
#include "writers/viewers/svg_palette.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 1200, FRAME_H = 16, PAD_TOP = 40, PAD_BOTTOM = 24, SIDE = 10, CHAR_W = 7 };
enum { LEGEND_MAX = 48, LEGEND_ROW = 16, LEGEND_TEXT_MAX = 40 };

static void put_xml(tg_buf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': tg_buf_puts(out, "&lt;"); break;
        case '>': tg_buf_puts(out, "&gt;"); break;
        case '&': tg_buf_puts(out, "&amp;"); break;
        case '"': tg_buf_puts(out, "&quot;"); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                tg_buf_putc(out, *s);
        }
    }
}

/* A time the way a person reads it: "12.345 ms". */
static void put_time(tg_buf *out, int64_t ns)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    double v = (double)ns;
    int u = 0;
    while (v >= 1000 && u < 3) {
        v /= 1000;
        u++;
    }
    tg_buf_printf(out, u ? "%.3f %s" : "%.0f %s", v, units[u]);
}

/* A weight: a time, or a count of samples in a tree of samples. */
static void put_weight(tg_buf *out, const tg_flame_tree *ft, int64_t v)
{
    if (ft->samples)
        tg_buf_printf(out, "%lld sample%s", (long long)v, v == 1 ? "" : "s");
    else
        put_time(out, v);
}

static void put_label(tg_buf *out, const char *name, double width)
{
    size_t fits = width > 3 * CHAR_W ? (size_t)(width / CHAR_W) : 0;
    size_t len = strlen(name);
    if (fits >= len) {
        put_xml(out, name);
    } else if (fits > 2) {
        char cut[256];
        size_t keep = fits - 2 < sizeof cut - 1 ? fits - 2 : sizeof cut - 1;
        memcpy(cut, name, keep);
        cut[keep] = '\0';
        put_xml(out, cut);
        tg_buf_puts(out, "..");
    }
}

/* The modules of the frames drawn, in first-drawn order, and where each legend entry goes. */
typedef struct legend {
    const char *module[LEGEND_MAX];
    int x[LEGEND_MAX], row[LEGEND_MAX];
    size_t n;
    int rows;
} legend;

static const char *short_module(const char *module)
{
    const char *slash = strrchr(module, '/');
    return slash && slash[1] ? slash + 1 : module;
}

static void legend_add(legend *lg, const char *module)
{
    if (!module || lg->n == LEGEND_MAX)
        return;
    for (size_t i = 0; i < lg->n; i++)
        if (lg->module[i] == module || strcmp(lg->module[i], module) == 0)
            return;
    lg->module[lg->n++] = module;
}

/* Lays the entries out left to right, a swatch and the module's file name each, wrapping. */
static void legend_layout(legend *lg)
{
    int x = SIDE;
    lg->rows = lg->n ? 1 : 0;
    for (size_t i = 0; i < lg->n; i++) {
        size_t len = strlen(short_module(lg->module[i]));
        int w = 16 + (int)(len < LEGEND_TEXT_MAX ? len : LEGEND_TEXT_MAX) * CHAR_W + 16;
        if (x + w > WIDTH - SIDE && x > SIDE) {
            x = SIDE;
            lg->rows++;
        }
        lg->x[i] = x;
        lg->row[i] = lg->rows - 1;
        x += w;
    }
}

static void legend_put(const legend *lg, tg_buf *out, int y0)
{
    for (size_t i = 0; i < lg->n; i++) {
        int y = y0 + lg->row[i] * LEGEND_ROW;
        tg_buf_puts(out, "<g class=\"legend\" data-m=\"");
        put_xml(out, lg->module[i]);
        tg_buf_puts(out, "\"><title>");
        put_xml(out, lg->module[i]);
        tg_buf_printf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"",
                      lg->x[i], y);
        tg_svg_put_family(out, lg->module[i]);
        tg_buf_printf(out, "\"/><text x=\"%d\" y=\"%d\">", lg->x[i] + 16, y + 10);
        put_label(out, short_module(lg->module[i]), LEGEND_TEXT_MAX * CHAR_W);
        tg_buf_puts(out, "</text></g>\n");
    }
}

static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "'use strict';\n"
    "const W = %d, SIDE = %d, CH = %d;\n"
    "const frames = Array.from(document.querySelectorAll('g.f'));\n"
    "const total = Number(document.documentElement.dataset.total);\n"
    "function label(g, w) {\n"
    "  const name = g.dataset.n, t = g.querySelector('text'), fit = Math.floor(w / CH);\n"
    "  t.textContent = w < 3 * CH ? '' : fit >= name.length ? name : name.slice(0, fit - 2) + "
    "'..';\n"
    "}\n"
    "function place(g, x, w) {\n"
    "  const r = g.querySelector('rect');\n"
    "  r.setAttribute('x', x); r.setAttribute('width', Math.max(w, 0));\n"
    "  g.querySelector('text').setAttribute('x', x + 3);\n"
    "  label(g, w);\n"
    "}\n"
    "function zoom(g) {\n"
    "  const x0 = Number(g.dataset.x), w0 = Number(g.dataset.w), d0 = Number(g.dataset.d);\n"
    "  const scale = (W - 2 * SIDE) / w0;\n"
    "  for (const f of frames) {\n"
    "    const x = Number(f.dataset.x), w = Number(f.dataset.w), d = Number(f.dataset.d);\n"
    "    if (d < d0) {\n"
    "      const covers = x <= x0 && x + w >= x0 + w0;\n"
    "      f.style.display = covers ? '' : 'none';\n"
    "      if (covers) { place(f, SIDE, W - 2 * SIDE); f.classList.add('parent'); }\n"
    "    } else if (x >= x0 && x + w <= x0 + w0 + 1e-9) {\n"
    "      f.style.display = ''; f.classList.remove('parent');\n"
    "      place(f, SIDE + (x - x0) * scale, w * scale);\n"
    "    } else {\n"
    "      f.style.display = 'none';\n"
    "    }\n"
    "  }\n"
    "  document.getElementById('unzoom').style.display = '';\n"
    "}\n"
    "function unzoom() { zoom(frames[0]); document.getElementById('unzoom').style.display = "
    "'none'; }\n"
    "function search(term) {\n"
    "  let hit = 0; const seen = [];\n"
    "  for (const f of frames) {\n"
    "    const r = f.querySelector('rect');\n"
    "    const match = term && f.dataset.n.includes(term);\n"
    "    r.setAttribute('fill', match ? 'rgb(230,0,230)' : r.dataset.fill);\n"
    "    f.classList.toggle('match', !!match);\n"
    "    if (match) {\n"
    "      const x = Number(f.dataset.x), w = Number(f.dataset.w);\n"
    "      if (!seen.some(([a, b]) => x >= a && x + w <= b)) { seen.push([x, x + w]); hit += w; }\n"
    "    }\n"
    "  }\n"
    "  const m = document.getElementById('matched');\n"
    "  m.textContent = term ? 'Matched: ' + (100 * hit / total).toFixed(2) + '%%' : '';\n"
    "  return hit;\n"
    "}\n"
    "for (const f of frames) {\n"
    "  f.querySelector('rect').dataset.fill = f.querySelector('rect').getAttribute('fill');\n"
    "  f.addEventListener('click', () => zoom(f));\n"
    "}\n"
    "document.getElementById('unzoom').addEventListener('click', unzoom);\n"
    "document.getElementById('search').addEventListener('click', () => {\n"
    "  const term = prompt('Search for a function name (empty: clear)', '');\n"
    "  if (term !== null) search(term);\n"
    "});\n"
    "const q = new URLSearchParams(location.search).get('s');\n"
    "if (q) search(q);\n"
    "]]></script>\n";

/* What a differential graph adds: OTHER's tree and, per frame of PATH, its OTHER node. */
typedef struct svg_diff {
    const tg_flame_tree *other;
    const uint32_t *map;   /* node of PATH -> node of OTHER, or TG_FLAME_NONE */
    int64_t max_change;    /* the largest |self change| of the frames drawn (at least 1) */
    const char *path_name; /* the runs, for the title */
    const char *other_name;
} svg_diff;

enum { GONE_MAX = 12 };

static int64_t other_self(const svg_diff *d, uint32_t node)
{
    return d->map[node] == TG_FLAME_NONE ? 0 : d->other->nodes[d->map[node]].self_ns;
}

static void put_signed_time(tg_buf *out, int64_t ns)
{
    tg_buf_putc(out, ns < 0 ? '-' : '+');
    put_time(out, ns < 0 ? -ns : ns);
}

/* The fill of a frame by its self time's change: red slower, blue faster (rgb as
 * flamegraph.pl's differential colours: the other two channels fall with the change). */
static void put_change_fill(tg_buf *out, int64_t change, int64_t max_change)
{
    double r = (double)(change < 0 ? -change : change) / (double)max_change;
    int v = (int)(230.0 - 190.0 * (r > 1 ? 1 : r));
    if (change > 0)
        tg_buf_printf(out, "rgb(255,%d,%d)", v, v);
    else if (change < 0)
        tg_buf_printf(out, "rgb(%d,%d,255)", v, v);
    else
        tg_buf_puts(out, "rgb(230,230,230)");
}

/* A frame's title in a differential graph: its name, both self and total times, the change. */
static void put_change_title(tg_buf *out, const tg_flame_tree *ft, const svg_diff *d, uint32_t node,
                             int64_t weight)
{
    const tg_flame_node *nd = &ft->nodes[node];
    uint32_t on = d->map[node];
    int64_t a = other_self(d, node), b = nd->self_ns;
    tg_buf_puts(out, "\nself: PATH ");
    put_time(out, b);
    tg_buf_puts(out, ", OTHER ");
    put_time(out, a);
    tg_buf_puts(out, ", change ");
    put_signed_time(out, b - a);
    if (a > 0)
        tg_buf_printf(out, " (%+.1f%%)", 100.0 * (double)(b - a) / (double)a);
    tg_buf_puts(out, "\ntotal: PATH ");
    put_time(out, node ? nd->total_ns : weight);
    tg_buf_puts(out, ", OTHER ");
    if (on == TG_FLAME_NONE)
        tg_buf_puts(out, "- (only in PATH)");
    else
        put_time(out, on ? d->other->nodes[on].total_ns : d->other->nodes[0].total_ns);
}

/* The call paths only OTHER has (each where it leaves PATH's tree), largest first, under
 * the graph; returns the lines drawn. */
static int put_gone(tg_buf *out, const tg_flame_tree *ft, const svg_diff *d, int y0, bool draw)
{
    const tg_flame_tree *fo = d->other;
    uint8_t *seen = calloc(fo->n ? fo->n : 1, 1);
    int64_t *weight = calloc(fo->n ? fo->n : 1, sizeof *weight);
    if (!seen || !weight) {
        free(seen);
        free(weight);
        return 0;
    }
    for (size_t i = 0; i < ft->n; i++)
        if (d->map[i] != TG_FLAME_NONE)
            seen[d->map[i]] = 1;
    for (size_t i = fo->n; i-- > 1;) {
        weight[i] += fo->nodes[i].self_ns;
        weight[fo->nodes[i].parent] += weight[i];
    }
    uint32_t top[GONE_MAX];
    int n = 0;
    for (uint32_t i = 1; i < fo->n; i++) { /* roots of gone subtrees, the largest kept */
        if (seen[i] || !seen[fo->nodes[i].parent] || weight[i] <= 0)
            continue;
        int k = n < GONE_MAX ? n++ : GONE_MAX - 1;
        if (k == GONE_MAX - 1 && n == GONE_MAX && weight[top[k]] >= weight[i])
            continue;
        for (; k > 0 && weight[top[k - 1]] < weight[i]; k--)
            top[k] = top[k - 1];
        top[k] = i;
    }
    for (int k = 0; draw && k < n; k++) {
        uint32_t path[64];
        int depth = 0;
        for (uint32_t up = top[k]; up != 0 && depth < 64; up = fo->nodes[up].parent)
            path[depth++] = up;
        tg_buf_printf(out, "<g class=\"gone\" data-a=\"%lld\"><title>only in OTHER: ",
                      (long long)weight[top[k]]);
        for (int j = depth; j-- > 0;) {
            put_xml(out, tg_flame_node_name(fo, &fo->nodes[path[j]]));
            tg_buf_puts(out, j ? ";" : " (");
        }
        put_time(out, weight[top[k]]);
        tg_buf_printf(out, " self)</title><text x=\"%d\" y=\"%d\">only in OTHER: ", SIDE,
                      y0 + k * LEGEND_ROW);
        for (int j = depth; j-- > 0;) {
            put_xml(out, tg_flame_node_name(fo, &fo->nodes[path[j]]));
            tg_buf_puts(out, j ? ";" : " (");
        }
        put_time(out, weight[top[k]]);
        tg_buf_puts(out, ")</text></g>\n");
    }
    free(seen);
    free(weight);
    return n;
}

static int put_svg(const tg_flame_tree *ft, const svg_diff *d, tg_buf *out)
{
    /* weights: self time of each subtree; children always come after their parent */
    size_t n = ft->n;
    int64_t *weight = calloc(n, sizeof *weight);
    double *x = calloc(n, sizeof *x), *next_x = calloc(n, sizeof *next_x);
    int *depth = calloc(n, sizeof *depth);
    if (!weight || !x || !next_x || !depth) {
        free(weight);
        free(x);
        free(next_x);
        free(depth);
        return TG_ERR_NOMEM;
    }
    for (size_t i = n; i-- > 0;) {
        weight[i] += ft->nodes[i].self_ns;
        if (i)
            weight[ft->nodes[i].parent] += weight[i];
    }
    int max_depth = 0;
    for (uint32_t i = 0; i != TG_FLAME_NONE; i = tg_flame_tree_next(ft, i)) {
        const tg_flame_node *nd = &ft->nodes[i];
        if (i) {
            depth[i] = depth[nd->parent] + 1;
            /* children are visited in order: each starts where its elder sibling ended */
            x[i] = next_x[nd->parent];
            next_x[nd->parent] += (double)weight[i];
        }
        next_x[i] = x[i];
        if (depth[i] > max_depth)
            max_depth = depth[i];
    }
    int64_t total = weight[0] > 0 ? weight[0] : 1;
    double scale = (double)(WIDTH - 2 * SIDE) / (double)total;
    legend lg = {.n = 0};
    for (uint32_t i = 0; !d && i != TG_FLAME_NONE; i = tg_flame_tree_next(ft, i))
        if ((double)weight[i] * scale >= 0.1)
            legend_add(&lg, ft->nodes[i].module);
    legend_layout(&lg);
    if (d) /* the key line, then the paths only OTHER has */
        lg.rows = 1 + put_gone(out, ft, d, 0, false);
    int legend_h = lg.rows ? lg.rows * LEGEND_ROW + 8 : 0;
    int height = PAD_TOP + (max_depth + 1) * FRAME_H + legend_h + PAD_BOTTOM;
    tg_buf_printf(out,
                  "<?xml version=\"1.0\" standalone=\"no\"?>\n"
                  "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                  "xmlns=\"http://www.w3.org/2000/svg\" data-total=\"%lld\">\n",
                  WIDTH, height, WIDTH, height, (long long)total);
    tg_buf_puts(out,
                "<style>text { font-family: monospace; font-size: 12px; fill: #000; } "
                "g.f:hover rect { stroke: #000; stroke-width: 0.5; } g.f text { "
                "pointer-events: none; } #title { font-size: 17px; } .button { cursor: pointer; "
                "fill: #33c; }</style>\n"
                "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f0\"/>\n");
    tg_buf_printf(out, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">", WIDTH / 2);
    if (d) {
        tg_buf_puts(out, "Differential flame graph: ");
        put_xml(out, d->path_name);
        tg_buf_puts(out, " against ");
        put_xml(out, d->other_name);
        tg_buf_puts(out, " (self time, ");
    } else {
        tg_buf_puts(out, ft->samples ? "Flame graph (" : "Flame graph (self time, ");
    }
    put_weight(out, ft, total);
    tg_buf_printf(out,
                  ")</text>\n<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"24\" "
                  "style=\"display:none\">Reset zoom</text>\n"
                  "<text id=\"search\" class=\"button\" x=\"%d\" y=\"24\">Search</text>\n"
                  "<text id=\"matched\" x=\"%d\" y=\"%d\"></text>\n",
                  SIDE, WIDTH - SIDE - 60, WIDTH - SIDE - 160, height - 8);
    for (uint32_t i = 0; i != TG_FLAME_NONE; i = tg_flame_tree_next(ft, i)) {
        double w = (double)weight[i] * scale;
        if (w < 0.1)
            continue;
        const char *name = tg_flame_node_name(ft, &ft->nodes[i]);
        const char *module = ft->nodes[i].module;
        double fx = SIDE + x[i] * scale;
        int fy = height - PAD_BOTTOM - legend_h - (depth[i] + 1) * FRAME_H;
        tg_buf_printf(out, "<g class=\"f\" data-x=\"%lld\" data-w=\"%lld\" data-d=\"%d\" data-n=\"",
                      (long long)x[i], (long long)weight[i], depth[i]);
        put_xml(out, name);
        if (module) {
            tg_buf_puts(out, "\" data-m=\"");
            put_xml(out, module);
        }
        if (d) {
            tg_buf_printf(out, "\" data-b=\"%lld", (long long)ft->nodes[i].self_ns);
            if (d->map[i] != TG_FLAME_NONE)
                tg_buf_printf(out, "\" data-a=\"%lld", (long long)other_self(d, i));
        }
        tg_buf_puts(out, "\"><title>");
        put_xml(out, name);
        if (module) {
            tg_buf_puts(out, " in ");
            put_xml(out, module);
        }
        tg_buf_puts(out, " (");
        put_weight(out, ft, weight[i]);
        tg_buf_printf(out, ", %.2f%%)", 100.0 * (double)weight[i] / (double)total);
        if (d)
            put_change_title(out, ft, d, i, weight[i]);
        tg_buf_printf(out,
                      "</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                      "height=\"%d\" rx=\"2\" ",
                      fx, fy, w, FRAME_H - 1);
        if (d && d->map[i] == TG_FLAME_NONE)
            tg_buf_puts(out, "stroke=\"#000\" stroke-dasharray=\"3,2\" ");
        tg_buf_puts(out, "fill=\"");
        if (d)
            put_change_fill(out, ft->nodes[i].self_ns - other_self(d, i), d->max_change);
        else
            tg_svg_put_fill(out, module, name);
        tg_buf_printf(out, "\"/><text x=\"%.1f\" y=\"%d\">", fx + 3, fy + FRAME_H - 4);
        put_label(out, name, w);
        tg_buf_puts(out, "</text></g>\n");
    }
    if (d) {
        int y = height - PAD_BOTTOM - legend_h + 8;
        tg_buf_printf(out,
                      "<g class=\"key\"><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                      "fill=\"rgb(255,40,40)\"/><text x=\"%d\" y=\"%d\">slower in PATH</text>"
                      "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                      "fill=\"rgb(40,40,255)\"/><text x=\"%d\" y=\"%d\">faster in PATH</text>"
                      "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"none\" "
                      "stroke=\"#000\" stroke-dasharray=\"3,2\"/><text x=\"%d\" y=\"%d\">only "
                      "in PATH</text></g>\n",
                      SIDE, y, SIDE + 16, y + 10, SIDE + 160, y, SIDE + 176, y + 10, SIDE + 320, y,
                      SIDE + 336, y + 10);
        put_gone(out, ft, d, y + LEGEND_ROW + 10, true);
    } else {
        legend_put(&lg, out, height - PAD_BOTTOM - legend_h + 8);
    }
    tg_buf_printf(out, script, WIDTH, SIDE, CHAR_W);
    tg_buf_puts(out, "</svg>\n");
    free(weight);
    free(x);
    free(next_x);
    free(depth);
    return 0;
}

static int convert_svg(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                       tg_error **err)
{
    tg_flame_tree ft;
    int rc = tg_set_has_samples(set) ? tg_flame_tree_build_samples(&ft, it, opts, err)
                                     : tg_flame_tree_build(&ft, it);
    if (rc == 0)
        rc = put_svg(&ft, NULL, out);
    tg_flame_tree_free(&ft);
    return rc;
}

/* The runs' names for the title: the first trace's file or folder name (and how many more). */
static void run_name(tg_set *set, char *buf, size_t size)
{
    size_t n = tg_set_trace_count(set);
    const char *p = n ? tg_trace_path(tg_set_trace(set, 0)) : "?";
    size_t len = strlen(p);
    while (len > 1 && p[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && p[start - 1] != '/')
        start--;
    if (n > 1)
        snprintf(buf, size, "%.*s (+%zu)", (int)(len - start), p + start, n - 1);
    else
        snprintf(buf, size, "%.*s", (int)(len - start), p + start);
}

static int convert_svg_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                            const tg_options *opts, tg_buf *out, tg_error **err)
{
    tg_flame_tree ft, fo;
    int rc = tg_flame_tree_build_merged(&fo, other_it);
    int rc2 = tg_flame_tree_build_merged(&ft, it);
    rc = rc < 0 ? rc : rc2;
    uint32_t *map = rc == 0 ? malloc(ft.n * sizeof *map) : NULL;
    if (rc == 0 && !map)
        rc = TG_ERR_NOMEM;
    if (rc == 0)
        rc = tg_flame_tree_match(&ft, &fo, map);
    char pn[256], on[256];
    run_name(set, pn, sizeof pn);
    run_name(other, on, sizeof on);
    svg_diff d = {.other = &fo, .map = map, .max_change = 1, .path_name = pn, .other_name = on};
    for (size_t i = 1; rc == 0 && i < ft.n; i++) {
        int64_t c = ft.nodes[i].self_ns - other_self(&d, (uint32_t)i);
        c = c < 0 ? -c : c;
        d.max_change = c > d.max_change ? c : d.max_change;
    }
    if (rc == 0)
        rc = put_svg(&ft, &d, out);
    free(map);
    tg_flame_tree_free(&ft);
    tg_flame_tree_free(&fo);
    return rc;
}

TG_CONVERTER(svg) = {"svg", convert_svg, .convert_diff = convert_svg_diff,
                     .options = tg_sample_stack_options};
