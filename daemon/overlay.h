/* The overlay: what a player sees drawn over the table.
 *
 *   - every card outlined, its code in small text on a dark backing;
 *   - unread cards (below the confidence floor) as a grey dashed outline, "?"
 *     and why they are unread, instead of a guess;
 *   - cards the tracker still keeps but no longer sees (taken away, covered)
 *     as a faint dashed outline that fades out, with no code and no hint;
 *   - hint groups (SET's Sets, the climbing games' and Qwirkle's plays) as
 *     numbered badges on their cards, one distinct colour per number, and a
 *     legend listing each group by number with its cards; with one or two
 *     groups shown each is also ringed in its colour. The legend sits in the
 *     frame corner with the fewest cards under it;
 *   - table groups (Qwirkle lines valid or not, the trick) outlined green, red
 *     or cyan with their label; "PASS" large when nothing beats the trick;
 *   - the SET hint ladder (nothing, one card of a Set, two, the Set, every Set)
 *     and the headline ("3 Sets", "no Set: deal three more");
 *   - a referee verdict in large text near the move;
 *   - live extras: a status line and a "stale" marker when the source is lost.
 *
 * Drawing is two steps: ts_overlay_build turns a table into a draw list (the
 * design, in frame coordinates, text sizes in output pixels), and a renderer
 * draws the list: ts_overlay_render onto a BGR frame (scan --annotate, the
 * recording, HTTP), overlay_cairo.h where GStreamer composes the window's
 * video, at the window's resolution (text stays sharp and legible whatever the
 * source size). Tests read the draw list.
 */
#ifndef TS_OVERLAY_H
#define TS_OVERLAY_H

#include "cv/cvdraw.h"
#include "image.h"
#include "table.h"

/* Zeroed (or NULL) means: draw cards and hints, no status, not stale. */
typedef struct {
    const char *status; /* one line drawn top-left on a dark band; NULL = none */
    int stale;          /* the frame is the last good one of a lost source: mark it */
    const char *stale_reason; /* shown with the stale marker; NULL = "source lost" */
    int hide_sets;      /* outline cards only (no hints) */
    int hide_codes;     /* no code text on the cards */
    int plain;          /* lines without anti-aliasing: live video, a third of the cost */
    int max_plays;      /* climbing games, Qwirkle: plays drawn on the hand (0 = 5) */
    const ts_zones *zones; /* drawn as thin dashed outlines with their names; NULL = none */
    /* Live: frames since each card was last seen (the tracker's, borrowed; NULL =
     * every card is seen now). A card unseen for gone_after frames or more is
     * drawn as gone: faint, fading over keep_frames, never with a hint. */
    const int *missing;
    int gone_after;  /* 0 = TS_OVERLAY_GONE_AFTER */
    int keep_frames; /* the tracker's keep_frames, for the fade (0 = 8) */
    /* A referee verdict, drawn large near the move (NULL = none). */
    const char *verdict;      /* "ILLEGAL: pair: it is lower than the trick" */
    int verdict_kind;         /* ts_verdict_kind: the colour of its box */
    float verdict_x, verdict_y; /* where the move was, frame pixels */
    /* Capture time (ts_now()) of the frame the results come from, carried to
     * the renderer for latency figures; 0 = none. */
    double stamp;
} ts_overlay_opts;

/* A card unseen this many frames is gone for the screen: the tracker's
 * TS_TRACK_GONE_AFTER, after which it also leaves the hints. */
enum { TS_OVERLAY_GONE_AFTER = 2 };

/* ---- The draw list -------------------------------------------------------- */

typedef enum {
    TS_OV_POLY = 0, /* a polyline: pt[0..npt), closed or not, dashed or not */
    TS_OV_TEXT,     /* text at pt[0] (frame px) aligned by `align`, on a backing box */
    TS_OV_BADGE,    /* a numbered disc on a card: its corner pt[0], along the edge pt[1],
                       pt[2] pointing into the card (unit vectors), pt[3] the two
                       edges' lengths (frame px); placed by ts_overlay_layout_badges */
    TS_OV_ROW,      /* a row of a corner panel (status, legend, headline): corner,
                       row; a badge first when group > 0 */
    TS_OV_DIM       /* the whole frame darkened by alpha */
} ts_ov_shape;

typedef enum {
    TS_OVR_CARD = 0, /* a present card's outline */
    TS_OVR_UNREAD,   /* a present, unread card: dashed outline, "?" and why */
    TS_OVR_GONE,     /* a card kept by the tracker but unseen: faint dashed outline */
    TS_OVR_CODE,     /* a card's code */
    TS_OVR_HINT,     /* a hint group's mark on a card (ring or badge) */
    TS_OVR_GROUP,    /* a table group's outline and label (valid, invalid, trick) */
    TS_OVR_LEGEND,   /* legend rows and the headline */
    TS_OVR_STATUS,   /* the status line, the stale banner and border */
    TS_OVR_VERDICT,  /* a verdict, PASS */
    TS_OVR_ZONE      /* a zone's outline and name */
} ts_ov_role;

enum { TS_OV_TEXT_MAX = 120 };

/* Text alignment of TS_OV_TEXT relative to pt[0]. */
typedef enum { TS_OVA_CENTRE = 0, TS_OVA_ABOVE, TS_OVA_BELOW } ts_ov_align;

typedef struct {
    ts_ov_shape shape;
    ts_ov_role role;
    int card;        /* the card it marks (index into the table's cards), or -1 */
    int group;       /* hint group number (1, 2, ...; badges, rings, legend), or 0 */
    ts_pt pt[4];
    int npt, closed, dashed;
    ts_bgr colour;   /* lines, badge fill, text */
    float alpha;     /* 1 = opaque; lower = fainter (gone cards fade) */
    float width;     /* line width, output px at 720 */
    float size;      /* text cap height, output px at 720 */
    int align;       /* ts_ov_align (TEXT) */
    int slot;        /* BADGE: place along the card's edge (0, 1, ...) */
    int corner;      /* ROW: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left */
    int full_width;  /* ROW: the band spans the frame */
    ts_bgr bg;       /* ROW/TEXT backing colour */
    float bg_alpha;  /* 0 = no backing */
    char text[TS_OV_TEXT_MAX];
} ts_ov_item;

typedef struct {
    int w, h;        /* the frame the coordinates refer to */
    int plain;       /* no anti-aliasing wanted */
    double stamp;    /* ts_overlay_opts.stamp */
    int n, cap;
    ts_ov_item *item; /* owned */
} ts_overlay_list;

void ts_overlay_list_init(ts_overlay_list *l);
void ts_overlay_list_free(ts_overlay_list *l);
/* Copies src into dst (dst's memory reused or grown). 0, or -1 out of memory. */
int ts_overlay_list_copy(ts_overlay_list *dst, const ts_overlay_list *src);

/* The design: turns t (frame pixels, w x h) into l (replacing its content).
 * opts may be NULL. Returns 0, or -1 when memory is short. */
int ts_overlay_build(ts_overlay_list *l, const ts_table *t, const ts_overlay_opts *opts, int w,
                     int h);

/* Draws l onto frame (BGR, written in place), scaled from l's size to the
 * frame's. Returns 0, or -1 if frame is not a BGR image or a drawing call failed. */
int ts_overlay_render(ts_image *frame, const ts_overlay_list *l);

/* The same with text (and badges, lines, panels) text_scale times the
 * window's size for a picture of frame's size. */
int ts_overlay_render_sized(ts_image *frame, const ts_overlay_list *l, double text_scale);

/* An annotated copy for an output that is watched at another size than the
 * camera's (the recording, the HTTP stream), in the window's design: img
 * scaled up by a whole factor (at most TS_OVERLAY_MAX_UPSCALE) until it has
 * min_h lines, so small video gets sharp text, and l drawn on it with its
 * text text_scale times the window's size (a phone shows the whole picture in
 * a few hundred pixels). out (BGR) is reused when its size fits, else
 * (re)allocated; the caller frees it with ts_image_free. Returns 0 or -1. */
enum { TS_OVERLAY_MAX_UPSCALE = 4 };
int ts_overlay_annotate(ts_image *out, const ts_image *img, const ts_overlay_list *l, int min_h,
                        double text_scale);

/* build + render onto the frame itself (frame's size). Returns 0 or -1. */
int ts_overlay_draw(ts_image *frame, const ts_table *t, const ts_overlay_opts *opts);

/* The colour hint group i (0-based: group number i+1) is drawn in (B,G,R), so
 * legends and tests agree. */
void ts_overlay_set_colour(int i, unsigned char bgr[3]);

/* ---- Layout shared by the renderers ----------------------------------------- */

/* The size of a text of cap height px as a renderer draws it. */
typedef void (*ts_ov_measure)(void *ctx, const char *s, double px, int *w, int *h);

/* Where a panel row goes: its box (x, y, w, h, output px) and the text's
 * baseline-left (tx, ty); the badge (when group > 0) at (bx, by) radius br.
 * Rows of one corner form one panel, top to bottom in list order, against its corner. out_w, out_h: the output
 * size; u: output px per px-at-720. Boxes are filled into rects[] (per item
 * index, only for ROW items). */
typedef struct {
    int x, y, w, h;
    float tx, ty, bx, by, br;
    float px; /* the text's cap height (a row too long for the output shrinks) */
} ts_ov_rowbox;
void ts_overlay_layout_rows(const ts_overlay_list *l, int out_w, int out_h, double u,
                            ts_ov_measure measure, void *ctx, ts_ov_rowbox *rects);

/* Output px per px-at-720 for an output of this size (at least 0.5). */
double ts_overlay_unit(int out_w, int out_h);

/* A TEXT item's backing box (x, y, w, h) and its text's baseline-left (tx,
 * ty), in output px: s output px per frame px, u output px per px-at-720, the
 * text measured by the renderer's measure; out_w x out_h the picture (a
 * verdict is kept inside it). */
typedef struct {
    float x, y, w, h, tx, ty;
} ts_ov_textbox;
void ts_overlay_text_box(const ts_ov_item *it, double s, double u, int out_w, int out_h,
                         ts_ov_measure measure, void *ctx, ts_ov_textbox *box);

/* A badge's disc in output px: centre (x, y), radius r of its colour, and R
 * of the whole mark (with its white and black rims). */
typedef struct {
    float x, y, r, R;
} ts_ov_disc;

/* Where every badge goes (discs[] per item index, BADGE items only): on its
 * card along the edge nearest the top-left, then along the opposite edge,
 * then further in, and outside the card when it has no room left, taking the
 * first place that covers no card's code or "?" text (as measure sizes it),
 * no other badge, and stays in the picture. A badge with no such place (a
 * card far too small for its badges) goes where it covers no code if it can,
 * else in its slot on the edge. */
void ts_overlay_layout_badges(const ts_overlay_list *l, double s, double u, int out_w, int out_h,
                              ts_ov_measure measure, void *ctx, ts_ov_disc *discs);

/* Both layouts a renderer needs, per item index: rows[i] for ROW items
 * (ts_overlay_layout_rows), discs[i] for BADGE items
 * (ts_overlay_layout_badges). */
typedef struct {
    ts_ov_rowbox *rows;
    ts_ov_disc *discs;
} ts_ov_layout;
/* Lays out l's rows and badges for an out_w x out_h picture (s, u, measure
 * and ctx as above). The arrays are allocated: ts_overlay_layout_free.
 * Returns 0, or -1 out of memory (nothing to free). */
int ts_overlay_layout(const ts_overlay_list *l, double s, double u, int out_w, int out_h,
                      ts_ov_measure measure, void *ctx, ts_ov_layout *out);
void ts_overlay_layout_free(ts_ov_layout *lay);

/* How ts_overlay_render sizes text (a ts_ov_measure; ctx unused). */
void ts_overlay_cv_measure(void *ctx, const char *s, double px, int *w, int *h);

/* The rims around a badge of radius r: the outer radius R. */
float ts_overlay_badge_outer(float r, double u);

#endif
