/* xray_color.c - llvm-xray graph's colours (its ColorHelper): a point of [0, 1] on
 * ColorBrewer's OrRd sequential scheme, interpolated in HSV between the scheme's nine colours
 * (the hue the short way round), then back to 8-bit RGB rounded to nearest.  Below 0 and
 * above 1 the scheme's ends.  The same double arithmetic in the same order as llvm-xray, so
 * the colours are the same bytes. */
#include "compat/llvm-xray/xray_color.h"

#include <math.h>
#include <string.h>

/* ColorBrewer's OrRd sequential scheme, the one llvm-xray graph colours with. */
static const uint8_t orrd[9][3] = {
    {255, 247, 236}, {254, 232, 200}, {253, 212, 158}, {253, 187, 132}, {252, 141, 89},
    {239, 101, 72},  {215, 48, 31},   {179, 0, 0},     {127, 0, 0},
};

static void to_hsv(const uint8_t c[3], double hsv[3])
{
    double x[3] = {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0};
    unsigned lo = 0, hi = 0;
    for (unsigned i = 1; i < 3; i++) {
        if (x[i] < x[lo])
            lo = i;
        if (x[i] > x[hi])
            hi = i;
    }
    double chroma = x[hi] - x[lo];
    double h = chroma == 0 ? 0 : (x[(hi + 1) % 3] - x[(hi + 2) % 3]) / chroma;
    h += 2.0 * hi;
    hsv[0] = h < 0 ? (h + 6.0) * 60 : h * 60;
    hsv[2] = x[hi];
    hsv[1] = hsv[2] == 0.0 ? 0.0 : chroma / hsv[2];
}

static uint8_t to_byte(double b)
{
    /* NaN (a statistic whose largest value is 0: 0 / 0) as x86 converts it: 0 */
    double n = isnan(b) || b < 0.0 ? 0.0 : b > 1.0 ? 1.0 : b;
    return (uint8_t)(255 * n + 0.5);
}

static double mix_hue(double h0, double h1, double t)
{
    double d = h1 - h0;
    if (h0 > h1) {
        double x = h0;
        h0 = h1;
        h1 = x;
        d = -d;
        t = 1 - t;
    }
    if (d <= 180)
        return h0 + t * (h1 - h0);
    h0 += 360;
    return fmod(h0 + t * (h1 - h0) + 720, 360);
}

void tg_xray_color_of(double p, uint8_t rgb[3])
{
    if (p < 0.0) {
        memcpy(rgb, orrd[0], 3);
    } else if (p > 1.0) {
        memcpy(rgb, orrd[8], 3);
    } else {
        double width = 1.0 / 8.0;
        double fl = floor(p / width);
        size_t sec = fl >= 0 && fl <= 8 ? (size_t)fl : 0; /* NaN: llvm-xray reads astray */
        double t = (p - (double)sec * width) / width;
        double a[3], b[3], h[3];
        to_hsv(orrd[sec], a);
        to_hsv(orrd[sec + 1 < 8 ? sec + 1 : 8], b);
        h[0] = mix_hue(a[0], b[0], t);
        h[1] = a[1] + t * (b[1] - a[1]);
        h[2] = a[2] + t * (b[2] - a[2]);
        double c = h[2] * h[1];
        double hp = h[0] / 60;
        double x = c * (1 - fabs(fmod(hp, 2.0) - 1));
        double rgb1[3];
        int hi = (int)hp;
        rgb1[(hi / 2) % 3] = hi % 2 == 0 ? c : x;
        rgb1[(hi / 2 + 1) % 3] = hi % 2 == 0 ? x : c;
        rgb1[(hi / 2 + 2) % 3] = 0.0;
        double m = h[2] - c;
        for (int i = 0; i < 3; i++)
            rgb[i] = to_byte(rgb1[i] + m);
    }
}
