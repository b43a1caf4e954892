/* Qwirkle Cards faces (seed 002): the tiles' six shapes in six colours, a
 * large symbol on a black field inside a white border, with a small symbol
 * in two corners. */
#include <math.h>

#include "face.h"

static const ts_bgr COLOURS[6] = {{40, 40, 215}, {20, 120, 245}, {35, 215, 245},  /* R O Y */
                                  {60, 170, 50}, {200, 110, 20}, {150, 50, 120}}; /* G B P */

/* Shape (codes.h order C X D S T L) of size mm centred at (cx, cy). */
static int symbol(ts_canvas *cv, int shape, ts_bgr ink, float cx, float cy, float size)
{
    ts_poly p;
    switch (shape) {
    case 0: /* circle */ return ts_draw_disc(cv, cx, cy, size * 0.42f, ink);
    case 1: /* criss-cross: a four-point star lying as an X */
        ts_shape_star(&p, 4, 0.32f, (float)M_PI / 4);
        ts_poly_place(&p, cv, cx, cy, size, size, 0);
        return ts_draw_fill(cv, &p, ink);
    case 2: /* diamond */
        ts_shape_diamond(&p);
        ts_poly_place(&p, cv, cx, cy, size * 0.9f, size * 0.9f, 0);
        return ts_draw_fill(cv, &p, ink);
    case 3: /* square */
        ts_shape_round_square(&p, 0.12f);
        ts_poly_place(&p, cv, cx, cy, size * 0.72f, size * 0.72f, 0);
        return ts_draw_fill(cv, &p, ink);
    case 4: /* eight-point starburst, points as sharp as the tiles' */
        ts_shape_star(&p, 8, 0.50f, 0);
        ts_poly_place(&p, cv, cx, cy, size, size, 0);
        return ts_draw_fill(cv, &p, ink);
    default: /* clover: four round leaves about a centre, with the deep
                notches between them that the tiles have */
        for (int k = 0; k < 4; k++) {
            float a = (float)(M_PI / 2 * k);
            if (ts_draw_disc(cv, cx + cosf(a) * size * 0.29f, cy + sinf(a) * size * 0.29f,
                             size * 0.19f, ink))
                return -1;
        }
        return ts_draw_disc(cv, cx, cy, size * 0.17f, ink);
    }
}

int ts_face_qwirkle(ts_canvas *cv, int idx)
{
    ts_bgr ink = ts_ink(cv, COLOURS[idx / 6]), black = ts_ink(cv, (ts_bgr){32, 30, 30});
    int shape = idx % 6;
    float m = 2.5f;
    if (ts_draw_round_rect(cv, m, m, cv->w - m, cv->h - m, 2.0f, black, 0) ||
        symbol(cv, shape, ink, cv->w / 2, cv->h / 2, cv->w * 0.62f) ||
        symbol(cv, shape, ink, m + 6.5f, m + 6.5f, 9))
        return -1;
    ts_draw_mirror_corner(cv, m + 1, m + 1, 12, 12);
    return 0;
}
