#include "image.h"

#include <stdlib.h>
#include <string.h>

#include "simd.h"

int ts_image_alloc(ts_image *img, int w, int h, int channels)
{
    memset(img, 0, sizeof *img);
    if (w <= 0 || h <= 0 || w > TS_IMAGE_MAX_SIDE || h > TS_IMAGE_MAX_SIDE ||
        (long long)w * h > TS_IMAGE_MAX_PIXELS || (channels != 1 && channels != 3))
        return -1;
    img->buf = malloc((size_t)w * (size_t)h * (size_t)channels);
    if (!img->buf)
        return -1;
    img->w = w;
    img->h = h;
    img->channels = channels;
    img->stride = w * channels;
    return 0;
}

void ts_image_free(ts_image *img)
{
    free(img->buf);
    memset(img, 0, sizeof *img);
}

ts_image ts_image_roi(const ts_image *img, int x, int y, int w, int h)
{
    if (x < 0) {
        w += x;
        x = 0;
    }
    if (y < 0) {
        h += y;
        y = 0;
    }
    if (x + w > img->w)
        w = img->w - x;
    if (y + h > img->h)
        h = img->h - y;
    ts_image r = {0};
    if (w <= 0 || h <= 0)
        return r;
    r.w = w;
    r.h = h;
    r.stride = img->stride;
    r.channels = img->channels;
    r.buf = img->buf + (size_t)y * img->stride + (size_t)x * img->channels;
    return r;
}

TS_AVX2_CLONES void ts_row_darkest(const uint8_t *restrict bgr, int n, uint8_t flip,
                                   uint8_t *restrict out)
{
    for (int x = 0; x < n; x++, bgr += 3) {
        uint8_t m = bgr[0] < bgr[1] ? bgr[0] : bgr[1];
        out[x] = (uint8_t)((m < bgr[2] ? m : bgr[2]) ^ flip);
    }
}
