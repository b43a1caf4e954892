/* City-block distance transform (see distance.h). */
#include "distance.h"

#include <string.h>

void ts_distance_l1(const ts_image *bin, ts_image *dist)
{
    /* The city-block distance separates: the distance along the column,
     * then the least of that plus the offset along the row. Both run on
     * whole rows at once: down and up the columns, then along each row by
     * doubling steps (1, 2, 4, 8 reach every offset up to 15). */
    const int w = bin->w, h = bin->h;
    for (int y = 0; y < h; y++) {
        const uint8_t *restrict b = ts_image_row(bin, y);
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict up = ts_image_row(dist, y ? y - 1 : 0);
        for (int x = 0; x < w; x++) {
            uint8_t u = y ? up[x] : TS_DISTANCE_FAR;
            u += u < TS_DISTANCE_FAR;
            d[x] = b[x] ? u : 0;
        }
    }
    for (int y = h - 2; y >= 0; y--) {
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict down = ts_image_row(dist, y + 1);
        for (int x = 0; x < w; x++) {
            uint8_t u = down[x] + 1;
            d[x] = u < d[x] ? u : d[x];
        }
    }
    enum { PAD = 8 };
    uint8_t buf[2][PAD + TS_IMAGE_MAX_SIDE + PAD];
    for (int y = 0; y < h; y++) {
        uint8_t *d = ts_image_row(dist, y);
        uint8_t *restrict a = buf[0] + PAD, *restrict b = buf[1] + PAD;
        memset(a - PAD, TS_DISTANCE_FAR, PAD);
        memset(a + w, TS_DISTANCE_FAR, PAD);
        memcpy(a, d, (size_t)w);
        for (int s = 1; s <= 8; s *= 2) {
            for (int x = 0; x < w; x++) {
                uint8_t l = a[x - s] + s, r = a[x + s] + s, v = a[x];
                v = l < v ? l : v;
                v = r < v ? r : v;
                b[x] = v < TS_DISTANCE_FAR ? v : TS_DISTANCE_FAR;
            }
            memset(b - PAD, TS_DISTANCE_FAR, PAD);
            memset(b + w, TS_DISTANCE_FAR, PAD);
            uint8_t *t = a;
            a = b;
            b = t;
        }
        memcpy(d, a, (size_t)w);
    }
}
