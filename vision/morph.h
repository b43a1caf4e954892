/* Morphology with OpenCV's two smallest elliptic kernels, the same bytes as
 * cv::morphologyEx with its default border (pixels outside the image never
 * win), on one-channel images, as separable SSE2 passes: OpenCV's general
 * filter takes every kernel pixel in turn (21 for radius 2) over each row.
 * Used by tscv_morph for those kernels. */
#ifndef TS_MORPH_H
#define TS_MORPH_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst = op(src): op 'e' erode, 'd' dilate, 'o' open, 'c' close, with the
 * ellipse of radius 1 (a 3 x 3 cross) or 2 (5 x 5 less its corners). dst
 * (allocated, src's size, grey) may be src. Returns 0, or -1 if the image,
 * radius or op is not one of these or memory is short (nothing written;
 * the caller then asks OpenCV). */
int ts_morph_small(const ts_image *src, ts_image *dst, char op, int radius);

#ifdef __cplusplus
}
#endif

#endif
