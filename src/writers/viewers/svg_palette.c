/* svg_palette.c - one hue family per module for the SVG flame graph (see svg_palette.h).
 *
 * The hues are 24 steps of 15 degrees, so two families differ by at least that much; the
 * hash is FNV-1a over the name's bytes, the same on every machine and in every run.  Within
 * a family the saturation runs 50..85% and the lightness 60..78%, both from the frame
 * name's hash, so text stays readable on every frame.  The neutral family has no hue and at
 * most 8% saturation. */
#include "writers/viewers/svg_palette.h"

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int tg_svg_hue(const char *module) { return module ? (int)(fnv1a(module) % 24) * 15 : -1; }

void tg_svg_put_fill(tg_buf *out, const char *module, const char *name)
{
    uint32_t h = fnv1a(name);
    int hue = tg_svg_hue(module);
    if (hue < 0)
        tg_buf_printf(out, "hsl(0,%u%%,%u%%)", h % 9, 62 + (h >> 8) % 21);
    else
        tg_buf_printf(out, "hsl(%d,%u%%,%u%%)", hue, 50 + h % 36, 60 + (h >> 8) % 19);
}

void tg_svg_put_family(tg_buf *out, const char *module)
{
    int hue = tg_svg_hue(module);
    if (hue < 0)
        tg_buf_puts(out, "hsl(0,4%,72%)");
    else
        tg_buf_printf(out, "hsl(%d,68%%,65%%)", hue);
}
