/* Card detection: every card's quadrilateral in a frame.
 *
 * Cards are bright, low-texture rectangles: threshold a decimated grey image,
 * take outer contours, split blobs of touching cards by erosion, and fit four
 * lines to each candidate's edge points for corners that ignore rounded
 * corners. Per-candidate work is cheap; bad candidates die early on area,
 * convexity and aspect ratio.
 */
#ifndef TS_DETECT_H
#define TS_DETECT_H

#include "cv/cvwrap.h"
#include "image.h"

typedef struct {
    /* Long side of the image the search runs on (px). Smaller is faster; cards
     * must stay above ~25 px on their short side after decimation. */
    int work_size;
    /* Accepted card aspect (long/short side) range. SET 1.56, playing 1.40. */
    float min_aspect, max_aspect;
    /* Card area as a fraction of the frame. */
    float min_area, max_area;
    /* Minimum area / convex-hull area of a card blob. */
    float min_solidity;
    /* A squat outline (aspect under 1.45) may be two cards side by side, so
     * deeper erosion looks inside it, unless it fills its quad at least this
     * much (a lone card of a family as squat as that: playing 1.40). Above 1
     * (the default): every squat outline is looked inside. */
    float whole_fill;
} ts_detect_params;

typedef struct {
    ts_pt q[4];   /* corners in frame pixels, clockwise, q[0]-q[1] a short side */
    float score;  /* 0..1: how card-like (rectangularity) */
    float area;   /* in frame pixels^2 */
} ts_quad;

/* Defaults for a webcam-to-phone frame. */
void ts_detect_defaults(ts_detect_params *p);

typedef struct ts_detector ts_detector;

/* Returns a detector (caller destroys), or NULL if out of memory. params may be
 * NULL for defaults; they are copied. */
ts_detector *ts_detector_create(const ts_detect_params *params);
void ts_detector_destroy(ts_detector *d);

/* Finds card candidates in frame (BGR or grey, borrowed), in the order to
 * try them: shallow erosion (exact outline) before deep, larger before
 * smaller. Candidates that are two cards merged are left out, but one card
 * may appear several times (seen through different thresholds): take a
 * candidate unless it overlaps one already taken (ts_quad_overlap), and if a
 * candidate turns out not to be a card, the next overlapping one gets its
 * chance. Returns the count (<= max), or -1 with a reason in err
 * (TSCV_ERR_MAX). */
int ts_detect(ts_detector *d, const ts_image *frame, ts_quad *out, int max, char *err);

/* Orders corners clockwise (image y down) so q[0]-q[1] is a short side, the
 * upper of the two (a stable order for any finder). */
void ts_quad_order(ts_pt q[4]);

/* True if a and b are the same card: either's centre lies inside the other. */
int ts_quad_overlap(const ts_quad *a, const ts_quad *b);

/* Where the last ts_detect saw paper that is not one card: boxes (frame
 * pixels, [x0, x1) x [y0, y1)) around blobs that are no card and around
 * quads far larger than the others (cards edge to edge, perhaps). A family's
 * own finder may look there again. Returns the count (<= max). */
typedef struct {
    int x0, y0, x1, y1;
} ts_box;
int ts_detect_blobs(const ts_detector *d, ts_box *out, int max);

/* The share of the last ts_detect's frame that is paper (brighter than
 * most of the table) outside every one of cards[0..n) (frame pixels,
 * grown by grow about their centres): what those cards leave unexplained
 * (1 before any frame). Sampled on the detector's work image. */
float ts_detect_unexplained(const ts_detector *d, const ts_quad *cards, int n, float grow);

/* Debug: if dir is non-NULL, ts_detect writes its intermediate images there. */
void ts_detector_debug_dir(ts_detector *d, const char *dir);

#endif
