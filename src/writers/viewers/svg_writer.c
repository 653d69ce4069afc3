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
 * (the first LEGEND_MAX; each frame's module is also its data-m attribute). */
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

static int put_svg(const tg_flame_tree *ft, tg_buf *out)
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
    for (uint32_t i = 0; i != TG_FLAME_NONE; i = tg_flame_tree_next(ft, i))
        if ((double)weight[i] * scale >= 0.1)
            legend_add(&lg, ft->nodes[i].module);
    legend_layout(&lg);
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
    tg_buf_printf(out,
                  "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">Flame graph "
                  "(self time, ",
                  WIDTH / 2);
    put_time(out, total);
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
        tg_buf_puts(out, "\"><title>");
        put_xml(out, name);
        if (module) {
            tg_buf_puts(out, " in ");
            put_xml(out, module);
        }
        tg_buf_puts(out, " (");
        put_time(out, weight[i]);
        tg_buf_printf(out,
                      ", %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                      "height=\"%d\" rx=\"2\" fill=\"",
                      100.0 * (double)weight[i] / (double)total, fx, fy, w, FRAME_H - 1);
        tg_svg_put_fill(out, module, name);
        tg_buf_printf(out, "\"/><text x=\"%.1f\" y=\"%d\">", fx + 3, fy + FRAME_H - 4);
        put_label(out, name, w);
        tg_buf_puts(out, "</text></g>\n");
    }
    legend_put(&lg, out, height - PAD_BOTTOM - legend_h + 8);
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
    int rc = tg_flame_tree_build(&ft, it);
    if (rc == 0)
        rc = put_svg(&ft, out);
    tg_flame_tree_free(&ft);
    return rc;
}

TG_CONVERTER(svg) = {"svg", convert_svg};
