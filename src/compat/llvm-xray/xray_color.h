/* xray_color.h - llvm-xray graph's colour scale (xray_color.c). */
#ifndef TG_XRAY_COLOR_H
#define TG_XRAY_COLOR_H

#include <stdint.h>

/* The colour of point p of [0, 1] (below and above: the ends) on llvm-xray graph's scale. */
void tg_xray_color_of(double p, uint8_t rgb[3]);

#endif
