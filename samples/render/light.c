/* The light on the table (see light.h): a lamp's colour temperature, uneven
 * fall-off, a pool of brighter light, a specular glare, the cards' soft
 * shadows and now and then the shadow of a hand. */
#include <math.h>
#include <string.h>

#include "cv/cvdraw.h"
#include "light.h"
#include "rng.h"

/* Colour of a black body at kelvin, linear B, G, R with G = 1, relative to
 * daylight (6500 K is white). Fit after Tanner Helland. */
static void kelvin_colour(float kelvin, float out[3])
{
    float bgr[2][3];
    const float ks[2] = {kelvin, 6500};
    for (int i = 0; i < 2; i++) {
        float t = ks[i] / 100;
        float r = t <= 66 ? 255 : 329.7f * powf(t - 60, -0.1332f);
        float g = t <= 66 ? 99.47f * logf(t) - 161.12f : 288.12f * powf(t - 60, -0.0755f);
        float b = t >= 66 ? 255 : t <= 19 ? 1 : 138.52f * logf(t - 10) - 305.04f;
        bgr[i][0] = powf(fmaxf(b, 1) / 255, 2.2f);
        bgr[i][1] = powf(fmaxf(g, 1) / 255, 2.2f);
        bgr[i][2] = powf(fmaxf(r, 1) / 255, 2.2f);
    }
    for (int c = 0; c < 3; c++)
        out[c] = bgr[0][c] / bgr[1][c];
    float g = out[1];
    for (int c = 0; c < 3; c++)
        out[c] /= g;
}

void ts_light_pick(ts_light *l, uint64_t *rng)
{
    memset(l, 0, sizeof *l);
    /* tungsten, warm white LED, fluorescent, daylight, overcast */
    static const float K[5] = {2700, 3200, 4100, 5500, 6800}, W[5] = {25, 25, 15, 20, 15};
    l->kelvin = K[rng_pick(rng, W, 5)] * (float)rng_range(rng, 0.92, 1.08);
    kelvin_colour(l->kelvin, l->lamp);
    if (l->kelvin > 3800 && l->kelvin < 4600) /* fluorescent tubes lean green */
        l->lamp[1] *= 1.06f;
    l->grad_x = (float)rng_range(rng, -0.45, 0.45);
    l->grad_y = (float)rng_range(rng, -0.45, 0.45);
    l->vignette = (float)rng_range(rng, 0.05, 0.5);
    if (rng_unit(rng) < 0.4) {
        l->pool_x = (float)rng_range(rng, 0.1, 0.9);
        l->pool_y = (float)rng_range(rng, 0.1, 0.9);
        l->pool_r = (float)rng_range(rng, 0.2, 0.6);
        l->pool_k = (float)rng_range(rng, 0.2, 0.8);
    }
    if (rng_unit(rng) < 0.45) {
        l->glare_x = (float)rng_range(rng, 0.1, 0.9);
        l->glare_y = (float)rng_range(rng, 0.1, 0.9);
        l->glare_rx = (float)rng_range(rng, 0.04, 0.2);
        l->glare_ry = l->glare_rx * (float)rng_range(rng, 0.4, 1.0);
        l->glare_turn = (float)rng_range(rng, 0, 3.14159);
        l->glare_k = (float)(rng_range(rng, 0.15, 1.2) * rng_range(rng, 0.3, 1.0));
    }
    l->flare = (float)rng_range(rng, 0.002, 0.02);
    l->shadow_k = (float)rng_range(rng, 0.2, 0.6);
    float a = (float)rng_range(rng, 0, 6.2832), len = (float)rng_range(rng, 0.2, 1.8);
    l->shadow_dx = cosf(a) * len;
    l->shadow_dy = sinf(a) * len;
    l->shadow_soft = (float)rng_range(rng, 0.4, 2.5);
    if (rng_unit(rng) < 0.15)
        l->occluder_k = (float)rng_range(rng, 0.25, 0.6);
}

float ts_light_at(const ts_light *l, float fx, float fy)
{
    float nx = fx - 0.5f, ny = fy - 0.5f;
    float v = (1 + l->grad_x * nx + l->grad_y * ny) * (1 - l->vignette * (nx * nx + ny * ny) * 2);
    if (l->pool_k > 0) {
        float dx = fx - l->pool_x, dy = fy - l->pool_y;
        v *= 1 + l->pool_k * expf(-(dx * dx + dy * dy) / (l->pool_r * l->pool_r));
    }
    return v > 0.05f ? v : 0.05f;
}

float ts_light_glare(const ts_light *l, float fx, float fy, float aspect)
{
    if (l->glare_k <= 0)
        return 0;
    float dx = (fx - l->glare_x) * aspect, dy = fy - l->glare_y;
    float c = cosf(l->glare_turn), s = sinf(l->glare_turn);
    float u = (dx * c + dy * s) / l->glare_rx, v = (-dx * s + dy * c) / l->glare_ry;
    float d2 = u * u + v * v;
    return d2 > 16 ? 0 : l->glare_k * expf(-d2);
}

int ts_light_occluder(const ts_light *l, ts_image *shade, uint64_t *rng, char *err)
{
    if (l->occluder_k <= 0)
        return 0;
    float w = (float)shade->w, h = (float)shade->h, s = fminf(w, h);
    /* an arm from one edge towards the middle, a hand at its end */
    int edge = rng_int(rng, 4);
    float t = (float)rng_range(rng, 0.2, 0.8);
    ts_pt from = edge == 0   ? (ts_pt){t * w, -0.1f * h}
                 : edge == 1 ? (ts_pt){1.1f * w, t * h}
                 : edge == 2 ? (ts_pt){t * w, 1.1f * h}
                             : (ts_pt){-0.1f * w, t * h};
    ts_pt to = {(float)rng_range(rng, 0.25, 0.75) * w, (float)rng_range(rng, 0.25, 0.75) * h};
    float arm = (float)rng_range(rng, 0.08, 0.16) * s;
    ts_bgr dark = {(uint8_t)(255 * (1 - l->occluder_k)), 0, 0};
    ts_pt line[2] = {from, to};
    if (tscv_polyline(shade, line, 2, 0, dark, (int)arm, err) < 0 ||
        tscv_circle(shade, to.x, to.y, arm * 0.9f, dark, -1, err) < 0)
        return -1;
    return tscv_blur(shade, shade, s * (float)rng_range(rng, 0.015, 0.05), err);
}
