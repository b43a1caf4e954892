/* Standard playing cards (poker size, 63 x 88 mm): rank and suit indices in
 * two corners, pips in the standard layouts (the lower ones upside down), and
 * simple double-headed court cards in red, blue and yellow. */
#include <math.h>

#include "face.h"

enum { CLUBS = 0, DIAMONDS, HEARTS, SPADES }; /* codes.h suit order */

/* One suit symbol of the given height, upside down when flip. */
static int suit(ts_canvas *cv, int s, float cx, float cy, float size, int flip, ts_bgr ink)
{
    ts_poly p;
    float rot = flip ? (float)M_PI : 0, k = flip ? -1.0f : 1.0f;
    switch (s) {
    case HEARTS:
        ts_shape_heart(&p);
        ts_poly_place(&p, cv, cx, cy, size * 0.95f, size * 0.9f, rot);
        return ts_draw_fill(cv, &p, ink);
    case DIAMONDS:
        ts_shape_diamond(&p);
        ts_poly_place(&p, cv, cx, cy, size * 0.75f, size, rot);
        return ts_draw_fill(cv, &p, ink);
    case SPADES:
        ts_shape_spade(&p);
        ts_poly_place(&p, cv, cx, cy, size * 0.9f, size, rot);
        return ts_draw_fill(cv, &p, ink);
    default: { /* clubs: three leaves and a flared stem */
        const float lx[3] = {0, -0.27f, 0.27f}, ly[3] = {-0.24f, 0.1f, 0.1f};
        for (int i = 0; i < 3; i++)
            if (ts_draw_disc(cv, cx + k * lx[i] * size, cy + k * ly[i] * size, 0.25f * size, ink))
                return -1;
        p.n = 3;
        p.p[0] = (ts_pt){0, -0.2f};
        p.p[1] = (ts_pt){0.5f, 1};
        p.p[2] = (ts_pt){-0.5f, 1};
        ts_poly_place(&p, cv, cx, cy + k * 0.25f * size, size * 0.42f, size * 0.5f, rot);
        return ts_draw_fill(cv, &p, ink);
    }
    }
}

/* Pip centres of ranks 2..10 as (column -1/0/1, row 0..1 from top to bottom). */
static int pip_layout(int n, float col[10], float row[10])
{
    static const float C6[6][2] = {{-1, 0}, {1, 0}, {-1, 0.5f}, {1, 0.5f}, {-1, 1}, {1, 1}};
    static const float R4[8][2] = {{-1, 0},        {1, 0},        {-1, 1 / 3.0f}, {1, 1 / 3.0f},
                                   {-1, 2 / 3.0f}, {1, 2 / 3.0f}, {-1, 1},        {1, 1}};
    int k = 0;
    if (n <= 3) {
        for (int i = 0; i < n; i++, k++) {
            col[k] = 0;
            row[k] = n == 1 ? 0.5f : (float)i / (n - 1);
        }
        return k;
    }
    if (n <= 5) {
        const float c4[4][2] = {{-1, 0}, {1, 0}, {-1, 1}, {1, 1}};
        for (int i = 0; i < 4; i++, k++) {
            col[k] = c4[i][0];
            row[k] = c4[i][1];
        }
        if (n == 5) {
            col[k] = 0;
            row[k++] = 0.5f;
        }
        return k;
    }
    if (n <= 8) {
        for (int i = 0; i < 6; i++, k++) {
            col[k] = C6[i][0];
            row[k] = C6[i][1];
        }
        if (n >= 7) {
            col[k] = 0;
            row[k++] = 0.25f;
        }
        if (n == 8) {
            col[k] = 0;
            row[k++] = 0.75f;
        }
        return k;
    }
    for (int i = 0; i < 8; i++, k++) {
        col[k] = R4[i][0];
        row[k] = R4[i][1];
    }
    if (n == 9) {
        col[k] = 0;
        row[k++] = 0.5f;
    } else {
        col[k] = 0;
        row[k++] = 1 / 6.0f;
        col[k] = 0;
        row[k++] = 5 / 6.0f;
    }
    return k;
}

/* The upper half of a court card: a framed figure with crown, face and robe. */
static int court(ts_canvas *cv, int rank, int s, ts_bgr ink)
{
    const float W = cv->w, H = cv->h;
    ts_bgr yellow = ts_ink(cv, (ts_bgr){40, 185, 235}), blue = ts_ink(cv, (ts_bgr){160, 80, 35});
    ts_bgr skin = ts_ink(cv, (ts_bgr){175, 205, 240}), black = ts_ink(cv, (ts_bgr){30, 28, 28});
    float x0 = 11, x1 = W - 11, y0 = 11, mid = H / 2;
    ts_poly p;
    /* robe: a trapezoid of blue with a yellow band and a red panel */
    p.n = 4;
    p.p[0] = (ts_pt){x0 + 4, mid};
    p.p[1] = (ts_pt){x1 - 4, mid};
    p.p[2] = (ts_pt){W / 2 + 9, y0 + 24};
    p.p[3] = (ts_pt){W / 2 - 9, y0 + 24};
    for (int i = 0; i < 4; i++)
        p.p[i] = (ts_pt){p.p[i].x * cv->s, p.p[i].y * cv->s};
    if (ts_draw_fill(cv, &p, blue) ||
        ts_draw_round_rect(cv, W / 2 - 5, y0 + 24, W / 2 + 5, mid, 1, ink, 0) ||
        ts_draw_line(cv, x0 + 6, mid - 6, x1 - 6, mid - 6, yellow, 2.2f) ||
        ts_draw_disc(cv, W / 2, y0 + 16, 6.5f, skin) ||
        ts_draw_ring(cv, W / 2, y0 + 16, 6.5f, black, 0.4f))
        return -1;
    /* crown (king), veil (queen) or cap (jack) */
    ts_shape_star(&p, rank == 12 ? 3 : rank == 11 ? 5 : 2, 0.45f, 0);
    ts_poly_place(&p, cv, W / 2, y0 + 7.5f, 13, 6, 0);
    if (ts_draw_fill(cv, &p, rank == 11 ? ink : yellow) ||
        ts_draw_line(cv, W / 2 - 2.5f, y0 + 15, W / 2 - 1.5f, y0 + 15, black, 0.6f) ||
        ts_draw_line(cv, W / 2 + 1.5f, y0 + 15, W / 2 + 2.5f, y0 + 15, black, 0.6f) ||
        suit(cv, s, x0 + 6, y0 + 8, 6, 0, ink))
        return -1;
    return ts_draw_round_rect(cv, x0, y0, x1, H - y0, 1, ink, 0.5f);
}

int ts_face_playing(ts_canvas *cv, int idx)
{
    static const char *RANKS[13] = {"A", "2", "3",  "4", "5", "6", "7",
                                    "8", "9", "10", "J", "Q", "K"};
    const float W = cv->w, H = cv->h;
    int rank = idx % 13, s = idx / 13;
    ts_bgr ink =
        ts_ink(cv, s == DIAMONDS || s == HEARTS ? (ts_bgr){40, 30, 195} : (ts_bgr){30, 28, 28});
    float ix = rank == 9 ? 6.2f : 5.5f;
    if (ts_draw_text(cv, RANKS[rank], ix, 7.5f, 6.2f, ink, rank == 9 ? 0.55f : 0.7f,
                     TSCV_FONT_TRIPLEX) ||
        suit(cv, s, 5.5f, 15, 5, 0, ink))
        return -1;
    if (rank >= 10) {
        if (court(cv, rank, s, ink))
            return -1;
        ts_draw_mirror_corner(cv, 0, 0, W, H / 2);
        return 0;
    }
    ts_draw_mirror_corner(cv, 0.5f, 2.5f, 10, 16);
    if (rank == 0) /* the ace: one large pip */
        return suit(cv, s, W / 2, H / 2, s == SPADES ? 30 : 22, 0, ink);
    float col[10], row[10];
    int n = pip_layout(rank + 1, col, row);
    const float top = 17, bottom = H - 17, cx = W / 2, dx = 14;
    for (int i = 0; i < n; i++) {
        float y = top + row[i] * (bottom - top);
        if (suit(cv, s, cx + col[i] * dx, y, 11, y > H / 2 + 0.1f, ink))
            return -1;
    }
    return 0;
}
