/* Outer contours of a binary image as cv::findContours gives them with
 * CHAIN_APPROX_NONE (RETR_EXTERNAL, or the outer boundaries of RETR_CCOMP),
 * point for point and in its order (test_contours): Suzuki's border
 * following with OpenCV's marks, start pixels, turns and tie rules, the
 * contours last found first. OpenCV pads a copy of the image, thresholds it
 * again, writes each contour into its sequence blocks and then into a
 * vector of vectors, which tscv_find_contours copied once more; this
 * traces into one flat list. Used by tscv_find_contours. */
#ifndef TS_CONTOURS_H
#define TS_CONTOURS_H

#include "cv/cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the contours of bin's nonzero pixels (grey): outer_only, those of
 * RETR_EXTERNAL; else every outer boundary, also those inside holes.
 * Returns 0; 1 when bin is not such an image (nothing written: the caller
 * asks OpenCV); -1 when memory is short. Free out with tscv_contours_free. */
int ts_find_contours(const ts_image *bin, int outer_only, tscv_contours *out);

#ifdef __cplusplus
}
#endif

#endif
