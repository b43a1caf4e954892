/* Chinese domino cards (seed 004, Sap Ng Wu): long narrow cards with the low
 * pip group at the top end and the high group at the bottom. Ones and fours
 * are red; on 6:6 half the pips (one column of each six) are red; every
 * other pip is black. The five is the Hong Kong one (seed 004): its centre
 * pip overlaps the four corners, so the five prints as one blob.
 *
 * What lies between the two ends differs from maker to maker, so a deck
 * (its printing) gets one of three middles: a waist (two rules and a small
 * red lozenge, with a printed outline), nothing at all (and no outline), or
 * a small figure in red (cards with red pips) or black, as some mainland
 * decks print. A reader must not depend on any of them. */
#include <string.h>

#include "face.h"

/* Pip centres of a group of n in a unit square (die layouts; six is two
 * columns of three, as domino cards print it). */
static int pip_layout(int n, ts_pt out[6])
{
    static const ts_pt P[7][6] = {
        {{0, 0}},
        {{0.5f, 0.5f}},
        {{0.28f, 0.22f}, {0.72f, 0.78f}},
        {{0.22f, 0.2f}, {0.5f, 0.5f}, {0.78f, 0.8f}},
        {{0.26f, 0.26f}, {0.74f, 0.26f}, {0.26f, 0.74f}, {0.74f, 0.74f}},
        /* the Hong Kong five: corners drawn in, the centre pip over them */
        {{0.3f, 0.3f}, {0.7f, 0.3f}, {0.5f, 0.5f}, {0.3f, 0.7f}, {0.7f, 0.7f}},
        {{0.26f, 0.16f},
         {0.74f, 0.16f},
         {0.26f, 0.5f},
         {0.74f, 0.5f},
         {0.26f, 0.84f},
         {0.74f, 0.84f}}};
    memcpy(out, P[n], sizeof(ts_pt) * (size_t)n);
    return n;
}

static int group(ts_canvas *cv, int n, int heaven, float top, ts_bgr red, ts_bgr black)
{
    const float side = cv->w - 4, left = 2;
    ts_pt at[6];
    pip_layout(n, at);
    for (int i = 0; i < n; i++) {
        int is_red = n == 1 || n == 4 || (heaven && i % 2 == 0);
        float r = n == 1 ? 4.6f : n == 5 ? (i == 2 ? 4.2f : 2.6f) : n == 6 ? 2.5f : 2.9f;
        float x = left + at[i].x * side, y = top + at[i].y * side;
        if (ts_draw_disc(cv, x, y, r, is_red ? red : black))
            return -1;
        if (n == 1 && ts_draw_ring(cv, x, y, r + 1.2f, red, 0.4f))
            return -1;
    }
    return 0;
}

int ts_face_domino(ts_canvas *cv, int idx)
{
    int lo, hi;
    ts_domino_pips(idx, &lo, &hi);
    ts_bgr red = ts_ink(cv, (ts_bgr){45, 35, 200}), black = ts_ink(cv, (ts_bgr){35, 30, 30});
    int heaven = lo == 6 && hi == 6;
    const float W = cv->w, H = cv->h;
    /* the deck's middle: from its printing, the same for every card of it */
    int middle = (int)(cv->print->stripe * 997.0f) % 3;
    if (middle != 1 && ts_draw_round_rect(cv, 1.2f, 1.2f, W - 1.2f, H - 1.2f, 1.5f, black, 0.35f))
        return -1;
    if (group(cv, lo, heaven, 3, red, black) || group(cv, hi, heaven, H - 3 - (W - 4), red, black))
        return -1;
    if (middle == 1)
        return 0;
    if (middle == 2) {
        /* a small standing figure, about 9 x 13 mm, kept off the pip groups */
        int has_red = lo == 1 || lo == 4 || hi == 1 || hi == 4 || heaven;
        ts_bgr ink = has_red ? red : black;
        float x = W / 2, y = H / 2;
        return ts_draw_disc(cv, x, y - 4.6f, 1.5f, ink) ||
               ts_draw_line(cv, x, y - 3.0f, x, y + 1.8f, ink, 0.9f) ||
               ts_draw_line(cv, x - 4.2f, y - 2.4f, x, y - 1.4f, ink, 0.7f) ||
               ts_draw_line(cv, x, y - 1.4f, x + 4.0f, y - 3.2f, ink, 0.7f) ||
               ts_draw_line(cv, x, y + 1.8f, x - 3.0f, y + 6.2f, ink, 0.8f) ||
               ts_draw_line(cv, x, y + 1.8f, x + 3.2f, y + 6.0f, ink, 0.8f);
    }
    /* the waist between the two ends: two rules and a small lozenge */
    ts_poly p;
    ts_shape_diamond(&p);
    ts_poly_place(&p, cv, W / 2, H / 2, 6, 4, 0);
    return ts_draw_line(cv, 3, H / 2 - 4, W - 3, H / 2 - 4, black, 0.3f) ||
           ts_draw_line(cv, 3, H / 2 + 4, W - 3, H / 2 + 4, black, 0.3f) ||
           ts_draw_fill(cv, &p, red);
}
