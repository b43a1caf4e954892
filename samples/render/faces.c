/* Card faces for the five families, drawn from their real designs with
 * polygons, lines and Hershey text (see render.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv/cvdraw.h"
#include "render.h"
#include "rng.h"

#define PI 3.14159265358979323846

enum { MAXP = 400 };

typedef struct {
    int n;
    ts_pt p[MAXP];
} poly;

/* ---- Printing ----------------------------------------------------------- */

typedef struct {
    ts_image *img;   /* the face being drawn */
    float s;         /* px per mm */
    uint64_t *rng;
    char *err;
} canvas;

static ts_bgr jitter(canvas *cv, ts_bgr c, int amount)
{
    int v[3] = {c.b, c.g, c.r};
    for (int i = 0; i < 3; i++) {
        v[i] += (int)lround(rng_gauss(cv->rng) * amount);
        v[i] = v[i] < 0 ? 0 : v[i] > 255 ? 255 : v[i];
    }
    return (ts_bgr){(uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2]};
}

/* Polygon of a shape centred at (cx, cy), w x h mm, rotated by rot. */
static void place(poly *p, float cx, float cy, float w, float h, float rot, const canvas *cv)
{
    float c = cosf(rot), s = sinf(rot);
    for (int i = 0; i < p->n; i++) {
        float x = p->p[i].x * w / 2, y = p->p[i].y * h / 2;
        p->p[i].x = (cx + x * c - y * s) * cv->s;
        p->p[i].y = (cy + x * s + y * c) * cv->s;
    }
}

static int fill(canvas *cv, const poly *p, ts_bgr c)
{
    return tscv_fill_poly(cv->img, p->p, p->n, c, cv->err);
}

static int outline(canvas *cv, const poly *p, ts_bgr c, float width_mm)
{
    int t = (int)lroundf(width_mm * cv->s);
    return tscv_polyline(cv->img, p->p, p->n, 1, c, t < 1 ? 1 : t, cv->err);
}

/* Stripes across a shape: thin lines perpendicular to its long axis, clipped
 * to the shape by drawing them through a mask. */
static int stripes(canvas *cv, const poly *p, ts_bgr c, float period_mm, float width_mm)
{
    float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
    for (int i = 0; i < p->n; i++) {
        x0 = fminf(x0, p->p[i].x);
        x1 = fmaxf(x1, p->p[i].x);
        y0 = fminf(y0, p->p[i].y);
        y1 = fmaxf(y1, p->p[i].y);
    }
    int bx = (int)floorf(x0), by = (int)floorf(y0), bw = (int)ceilf(x1) - bx + 1,
        bh = (int)ceilf(y1) - by + 1;
    ts_image mask;
    if (ts_image_alloc(&mask, bw, bh, 1) < 0)
        return -1;
    memset(mask.buf, 0, (size_t)bw * bh);
    poly q = *p;
    for (int i = 0; i < q.n; i++) {
        q.p[i].x -= (float)bx;
        q.p[i].y -= (float)by;
    }
    int rc = tscv_fill_poly(&mask, q.p, q.n, (ts_bgr){255, 255, 255}, cv->err);
    float period = period_mm * cv->s, width = width_mm * cv->s;
    for (int y = 0; rc == 0 && y < bh; y++) {
        int yy = by + y;
        if (yy < 0 || yy >= cv->img->h)
            continue;
        for (int x = 0; x < bw; x++) {
            int xx = bx + x;
            if (xx < 0 || xx >= cv->img->w || !mask.buf[y * bw + x])
                continue;
            float ph = fmodf((float)xx, period);
            float cover = fminf(1.0f, fmaxf(0.0f, width + 0.5f - fminf(ph, period - ph) * 2)) *
                          mask.buf[y * bw + x] / 255.0f; /* soft-edged line */
            uint8_t *o = ts_image_row(cv->img, yy) + 3 * xx;
            o[0] = (uint8_t)(o[0] + (c.b - o[0]) * cover);
            o[1] = (uint8_t)(o[1] + (c.g - o[1]) * cover);
            o[2] = (uint8_t)(o[2] + (c.r - o[2]) * cover);
        }
    }
    ts_image_free(&mask);
    return rc;
}

/* Dashes along a closed outline (SeeCards' dotted-outline shading): walk the
 * outline in steps of half a dash, drawing every other dash. */
static int dashes(canvas *cv, const poly *p, ts_bgr c, float width_mm, float dash_mm)
{
    float on = dash_mm * cv->s, walked = 0;
    int t = (int)lroundf(width_mm * cv->s);
    for (int i = 0; i < p->n; i++) {
        ts_pt a = p->p[i], b = p->p[(i + 1) % p->n];
        float seg = hypotf(b.x - a.x, b.y - a.y);
        int steps = (int)ceilf(seg / (on / 2));
        for (int k = 0; k < steps; k++) {
            float f0 = (float)k / steps, f1 = (float)(k + 1) / steps;
            if (fmodf(walked + f0 * seg, 2 * on) < on) {
                ts_pt l[2] = {{a.x + (b.x - a.x) * f0, a.y + (b.y - a.y) * f0},
                              {a.x + (b.x - a.x) * f1, a.y + (b.y - a.y) * f1}};
                if (tscv_polyline(cv->img, l, 2, 0, c, t < 1 ? 1 : t, cv->err) < 0)
                    return -1;
            }
        }
        walked += seg;
    }
    return 0;
}

/* ---- Shapes (unit polygons, x and y in [-1, 1]) -------------------------- */

static void shape_diamond(poly *p)
{
    const ts_pt d[4] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}};
    p->n = 4;
    memcpy(p->p, d, sizeof d);
}

/* A stadium: two half circles joined by straight sides (the oval). */
static void shape_oval(poly *p, float aspect)
{
    int k = 0;
    float r = 1.0f / aspect; /* end radius in x units */
    for (int half = 0; half < 2; half++)
        for (int i = 0; i <= 40; i++) {
            float a = (float)(PI / 2 + PI * i / 40 + PI * half);
            float cx = half ? (1 - r) : -(1 - r);
            p->p[k++] = (ts_pt){cx + r * cosf(a), sinf(a)};
        }
    p->n = k;
}

/* A wavy S-shaped blob: the squiggle (classic) and the snake (SeeCards). */
static void shape_wave(poly *p, float wave, float pinch)
{
    int k = 0;
    for (int i = 0; i < 160; i++) {
        float t = (float)(2 * PI * i / 160);
        float c = cosf(t), s = sinf(t);
        float x = (c < 0 ? -1 : 1) * powf(fabsf(c), 0.7f);
        float y = (s < 0 ? -1 : 1) * powf(fabsf(s), 0.8f) * (1 - pinch * (1 - x * x));
        y += wave * sinf((float)PI * x);
        p->p[k++] = (ts_pt){x, y / (1 + wave)};
    }
    p->n = k;
}

static void shape_hexagon(poly *p)
{
    const ts_pt h[6] = {{-1, 0}, {-0.5f, -1}, {0.5f, -1}, {1, 0}, {0.5f, 1}, {-0.5f, 1}};
    p->n = 6;
    memcpy(p->p, h, sizeof h);
}

/* Two arcs meeting in points: a leaf. */
static void shape_leaf(poly *p)
{
    int k = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 60; i++) {
            float x = -1 + 2.0f * i / 60;
            float y = (1 - x * x) * (side ? 1 : -1);
            p->p[k++] = (ts_pt){side ? -x : x, y};
        }
    p->n = k;
}

static void shape_circle(poly *p, int n)
{
    for (int i = 0; i < n; i++)
        p->p[i] = (ts_pt){cosf((float)(2 * PI * i / n)), sinf((float)(2 * PI * i / n))};
    p->n = n;
}

static void shape_star(poly *p, int points, float inner)
{
    p->n = 2 * points;
    for (int i = 0; i < p->n; i++) {
        float r = i % 2 ? inner : 1, a = (float)(PI * i / points - PI / 2);
        p->p[i] = (ts_pt){r * cosf(a), r * sinf(a)};
    }
}

static void shape_square(poly *p)
{
    const ts_pt s[4] = {{-0.8f, -0.8f}, {0.8f, -0.8f}, {0.8f, 0.8f}, {-0.8f, 0.8f}};
    p->n = 4;
    memcpy(p->p, s, sizeof s);
}

/* Suits as unit shapes. */
static void shape_heart(poly *p)
{
    p->n = 120;
    for (int i = 0; i < 120; i++) {
        float t = (float)(2 * PI * i / 120);
        float x = 16 * powf(sinf(t), 3);
        float y = 13 * cosf(t) - 5 * cosf(2 * t) - 2 * cosf(3 * t) - cosf(4 * t);
        p->p[i] = (ts_pt){x / 17, -y / 17 - 0.1f};
    }
}

/* ---- SET ---------------------------------------------------------------- */

static const ts_bgr SET_INK[2][3] = {
    {{40, 30, 215}, {70, 150, 10}, {120, 30, 95}},  /* classic: red, green, purple */
    {{45, 35, 210}, {60, 160, 30}, {190, 80, 20}}}; /* SeeCards: red, green, blue */

static int draw_set(canvas *cv, int idx, ts_set_deck deck, float W, float H)
{
    int num = ts_set_attr(idx, TS_SET_NUM) + 1, col = ts_set_attr(idx, TS_SET_COLOUR);
    int shp = ts_set_attr(idx, TS_SET_SHAPE), shd = ts_set_attr(idx, TS_SET_SHADING);
    ts_bgr ink = jitter(cv, SET_INK[deck][col], 12);
    float sw = W * 0.64f, sh = H * 0.19f, gap = H * 0.25f;
    float line = 0.55f * (float)rng_range(cv->rng, 0.8, 1.25);
    float tilt = (float)rng_gauss(cv->rng) * 0.01f;
    for (int k = 0; k < num; k++) {
        poly p;
        if (deck == TS_DECK_CLASSIC) {
            if (shp == 0)
                shape_diamond(&p);
            else if (shp == 1)
                shape_oval(&p, sw / sh);
            else
                shape_wave(&p, 0.35f, 0.25f);
        } else {
            if (shp == 0)
                shape_hexagon(&p);
            else if (shp == 1)
                shape_leaf(&p);
            else
                shape_wave(&p, 0.5f, 0.45f);
        }
        place(&p, W / 2, H / 2 + (k - (num - 1) / 2.0f) * gap, sw, sh, tilt, cv);
        int rc = 0;
        if (shd == 0)
            rc = fill(cv, &p, ink);
        else if (shd == 1)
            rc = stripes(cv, &p, ink, 1.0f, 0.22f) || outline(cv, &p, ink, line);
        else if (deck == TS_DECK_SEECARDS)
            rc = dashes(cv, &p, ink, line * 1.2f, 1.2f);
        else
            rc = outline(cv, &p, ink, line);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- Qwirkle Cards -------------------------------------------------------- */

static const ts_bgr QW_INK[6] = {{40, 40, 210},  {20, 130, 240}, {30, 210, 240},
                                 {60, 160, 40},  {200, 110, 20}, {150, 50, 120}};

static int qwirkle_symbol(canvas *cv, int shape, ts_bgr ink, float cx, float cy, float size)
{
    poly p;
    switch (shape) {
    case 0: /* circle */
        shape_circle(&p, 64);
        place(&p, cx, cy, size * 0.8f, size * 0.8f, 0, cv);
        return fill(cv, &p, ink);
    case 1: /* criss-cross: two crossed bars */
        for (int k = 0; k < 2; k++) {
            const ts_pt bar[4] = {{-1, -0.22f}, {1, -0.22f}, {1, 0.22f}, {-1, 0.22f}};
            p.n = 4;
            memcpy(p.p, bar, sizeof bar);
            place(&p, cx, cy, size, size, (float)(PI / 4 + k * PI / 2), cv);
            if (fill(cv, &p, ink))
                return -1;
        }
        return 0;
    case 2:
        shape_diamond(&p);
        place(&p, cx, cy, size * 0.75f, size, 0, cv);
        return fill(cv, &p, ink);
    case 3:
        shape_square(&p);
        place(&p, cx, cy, size, size, 0, cv);
        return fill(cv, &p, ink);
    case 4: /* eight-point starburst */
        shape_star(&p, 8, 0.5f);
        place(&p, cx, cy, size, size, 0, cv);
        return fill(cv, &p, ink);
    default: /* clover: four lobes around a centre */
        for (int k = 0; k < 4; k++) {
            shape_circle(&p, 40);
            float a = (float)(PI / 2 * k);
            place(&p, cx + cosf(a) * size * 0.22f, cy + sinf(a) * size * 0.22f, size * 0.46f,
                  size * 0.46f, 0, cv);
            if (fill(cv, &p, ink))
                return -1;
        }
        return 0;
    }
}

static int draw_qwirkle(canvas *cv, int idx, float W, float H)
{
    ts_bgr ink = jitter(cv, QW_INK[idx / 6], 10);
    int shape = idx % 6;
    if (qwirkle_symbol(cv, shape, ink, W / 2, H / 2, W * 0.6f))
        return -1;
    /* Corner indices, as the cards print them. */
    return qwirkle_symbol(cv, shape, ink, W * 0.16f, H * 0.11f, W * 0.16f) ||
           qwirkle_symbol(cv, shape, ink, W * 0.84f, H * 0.89f, W * 0.16f);
}

/* ---- Text ----------------------------------------------------------------- */

/* Text centred at (cx, cy) mm with cap height h mm. */
static int text(canvas *cv, const char *s, float cx, float cy, float h, ts_bgr c, float weight)
{
    int tw, th;
    double scale = h * cv->s / 22.0; /* Hershey simplex caps are ~22 px at scale 1 */
    int thick = (int)lroundf(weight * cv->s);
    thick = thick < 1 ? 1 : thick;
    tscv_text_size(s, scale, thick, &tw, &th);
    return tscv_text(cv->img, cx * cv->s - tw / 2.0f, cy * cv->s + th / 2.0f, s, scale, c, thick,
                     cv->err);
}

/* ---- Gang of Four ---------------------------------------------------------- */

static const ts_bgr GOF_INK[3] = {{60, 150, 30}, {20, 180, 230}, {40, 40, 200}};

static int draw_gof(canvas *cv, int idx, float W, float H)
{
    char num[8];
    if (idx < 30) {
        ts_bgr ink = jitter(cv, GOF_INK[idx / 10], 10);
        snprintf(num, sizeof num, "%d", idx % 10 + 1);
        return text(cv, num, W / 2, H / 2, H * 0.32f, ink, 2.2f) ||
               text(cv, num, W * 0.15f, H * 0.1f, H * 0.08f, ink, 0.7f) ||
               text(cv, num, W * 0.85f, H * 0.9f, H * 0.08f, ink, 0.7f);
    }
    if (idx == 60) { /* the multicoloured 1: a 1 in three colours */
        for (int c = 0; c < 3; c++)
            if (text(cv, "1", W / 2 + (c - 1) * W * 0.18f, H / 2, H * 0.3f, GOF_INK[c], 2.2f))
                return -1;
        return text(cv, "1", W * 0.15f, H * 0.1f, H * 0.08f, (ts_bgr){30, 30, 30}, 0.7f);
    }
    /* Phoenixes and the dragon: a bird or serpent silhouette and a letter. */
    ts_bgr ink = idx == 61 ? GOF_INK[0] : idx == 62 ? GOF_INK[1] : GOF_INK[2];
    poly p;
    shape_star(&p, idx == 63 ? 5 : 3, 0.35f);
    place(&p, W / 2, H * 0.45f, W * 0.7f, H * 0.45f, 0, cv);
    return fill(cv, &p, ink) ||
           text(cv, idx == 63 ? "D" : "P", W / 2, H * 0.82f, H * 0.1f, ink, 1.2f);
}

/* ---- Chinese domino cards --------------------------------------------------- */

/* Pip positions of a die face in a unit square. */
static int pips(int n, ts_pt out[6])
{
    static const ts_pt P[7][6] = {{{0}},
                                  {{0.5f, 0.5f}},
                                  {{0.25f, 0.25f}, {0.75f, 0.75f}},
                                  {{0.2f, 0.2f}, {0.5f, 0.5f}, {0.8f, 0.8f}},
                                  {{0.25f, 0.25f}, {0.75f, 0.25f}, {0.25f, 0.75f}, {0.75f, 0.75f}},
                                  {{0.2f, 0.2f}, {0.8f, 0.2f}, {0.5f, 0.5f}, {0.2f, 0.8f}, {0.8f, 0.8f}},
                                  {{0.25f, 0.18f}, {0.75f, 0.18f}, {0.25f, 0.5f}, {0.75f, 0.5f},
                                   {0.25f, 0.82f}, {0.75f, 0.82f}}};
    memcpy(out, P[n], sizeof(ts_pt) * (size_t)n);
    return n;
}

static int draw_domino(canvas *cv, int idx, float W, float H)
{
    int lo, hi;
    ts_domino_pips(idx, &lo, &hi);
    const ts_bgr red = jitter(cv, (ts_bgr){40, 30, 200}, 8), black = jitter(cv, (ts_bgr){30, 30, 30}, 6);
    for (int end = 0; end < 2; end++) {
        int n = end ? hi : lo;
        ts_pt at[6];
        pips(n, at);
        float top = end ? H * 0.55f : H * 0.06f, side = W * 0.9f;
        for (int i = 0; i < n; i++) {
            /* 1s and 4s are red; on 6:6 one end's pips are red. */
            int is_red = n == 1 || n == 4 || (lo == 6 && hi == 6 && end == 0);
            poly p;
            shape_circle(&p, 24);
            float r = n == 1 ? 0.3f : 0.17f;
            place(&p, W * 0.05f + at[i].x * side, top + at[i].y * side, W * r, W * r, 0, cv);
            if (fill(cv, &p, is_red ? red : black))
                return -1;
        }
    }
    return 0;
}

/* ---- Playing cards ------------------------------------------------------------ */

static void suit_poly(poly *p, int suit)
{
    if (suit == 2) { /* hearts */
        shape_heart(p);
    } else if (suit == 1) { /* diamonds */
        shape_diamond(p);
        for (int i = 0; i < 4; i++)
            p->p[i].x *= 0.75f;
    } else if (suit == 3) { /* spades: an upturned heart on a stem */
        shape_heart(p);
        for (int i = 0; i < p->n; i++)
            p->p[i].y = -p->p[i].y - 0.15f;
        p->p[p->n++] = (ts_pt){0.1f, 0.7f};
        p->p[p->n++] = (ts_pt){0.3f, 1.0f};
        p->p[p->n++] = (ts_pt){-0.3f, 1.0f};
        p->p[p->n++] = (ts_pt){-0.1f, 0.7f};
    } else { /* clubs: a three-lobed star on a stem */
        shape_star(p, 3, 0.75f);
        for (int i = 0; i < p->n; i++)
            p->p[i].y -= 0.1f;
        p->p[p->n++] = (ts_pt){0.3f, 1.0f};
        p->p[p->n++] = (ts_pt){-0.3f, 1.0f};
    }
}

static int draw_playing(canvas *cv, int idx, float W, float H)
{
    static const char *RANKS[13] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
    int rank = idx % 13, suit = idx / 13;
    ts_bgr ink = jitter(cv, suit == 1 || suit == 2 ? (ts_bgr){40, 30, 190} : (ts_bgr){25, 25, 25}, 6);
    poly p;
    /* Corner indices: rank over a small suit, top-left and bottom-right. */
    for (int corner = 0; corner < 2; corner++) {
        float cx = corner ? W * 0.88f : W * 0.12f, cy = corner ? H * 0.86f : H * 0.08f;
        if (text(cv, RANKS[rank], cx, cy, H * 0.07f, ink, 0.6f))
            return -1;
        suit_poly(&p, suit);
        place(&p, cx, cy + H * 0.08f, W * 0.09f, W * 0.09f, 0, cv);
        if (fill(cv, &p, ink))
            return -1;
    }
    if (rank >= 10) { /* court cards: a frame, the letter and the suit */
        const ts_pt fr[4] = {{W * 0.22f * cv->s, H * 0.16f * cv->s}, {W * 0.78f * cv->s, H * 0.16f * cv->s},
                             {W * 0.78f * cv->s, H * 0.84f * cv->s}, {W * 0.22f * cv->s, H * 0.84f * cv->s}};
        if (tscv_polyline(cv->img, fr, 4, 1, ink, (int)(0.5f * cv->s) + 1, cv->err) < 0 ||
            text(cv, RANKS[rank], W / 2, H * 0.4f, H * 0.2f, ink, 1.5f))
            return -1;
        suit_poly(&p, suit);
        place(&p, W / 2, H * 0.65f, W * 0.25f, W * 0.25f, 0, cv);
        return fill(cv, &p, ink);
    }
    /* Pips in two or three columns, as the standard layouts. */
    int n = rank + 1;
    static const float COLS3[] = {0.3f, 0.5f, 0.7f};
    for (int i = 0; i < n; i++) {
        float x, y;
        if (n == 1) {
            x = 0.5f;
            y = 0.5f;
        } else if (n <= 3) {
            x = 0.5f;
            y = 0.25f + 0.5f * i / (n - 1);
        } else {
            int side = n - (n % 2 ? 1 : 0); /* pips in the two outer columns */
            if (i < side) {
                int rows = side / 2;
                x = COLS3[i % 2 ? 2 : 0];
                y = 0.22f + 0.56f * (i / 2) / (rows > 1 ? rows - 1 : 1);
            } else {
                x = COLS3[1];
                y = 0.5f;
            }
        }
        suit_poly(&p, suit);
        float sz = n == 1 ? 0.4f : 0.16f;
        place(&p, W * x, H * y, W * sz, W * sz, 0, cv);
        if (fill(cv, &p, ink))
            return -1;
    }
    return 0;
}

/* ---- Faces ------------------------------------------------------------------ */

void ts_render_card_size(ts_family fam, float *w, float *h)
{
    switch (fam) {
    case TS_FAM_PLAYING: *w = 63; *h = 88; break;
    case TS_FAM_DOMINO: *w = 25; *h = 80; break;
    case TS_FAM_GOF: *w = 56; *h = 87; break;
    default: *w = 57; *h = 89; break;
    }
}

int ts_render_face(ts_code code, ts_set_deck deck, float px_per_mm, uint64_t *rng, ts_image *face,
                   ts_image *alpha, char *err)
{
    float W, H;
    ts_render_card_size((ts_family)code.family, &W, &H);
    int w = (int)lroundf(W * px_per_mm), h = (int)lroundf(H * px_per_mm);
    if (ts_image_alloc(face, w, h, 3) < 0 || ts_image_alloc(alpha, w, h, 1) < 0) {
        ts_image_free(face);
        snprintf(err, TSCV_ERR_MAX, "render: out of memory for a %dx%d face", w, h);
        return -1;
    }
    /* Card stock: white with a slight tint, a faint gradient of the print. */
    int base = (int)rng_range(rng, 232, 250);
    int tint[3] = {base + rng_int(rng, 6) - 4, base + rng_int(rng, 5) - 2, base};
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(face, y);
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++)
                o[3 * x + c] = (uint8_t)(tint[c] > 255 ? 255 : tint[c]);
    }
    /* Rounded corners in the alpha; worn edges: a few nicks where the stock
     * shows grey through the edge. */
    float r = 3.2f * px_per_mm;
    for (int y = 0; y < h; y++) {
        uint8_t *a = ts_image_row(alpha, y);
        for (int x = 0; x < w; x++) {
            float dx = fmaxf(0, fmaxf(r - x, x - (w - 1 - r))), dy = fmaxf(0, fmaxf(r - y, y - (h - 1 - r)));
            float d = hypotf(dx, dy) - r; /* > 0 outside the rounded rectangle */
            float v = 0.5f - d;
            a[x] = (uint8_t)(v <= 0 ? 0 : v >= 1 ? 255 : v * 255);
        }
    }
    int nicks = rng_int(rng, 6);
    for (int k = 0; k < nicks; k++) {
        int along = rng_int(rng, 2 * (w + h)), len = 1 + (int)(px_per_mm * rng_range(rng, 1, 4));
        for (int t = 0; t < len; t++) {
            int p = along + t, x, y;
            if (p < w) { x = p; y = 0; }
            else if (p < w + h) { x = w - 1; y = p - w; }
            else if (p < 2 * w + h) { x = 2 * w + h - 1 - p; y = h - 1; }
            else { x = 0; y = 2 * (w + h) - 1 - p; }
            if (x < 0 || y < 0 || x >= w || y >= h)
                continue;
            uint8_t *o = ts_image_row(face, y) + 3 * x;
            for (int c = 0; c < 3; c++)
                o[c] = (uint8_t)(o[c] * 0.8f);
        }
    }
    canvas cv = {face, px_per_mm, rng, err};
    int rc;
    switch ((ts_family)code.family) {
    case TS_FAM_SET: rc = draw_set(&cv, code.idx, deck, W, H); break;
    case TS_FAM_QWIRKLE: rc = draw_qwirkle(&cv, code.idx, W, H); break;
    case TS_FAM_GOF: rc = draw_gof(&cv, code.idx, W, H); break;
    case TS_FAM_DOMINO: rc = draw_domino(&cv, code.idx, W, H); break;
    case TS_FAM_PLAYING: rc = draw_playing(&cv, code.idx, W, H); break;
    default:
        snprintf(err, TSCV_ERR_MAX, "render: unknown card family");
        rc = -1;
    }
    if (rc) {
        ts_image_free(face);
        ts_image_free(alpha);
        return -1;
    }
    return 0;
}
