/* Procedural table surfaces (see texture.h). Each is a base colour shaped by
 * a few noise fields at the scales that matter: fibres and weave (under a
 * millimetre), grain and flecks (millimetres), folds and planks (tens of
 * centimetres). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"
#include "rng.h"
#include "texture.h"

static const char *NAMES[TS_TABLE_COUNT] = {"dark cloth", "desk",   "wood",         "felt",
                                            "cloth",      "carpet", "printed cloth"};

ts_table_kind ts_table_pick(uint64_t *rng)
{
    static const float W[TS_TABLE_COUNT] = {24, 14, 22, 10, 10, 8, 12};
    return (ts_table_kind)rng_pick(rng, W, TS_TABLE_COUNT);
}

const char *ts_table_name(ts_table_kind k)
{
    return k < TS_TABLE_COUNT ? NAMES[k] : "?";
}

float ts_table_gloss(ts_table_kind k)
{
    static const float G[TS_TABLE_COUNT] = {0.05f, 0.7f, 0.45f, 0.0f, 0.05f, 0.0f, 0.25f};
    return k < TS_TABLE_COUNT ? G[k] : 0;
}

/* ---- Noise fields -------------------------------------------------------- */

/* A smooth random field (grey, w x h, mean 128, spread about +-45) with
 * features cell_x by cell_y pixels: random cells enlarged and softened. */
static int noise(ts_image *out, int w, int h, float cell_x, float cell_y, uint64_t *rng, char *err)
{
    cell_x = cell_x < 1 ? 1 : cell_x;
    cell_y = cell_y < 1 ? 1 : cell_y;
    int gw = (int)(w / cell_x) + 3, gh = (int)(h / cell_y) + 3;
    ts_image grid;
    if (ts_image_alloc(&grid, gw, gh, 1) < 0) {
        snprintf(err, TSCV_ERR_MAX, "render: out of memory");
        return -1;
    }
    for (int i = 0; i < gw * gh; i++)
        grid.buf[i] = (uint8_t)rng_int(rng, 256);
    /* Enlarge in two steps, softening at eight samples per cell, so big
     * cells stay cheap and show no creases from linear interpolation. */
    ts_image mid = {0};
    int rc;
    if (fminf(cell_x, cell_y) > 8) {
        rc = tscv_resize(&grid, &mid, gw * 8, gh * 8, err);
        if (rc == 0)
            rc = tscv_blur(&mid, &mid, 8 / 2.5, err);
        if (rc == 0)
            rc = tscv_resize(&mid, out, w, h, err);
        ts_image_free(&mid);
    } else {
        rc = tscv_resize(&grid, out, w, h, err);
        float soft = fminf(cell_x, cell_y) / 2.5f;
        if (rc == 0 && soft >= 0.8f)
            rc = tscv_blur(out, out, soft, err);
    }
    ts_image_free(&grid);
    if (rc < 0)
        return -1;
    /* stretch to a known spread: blurring the cells flattened them */
    double sum = 0, sq = 0;
    long n = 0;
    for (int y = 0; y < h; y += 3)
        for (int x = 0; x < w; x += 3, n++) {
            double v = ts_image_row(out, y)[x];
            sum += v;
            sq += v * v;
        }
    double mean = sum / n, sd = sqrt(fmax(sq / n - mean * mean, 1e-6));
    uint8_t lut[256];
    for (int v = 0; v < 256; v++) {
        double s = 128 + (v - mean) / sd * 45;
        lut[v] = (uint8_t)(s < 0 ? 0 : s > 255 ? 255 : s);
    }
    for (int y = 0; y < h; y++) {
        uint8_t *r = ts_image_row(out, y);
        for (int x = 0; x < w; x++)
            r[x] = lut[r[x]];
    }
    return 0;
}

/* Field value as about -1..1. */
static inline float nv(const ts_image *f, int x, int y)
{
    return (ts_image_row(f, y)[x] - 128) * (1.0f / 45.0f);
}

/* ---- Surfaces ------------------------------------------------------------ */

typedef struct {
    float base[3];   /* B, G, R */
    float second[3]; /* a second colour (printed cloth, carpet flecks, plank shift) */
} palette;

static void pick_palette(ts_table_kind kind, uint64_t *rng, palette *p)
{
    static const float DARK[5][3] = {
        {20, 20, 22}, {38, 24, 18}, {30, 30, 32}, {18, 24, 34}, {40, 38, 36}};
    static const float DESK[5][3] = {
        {22, 22, 24}, {50, 50, 52}, {95, 98, 100}, {200, 204, 206}, {60, 75, 95}};
    static const float WOOD[5][3] = {
        {28, 42, 66}, {40, 70, 115}, {70, 115, 165}, {110, 160, 205}, {35, 50, 95}};
    static const float FELT[5][3] = {
        {40, 95, 25}, {35, 80, 20}, {105, 55, 15}, {40, 30, 115}, {45, 25, 70}};
    static const float CLOTH[6][3] = {{190, 200, 205}, {150, 170, 185}, {120, 95, 60},
                                      {70, 70, 75},    {60, 100, 150},  {110, 60, 45}};
    static const float CARPET[4][3] = {{60, 70, 85}, {45, 55, 90}, {90, 90, 95}, {70, 55, 45}};
    static const float PRINT[5][3] = {
        {50, 50, 200}, {160, 90, 30}, {60, 130, 40}, {40, 160, 220}, {60, 60, 60}};
    const float(*t)[3];
    int n;
    switch (kind) {
    case TS_TABLE_DARK_CLOTH:
        t = DARK;
        n = 5;
        break;
    case TS_TABLE_DESK:
        t = DESK;
        n = 5;
        break;
    case TS_TABLE_WOOD:
        t = WOOD;
        n = 5;
        break;
    case TS_TABLE_FELT:
        t = FELT;
        n = 5;
        break;
    case TS_TABLE_CLOTH:
        t = CLOTH;
        n = 6;
        break;
    case TS_TABLE_CARPET:
        t = CARPET;
        n = 4;
        break;
    default:
        t = PRINT;
        n = 5;
        break;
    }
    int i = rng_int(rng, n), j = rng_int(rng, n);
    float k = (float)rng_range(rng, 0.85, 1.15);
    for (int c = 0; c < 3; c++) {
        p->base[c] = t[i][c] * k * (float)rng_range(rng, 0.93, 1.07);
        p->second[c] = t[j][c] * (float)rng_range(rng, 0.9, 1.1);
    }
    if (kind == TS_TABLE_PRINTED) /* printed on white or cream */
        for (int c = 0; c < 3; c++)
            p->second[c] = (float)rng_range(rng, 205, 235) - (c == 0 ? 10 : 0);
}

static void put(uint8_t *o, const float c[3], float v)
{
    for (int k = 0; k < 3; k++) {
        float x = c[k] * v;
        o[k] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
    }
}

int ts_table_paint(ts_image *tex, int w, int h, ts_table_kind kind, float ppm, uint64_t *rng,
                   char *err)
{
    memset(tex, 0, sizeof *tex);
    ts_image fine = {0}, mid = {0}, coarse = {0};
    palette pal;
    pick_palette(kind, rng, &pal);
    if (ts_image_alloc(tex, w, h, 3) < 0) {
        snprintf(err, TSCV_ERR_MAX, "render: out of memory for a %dx%d table", w, h);
        return -1;
    }
    /* scales in mm, per surface: fine detail, mid detail, folds/planks */
    float fx = 0.5f, fy = 0.5f, mx = 8, my = 8, cx = 320, cy = 90; /* folds run along x */
    if (kind == TS_TABLE_WOOD) {
        fx = 40, fy = 0.9f; /* grain streaks run along the planks */
        mx = 300, my = 30;
    } else if (kind == TS_TABLE_CARPET) {
        fx = fy = 1.6f;
    } else if (kind == TS_TABLE_DESK) {
        fx = fy = 0.4f;
        mx = my = 30;
    }
    int rc = noise(&fine, w, h, fx * ppm, fy * ppm, rng, err);
    if (rc == 0)
        rc = noise(&mid, w, h, mx * ppm, my * ppm, rng, err);
    if (rc == 0)
        rc = noise(&coarse, w, h, cx * ppm, cy * ppm, rng, err);
    if (rc < 0) {
        ts_image_free(&fine);
        ts_image_free(&mid);
        ts_image_free(tex);
        return -1;
    }
    float fold = (float)rng_range(rng, 0.04, 0.22);
    float plank = (float)rng_range(rng, 90, 190) * ppm, ring = (float)rng_range(rng, 3, 9) * ppm;
    float check = (float)rng_range(rng, 8, 26) * ppm, warp = (float)rng_range(rng, 0.5, 1.0) * ppm;
    int pattern = rng_int(rng, 3); /* printed: gingham, stripes, dots */
    /* how much the fine and the mid-scale detail show, per surface */
    static const float FINE[TS_TABLE_COUNT] = {0.06f, 0.02f, 0.06f, 0.06f, 0.06f, 0.14f, 0.05f};
    static const float MID[TS_TABLE_COUNT] = {0.015f, 0.01f, 0.04f, 0.04f, 0.015f, 0.06f, 0.015f};
    float fine_amp = FINE[kind], mid_amp = MID[kind];
    float shift[64];
    for (int i = 0; i < 64; i++)
        shift[i] = (float)rng_range(rng, 0.85, 1.15);
    /* the weave is a product of a wave across and a wave along: tabulated */
    float *wave_x = malloc(sizeof(float) * (size_t)w), *wave_y = malloc(sizeof(float) * (size_t)h);
    if (!wave_x || !wave_y) {
        free(wave_x);
        free(wave_y);
        ts_image_free(&fine);
        ts_image_free(&mid);
        ts_image_free(&coarse);
        ts_image_free(tex);
        snprintf(err, TSCV_ERR_MAX, "render: out of memory");
        return -1;
    }
    for (int x = 0; x < w; x++)
        wave_x[x] = sinf((float)x * 6.2831853f / warp);
    for (int y = 0; y < h; y++)
        wave_y[y] = sinf((float)y * 6.2831853f / warp);
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(tex, y);
        for (int x = 0; x < w; x++) {
            float f = nv(&fine, x, y), m = nv(&mid, x, y), c = nv(&coarse, x, y);
            float v = 1 + f * fine_amp + m * mid_amp;
            const float *col = pal.base;
            float mix[3];
            switch (kind) {
            case TS_TABLE_DARK_CLOTH:
            case TS_TABLE_CLOTH: {
                /* folds: broad undulation, lighter along the crests */
                float crest = 1 - fminf(1, fabsf(c) * 1.2f);
                v *= 1 + c * fold * 0.6f + crest * crest * fold * 0.5f;
                v *= 1 + 0.04f * wave_x[x] * wave_y[y];
                break;
            }
            case TS_TABLE_WOOD: {
                int p = (int)floorf(y / plank);
                float in = fmodf((float)y, plank);
                float g = sinf(6.2831853f * ((float)y + m * ring * 4 + c * ring * 6) / ring);
                v *= shift[p & 63] * (0.9f + 0.1f * g * g) + f * 0.06f;
                if (in < 1.2f * ppm) /* the seam between planks */
                    v *= 0.55f;
                break;
            }
            case TS_TABLE_CARPET:
                if (f > 0.9f)
                    col = pal.second;
                break;
            case TS_TABLE_PRINTED: {
                v *= 1 + c * fold * 0.3f;
                int a = (int)floorf(x / check) & 1, b = (int)floorf(y / check) & 1;
                float dx = fmodf((float)x, check) - check / 2,
                      dy = fmodf((float)y, check) - check / 2;
                float t;          /* share of the print colour over the ground */
                if (pattern == 0) /* gingham: full where both bands cross, half where one */
                    t = (a + b) / 2.0f;
                else if (pattern == 1)
                    t = (float)a;
                else
                    t = dx * dx + dy * dy < check * check * 0.08f ? 1.0f : 0.0f;
                for (int k = 0; k < 3; k++)
                    mix[k] = pal.second[k] + (pal.base[k] - pal.second[k]) * t;
                col = mix;
                break;
            }
            case TS_TABLE_FELT:
            case TS_TABLE_DESK:
            default: v *= 1 + c * 0.05f; break;
            }
            put(o + 3 * x, col, v);
        }
    }
    /* lint and crumbs on dark cloth: a few light specks */
    if (kind == TS_TABLE_DARK_CLOTH) {
        int specks = (int)(w * h / (ppm * ppm) / 4000);
        for (int i = 0; i < specks; i++) {
            int x = rng_int(rng, w), y = rng_int(rng, h);
            uint8_t *o = ts_image_row(tex, y) + 3 * x;
            int v = 60 + rng_int(rng, 100);
            o[0] = o[1] = o[2] = (uint8_t)v;
        }
    }
    free(wave_x);
    free(wave_y);
    ts_image_free(&fine);
    ts_image_free(&mid);
    ts_image_free(&coarse);
    return 0;
}
