/* ts_image: one plain image view used everywhere (decoded JPEG, GStreamer
 * buffer, rectified card), so nothing is copied to move between stages.
 *
 * Pixels are 8-bit, interleaved; 3 channels means B,G,R order (as OpenCV and
 * GStreamer's BGR caps).  Rows are `stride` bytes apart (stride >= w*channels).
 */
#ifndef TS_IMAGE_H
#define TS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int w, h;
    int stride;   /* bytes per row */
    int channels; /* 1 (grey) or 3 (BGR) */
    uint8_t *buf; /* borrowed unless the image came from ts_image_alloc */
} ts_image;

/* Largest image any decoder or allocator accepts (pixels); a guard against
 * absurd headers, not a limit a real camera reaches. */
enum { TS_IMAGE_MAX_PIXELS = 100 * 1000 * 1000, TS_IMAGE_MAX_SIDE = 30000 };

/* Allocates w*h*channels bytes (packed rows). Returns 0, or -1 if the size is
 * out of range or memory is short. Release with ts_image_free. */
int ts_image_alloc(ts_image *img, int w, int h, int channels);
/* Frees a buffer from ts_image_alloc and zeroes the view. Safe on zeroed views. */
void ts_image_free(ts_image *img);

/* A borrowed view of a rectangle inside img (no copy; clamped to img). */
ts_image ts_image_roi(const ts_image *img, int x, int y, int w, int h);

/* out[x] = the darkest of BGR pixel x's channels (x < n), xor flip (255:
 * 255 minus it, ink bright). Cards are white in all three channels, skin,
 * wood and coloured inks dark in at least one. */
void ts_row_darkest(const uint8_t *bgr, int n, uint8_t flip, uint8_t *out);

static inline uint8_t *ts_image_row(const ts_image *img, int y)
{
    return img->buf + (size_t)y * (size_t)img->stride;
}

#ifdef __cplusplus
}
#endif

#endif
