/* City-block distance transform, in plain C: it runs on every card and on
 * every binarisation of a frame, and only short distances are ever asked of
 * it, which lets every pass vectorise. */
#ifndef TS_DISTANCE_H
#define TS_DISTANCE_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Distances are exact up to this; farther ones read TS_DISTANCE_FAR. */
enum { TS_DISTANCE_MAX = 15, TS_DISTANCE_FAR = TS_DISTANCE_MAX + 1 };

/* City-block (4-neighbour) distance of each pixel of bin to the nearest zero
 * pixel of bin, 0 on zero pixels (pixels beyond the border count as
 * non-zero). dist must be grey and bin's size; it may not be bin.
 * Thresholding it at r erodes bin by a diamond of radius r. */
void ts_distance_l1(const ts_image *bin, ts_image *dist);

#ifdef __cplusplus
}
#endif

#endif
