/* Tables, cameras and light: lays card faces into a photograph-like scene
 * (see render.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdraw.h"
#include "cv/cvrender.h"
#include "geom.h"
#include "render.h"
#include "rng.h"

#define PI 3.14159265358979323846

/* ---- Layout --------------------------------------------------------------- */

void ts_render_layout(ts_scene_spec *spec, uint64_t *rng)
{
    float cw, ch;
    ts_render_card_size(spec->family, &cw, &ch);
    int n = spec->ncards;
    if (spec->overlap) { /* a fan, as a hand or a pile is laid down */
        float spread = (float)rng_range(rng, 0.12, 0.25);
        for (int i = 0; i < n; i++) {
            float a = (i - (n - 1) / 2.0f) * spread;
            spec->cards[i].angle = a;
            spec->cards[i].x = sinf(a) * ch * 0.9f;
            spec->cards[i].y = -cosf(a) * ch * 0.9f + ch;
        }
        return;
    }
    /* A loose grid: rows of 3 to 5, gaps of a few millimetres, small turns. */
    int cols = n <= 4 ? n : n <= 9 ? 3 : n <= 16 ? 4 : 5;
    if (spec->family == TS_FAM_DOMINO)
        cols = n < 7 ? n : 7;
    float gx = (float)rng_range(rng, 4, 14), gy = (float)rng_range(rng, 4, 14);
    for (int i = 0; i < n; i++) {
        int r = i / cols, c = i % cols;
        spec->cards[i].x = c * (cw + gx) + (float)rng_gauss(rng) * 1.5f;
        spec->cards[i].y = r * (ch + gy) + (float)rng_gauss(rng) * 1.5f;
        spec->cards[i].angle = (float)(rng_gauss(rng) * 0.06);
    }
}

/* ---- Tables --------------------------------------------------------------- */

/* Smooth value noise in [0, 1): random cells upsampled. */
static int value_noise(ts_image *out, int w, int h, int cells_x, uint64_t *rng, char *err)
{
    int cy = cells_x * h / w + 2;
    ts_image small;
    if (ts_image_alloc(&small, cells_x + 2, cy, 1) < 0)
        return -1;
    for (int i = 0; i < small.w * small.h; i++)
        small.buf[i] = (uint8_t)rng_int(rng, 256);
    int rc = tscv_resize(&small, out, w, h, err);
    ts_image_free(&small);
    return rc;
}

typedef enum { T_DARK_CLOTH, T_WOOD, T_FELT, T_CARPET, T_PRINTED, T_WHITE, T_COUNT } table_kind;

static int paint_table(ts_image *img, table_kind kind, uint64_t *rng, char *err)
{
    int w = img->w, h = img->h;
    ts_image coarse = {0}, fine = {0};
    if (value_noise(&coarse, w, h, 8, rng, err) < 0 || value_noise(&fine, w, h, w / 3, rng, err) < 0) {
        ts_image_free(&coarse);
        return -1;
    }
    static const float BASE[T_COUNT][3] = {
        {28, 26, 30}, {60, 100, 150}, {50, 110, 40}, {80, 75, 95}, {200, 200, 215}, {205, 205, 200}};
    float base[3];
    for (int c = 0; c < 3; c++)
        base[c] = BASE[kind][c] * (float)rng_range(rng, 0.8, 1.2);
    float grain = (float)rng_range(rng, 0.01, 0.03), phase = (float)rng_range(rng, 0, 6);
    int check = (int)rng_range(rng, 20, 60);
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(img, y);
        const uint8_t *cn = ts_image_row(&coarse, y), *fn = ts_image_row(&fine, y);
        for (int x = 0; x < w; x++) {
            float v = 1 + (cn[x] - 128) / 600.0f + (fn[x] - 128) / 900.0f;
            switch (kind) {
            case T_WOOD: /* grain: stretched rings, bent by noise */
                v *= 0.85f + 0.15f * sinf(y * grain * 6 + cn[x] / 20.0f + phase) +
                     (fn[x] - 128) / 500.0f;
                break;
            case T_CARPET:
                v = 1 + (fn[x] - 128) / 250.0f;
                break;
            case T_PRINTED: /* gingham */
                v *= ((x / check + y / check) % 2) ? 1.0f : 0.72f;
                break;
            case T_DARK_CLOTH: /* weave */
                v *= 1 + 0.08f * (((x + y) % 4) < 2 ? 1 : -1) + (fn[x] - 128) / 300.0f;
                break;
            default:
                break;
            }
            for (int c = 0; c < 3; c++) {
                float p = base[c] * v;
                o[3 * x + c] = (uint8_t)(p < 0 ? 0 : p > 255 ? 255 : p);
            }
        }
    }
    ts_image_free(&coarse);
    ts_image_free(&fine);
    return 0;
}

/* ---- Camera ----------------------------------------------------------------- */

static ts_pt apply_h(const double H[9], float x, float y)
{
    double d = H[6] * x + H[7] * y + H[8];
    return (ts_pt){(float)((H[0] * x + H[1] * y + H[2]) / d), (float)((H[3] * x + H[4] * y + H[5]) / d)};
}

/* The table-to-image homography: the layout's box (plus margins) seen from
 * above with a tilt, turned and shifted a little, filling most of the frame. */
static int camera(const ts_scene_spec *spec, uint64_t *rng, double H[9], char *err)
{
    float cw, ch;
    ts_render_card_size(spec->family, &cw, &ch);
    float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
    for (int i = 0; i < spec->ncards; i++) {
        x0 = fminf(x0, spec->cards[i].x - ch / 2);
        x1 = fmaxf(x1, spec->cards[i].x + ch / 2);
        y0 = fminf(y0, spec->cards[i].y - ch / 2);
        y1 = fmaxf(y1, spec->cards[i].y + ch / 2);
    }
    if (spec->ncards == 0) {
        x0 = y0 = 0;
        x1 = 4 * cw;
        y1 = 3 * ch;
    }
    float mx = (x1 - x0) * 0.06f + 6, my = (y1 - y0) * 0.06f + 6;
    x0 -= mx, x1 += mx, y0 -= my, y1 += my;
    /* Fit the box to the frame keeping its proportions. */
    float W = (float)spec->w, Hh = (float)spec->h;
    float scale = fminf(W / (x1 - x0), Hh / (y1 - y0)) * (float)rng_range(rng, 0.75, 0.98);
    float bw = (x1 - x0) * scale, bh = (y1 - y0) * scale;
    float cx = W / 2 + (float)rng_gauss(rng) * W * 0.02f, cy = Hh / 2 + (float)rng_gauss(rng) * Hh * 0.02f;
    float tilt = (float)rng_range(rng, 0.0, 0.22); /* far edge narrower: camera not straight down */
    float rot = (float)(rng_gauss(rng) * 0.05);
    ts_pt img[4] = {{-bw / 2 * (1 - tilt), -bh / 2 * (1 - tilt * 0.3f)},
                    {bw / 2 * (1 - tilt), -bh / 2 * (1 - tilt * 0.3f)},
                    {bw / 2, bh / 2},
                    {-bw / 2, bh / 2}};
    for (int i = 0; i < 4; i++) {
        float x = img[i].x, y = img[i].y;
        img[i].x = cx + x * cosf(rot) - y * sinf(rot);
        img[i].y = cy + x * sinf(rot) + y * cosf(rot);
    }
    ts_pt tab[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return tscv_homography(tab, img, H, err);
}

/* ---- Light and sensor --------------------------------------------------------- */

static void light(ts_image *img, uint64_t *rng, uint64_t *noise_rng)
{
    /* Colour temperature: warm to cool gains; an uneven light falling off
     * from one side; a vignette; sensor noise. */
    float warm = (float)rng_range(rng, -0.18, 0.18);
    float gain[3] = {1 - warm * 0.8f, 1, 1 + warm};
    float gx = (float)rng_range(rng, -0.35, 0.35), gy = (float)rng_range(rng, -0.35, 0.35);
    float level = (float)rng_range(rng, 0.75, 1.1), vig = (float)rng_range(rng, 0.1, 0.35);
    float sigma = (float)rng_range(rng, 1.5, 5.0);
    int w = img->w, h = img->h;
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(img, y);
        float ny = (y - h / 2.0f) / h;
        for (int x = 0; x < w; x++) {
            float nx = (x - w / 2.0f) / w;
            float l = level * (1 + gx * nx + gy * ny) * (1 - vig * (nx * nx + ny * ny) * 2);
            for (int c = 0; c < 3; c++) {
                float v = o[3 * x + c] * l * gain[c] + (float)rng_gauss(noise_rng) * sigma;
                o[3 * x + c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

/* A soft glare spot, as a lamp reflected in glossy cards. */
static void glare(ts_image *img, uint64_t *rng)
{
    float cx = (float)rng_range(rng, 0.2, 0.8) * img->w, cy = (float)rng_range(rng, 0.2, 0.8) * img->h;
    float r = (float)rng_range(rng, 0.05, 0.15) * img->w, k = (float)rng_range(rng, 0.3, 0.7);
    for (int y = 0; y < img->h; y++) {
        uint8_t *o = ts_image_row(img, y);
        for (int x = 0; x < img->w; x++) {
            float d2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (r * r);
            if (d2 > 9)
                continue;
            float a = k * expf(-d2);
            for (int c = 0; c < 3; c++)
                o[3 * x + c] = (uint8_t)(o[3 * x + c] + (255 - o[3 * x + c]) * a);
        }
    }
}

/* Barrel distortion of strength k (0 = none): an output pixel at normalised
 * radius r shows the scene at r * (1 + k r^2). The cards' corners move the
 * same way (inverted by fixed-point iteration). */
static int lens(ts_image *img, float k, ts_scene *sc)
{
    if (k <= 0.001f)
        return 0;
    ts_image src;
    if (ts_image_alloc(&src, img->w, img->h, 3) < 0)
        return -1;
    memcpy(src.buf, img->buf, (size_t)img->stride * img->h);
    const float cx = img->w / 2.0f, cy = img->h / 2.0f, norm = 1.0f / (cx > cy ? cx : cy);
    for (int y = 0; y < img->h; y++) {
        uint8_t *o = ts_image_row(img, y);
        for (int x = 0; x < img->w; x++) {
            float dx = (x - cx) * norm, dy = (y - cy) * norm, f = 1 + k * (dx * dx + dy * dy);
            float sx = cx + (x - cx) * f, sy = cy + (y - cy) * f;
            int x0 = (int)floorf(sx), y0 = (int)floorf(sy);
            if (x0 < 0 || y0 < 0 || x0 >= img->w - 1 || y0 >= img->h - 1)
                continue; /* beyond the scene: keep what was there */
            float ax = sx - x0, ay = sy - y0;
            const uint8_t *a = ts_image_row(&src, y0) + 3 * x0, *b = ts_image_row(&src, y0 + 1) + 3 * x0;
            for (int c = 0; c < 3; c++)
                o[3 * x + c] = (uint8_t)((a[c] * (1 - ax) + a[3 + c] * ax) * (1 - ay) +
                                         (b[c] * (1 - ax) + b[3 + c] * ax) * ay + 0.5f);
        }
    }
    ts_image_free(&src);
    for (int i = 0; i < sc->ncards; i++)
        for (int q = 0; q < 4; q++) {
            ts_pt u = sc->cards[i].quad[q], d = u;
            for (int it = 0; it < 10; it++) {
                float dx = (d.x - cx) * norm, dy = (d.y - cy) * norm, f = 1 + k * (dx * dx + dy * dy);
                d.x = cx + (u.x - cx) / f;
                d.y = cy + (u.y - cy) / f;
            }
            sc->cards[i].quad[q] = d;
        }
    return 0;
}

/* ---- Scene --------------------------------------------------------------------- */

int ts_render_scene(const ts_scene_spec *spec, ts_scene *out, char *err)
{
    memset(out, 0, sizeof *out);
    if (spec->ncards < 0 || spec->ncards > TS_RENDER_MAX_CARDS || spec->w < 64 || spec->h < 64 ||
        spec->w > 8192 || spec->h > 8192) {
        snprintf(err, TSCV_ERR_MAX, "render: size or card count out of range");
        return -1;
    }
    uint64_t rng = spec->seed * 0x9E3779B97F4A7C15ull + 1;
    uint64_t noise = rng ^ ((uint64_t)spec->frame * 0xD1B54A32D192ED03ull + 7);
    if (ts_image_alloc(&out->img, spec->w, spec->h, 3) < 0) {
        snprintf(err, TSCV_ERR_MAX, "render: out of memory");
        return -1;
    }
    ts_image *img = &out->img;
    table_kind kind = (table_kind)rng_int(&rng, T_COUNT);
    double H[9];
    uint8_t *ids = calloc((size_t)spec->w * spec->h, 1);
    if (!ids || paint_table(img, kind, &rng, err) < 0 || camera(spec, &rng, H, err) < 0)
        goto fail;

    float cw, ch;
    ts_render_card_size(spec->family, &cw, &ch);
    /* Soft shadows under the cards, thrown away from the light. */
    ts_image shadow;
    if (ts_image_alloc(&shadow, spec->w, spec->h, 1) < 0)
        goto fail;
    memset(shadow.buf, 0, (size_t)spec->w * spec->h);
    float sdx = (float)rng_range(&rng, -4, 4), sdy = (float)rng_range(&rng, 1, 6);
    ts_pt quads[TS_RENDER_MAX_CARDS][4];
    for (int i = 0; i < spec->ncards; i++) {
        const ts_card_place *c = &spec->cards[i];
        if (c->hidden)
            continue;
        const float hx[4] = {-cw / 2, cw / 2, cw / 2, -cw / 2}, hy[4] = {-ch / 2, -ch / 2, ch / 2, ch / 2};
        for (int k = 0; k < 4; k++) {
            float x = c->x + hx[k] * cosf(c->angle) - hy[k] * sinf(c->angle);
            float y = c->y + hx[k] * sinf(c->angle) + hy[k] * cosf(c->angle);
            quads[i][k] = apply_h(H, x, y);
        }
        ts_pt sq[4];
        for (int k = 0; k < 4; k++)
            sq[k] = (ts_pt){quads[i][k].x + sdx, quads[i][k].y + sdy};
        tscv_fill_poly(&shadow, sq, 4, (ts_bgr){160, 160, 160}, NULL);
    }
    tscv_blur(&shadow, &shadow, 2.0 + spec->w / 400.0, NULL);
    for (size_t i = 0; i < (size_t)spec->w * spec->h; i++)
        for (int c = 0; c < 3; c++)
            img->buf[3 * i + c] = (uint8_t)(img->buf[3 * i + c] * (255 - shadow.buf[i] * 0.6f) / 255);
    ts_image_free(&shadow);

    /* The cards, each printed its own way (seeded by its place, so a card
     * looks the same in every frame of a sequence). */
    int n = 0;
    for (int i = 0; i < spec->ncards; i++) {
        if (spec->cards[i].hidden)
            continue;
        float side = hypotf(quads[i][2].x - quads[i][1].x, quads[i][2].y - quads[i][1].y);
        float ppm = 2.0f * side / ch; /* face drawn at twice the size it is seen */
        ppm = ppm < 2 ? 2 : ppm > 12 ? 12 : ppm;
        uint64_t frng = spec->seed * 31 + (uint64_t)i * 0x9E3779B97F4A7C15ull + spec->cards[i].code.idx;
        ts_image face, alpha;
        if (ts_render_face(spec->cards[i].code, spec->deck, ppm, &frng, &face, &alpha, err) < 0)
            goto fail;
        int rc = tscv_composite_quad(img, &face, &alpha, quads[i], ids, (uint8_t)(n + 1), err);
        ts_image_free(&face);
        ts_image_free(&alpha);
        if (rc < 0)
            goto fail;
        out->cards[n].code = spec->cards[i].code;
        memcpy(out->cards[n++].quad, quads[i], sizeof quads[i]);
    }
    out->ncards = n;

    /* Visible fraction: the card's own pixels left on top. */
    long count[TS_RENDER_MAX_CARDS + 1] = {0};
    for (size_t i = 0; i < (size_t)spec->w * spec->h; i++)
        count[ids[i]]++;
    for (int i = 0; i < out->ncards; i++) {
        double a = ts_quad_area(out->cards[i].quad);
        double v = a > 0 ? count[i + 1] / a : 0;
        out->cards[i].visible = (float)(v > 1 ? 1 : v);
    }
    /* A cheap lens bends straight edges a little (barrel distortion). */
    if (lens(img, (float)rng_range(&rng, 0.0, 0.08), out) < 0) {
        snprintf(err, TSCV_ERR_MAX, "render: out of memory");
        goto fail;
    }
    if (rng_unit(&rng) < 0.3)
        glare(img, &rng);
    light(img, &rng, &noise);
    if (tscv_blur(img, img, rng_range(&rng, 0.4, 1.1) * (spec->w / 1280.0 + 0.3), err) < 0)
        goto fail;
    out->jpeg_quality = (int)rng_range(&rng, 70, 92);

    free(ids);
    return 0;
fail:
    free(ids);
    ts_scene_free(out);
    return -1;
}

void ts_scene_free(ts_scene *s)
{
    ts_image_free(&s->img);
    s->ncards = 0;
}
