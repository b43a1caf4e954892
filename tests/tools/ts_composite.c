/* Lays photos of cards on a table for the tests: a felt-green canvas W x H
 * (a fixed, faint texture) with each image scaled into its rectangle.
 *   ts_composite OUT.jpg W H [IMAGE X Y WIDTH HEIGHT]...
 * Test tool only: sequences of real card photos assembled at test time. */
#include <stdio.h>
#include <stdlib.h>

#include "image.h"
#include "imageio.h"

/* Bilinear sample of src at (x, y), channel c. */
static float sample(const ts_image *src, float x, float y, int c)
{
    int x0 = (int)x, y0 = (int)y;
    int x1 = x0 + 1 < src->w ? x0 + 1 : x0, y1 = y0 + 1 < src->h ? y0 + 1 : y0;
    float fx = x - (float)x0, fy = y - (float)y0;
    int ch = src->channels, k = ch == 3 ? c : 0;
    const uint8_t *r0 = ts_image_row(src, y0), *r1 = ts_image_row(src, y1);
    float a = r0[x0 * ch + k] * (1 - fx) + r0[x1 * ch + k] * fx;
    float b = r1[x0 * ch + k] * (1 - fx) + r1[x1 * ch + k] * fx;
    return a * (1 - fy) + b * fy;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (argc - 4) % 5 != 0) {
        fprintf(stderr, "usage: ts_composite OUT.jpg W H [IMAGE X Y WIDTH HEIGHT]...\n");
        return 2;
    }
    int w = atoi(argv[2]), h = atoi(argv[3]);
    ts_image out;
    char err[256];
    if (w <= 0 || h <= 0 || ts_image_alloc(&out, w, h, 3) < 0) {
        fprintf(stderr, "ts_composite: bad size %s x %s\n", argv[2], argv[3]);
        return 2;
    }
    uint32_t rng = 12345;
    for (int y = 0; y < h; y++) {
        uint8_t *row = ts_image_row(&out, y);
        for (int x = 0; x < w; x++) {
            rng = rng * 1664525u + 1013904223u;
            int n = (int)(rng >> 28) - 8; /* -8..7: the felt's grain */
            row[3 * x] = (uint8_t)(40 + n), row[3 * x + 1] = (uint8_t)(90 + n),
            row[3 * x + 2] = (uint8_t)(30 + n);
        }
    }
    for (int i = 4; i < argc; i += 5) {
        ts_image src;
        if (ts_image_load(argv[i], &src, err, sizeof err) < 0) {
            fprintf(stderr, "ts_composite: %s\n", err);
            return 1;
        }
        int x0 = atoi(argv[i + 1]), y0 = atoi(argv[i + 2]);
        int rw = atoi(argv[i + 3]), rh = atoi(argv[i + 4]);
        for (int y = 0; y < rh; y++)
            for (int x = 0; x < rw; x++) {
                int ox = x0 + x, oy = y0 + y;
                if (ox < 0 || oy < 0 || ox >= w || oy >= h)
                    continue;
                float sx = ((float)x + 0.5f) * (float)src.w / (float)rw - 0.5f;
                float sy = ((float)y + 0.5f) * (float)src.h / (float)rh - 0.5f;
                sx = sx < 0 ? 0 : sx, sy = sy < 0 ? 0 : sy;
                uint8_t *p = ts_image_row(&out, oy) + 3 * ox;
                for (int c = 0; c < 3; c++)
                    p[c] = (uint8_t)(sample(&src, sx, sy, c) + 0.5f);
            }
        ts_image_free(&src);
    }
    if (ts_image_save_jpeg(&out, argv[1], 92, err, sizeof err) < 0) {
        fprintf(stderr, "ts_composite: %s\n", err);
        return 1;
    }
    ts_image_free(&out);
    return 0;
}
