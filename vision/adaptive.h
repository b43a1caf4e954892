/* OpenCV's mean adaptive threshold (cv::adaptiveThreshold, MEAN_C, binary)
 * on one-channel bytes, the same bytes, with the box mean as running sums:
 * OpenCV's box filter (its general filter engine, the border rows copied
 * and each row summed by a plain loop) took about 17 instructions a pixel;
 * this takes about 9. Its mean is the window's sum times 1/area rounded to
 * nearest, in float (scale 1/area as a float) in its vector lanes and in
 * double after them. An odd window's area never puts a mean on a half, and
 * up to windows of 163 the float product rounds to the true nearest mean
 * for every sum (its error, under 255 * 2^-23, is less than a sum's least
 * distance from a half; checked for each window at the sums nearest the
 * halves, test_adaptive), as the double does: this rounds the float
 * product. Wider windows are left to OpenCV (from 165 its float lanes and
 * its double disagree on some sums). test_adaptive compares with OpenCV. */
#ifndef TS_ADAPTIVE_H
#define TS_ADAPTIVE_H

#include <math.h>

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TS_ADAPTIVE_MAX_BLOCK = 163 };

/* The mean of n summed bytes times inv (the float nearest 1 / area), as
 * this rounds it. */
static inline int ts_adaptive_round(float sum, float inv)
{
    return (int)lrintf(sum * inv);
}

/* dst = 255 where src - mean > t, else 0, mean that of the block x block
 * window about each pixel (block odd, 3 .. TS_ADAPTIVE_MAX_BLOCK), the
 * edge pixels repeated beyond the image. dst (allocated, src's size, grey)
 * may be src. Returns 0, or 1 without writing when this is not a case it
 * covers (not grey, another block): the caller then asks OpenCV. -1 if out
 * of memory. */
int ts_adaptive_mean(const ts_image *src, ts_image *dst, int block, int t);
/* The same; vector 0: without the AVX2 steps (the SSE2 ones), for the
 * tests, which compare the two. */
int ts_adaptive_mean_v(const ts_image *src, ts_image *dst, int block, int t, int vector);

#ifdef __cplusplus
}
#endif

#endif
