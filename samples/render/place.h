/* Inside the renderer: where cards lie on the table (layout.c). */
#ifndef TS_RENDER_PLACE_H
#define TS_RENDER_PLACE_H

#include <math.h>

#include "render.h"

/* Table-mm corners of a card of size cw x ch at place c, clockwise from its
 * printed top-left (turned with it). */
static inline void ts_place_corners(const ts_card_place *c, float cw, float ch, ts_pt out[4])
{
    const float hx[4] = {-cw / 2, cw / 2, cw / 2, -cw / 2},
                hy[4] = {-ch / 2, -ch / 2, ch / 2, ch / 2};
    float co = cosf(c->angle), si = sinf(c->angle);
    for (int k = 0; k < 4; k++)
        out[k] = (ts_pt){c->x + hx[k] * co - hy[k] * si, c->y + hx[k] * si + hy[k] * co};
}

/* Sets spec->view to the box around all its cards. */
void ts_place_view(ts_scene_spec *spec);

/* A grid whose cards lie whichever way fills spec's picture better (a deal
 * framed for a fixed camera). */
void ts_place_fitted_grid(ts_scene_spec *spec);

#endif
