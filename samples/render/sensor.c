/* Sensor and processing (see sensor.h). Light is added in linear units and
 * encoded with the usual 2.2 gamma, so white balance and exposure scale the
 * ink and the paper alike, as they do in a real camera. */
#include <math.h>
#include <string.h>

#include "cv/cvrender.h"
#include "rng.h"
#include "sensor.h"

static const char *NAMES[3] = {"webcam", "phone", "dslr"};

const char *ts_sensor_name(ts_camera_kind k)
{
    return k <= TS_CAM_DSLR ? NAMES[k] : "?";
}

void ts_sensor_pick(ts_sensor *s, int w, int h, const ts_light *l, uint64_t *rng)
{
    memset(s, 0, sizeof *s);
    const float small[3] = {55, 30, 15}, large[3] = {20, 55, 25};
    s->kind = (ts_camera_kind)rng_pick(rng, (long)w * h <= 1280L * 720 ? small : large, 3);
    float corr;
    switch (s->kind) {
    case TS_CAM_WEBCAM:
        s->white = (float)rng_range(rng, 0.5, 0.85);
        corr = (float)rng_range(rng, 0.6, 0.95);
        s->saturation = (float)rng_range(rng, 0.85, 1.1);
        s->contrast = (float)rng_range(rng, 0, 0.15);
        s->blur = (float)rng_range(rng, 0.6, 1.4);
        s->noise = (float)rng_range(rng, 2.5, 6);
        s->chroma = (float)rng_range(rng, 0.3, 0.7);
        s->sharpen = (float)rng_range(rng, 0.2, 0.8);
        s->lens_k1 = (float)rng_range(rng, 0, 0.09);
        s->jpeg_quality = (int)rng_range(rng, 55, 86);
        if (rng_unit(rng) < 0.15)
            s->motion = (float)rng_range(rng, 2, 6);
        break;
    case TS_CAM_PHONE:
        s->white = (float)rng_range(rng, 0.6, 0.92);
        corr = (float)rng_range(rng, 0.75, 1.0);
        s->saturation = (float)rng_range(rng, 1.05, 1.35);
        s->contrast = (float)rng_range(rng, 0.05, 0.25);
        s->blur = (float)rng_range(rng, 0.35, 0.9);
        s->dof = rng_unit(rng) < 0.6 ? (float)rng_range(rng, 0.5, 3.5) : 0;
        s->noise = (float)rng_range(rng, 1, 3);
        s->chroma = (float)rng_range(rng, 0.15, 0.4);
        s->sharpen = (float)rng_range(rng, 0.2, 0.6);
        s->lens_k1 = (float)rng_range(rng, 0, 0.03);
        s->jpeg_quality = (int)rng_range(rng, 80, 96);
        if (rng_unit(rng) < 0.08)
            s->motion = (float)rng_range(rng, 2, 5);
        break;
    default:
        s->white = (float)rng_range(rng, 0.52, 0.9);
        corr = (float)rng_range(rng, 0.8, 1.0);
        s->saturation = (float)rng_range(rng, 0.95, 1.15);
        s->contrast = (float)rng_range(rng, 0, 0.15);
        s->blur = (float)rng_range(rng, 0.3, 0.7);
        s->dof = rng_unit(rng) < 0.5 ? (float)rng_range(rng, 0.5, 2.5) : 0;
        s->noise = (float)rng_range(rng, 0.5, 1.8);
        s->chroma = 0.2f;
        s->sharpen = (float)rng_range(rng, 0, 0.3);
        s->lens_k1 = (float)rng_range(rng, 0, 0.02);
        s->jpeg_quality = (int)rng_range(rng, 85, 96);
        break;
    }
    s->motion_turn = (float)rng_range(rng, 0, 3.14159);
    /* Blur was picked for a 1280-wide picture; a camera saving fewer pixels
     * scales its sensor's picture down, and the blur with it. */
    float res = fminf(1.5f, fmaxf(0.5f, w / 1280.0f));
    s->blur = fmaxf(0.35f, s->blur * res);
    s->dof *= res;
    s->motion *= res;
    for (int c = 0; c < 3; c++) /* auto white balance: most of the lamp's cast removed, not all */
        s->wb[c] = powf(1 / l->lamp[c], corr) * (1 + rng_gauss(rng) * 0.035f);
    float g = s->wb[1];
    for (int c = 0; c < 3; c++)
        s->wb[c] /= g;
}

/* ---- Development --------------------------------------------------------- */

enum { ENC_STEPS = 4096 };

void ts_sensor_develop(const ts_sensor *s, const ts_light *l, ts_image *img, const uint8_t *gloss,
                       const ts_image *shade, float card_light)
{
    float lin[256];
    for (int v = 0; v < 256; v++)
        lin[v] = powf(v / 255.0f, 2.2f);
    float enc[ENC_STEPS + 1]; /* linear light -> 8-bit code */
    for (int i = 0; i <= ENC_STEPS; i++) {
        float e = powf((float)i / ENC_STEPS, 1 / 2.2f);
        float sc = e * e * (3 - 2 * e); /* smoothstep: the S of the tone curve */
        enc[i] = 255 * ((1 - s->contrast) * e + s->contrast * sc);
    }
    const float paper = lin[245];
    const float k = powf(s->white, 2.2f) / (paper * card_light);
    const float aspect = (float)img->w / (float)img->h;
    float gain[3], glare[3], flare[3];
    for (int c = 0; c < 3; c++) {
        gain[c] = k * s->wb[c] * l->lamp[c];
        glare[c] = gain[c] * paper * card_light;
        flare[c] = gain[c] * paper * card_light * l->flare;
    }
    for (int y = 0; y < img->h; y++) {
        uint8_t *o = ts_image_row(img, y);
        const uint8_t *sh = shade ? ts_image_row(shade, y) : NULL;
        const uint8_t *gl = gloss + (size_t)y * (size_t)img->w;
        float fy = (y + 0.5f) / img->h;
        for (int x = 0; x < img->w; x++) {
            float fx = (x + 0.5f) / img->w;
            float L = ts_light_at(l, fx, fy) * (sh ? sh[x] / 255.0f : 1);
            float G = gl[x] ? ts_light_glare(l, fx, fy, aspect) * gl[x] / 255.0f : 0;
            float e[3];
            for (int c = 0; c < 3; c++) {
                float v = lin[o[3 * x + c]] * L * gain[c] + G * glare[c] + flare[c];
                e[c] = enc[v >= 1 ? ENC_STEPS : (int)(v * ENC_STEPS)];
            }
            float Y = 0.114f * e[0] + 0.587f * e[1] + 0.299f * e[2];
            for (int c = 0; c < 3; c++) {
                float v = Y + s->saturation * (e[c] - Y);
                o[3 * x + c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5f);
            }
        }
    }
}

/* ---- Optics and noise ---------------------------------------------------- */

int ts_sensor_finish(const ts_sensor *s, ts_image *img, const double focus[3], uint64_t noise_seed,
                     char *err)
{
    if (s->blur >= 0.3f && tscv_blur(img, img, s->blur, err) < 0)
        return -1;
    if (s->dof > 0.2f) { /* blend towards a blurrier copy where the table leaves focus */
        ts_image far = {0};
        if (tscv_blur(img, &far, s->dof, err) < 0)
            return -1;
        for (int y = 0; y < img->h; y++) {
            uint8_t *o = ts_image_row(img, y);
            const uint8_t *b = ts_image_row(&far, y);
            for (int x = 0; x < img->w; x++) {
                float t = (float)fabs(focus[0] * x + focus[1] * y + focus[2]) / s->dof;
                t = t > 1 ? 1 : t;
                for (int c = 0; c < 3; c++)
                    o[3 * x + c] =
                        (uint8_t)(o[3 * x + c] + (b[3 * x + c] - o[3 * x + c]) * t + 0.5f);
            }
        }
        ts_image_free(&far);
    }
    if (s->motion > 1.5f && tscv_motion_blur(img, s->motion, s->motion_turn, err) < 0)
        return -1;
    /* Shot noise grows with the signal, read noise does not; part of it is
     * colour noise, different in each channel. */
    uint64_t rng = noise_seed;
    float sigma[256];
    for (int v = 0; v < 256; v++)
        sigma[v] = s->noise * sqrtf(0.15f + 0.85f * v / 128.0f);
    for (int y = 0; y < img->h; y++) {
        uint8_t *o = ts_image_row(img, y);
        for (int x = 0; x < img->w; x++) {
            uint8_t *p = o + 3 * x;
            float sg = sigma[(p[0] + 2 * p[1] + p[2]) >> 2];
            float luma = rng_gauss(&rng) * sg;
            for (int c = 0; c < 3; c++) {
                float v = p[c] + luma + rng_gauss(&rng) * sg * s->chroma;
                p[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5f);
            }
        }
    }
    if (s->sharpen > 0.05f && tscv_unsharp(img, 1.2, s->sharpen, err) < 0)
        return -1;
    return 0;
}
