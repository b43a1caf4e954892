/* Inside the face renderer: a canvas in card millimetres, the printing of a
 * deck (ink tones, line widths, stock), and the drawing operations every
 * family's face is made of. Not part of the public API (render.h). */
#ifndef TS_RENDER_FACE_H
#define TS_RENDER_FACE_H

#include <stdint.h>

#include "cv/cvdraw.h"
#include "image.h"
#include "render.h"
#include "shapes.h"

/* How one deck was printed: shared by every card of a scene's deck, so the
 * cards of a table agree with each other as a real deck does. */
typedef struct {
    float ink_density; /* 1 = nominal; < 1 paler ink, > 1 richer */
    float ink_hue[3];  /* per-channel absorption factors (B, G, R) around 1: the batch's tone */
    float line;        /* outline width factor around 1 */
    float stripe;      /* stripe period factor around 1 */
    ts_bgr stock;      /* card-stock colour */
    float corner_mm;   /* corner radius */
    float wear;        /* 0 new .. 1 well used: grey edges, nicks, smudges */
} ts_print;

/* Picks a printing from a deck seed. */
void ts_print_pick(uint64_t deck_seed, ts_print *p);

/* A face being drawn: coordinates are card millimetres from its top-left. */
typedef struct {
    ts_image *img; /* the face (BGR), borrowed */
    float s;       /* pixels per millimetre */
    float w, h;    /* card size, mm */
    const ts_print *print;
    uint64_t rng; /* this card's own variation */
    char *err;    /* TSCV_ERR_MAX */
} ts_canvas;

/* The colour ink of nominal colour c prints as on this card (deck tone,
 * density and a little per-card variation). */
ts_bgr ts_ink(ts_canvas *cv, ts_bgr c);

/* Moves a unit shape (x, y in [-1, 1]) to centre (cx, cy) mm, size w x h mm,
 * turned by rot radians, in canvas pixels. */
void ts_poly_place(ts_poly *p, const ts_canvas *cv, float cx, float cy, float w, float h,
                   float rot);

/* Drawing (all return 0 or -1 with cv->err). Widths are mm. */
int ts_draw_fill(ts_canvas *cv, const ts_poly *p, ts_bgr c);
int ts_draw_outline(ts_canvas *cv, const ts_poly *p, ts_bgr c, float width);
/* Parallel lines inside p, across the card's width axis (vertical on the
 * face), period and line width in mm. */
int ts_draw_stripes(ts_canvas *cv, const ts_poly *p, ts_bgr c, float period, float width);
/* Round dots of diameter d every step mm along p's outline. */
int ts_draw_dots(ts_canvas *cv, const ts_poly *p, ts_bgr c, float d, float step);
int ts_draw_disc(ts_canvas *cv, float cx, float cy, float r, ts_bgr c);
int ts_draw_ring(ts_canvas *cv, float cx, float cy, float r, ts_bgr c, float width);
int ts_draw_line(ts_canvas *cv, float x0, float y0, float x1, float y1, ts_bgr c, float width);
/* A rounded rectangle (x0, y0)-(x1, y1), radius r: filled, or outlined when width > 0. */
int ts_draw_round_rect(ts_canvas *cv, float x0, float y0, float x1, float y1, float r, ts_bgr c,
                       float width);
/* Text centred at (cx, cy) with cap height h; weight is the stroke width. */
int ts_draw_text(ts_canvas *cv, const char *s, float cx, float cy, float h, ts_bgr c, float weight,
                 tscv_font font);
/* Copies the rectangle (x, y, w, h) mm turned half a turn onto the opposite
 * corner of the card: the upside-down index every two-way card prints. */
void ts_draw_mirror_corner(ts_canvas *cv, float x, float y, float w, float h);

/* The families' faces: draw onto the stock already laid on cv. */
int ts_face_set(ts_canvas *cv, int idx, ts_set_deck deck);
int ts_face_qwirkle(ts_canvas *cv, int idx);
int ts_face_gof(ts_canvas *cv, int idx);
int ts_face_domino(ts_canvas *cv, int idx);
int ts_face_playing(ts_canvas *cv, int idx);

#endif
