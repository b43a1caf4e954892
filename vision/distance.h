/* Distance transform, in plain C: it runs on every card and on every
 * binarisation of a frame, and OpenCV's general one costs half again more. */
#ifndef TS_DISTANCE_H
#define TS_DISTANCE_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* City-block distance of each pixel of bin to the nearest zero pixel of bin,
 * saturated at 255 (pixels beyond the border count as non-zero). dist must
 * be grey and bin's size. */
void ts_distance_l1(const ts_image *bin, ts_image *dist);

#ifdef __cplusplus
}
#endif

#endif
