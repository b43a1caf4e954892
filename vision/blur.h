/* cv::GaussianBlur(src, dst, Size(0, 0), sigma) of a grey image, byte for
 * byte (test_blur): OpenCV's 8-bit path is exact integer arithmetic, a
 * kernel of 8-bit fixed-point weights summing to 256 along rows, then down
 * the columns, rounded once (half up) from 16 fraction bits, borders
 * reflected (101). This does the same sums over a ring of filtered rows
 * (in place too: OpenCV copies the whole image for that). Used by
 * tscv_blur. */
#ifndef TS_BLUR_H
#define TS_BLUR_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst (allocated, src's size, grey; may be src) = src blurred. Returns 0;
 * 1 without writing when it is not such a case (not grey, smaller than the
 * kernel, or a sigma whose fixed-point weights could round otherwise than
 * OpenCV's soft-float ones): the caller asks OpenCV; -1 when memory is
 * short. */
int ts_gauss_blur(const ts_image *src, ts_image *dst, double sigma);

#ifdef __cplusplus
}
#endif

#endif
