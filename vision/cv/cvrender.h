/* OpenCV operations the synthetic scene renderer needs (samples/render/):
 * same conventions as cvwrap.h. */
#ifndef TS_CVRENDER_H
#define TS_CVRENDER_H

#include "cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The 3x3 homography (row-major) taking the four points src to dst. */
int tscv_homography(const ts_pt src[4], const ts_pt dst[4], double h[9], char *err);

/* Warps face (BGR) onto dst so its corners land on q (clockwise from the
 * face's top-left), blending by alpha (grey, face-sized, 255 = opaque; NULL =
 * opaque). Only the quad's bounding box of dst is touched. If ids is non-NULL
 * (one byte per dst pixel, dst-sized, row stride dst->w), pixels the face
 * covers by more than half get the value id. */
int tscv_composite_quad(ts_image *dst, const ts_image *face, const ts_image *alpha,
                        const ts_pt q[4], uint8_t *ids, uint8_t id, char *err);

#ifdef __cplusplus
}
#endif

#endif
