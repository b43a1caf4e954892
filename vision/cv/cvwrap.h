/* The thin C face of OpenCV 4 (which has no C API any more).
 *
 * Each function wraps one or two OpenCV calls inside try/catch and returns 0 on
 * success or -1 with a one-line reason in err (capacity TSCV_ERR_MAX, may be
 * NULL). No global error state. Images are ts_image views; a destination that
 * is a zeroed ts_image is allocated here (caller frees with ts_image_free), a
 * destination that already has the right size is written in place.
 */
#ifndef TS_CVWRAP_H
#define TS_CVWRAP_H

#include "../image.h"
#include "card.h" /* ts_pt */

#ifdef __cplusplus
extern "C" {
#endif

enum { TSCV_ERR_MAX = 160 };

typedef struct {
    int x, y;
} ts_ipt;

/* How many threads OpenCV may use inside one call (1 = the caller's thread
 * only, for one-core measurements). Process-wide: OpenCV keeps one pool. */
void tscv_set_threads(int n);

/* ---- Colour and size ---------------------------------------------------- */

/* BGR -> grey. */
int tscv_grey(const ts_image *src, ts_image *dst, char *err);
/* Area-averaging resize (or linear when enlarging). */
int tscv_resize(const ts_image *src, ts_image *dst, int w, int h, char *err);
/* OpenCV's INTER_AREA resize itself into dst (allocated, src's channels),
 * whatever the sizes: what tests compare vision/resize_area.c with. */
int tscv_resize_area_opencv(const ts_image *src, ts_image *dst, char *err);
/* Gaussian blur with the given sigma (kernel size derived from it). dst may equal src. */
int tscv_blur(const ts_image *src, ts_image *dst, double sigma, char *err);
/* The same through cv::GaussianBlur alone (tscv_blur does grey images
 * itself, the same bytes: tests compare the two). */
int tscv_blur_opencv(const ts_image *src, ts_image *dst, double sigma, char *err);

/* ---- Binary images ------------------------------------------------------ */

/* Otsu threshold of a grey image: dst = 255 where src > t. Returns t in *t. */
int tscv_otsu(const ts_image *src, ts_image *dst, double *t, char *err);
/* Adaptive mean threshold: dst = 255 where src > local mean (block) + offset. */
int tscv_adaptive(const ts_image *src, ts_image *dst, int block, double offset, char *err);
/* The same through cv::adaptiveThreshold itself (the same bytes, slower:
 * tests compare the two). */
int tscv_adaptive_opencv(const ts_image *src, ts_image *dst, int block, double offset,
                         char *err);
/* Morphology with an elliptic kernel of the given radius (cost grows with
 * radius^2; for large binary erosions threshold ts_distance_l1 instead):
 * op 'e' erode, 'd' dilate, 'o' open, 'c' close. dst may equal src. */
int tscv_morph(const ts_image *src, ts_image *dst, char op, int radius, char *err);
/* The same through cv::morphologyEx alone (tscv_morph does radius 1 and 2 on
 * grey images itself, the same bytes: tests compare the two). */
int tscv_morph_opencv(const ts_image *src, ts_image *dst, char op, int radius, char *err);
/* Canny edges of a grey image (L2 gradient, 3 x 3 Sobel). */
int tscv_canny(const ts_image *src, ts_image *dst, double lo, double hi, char *err);
/* The same through cv::Canny alone (tscv_canny draws them itself, the same
 * bytes: tests compare the two). */
int tscv_canny_opencv(const ts_image *src, ts_image *dst, double lo, double hi, char *err);

/* ---- Contours ----------------------------------------------------------- */

/* Outer contours of a binary image, each a closed polygon of pixel points.
 * Free with tscv_contours_free. */
typedef struct {
    int n;        /* number of contours */
    int *start;   /* contour i is pts[start[i] .. start[i]+len[i]) */
    int *len;
    ts_ipt *pts;
} tscv_contours;

/* outer_only: only the outermost contours; otherwise the outer boundary of
 * every connected component, also those lying inside another's hole (no
 * hole boundaries). */
int tscv_find_contours(const ts_image *bin, int outer_only, tscv_contours *out, char *err);
/* The same through cv::findContours alone (tscv_find_contours traces them
 * itself, the same points in the same order: tests compare the two). */
int tscv_find_contours_opencv(const ts_image *bin, int outer_only, tscv_contours *out, char *err);
void tscv_contours_free(tscv_contours *c);
/* Sets the pixels of img (grey) inside and on the closed contour to 255. */
int tscv_fill_contour(ts_image *img, const ts_ipt *pts, int n, char *err);

double tscv_area(const ts_ipt *pts, int n);
double tscv_perimeter(const ts_ipt *pts, int n);
/* Convex hull area of a polygon. */
double tscv_hull_area(const ts_ipt *pts, int n);
/* Convex hull of a polygon into out (room for n points); returns its size. */
int tscv_hull(const ts_ipt *pts, int n, ts_ipt *out);
/* Convexity defects of a closed polygon: for each dent between hull points,
 * the index of its deepest point and its depth (px). Returns the count (at
 * most max). */
int tscv_defects(const ts_ipt *pts, int n, int *deepest, float *depth, int max);
/* Douglas-Peucker simplification of a closed polygon of the hull
 * (hull=1) or of the polygon itself. Writes at most max points; returns count. */
int tscv_approx(const ts_ipt *pts, int n, double eps, int hull, ts_ipt *out, int max);
/* Minimum-area rotated rectangle: its four corners (clockwise). */
void tscv_min_rect(const ts_ipt *pts, int n, ts_pt corners[4]);
/* Refines corner positions to subpixel accuracy on a grey image. */
int tscv_corner_subpix(const ts_image *grey, ts_pt *pts, int n, int win, char *err);

/* ---- Geometry ----------------------------------------------------------- */

/* Warps the quadrilateral q (corners clockwise from the one mapping to dst's
 * top-left) of src to dst (allocated w x h if zeroed). Bilinear, border replicate. */
int tscv_warp_quad(const ts_image *src, const ts_pt q[4], ts_image *dst, int w, int h, char *err);
/* OpenCV's own bilinear affine warp (border replicate) of src into dst
 * (allocated by the caller, src's channels): dst (x, y) samples src at
 * (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]). The reference that
 * ts_warp_affine_linear (warp.h) matches byte for byte. */
int tscv_warp_affine(const ts_image *src, const double m[6], ts_image *dst, char *err);
/* The same with OpenCV's nearest pixel (ts_warp_affine_nearest's reference). */
int tscv_warp_affine_nearest(const ts_image *src, const double m[6], ts_image *dst, char *err);
/* OpenCV's bilinear perspective warp likewise, m the inverse map (dst to
 * src, as ts_warp_perspective_linear takes it). */
int tscv_warp_perspective(const ts_image *src, const double m[9], ts_image *dst, char *err);

/* Connected components of a binary image (8-connectivity). labels is an int
 * array of w*h (caller-owned); stats are filled for up to max components
 * (background excluded): bounding box, area, centroid. Returns the count. */
typedef struct {
    int x, y, w, h, area;
    float cx, cy;
} tscv_blob;
int tscv_components(const ts_image *bin, int *labels, tscv_blob *blobs, int max, char *err);

#ifdef __cplusplus
}
#endif

#endif
