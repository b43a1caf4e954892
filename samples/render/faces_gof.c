/* Gang of Four faces (seed 001): numbers 1-10 in green, yellow and red, the
 * multicoloured 1, the green and yellow phoenixes and the red dragon. Each
 * card has a frame in its colour, a medallion with the big number or the
 * creature, and indices in two corners. */
#include <math.h>
#include <stdio.h>

#include "face.h"
#include "rng.h"

static const ts_bgr COLOURS[3] = {{60, 150, 30}, {20, 185, 240}, {40, 40, 200}}; /* G Y R */

/* The tint of a colour the medallion is printed in. */
static ts_bgr tint(ts_bgr c, float k)
{
    return (ts_bgr){(uint8_t)(255 - (255 - c.b) * k), (uint8_t)(255 - (255 - c.g) * k),
                    (uint8_t)(255 - (255 - c.r) * k)};
}

/* Recolours the black print inside (x0, y0)-(x1, y1) mm in three bands from
 * top to bottom: green, yellow, red (the multicoloured 1). Only dark pixels
 * change, so the paper and the light frame around stay as they are. */
static void bands(ts_canvas *cv, float x0, float y0, float x1, float y1, const ts_bgr ink[3])
{
    const ts_bgr st = cv->print->stock;
    for (int y = (int)(y0 * cv->s); y < (int)(y1 * cv->s) && y < cv->img->h; y++) {
        uint8_t *o = ts_image_row(cv->img, y);
        int band = (int)(3 * (y - y0 * cv->s) / ((y1 - y0) * cv->s));
        ts_bgr c = ink[band < 0 ? 0 : band > 2 ? 2 : band];
        for (int x = (int)(x0 * cv->s); x < (int)(x1 * cv->s) && x < cv->img->w; x++) {
            float cover = 1 - o[3 * x + 1] / (float)st.g;
            if (cover <= 0.15f)
                continue;
            o[3 * x + 0] = (uint8_t)(st.b + (c.b - st.b) * cover);
            o[3 * x + 1] = (uint8_t)(st.g + (c.g - st.g) * cover);
            o[3 * x + 2] = (uint8_t)(st.r + (c.r - st.r) * cover);
        }
    }
}

static int creature(ts_canvas *cv, int idx, ts_bgr ink, float cx, float cy, float w, float h)
{
    ts_poly p;
    if (idx == 63) { /* the serpent is long and low */
        ts_shape_dragon(&p);
        h = w * 0.45f;
    } else {
        ts_shape_phoenix(&p);
    }
    ts_poly_place(&p, cv, cx, cy, w, h, 0);
    return ts_draw_fill(cv, &p, ink);
}

int ts_face_gof(ts_canvas *cv, int idx)
{
    const float W = cv->w, H = cv->h;
    ts_bgr ink[3];
    for (int c = 0; c < 3; c++)
        ink[c] = ts_ink(cv, COLOURS[c]);
    ts_bgr black = ts_ink(cv, (ts_bgr){20, 20, 20});
    int special = idx >= 60;
    ts_bgr main = idx < 30    ? ink[idx / 10]
                  : idx == 61 ? ink[0]
                  : idx == 62 ? ink[1]
                  : idx == 63 ? ink[2]
                              : black;
    ts_bgr frame = idx == 60 ? ts_ink(cv, (ts_bgr){40, 150, 190}) : main;
    if (ts_draw_round_rect(cv, 3, 3, W - 3, H - 3, 2.5f, frame, 0.6f) ||
        (idx != 60 && ts_draw_disc(cv, W / 2, H / 2, W * 0.36f, tint(frame, 0.18f))) ||
        ts_draw_ring(cv, W / 2, H / 2, W * 0.36f, frame, 0.5f))
        return -1;
    char num[4];
    snprintf(num, sizeof num, "%d", idx < 30 ? idx % 10 + 1 : 1);
    if (!special || idx == 60) {
        float big = H * 0.3f;
        if (ts_draw_text(cv, num, W / 2, H / 2, big, idx == 60 ? black : main, 2.4f,
                         TSCV_FONT_DUPLEX) ||
            ts_draw_text(cv, num, 9, 10, 7, idx == 60 ? black : main, 1.0f, TSCV_FONT_DUPLEX))
            return -1;
        if (idx == 60) {
            bands(cv, W / 2 - big * 0.4f, H / 2 - big * 0.6f, W / 2 + big * 0.4f,
                  H / 2 + big * 0.6f, ink);
            bands(cv, 7, 5.5f, 11, 14.5f, ink);
        }
    } else {
        if (creature(cv, idx, main, W / 2, H / 2, W * 0.6f, W * 0.5f) ||
            creature(cv, idx, main, 10, 10, 10, 8))
            return -1;
    }
    ts_draw_mirror_corner(cv, 3.5f, 3.5f, 13, 13);
    return 0;
}
