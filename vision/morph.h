/* Morphology with OpenCV's elliptic kernels of radius 1, 2 and
 * TS_MORPH_WIDE to TS_MORPH_MAX_RADIUS, the same bytes as cv::morphologyEx
 * with its default border (pixels outside the image never win), on
 * one-channel images, as separable SSE2 passes: OpenCV's general filter
 * takes every kernel pixel in turn (21 for radius 2, 97 for radius 5) over
 * each row. Radius 3 and 4 (37 and 57 pixels) are left to it: its AVX2
 * steps take fewer instructions there (Qwirkle's radius 3 opening 1.66 M
 * against 2.49 M). Used by tscv_morph for those kernels. */
#ifndef TS_MORPH_H
#define TS_MORPH_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TS_MORPH_WIDE = 5, TS_MORPH_MAX_RADIUS = 16 };

/* dst = op(src): op 'e' erode, 'd' dilate, 'o' open, 'c' close, with the
 * ellipse of radius 1 (a 3 x 3 cross), 2 (5 x 5 less its corners), or
 * TS_MORPH_WIDE to TS_MORPH_MAX_RADIUS. dst (allocated, src's size, grey)
 * may be src.
 * Returns 0, or -1 if the image, radius or op is not one of these or memory
 * is short (nothing written; the caller then asks OpenCV). */
int ts_morph_ellipse(const ts_image *src, ts_image *dst, char op, int radius);

#ifdef __cplusplus
}
#endif

#endif
