/* svg_palette.h - the flame graph's colours: one hue family per module.
 *
 * A frame's hue comes from a stable hash of its module's name (the executable, library or
 * kernel that holds the function), its saturation and lightness from a hash of its own
 * name, as flame graph tools vary frames of one kind; frames with no module (the root, the
 * threads, functions the reader could not place) are a neutral grey family.  So a glance
 * tells the modules apart, and neighbours of one module still stand apart. */
#ifndef TG_SVG_PALETTE_H
#define TG_SVG_PALETTE_H

#include "core/consumer.h"

/* The hue (0..345, a multiple of 15) of module's family; -1 for no module. */
int tg_svg_hue(const char *module);
/* A frame's fill: "hsl(H,S%,L%)" of its module's family, varied by name. */
void tg_svg_put_fill(tg_buf *out, const char *module, const char *name);
/* The family's own colour, for the legend. */
void tg_svg_put_family(tg_buf *out, const char *module);

#endif
