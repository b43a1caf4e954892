/* Inside the renderer: the light falling on the table. Positions are
 * fractions of the frame (0..1), so a light reads the same at any size. */
#ifndef TS_RENDER_LIGHT_H
#define TS_RENDER_LIGHT_H

#include <stdint.h>

#include "image.h"

typedef struct {
    float kelvin;           /* colour temperature of the lamp */
    float lamp[3];          /* its colour, linear B, G, R with G = 1 */
    float grad_x, grad_y;   /* brightness slope across the frame (uneven light) */
    float vignette;         /* fall-off towards the corners */
    float pool_x, pool_y;   /* a lamp's pool of brighter light... */
    float pool_r, pool_k;   /* ...its radius and strength (0 = none) */
    float glare_x, glare_y; /* a specular highlight on glossy surfaces... */
    float glare_rx, glare_ry, glare_turn, glare_k; /* ...its shape and strength (0 = none) */
    float flare;    /* stray light lifting the blacks, share of the paper's brightness */
    float shadow_k; /* strength of the cards' own soft shadows */
    float shadow_dx, shadow_dy, shadow_soft; /* their offset and softness, mm on the table */
    float occluder_k; /* strength of a hand's or arm's shadow across the table (0 = none) */
} ts_light;

void ts_light_pick(ts_light *l, uint64_t *rng);

/* Brightness of the light at frame position (fx, fy), before shadows. */
float ts_light_at(const ts_light *l, float fx, float fy);
/* The highlight's strength at (fx, fy), 0..glare_k (times the surface's gloss). */
float ts_light_glare(const ts_light *l, float fx, float fy, float aspect);

/* Paints the shadow of a hand or arm reaching into the frame onto shade
 * (grey, frame-sized, 255 = fully lit; multiplied in). Does nothing when
 * occluder_k is 0. Returns 0 or -1 with err. */
int ts_light_occluder(const ts_light *l, ts_image *shade, uint64_t *rng, char *err);

#endif
