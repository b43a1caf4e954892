/* Card faces: the stock, its corners and wear, the printing of a deck, and
 * the drawing operations the families' faces use (see face.h, render.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "face.h"
#include "rng.h"

/* ---- Printing ------------------------------------------------------------ */

void ts_print_pick(uint64_t deck_seed, ts_print *p)
{
    uint64_t r = deck_seed ^ 0x5DEECE66Dull;
    rng_next(&r);
    p->ink_density = (float)rng_range(&r, 0.88, 1.08);
    for (int c = 0; c < 3; c++)
        p->ink_hue[c] = (float)rng_range(&r, 0.9, 1.1);
    p->line = (float)rng_range(&r, 0.85, 1.2);
    p->stripe = (float)rng_range(&r, 0.92, 1.08);
    /* White stock, from a cool blue-white to a warm cream. */
    int base = (int)rng_range(&r, 238, 252), warm = (int)rng_range(&r, -4, 7);
    p->stock = (ts_bgr){(uint8_t)(base - warm), (uint8_t)(base - warm / 3),
                        (uint8_t)(base + (warm < 0 ? warm : 0))};
    p->corner_mm = (float)rng_range(&r, 2.6, 3.6);
    p->wear = (float)(rng_unit(&r) * rng_unit(&r));
}

ts_bgr ts_ink(ts_canvas *cv, ts_bgr c)
{
    const uint8_t v[3] = {c.b, c.g, c.r};
    uint8_t o[3];
    float own = 1 + (float)rng_gauss(&cv->rng) * 0.03f;
    for (int i = 0; i < 3; i++) {
        float a = (255 - v[i]) * cv->print->ink_density * cv->print->ink_hue[i] * own;
        float x = 255 - a;
        o[i] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
    }
    return (ts_bgr){o[0], o[1], o[2]};
}

/* ---- Drawing ------------------------------------------------------------- */

void ts_poly_place(ts_poly *p, const ts_canvas *cv, float cx, float cy, float w, float h, float rot)
{
    float c = cosf(rot), s = sinf(rot);
    for (int i = 0; i < p->n; i++) {
        float x = p->p[i].x * w / 2, y = p->p[i].y * h / 2;
        p->p[i].x = (cx + x * c - y * s) * cv->s;
        p->p[i].y = (cy + x * s + y * c) * cv->s;
    }
}

static int px_width(const ts_canvas *cv, float mm)
{
    int t = (int)lroundf(mm * cv->s);
    return t < 1 ? 1 : t;
}

int ts_draw_fill(ts_canvas *cv, const ts_poly *p, ts_bgr c)
{
    return tscv_fill_poly(cv->img, p->p, p->n, c, cv->err);
}

int ts_draw_outline(ts_canvas *cv, const ts_poly *p, ts_bgr c, float width)
{
    return tscv_polyline(cv->img, p->p, p->n, 1, c, px_width(cv, width), cv->err);
}

int ts_draw_stripes(ts_canvas *cv, const ts_poly *p, ts_bgr c, float period, float width)
{
    float x0, x1, y0, y1;
    ts_poly_bounds(p, &x0, &x1, &y0, &y1);
    int bx = (int)floorf(x0), by = (int)floorf(y0);
    int bw = (int)ceilf(x1) - bx + 2, bh = (int)ceilf(y1) - by + 2;
    ts_image mask;
    if (ts_image_alloc(&mask, bw, bh, 1) < 0) {
        snprintf(cv->err, TSCV_ERR_MAX, "render: out of memory");
        return -1;
    }
    memset(mask.buf, 0, (size_t)bw * (size_t)bh);
    ts_poly q = *p;
    for (int i = 0; i < q.n; i++) {
        q.p[i].x -= (float)bx;
        q.p[i].y -= (float)by;
    }
    int rc = tscv_fill_poly(&mask, q.p, q.n, (ts_bgr){255, 255, 255}, cv->err);
    float per = period * cv->s, half = width * cv->s / 2;
    float phase = (float)rng_unit(&cv->rng) * per;
    for (int y = 0; rc == 0 && y < bh; y++) {
        int yy = by + y;
        if (yy < 0 || yy >= cv->img->h)
            continue;
        uint8_t *row = ts_image_row(cv->img, yy);
        for (int x = 0; x < bw; x++) {
            int xx = bx + x;
            uint8_t m = mask.buf[(size_t)y * (size_t)bw + (size_t)x];
            if (xx < 0 || xx >= cv->img->w || !m)
                continue;
            /* distance from the pixel centre to the nearest line centre */
            float d = fmodf((float)xx + 0.5f + phase, per);
            d = fminf(d, per - d);
            float cover = fminf(1.0f, fmaxf(0.0f, half + 0.5f - d)) * (float)m / 255.0f;
            uint8_t *o = row + 3 * xx;
            o[0] = (uint8_t)(o[0] + (c.b - o[0]) * cover);
            o[1] = (uint8_t)(o[1] + (c.g - o[1]) * cover);
            o[2] = (uint8_t)(o[2] + (c.r - o[2]) * cover);
        }
    }
    ts_image_free(&mask);
    return rc;
}

int ts_draw_dots(ts_canvas *cv, const ts_poly *p, ts_bgr c, float d, float step)
{
    float stride = step * cv->s, next = 0, walked = 0;
    for (int i = 0; i < p->n; i++) {
        ts_pt a = p->p[i], b = p->p[(i + 1) % p->n];
        float seg = hypotf(b.x - a.x, b.y - a.y);
        while (next <= walked + seg) {
            float f = seg > 0 ? (next - walked) / seg : 0;
            if (tscv_circle(cv->img, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, d * cv->s / 2, c,
                            -1, cv->err) < 0)
                return -1;
            next += stride;
        }
        walked += seg;
    }
    return 0;
}

int ts_draw_disc(ts_canvas *cv, float cx, float cy, float r, ts_bgr c)
{
    return tscv_circle(cv->img, cx * cv->s, cy * cv->s, r * cv->s, c, -1, cv->err);
}

int ts_draw_ring(ts_canvas *cv, float cx, float cy, float r, ts_bgr c, float width)
{
    return tscv_circle(cv->img, cx * cv->s, cy * cv->s, r * cv->s, c, px_width(cv, width), cv->err);
}

int ts_draw_line(ts_canvas *cv, float x0, float y0, float x1, float y1, ts_bgr c, float width)
{
    ts_pt l[2] = {{x0 * cv->s, y0 * cv->s}, {x1 * cv->s, y1 * cv->s}};
    return tscv_polyline(cv->img, l, 2, 0, c, px_width(cv, width), cv->err);
}

int ts_draw_round_rect(ts_canvas *cv, float x0, float y0, float x1, float y1, float r, ts_bgr c,
                       float width)
{
    ts_poly p = {0};
    const float cx[4] = {x1 - r, x1 - r, x0 + r, x0 + r}, cy[4] = {y0 + r, y1 - r, y1 - r, y0 + r};
    for (int q = 0; q < 4; q++)
        for (int i = 0; i <= 8; i++) {
            float a = (float)(M_PI / 2 * (q - 1 + i / 8.0));
            p.p[p.n++] = (ts_pt){(cx[q] + r * cosf(a)) * cv->s, (cy[q] + r * sinf(a)) * cv->s};
        }
    return width > 0 ? ts_draw_outline(cv, &p, c, width) : ts_draw_fill(cv, &p, c);
}

int ts_draw_text(ts_canvas *cv, const char *s, float cx, float cy, float h, ts_bgr c, float weight,
                 tscv_font font)
{
    int tw, th;
    tscv_text_font_size(s, font, 1.0, 1, &tw, &th);
    double scale = h * cv->s / (th > 0 ? th : 22);
    int thick = px_width(cv, weight);
    tscv_text_font_size(s, font, scale, thick, &tw, &th);
    return tscv_text_font(cv->img, cx * cv->s - tw / 2.0f, cy * cv->s + th / 2.0f, s, font, scale,
                          c, thick, cv->err);
}

void ts_draw_mirror_corner(ts_canvas *cv, float x, float y, float w, float h)
{
    ts_image *img = cv->img;
    int x0 = (int)(x * cv->s), y0 = (int)(y * cv->s), x1 = (int)((x + w) * cv->s),
        y1 = (int)((y + h) * cv->s);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > img->w ? img->w : x1;
    y1 = y1 > img->h / 2 ? img->h / 2 : y1; /* never reach into the target */
    for (int yy = y0; yy < y1; yy++) {
        const uint8_t *src = ts_image_row(img, yy);
        uint8_t *dst = ts_image_row(img, img->h - 1 - yy);
        for (int xx = x0; xx < x1; xx++)
            memcpy(dst + 3 * (img->w - 1 - xx), src + 3 * xx, 3);
    }
}

/* ---- Stock, corners, wear ------------------------------------------------ */

void ts_render_card_size(ts_family fam, float *w, float *h)
{
    switch (fam) {
    case TS_FAM_PLAYING:
        *w = 63;
        *h = 88;
        break;
    case TS_FAM_DOMINO:
        *w = 26;
        *h = 82;
        break;
    case TS_FAM_GOF:
        *w = 56;
        *h = 87;
        break;
    case TS_FAM_QWIRKLE:
        *w = 57;
        *h = 87;
        break;
    default:
        *w = 57;
        *h = 89;
        break; /* SET */
    }
}

/* The card stock with a faint uneven tone, and its outline as alpha: rounded
 * corners, and a worn edge that has gone a little grey. */
static void lay_stock(ts_canvas *cv, ts_image *alpha, ts_family fam)
{
    ts_image *img = cv->img;
    const ts_print *pr = cv->print;
    int w = img->w, h = img->h;
    float r = (fam == TS_FAM_DOMINO ? 0.7f : 1.0f) * pr->corner_mm * cv->s;
    float grey_edge = (0.25f + 0.5f * pr->wear) * cv->s; /* width of the greyed rim, px */
    float edge_dark = 0.03f + 0.12f * pr->wear;
    float gx = (float)rng_range(&cv->rng, -0.015, 0.015),
          gy = (float)rng_range(&cv->rng, -0.015, 0.015);
    const float base[3] = {pr->stock.b, pr->stock.g, pr->stock.r};
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(img, y), *a = ts_image_row(alpha, y);
        for (int x = 0; x < w; x++) {
            float dx = fmaxf(0, fmaxf(r - x, x - (w - 1 - r)));
            float dy = fmaxf(0, fmaxf(r - y, y - (h - 1 - r)));
            /* > 0 outside the rounded rectangle */
            float d = (dx > 0 && dy > 0) ? hypotf(dx, dy) - r : fmaxf(dx, dy) - r;
            float inside = -d; /* distance in from the edge (near corners) */
            float edge =
                fminf(fminf((float)x, (float)(w - 1 - x)), fminf((float)y, (float)(h - 1 - y)));
            if (dx > 0 && dy > 0)
                edge = inside;
            float shade = 1 + gx * (x - w / 2.0f) / w + gy * (y - h / 2.0f) / h;
            if (edge < grey_edge)
                shade *= 1 - edge_dark * (1 - edge / grey_edge);
            for (int c = 0; c < 3; c++) {
                float v = base[c] * shade;
                o[3 * x + c] = (uint8_t)(v > 255 ? 255 : v);
            }
            float al = 0.5f - d;
            a[x] = (uint8_t)(al <= 0 ? 0 : al >= 1 ? 255 : al * 255);
        }
    }
    /* Nicks: short stretches of edge chipped away (alpha) on a worn card. */
    int nicks = (int)(pr->wear * 8 * rng_unit(&cv->rng));
    for (int k = 0; k < nicks; k++) {
        int along = rng_int(&cv->rng, 2 * (w + h));
        int len = 1 + (int)(cv->s * rng_range(&cv->rng, 0.5, 3));
        int depth = 1 + (int)(cv->s * rng_range(&cv->rng, 0.1, 0.4));
        for (int t = 0; t < len; t++)
            for (int d = 0; d < depth; d++) {
                int p = along + t, x, y;
                if (p < w) {
                    x = p;
                    y = d;
                } else if (p < w + h) {
                    x = w - 1 - d;
                    y = p - w;
                } else if (p < 2 * w + h) {
                    x = 2 * w + h - 1 - p;
                    y = h - 1 - d;
                } else {
                    x = d;
                    y = 2 * (w + h) - 1 - p;
                }
                if (x >= 0 && y >= 0 && x < w && y < h)
                    ts_image_row(alpha, y)[x] = (uint8_t)(ts_image_row(alpha, y)[x] / 3);
            }
    }
}

/* Grime a used card picks up: faint grey smudges. */
static void smudge(ts_canvas *cv)
{
    int n = (int)(cv->print->wear * 4 * rng_unit(&cv->rng));
    for (int k = 0; k < n; k++) {
        float cx = (float)rng_range(&cv->rng, 0, cv->w), cy = (float)rng_range(&cv->rng, 0, cv->h);
        float rad = (float)rng_range(&cv->rng, 3, 12) * cv->s,
              dark = (float)rng_range(&cv->rng, 0.02, 0.06);
        int x0 = (int)(cx * cv->s - rad), x1 = (int)(cx * cv->s + rad);
        int y0 = (int)(cy * cv->s - rad), y1 = (int)(cy * cv->s + rad);
        for (int y = y0 < 0 ? 0 : y0; y < y1 && y < cv->img->h; y++) {
            uint8_t *o = ts_image_row(cv->img, y);
            for (int x = x0 < 0 ? 0 : x0; x < x1 && x < cv->img->w; x++) {
                float dx = x - cx * cv->s, dy = y - cy * cv->s,
                      q = (dx * dx + dy * dy) / (rad * rad);
                if (q >= 1)
                    continue;
                float f = 1 - dark * (1 - q) * (1 - q);
                for (int c = 0; c < 3; c++)
                    o[3 * x + c] = (uint8_t)(o[3 * x + c] * f);
            }
        }
    }
}

int ts_render_face(ts_code code, ts_set_deck deck, float px_per_mm, uint64_t deck_seed,
                   uint64_t card_seed, ts_image *face, ts_image *alpha, char *err)
{
    memset(face, 0, sizeof *face);
    memset(alpha, 0, sizeof *alpha);
    if (code.family >= TS_FAM_COUNT || code.idx >= ts_family_size((ts_family)code.family) ||
        !(px_per_mm >= 1 && px_per_mm <= 40)) {
        snprintf(err, TSCV_ERR_MAX, "render: no such card or scale (family %d, index %d)",
                 code.family, code.idx);
        return -1;
    }
    float W, H;
    ts_render_card_size((ts_family)code.family, &W, &H);
    int w = (int)lroundf(W * px_per_mm), h = (int)lroundf(H * px_per_mm);
    if (ts_image_alloc(face, w, h, 3) < 0 || ts_image_alloc(alpha, w, h, 1) < 0) {
        ts_image_free(face);
        snprintf(err, TSCV_ERR_MAX, "render: out of memory for a %dx%d face", w, h);
        return -1;
    }
    ts_print print;
    ts_print_pick(deck_seed, &print);
    ts_canvas cv = {face, px_per_mm, W, H, &print, card_seed * 0x9E3779B97F4A7C15ull + 11, err};
    lay_stock(&cv, alpha, (ts_family)code.family);
    int rc;
    switch ((ts_family)code.family) {
    case TS_FAM_SET: rc = ts_face_set(&cv, code.idx, deck); break;
    case TS_FAM_QWIRKLE: rc = ts_face_qwirkle(&cv, code.idx); break;
    case TS_FAM_GOF: rc = ts_face_gof(&cv, code.idx); break;
    case TS_FAM_DOMINO: rc = ts_face_domino(&cv, code.idx); break;
    default: rc = ts_face_playing(&cv, code.idx); break;
    }
    if (rc == 0)
        smudge(&cv);
    if (rc) {
        ts_image_free(face);
        ts_image_free(alpha);
        return -1;
    }
    return 0;
}
