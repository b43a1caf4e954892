/* OpenCV's INTER_AREA shrink by a fraction (a scale that is not a whole
 * number on both axes) or a whole number for 8-bit grey and BGR images, the same bytes as cv::resize, faster: OpenCV walks a table of
 * (source, destination, weight) entries one channel triple at a time,
 * about 17 instructions a source byte; this does the same float
 * operations in the same order (each destination pixel's sum along a
 * source row left to right, those sums down the rows top to bottom,
 * rounded to nearest even), eight source rows at once, one in each lane
 * of a vector. test_resize_area compares with
 * cv::resize. */
#ifndef TS_RESIZE_AREA_H
#define TS_RESIZE_AREA_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst (allocated by the caller, src's channels) = src shrunk to dst's size.
 * Returns 0, or 1 without writing when this is not a case it covers (not 1
 * or 3 channels, a side grows, the same size, or too large): the
 * caller then asks OpenCV. -1 if out of memory. */
int ts_resize_area(const ts_image *src, ts_image *dst);
/* The same with the AVX2 path allowed (vector 1, where the processor has
 * it) or not (0): the same bytes either way (test_resize_area compares). */
int ts_resize_area_v(const ts_image *src, ts_image *dst, int vector);
/* src halved into half and quartered into quarter (allocated by the caller,
 * src's channels, exactly half src's size and half that), both OpenCV's
 * bytes, in one pass: the quarter's cells summed from the half's unrounded
 * ones (the index levels of the 720p playing grid and its 12 cards: 6.7 ->
 * 2.7 M instructions).
 * Returns 0, 1 without writing when the sizes are not such, -1 if out of
 * memory. */
int ts_resize_area_halves(const ts_image *src, ts_image *half, ts_image *quarter);

#ifdef __cplusplus
}
#endif

#endif
