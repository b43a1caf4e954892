/* The points of a pixel outline that can be corners of its convex hull, in
 * linear time. OpenCV's convexHull sorts every point it is given (n log n),
 * and an outline has hundreds; a corner of the hull has a supporting line
 * slanted to both axes, so it is the leftmost or rightmost point of its row
 * and the topmost or bottommost of its column. Handing only those points to
 * convexHull (or minAreaRect) gives the same hull, corner for corner and in
 * the same order: the order of the kept points is the outline's own, and
 * OpenCV starts the hull by the points' order (test_hull checks it on real
 * outlines). */
#ifndef TS_HULL_H
#define TS_HULL_H

#include "cv/cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies to out (room for n) the points of pts[0..n) that are extreme both
 * in their row and in their column, every copy of such a point, in the
 * order of pts. Returns how many, or -1 when out of memory. */
int ts_hull_candidates(const ts_ipt *pts, int n, ts_ipt *out);

#ifdef __cplusplus
}
#endif

#endif
