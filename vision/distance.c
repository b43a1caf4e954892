/* City-block distance transform (see distance.h). */
#include "distance.h"

void ts_distance_l1(const ts_image *bin, ts_image *dist)
{
    /* The city-block distance separates: the distance along the column,
     * then the least of that plus the offset along the row. The column
     * passes run on whole rows at once (they vectorise). */
    const int w = bin->w, h = bin->h;
    for (int y = 0; y < h; y++) {
        const uint8_t *restrict b = ts_image_row(bin, y);
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict up = ts_image_row(dist, y ? y - 1 : 0);
        if (y == 0)
            for (int x = 0; x < w; x++)
                d[x] = b[x] ? 255 : 0;
        else
            for (int x = 0; x < w; x++) {
                uint8_t u = up[x];
                u += u < 255;
                d[x] = b[x] ? u : 0;
            }
    }
    for (int y = h - 2; y >= 0; y--) {
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict down = ts_image_row(dist, y + 1);
        for (int x = 0; x < w; x++) {
            uint8_t u = down[x];
            u += u < 255;
            d[x] = u < d[x] ? u : d[x];
        }
    }
    for (int y = 0; y < h; y++) {
        uint8_t *d = ts_image_row(dist, y);
        int run = 255;
        for (int x = 0; x < w; x++) {
            run = run + 1 < d[x] ? run + 1 : d[x];
            d[x] = (uint8_t)run;
        }
        run = 255;
        for (int x = w - 1; x >= 0; x--) {
            run = run + 1 < d[x] ? run + 1 : d[x];
            d[x] = (uint8_t)run;
        }
    }
}
