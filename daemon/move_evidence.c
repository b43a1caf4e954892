/* Evidence from the frames (see move_evidence.h). */
#include "move_evidence.h"

#include <math.h>

enum { GU = 12, GV = 18, /* samples across and along a card */
       STEPS = 6 };       /* shifts tried each way */
static const float SHIFT = 0.15f; /* the farthest shift, in card widths */

/* Mean grey of a 3x3 block around (x, y), -1 outside. */
static float grey_at(const ts_image *im, float x, float y)
{
    int cx = (int)lroundf(x), cy = (int)lroundf(y);
    if (cx < 1 || cy < 1 || cx >= im->w - 1 || cy >= im->h - 1)
        return -1;
    float sum = 0;
    for (int dy = -1; dy <= 1; dy++) {
        const uint8_t *row = ts_image_row(im, cy + dy);
        for (int dx = -1; dx <= 1; dx++) {
            const uint8_t *p = row + (size_t)(cx + dx) * (size_t)im->channels;
            sum += im->channels == 3 ? (p[0] + p[1] + p[2]) / 3.0f : p[0];
        }
    }
    return sum / 9;
}

static float similarity_at(const ts_image *a, const ts_image *b, const ts_pt q[4], float dx,
                           float dy);

float ts_quad_similarity(const ts_image *a, const ts_image *b, const ts_pt q[4])
{
    /* A camera held by hand (or nudged) shifts the table a little between
     * the two frames: the best match within a small fraction of the card's
     * width counts, never as far as a neighbouring card. */
    float wx = q[1].x - q[0].x, wy = q[1].y - q[0].y;
    float reach = SHIFT * sqrtf(wx * wx + wy * wy);
    float best = -2;
    for (int j = -STEPS; j <= STEPS; j++)
        for (int i = -STEPS; i <= STEPS; i++) {
            float s = similarity_at(a, b, q, reach * (float)i / STEPS, reach * (float)j / STEPS);
            if (s > best)
                best = s;
        }
    return best;
}

static float similarity_at(const ts_image *a, const ts_image *b, const ts_pt q[4], float dx,
                           float dy)
{
    if (!a->buf || !b->buf || a->w != b->w || a->h != b->h)
        return -2;
    float va[GU * GV], vb[GU * GV], ma = 0, mb = 0;
    int n = 0;
    for (int j = 0; j < GV; j++)
        for (int i = 0; i < GU; i++) {
            /* inset from the edges: the outline is shared by any card there */
            float u = 0.12f + 0.76f * ((float)i + 0.5f) / GU;
            float v = 0.12f + 0.76f * ((float)j + 0.5f) / GV;
            float x = (1 - u) * (1 - v) * q[0].x + u * (1 - v) * q[1].x + u * v * q[2].x +
                      (1 - u) * v * q[3].x;
            float y = (1 - u) * (1 - v) * q[0].y + u * (1 - v) * q[1].y + u * v * q[2].y +
                      (1 - u) * v * q[3].y;
            float ga = grey_at(a, x, y), gb = grey_at(b, x + dx, y + dy);
            if (ga < 0 || gb < 0)
                return -2;
            va[n] = ga, vb[n] = gb;
            ma += ga, mb += gb;
            n++;
        }
    ma /= (float)n, mb /= (float)n;
    /* A shadow's edge is a slow ramp across the card, the print is not: the
     * best plane through each patch goes before they are compared (the grid
     * is regular, so the slopes are independent sums). */
    float ua = 0, ub = 0, wa = 0, wb = 0, uu = 0, ww = 0;
    for (int k = 0; k < n; k++) {
        float u = (float)(k % GU) - (GU - 1) / 2.0f, w = (float)(k / GU) - (GV - 1) / 2.0f;
        ua += u * (va[k] - ma), ub += u * (vb[k] - mb);
        wa += w * (va[k] - ma), wb += w * (vb[k] - mb);
        uu += u * u, ww += w * w;
    }
    float sab = 0, saa = 0, sbb = 0;
    for (int k = 0; k < n; k++) {
        float u = (float)(k % GU) - (GU - 1) / 2.0f, w = (float)(k / GU) - (GV - 1) / 2.0f;
        float da = va[k] - ma - u * ua / uu - w * wa / ww;
        float db = vb[k] - mb - u * ub / uu - w * wb / ww;
        sab += da * db, saa += da * da, sbb += db * db;
    }
    /* A flat patch (a blank card middle, bare felt) says nothing either way. */
    if (saa < (float)n * 4.0f || sbb < (float)n * 4.0f)
        return -2;
    return sab / sqrtf(saa * sbb);
}
