/* OpenCV operations the synthetic scene renderer needs (samples/render/):
 * same conventions as cvwrap.h (0, or -1 with a one-line reason in err of
 * capacity TSCV_ERR_MAX; a zeroed destination is allocated here and freed by
 * the caller with ts_image_free). Homographies are 3x3, row-major. */
#ifndef TS_CVRENDER_H
#define TS_CVRENDER_H

#include <stdint.h>

#include "cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The homography taking the four points src to dst. */
int tscv_homography(const ts_pt src[4], const ts_pt dst[4], double h[9], char *err);

/* dst (w x h, allocated if zeroed) = src seen through h (src -> dst pixel
 * coordinates). Bilinear; outside src the border is mirrored. */
int tscv_warp_homography(const ts_image *src, const double h[9], ts_image *dst, int w, int h_px,
                         char *err);

/* Warps face (BGR) onto dst so its corners land on q (clockwise from the
 * face's top-left), blending by alpha (grey, face-sized, 255 = opaque; NULL =
 * opaque). Only the quad's bounding box of dst is touched. If ids is non-NULL
 * (one byte per dst pixel, row stride dst->w), pixels the face covers by more
 * than half get the value id. */
int tscv_composite_quad(ts_image *dst, const ts_image *face, const ts_image *alpha,
                        const ts_pt q[4], uint8_t *ids, uint8_t id, char *err);

/* Radial lens distortion, in place: the output pixel at normalised radius r
 * (r = 1 at half the longer side from the centre) shows the input at
 * r * g(r) / g(rc), g(r) = 1 + k1 r^2 + k2 r^4, rc the radius of the frame's
 * corners: the frame stays filled, as a camera crops its distorted picture.
 * k1 > 0 is barrel distortion. Bilinear. */
int tscv_lens_distort(ts_image *img, double k1, double k2, char *err);

/* Motion blur, in place: a box kernel len_px long at angle (radians). */
int tscv_motion_blur(ts_image *img, double len_px, double angle, char *err);

/* Unsharp mask, in place: img += amount * (img - blur(img, sigma)). */
int tscv_unsharp(ts_image *img, double sigma, double amount, char *err);

#ifdef __cplusplus
}
#endif

#endif
