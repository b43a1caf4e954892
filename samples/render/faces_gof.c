/* Gang of Four faces (seed 001): numbers 1-10 in green, yellow and red, the
 * multicoloured 1, the green and yellow phoenixes and the red dragon.
 *
 * As the real cards: beige stock, one large brush-stroke numeral (or the
 * creature) in the card's colour, and a small index in the top-left corner -
 * the numeral over a coloured symbol - printed again upside down in the
 * bottom-right corner. The index is what a reader must use: the big 6 and 9
 * differ only by which way up the card lies.
 *
 * What we do not know for certain about the printed deck (the index font,
 * whether the index numeral is coloured or dark, the symbol's shape) varies
 * from deck to deck, so nothing trained on these faces can lean on one guess. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "face.h"
#include "rng.h"

static const ts_bgr COLOURS[3] = {{60, 150, 30}, {20, 185, 240}, {40, 40, 200}}; /* G Y R */

/* How one deck prints (drawn once per deck from its printing). */
typedef struct {
    ts_bgr stock;      /* beige */
    tscv_font big_font, idx_font;
    float big_weight;  /* brush width, mm */
    float idx_h;       /* index numeral cap height, mm */
    float idx_weight;  /* its stroke, mm */
    int dark_index;    /* index numeral in dark ink (only the symbol coloured) */
    int symbol;        /* 0 disc, 1 diamond, 2 star, 3 square, 4 leaf; -1 one per colour */
    int frame;         /* a thin frame line around the face */
} gof_style;

static uint64_t deck_hash(const ts_print *p)
{
    uint32_t a, b, c;
    memcpy(&a, &p->ink_density, 4);
    memcpy(&b, &p->line, 4);
    memcpy(&c, &p->stripe, 4);
    return ((uint64_t)a << 32 ^ b) * 0x9E3779B97F4A7C15ull ^ c;
}

static void pick_style(const ts_print *p, gof_style *st)
{
    uint64_t r = rng_stream(deck_hash(p), 1);
    static const tscv_font big[] = {TSCV_FONT_SCRIPT, TSCV_FONT_SIMPLEX_ITALIC, TSCV_FONT_DUPLEX,
                                    TSCV_FONT_TRIPLEX_ITALIC, TSCV_FONT_SIMPLEX};
    static const tscv_font idx[] = {TSCV_FONT_DUPLEX, TSCV_FONT_TRIPLEX, TSCV_FONT_COMPLEX,
                                    TSCV_FONT_SIMPLEX, TSCV_FONT_TRIPLEX_ITALIC};
    int warm = rng_int(&r, 24);
    st->stock = (ts_bgr){(uint8_t)(200 - warm - rng_int(&r, 12)), (uint8_t)(226 - warm / 2),
                         (uint8_t)(238 - rng_int(&r, 8))};
    st->big_font = big[rng_int(&r, 5)];
    st->idx_font = idx[rng_int(&r, 5)];
    st->big_weight = (float)rng_range(&r, 2.2, 4.2);
    st->idx_h = (float)rng_range(&r, 5.2, 7.0);
    st->idx_weight = (float)rng_range(&r, 0.55, 1.0);
    st->dark_index = rng_unit(&r) < 0.25;
    st->symbol = rng_int(&r, 6) - 1;
    st->frame = rng_unit(&r) < 0.5;
}

/* Turns the white stock already laid into this deck's beige, keeping its
 * shading and greyed edges. */
static void beige(ts_canvas *cv, ts_bgr b)
{
    const ts_bgr s = cv->print->stock;
    const float k[3] = {b.b / (float)s.b, b.g / (float)s.g, b.r / (float)s.r};
    for (int y = 0; y < cv->img->h; y++) {
        uint8_t *o = ts_image_row(cv->img, y);
        for (int x = 0; x < cv->img->w; x++)
            for (int c = 0; c < 3; c++) {
                float v = o[3 * x + c] * k[c];
                o[3 * x + c] = (uint8_t)(v > 255 ? 255 : v);
            }
    }
}

/* Recolours the print inside (x0, y0)-(x1, y1) mm in three bands from top to
 * bottom: green, yellow, red (the multicoloured 1). Only pixels darker than
 * the stock change. */
static void bands(ts_canvas *cv, ts_bgr stock, float x0, float y0, float x1, float y1,
                  const ts_bgr ink[3])
{
    for (int y = (int)(y0 * cv->s); y < (int)(y1 * cv->s) && y < cv->img->h; y++) {
        if (y < 0)
            continue;
        uint8_t *o = ts_image_row(cv->img, y);
        int band = (int)(3 * (y - y0 * cv->s) / ((y1 - y0) * cv->s));
        ts_bgr c = ink[band < 0 ? 0 : band > 2 ? 2 : band];
        for (int x = (int)(x0 * cv->s); x < (int)(x1 * cv->s) && x < cv->img->w; x++) {
            if (x < 0)
                continue;
            int sum = o[3 * x] + o[3 * x + 1] + o[3 * x + 2], ref = stock.b + stock.g + stock.r;
            float cover = 1 - sum / (float)ref;
            cover = cover < 0 ? 0 : cover * 1.6f > 1 ? 1 : cover * 1.6f;
            if (cover <= 0.1f)
                continue;
            o[3 * x + 0] = (uint8_t)(stock.b + (c.b - stock.b) * cover);
            o[3 * x + 1] = (uint8_t)(stock.g + (c.g - stock.g) * cover);
            o[3 * x + 2] = (uint8_t)(stock.r + (c.r - stock.r) * cover);
        }
    }
}

/* The big numeral as a brush stroke: the glyph drawn twice with a small
 * offset (ragged edges), then streaked where the brush ran dry. */
static int brush_text(ts_canvas *cv, const char *s, float cx, float cy, float h, ts_bgr ink,
                      const gof_style *st)
{
    int x0 = (int)(6 * cv->s), y0 = (int)(14 * cv->s);
    int w = (int)((cv->w - 12) * cv->s), hh = (int)((cv->h - 28) * cv->s);
    ts_image m;
    if (ts_image_alloc(&m, w, hh, 1) < 0) {
        snprintf(cv->err, TSCV_ERR_MAX, "render: out of memory");
        return -1;
    }
    memset(m.buf, 0, (size_t)w * (size_t)hh);
    int tw, th;
    tscv_text_font_size(s, st->big_font, 1.0, 1, &tw, &th);
    double scale = h * cv->s / (th > 0 ? th : 22);
    int thick = (int)lroundf(st->big_weight * cv->s);
    thick = thick < 1 ? 1 : thick;
    tscv_text_font_size(s, st->big_font, scale, thick, &tw, &th);
    float maxw = (cv->w - 14) * cv->s;
    if (tw > maxw) { /* "10" in a wide font: narrow it to the card */
        scale *= maxw / tw;
        tscv_text_font_size(s, st->big_font, scale, thick, &tw, &th);
    }
    float px = cx * cv->s - x0 - tw / 2.0f, py = cy * cv->s - y0 + th / 2.0f;
    float jx = (float)rng_range(&cv->rng, -0.5, 0.5) * cv->s,
          jy = (float)rng_range(&cv->rng, -0.5, 0.5) * cv->s;
    int rc = tscv_text_font(&m, px, py, s, st->big_font, scale, (ts_bgr){255, 255, 255}, thick,
                            cv->err);
    if (rc == 0)
        rc = tscv_text_font(&m, px + jx, py + jy, s, st->big_font, scale, (ts_bgr){255, 255, 255},
                            (int)(thick * 0.7f) + 1, cv->err);
    float ang = (float)rng_range(&cv->rng, -0.8, 0.8), ca = cosf(ang), sa = sinf(ang);
    float freq = (float)(2 * M_PI / (rng_range(&cv->rng, 0.6, 1.4) * cv->s));
    float dry = (float)rng_range(&cv->rng, 0.1, 0.45), ph = (float)rng_range(&cv->rng, 0, 6.28);
    for (int y = 0; rc == 0 && y < hh; y++) {
        int yy = y0 + y;
        if (yy < 0 || yy >= cv->img->h)
            continue;
        const uint8_t *mr = m.buf + (size_t)y * (size_t)w;
        uint8_t *o = ts_image_row(cv->img, yy);
        for (int x = 0; x < w; x++) {
            int xx = x0 + x;
            if (!mr[x] || xx < 0 || xx >= cv->img->w)
                continue;
            float t = (x * ca + y * sa) * freq * 0.15f, u = (-x * sa + y * ca) * freq;
            float streak = sinf(u + ph + 1.7f * sinf(t)); /* dry lines along the stroke */
            float cover = mr[x] / 255.0f * (1 - dry * (streak > 0.6f ? (streak - 0.6f) * 2.5f : 0));
            uint8_t *p = o + 3 * xx;
            p[0] = (uint8_t)(p[0] + (ink.b - p[0]) * cover);
            p[1] = (uint8_t)(p[1] + (ink.g - p[1]) * cover);
            p[2] = (uint8_t)(p[2] + (ink.r - p[2]) * cover);
        }
    }
    ts_image_free(&m);
    return rc;
}

static int symbol(ts_canvas *cv, int kind, float cx, float cy, float d, ts_bgr c)
{
    ts_poly p;
    switch (kind) {
    case 0: return ts_draw_disc(cv, cx, cy, d / 2, c);
    case 1: ts_shape_diamond(&p); break;
    case 2: ts_shape_star(&p, 5, 0.45f, 0); break;
    case 3: ts_shape_round_square(&p, 0.25f); break;
    default: ts_shape_leaf(&p); break;
    }
    ts_poly_place(&p, cv, cx, cy, d, d * (kind == 1 ? 1.25f : 1), 0);
    return ts_draw_fill(cv, &p, c);
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
    gof_style st;
    pick_style(cv->print, &st);
    beige(cv, st.stock);
    ts_bgr ink[3];
    for (int c = 0; c < 3; c++)
        ink[c] = ts_ink(cv, COLOURS[c]);
    ts_bgr dark = ts_ink(cv, (ts_bgr){30, 35, 45});
    int colour = idx < 30 ? idx / 10 : idx == 61 ? 0 : idx == 62 ? 1 : 2;
    ts_bgr main = idx == 60 ? dark : ink[colour];
    if (st.frame && ts_draw_round_rect(cv, 2.5f, 2.5f, W - 2.5f, H - 2.5f, 2.0f,
                                       ts_ink(cv, (ts_bgr){90, 120, 150}), 0.35f))
        return -1;

    /* The face: the big numeral, or the creature. */
    char num[4];
    snprintf(num, sizeof num, "%d", idx < 30 ? idx % 10 + 1 : 1);
    if (idx < 30 || idx == 60) {
        float big = H * (float)rng_range(&cv->rng, 0.34, 0.42);
        if (brush_text(cv, num, W / 2, H / 2, big, main, &st))
            return -1;
        if (idx == 60)
            bands(cv, st.stock, 8, H / 2 - big * 0.7f, W - 8, H / 2 + big * 0.7f, ink);
    } else if (creature(cv, idx, main, W / 2, H / 2, W * 0.72f, W * 0.62f)) {
        return -1;
    }

    /* The index: numeral over symbol (creatures: a small creature). */
    float ix = 7.0f, iy = 4.0f + st.idx_h / 2, sy = iy + st.idx_h / 2 + 3.2f;
    if (idx < 30 || idx == 60) {
        ts_bgr numc = st.dark_index ? dark : main;
        float ih = idx % 10 == 9 && idx < 30 ? st.idx_h * 0.85f : st.idx_h;
        if (ts_draw_text(cv, num, ix, iy, ih, numc, st.idx_weight, st.idx_font))
            return -1;
        if (idx == 60) {
            bands(cv, st.stock, ix - 5, iy - st.idx_h / 2 - 0.6f, ix + 5, iy + st.idx_h / 2 + 0.6f,
                  ink);
            for (int c = 0; c < 3; c++) /* three small dots, one per colour */
                if (symbol(cv, 0, ix - 2.4f + 2.4f * c, sy, 2.0f, ink[c]))
                    return -1;
        } else {
            int kind = st.symbol < 0 ? colour + 1 : st.symbol;
            if (symbol(cv, kind, ix, sy, 3.4f, ink[colour]))
                return -1;
        }
    } else if (creature(cv, idx, main, ix, iy + 1.5f, 9, 7.5f)) {
        return -1;
    }
    ts_draw_mirror_corner(cv, 0.6f, 0.6f, 13.5f, 22);
    return 0;
}
