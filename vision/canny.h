/* Canny's edges as cv::Canny(src, dst, lo, hi, 3, true) draws them, byte
 * for byte (test_canny): the 3 x 3 Sobel gradients (borders replicated),
 * their squared lengths thinned across the gradient (OpenCV's sector
 * tests) and kept above lo where they join a pixel above hi. One pass over
 * the rows with three rows of gradients held, the output image its own
 * edge map: OpenCV allocates two gradient images and a map a call (about
 * a megabyte at 640 x 360, fresh pages each time) and filters through its
 * general separable engine; the thinning takes eight pixels a step without
 * branches where the processor has AVX2. Used by tscv_canny. */
#ifndef TS_CANNY_H
#define TS_CANNY_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst = the L2 Canny edges of src (both grey, one size, not overlapping;
 * dst allocated), 255 on an edge, else 0.
 * Returns 0; 1 when the images are not such (nothing written: the caller
 * asks OpenCV); -1 when memory is short. */
int ts_canny(const ts_image *src, ts_image *dst, double lo, double hi);
/* The same with the AVX2 thinning allowed (vector 1, where the processor
 * has it) or not (0): the same bytes either way (test_canny compares). */
int ts_canny_v(const ts_image *src, ts_image *dst, double lo, double hi, int vector);

#ifdef __cplusplus
}
#endif

#endif
