/* A bilinear affine warp of BGR images, the same bytes as OpenCV's
 * warpAffine (INTER_LINEAR | WARP_INVERSE_MAP, BORDER_REPLICATE) for 8-bit
 * three-channel images, and of warpPerspective likewise, faster: OpenCV's
 * build here has no vector path for three channels (each card pixel cost ~53
 * instructions to blend, ~90 with a perspective map). Used by tscv_warp_quad
 * for every rectified card it does not shrink. */
#ifndef TS_WARP_H
#define TS_WARP_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst (allocated by the caller, 3 channels) pixel (x, y) samples src (3
 * channels) at (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]), bilinearly
 * in 1/32 pixel steps as OpenCV does, the edge pixels repeated outside.
 * Returns 0, or -1 if either image is not BGR or the map reaches beyond
 * OpenCV's coordinate range (the caller then warps another way). */
int ts_warp_affine_linear(const ts_image *src, const double m[6], ts_image *dst);

/* The same for a perspective map, as OpenCV's warpPerspective (INTER_LINEAR,
 * BORDER_REPLICATE) with m its inverse: dst (x, y) samples src at
 * ((m[0] x + m[1] y + m[2]) / W, (m[3] x + m[4] y + m[5]) / W), W = m[6] x +
 * m[7] y + m[8]. Returns 0, or -1 if either image is not BGR. */
int ts_warp_perspective_linear(const ts_image *src, const double m[9], ts_image *dst);

/* OpenCV's warpAffine with INTER_NEAREST | WARP_INVERSE_MAP, BORDER_REPLICATE
 * (grey or BGR), the same bytes; OpenCV's takes ~35 instructions a pixel
 * through its general remap. Returns 0, or -1 as above. */
int ts_warp_affine_nearest(const ts_image *src, const double m[6], ts_image *dst);

/* The same two with the AVX2 blend (used when the processor has it) allowed
 * (vector 1) or not (0): the same bytes either way (test_warp compares). */
int ts_warp_affine_linear_v(const ts_image *src, const double m[6], ts_image *dst, int vector);
int ts_warp_perspective_linear_v(const ts_image *src, const double m[9], ts_image *dst,
                                 int vector);

#ifdef __cplusplus
}
#endif

#endif
