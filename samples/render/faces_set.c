/* SET faces: the classic deck (diamond, oval, squiggle; red, green, purple;
 * solid, striped, open) and the seed's SeeCards deck (hexagon, leaf, snake;
 * red, green, blue; solid, striped, dotted outline).
 *
 * Sizes were measured on the photographed cards (shared/data/set/crops): a
 * 57 x 89 mm card, symbols about 41 x 20 mm stacked 26 mm apart along the
 * long axis, outlines about 0.8 mm, stripes 0.3 mm wide every 1.1 mm running along the
 * card's long axis. Inks are the colours the photos show relative to the
 * paper. */
#include <math.h>

#include "face.h"
#include "rng.h"

typedef struct {
    float w, h, pitch; /* symbol size and centre spacing, mm */
} symbol_size;

static const symbol_size CLASSIC_SIZE[3] = {{43.0f, 20.5f, 26.0f},   /* diamond */
                                            {40.5f, 19.6f, 26.0f},   /* oval */
                                            {39.0f, 19.0f, 24.5f}};  /* squiggle */
static const symbol_size SEECARDS_SIZE[3] = {{42.0f, 20.0f, 25.5f},  /* hexagon */
                                             {42.0f, 19.0f, 25.5f},  /* leaf */
                                             {40.0f, 19.0f, 25.0f}}; /* snake */

static const ts_bgr INK[2][3] = {{{45, 35, 225}, {65, 150, 15}, {140, 25, 95}},  /* R G P */
                                 {{45, 35, 215}, {70, 160, 30}, {190, 90, 25}}}; /* R G B */

static void symbol(ts_poly *p, ts_set_deck deck, int shape, const symbol_size *sz)
{
    if (deck == TS_DECK_CLASSIC) {
        if (shape == 0)
            ts_shape_diamond(p);
        else if (shape == 1)
            ts_shape_stadium(p, sz->w / sz->h);
        else
            ts_shape_squiggle(p);
    } else {
        if (shape == 0)
            ts_shape_hexagon(p);
        else if (shape == 1)
            ts_shape_leaf(p);
        else
            ts_shape_snake(p);
    }
}

int ts_face_set(ts_canvas *cv, int idx, ts_set_deck deck)
{
    int num = ts_set_attr(idx, TS_SET_NUM) + 1, col = ts_set_attr(idx, TS_SET_COLOUR);
    int shape = ts_set_attr(idx, TS_SET_SHAPE), shading = ts_set_attr(idx, TS_SET_SHADING);
    const symbol_size *sz = deck == TS_DECK_CLASSIC ? &CLASSIC_SIZE[shape] : &SEECARDS_SIZE[shape];
    ts_bgr ink = ts_ink(cv, INK[deck][col]);
    float line = 0.8f * cv->print->line * (float)rng_range(&cv->rng, 0.92, 1.08);
    float period = 1.1f * cv->print->stripe;
    /* Cards are cut a little off the print: the whole pattern sits off-centre
     * and turned by a fraction of a degree. */
    float ox = (float)rng_gauss(&cv->rng) * 0.4f, oy = (float)rng_gauss(&cv->rng) * 0.5f;
    float turn = (float)rng_gauss(&cv->rng) * 0.004f;
    for (int k = 0; k < num; k++) {
        ts_poly p;
        symbol(&p, deck, shape, sz);
        float along = (k - (num - 1) / 2.0f) * sz->pitch;
        ts_poly_place(&p, cv, cv->w / 2 + ox - along * sinf(turn),
                      cv->h / 2 + oy + along * cosf(turn), sz->w, sz->h, turn);
        int rc;
        if (shading == 0)
            rc = ts_draw_fill(cv, &p, ink);
        else if (shading == 1)
            rc = ts_draw_stripes(cv, &p, ink, period, 0.32f) || ts_draw_outline(cv, &p, ink, line);
        else if (deck == TS_DECK_SEECARDS)
            rc = ts_draw_dots(cv, &p, ink, 1.1f * line, 1.9f);
        else
            rc = ts_draw_outline(cv, &p, ink, line);
        if (rc)
            return -1;
    }
    return 0;
}
