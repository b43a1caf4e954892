/* Inside the renderer: the camera's sensor and processing, which turn the
 * lit table into the picture a webcam, phone or DSLR would save. */
#ifndef TS_RENDER_SENSOR_H
#define TS_RENDER_SENSOR_H

#include <stdint.h>

#include "image.h"
#include "light.h"

typedef enum { TS_CAM_WEBCAM = 0, TS_CAM_PHONE, TS_CAM_DSLR } ts_camera_kind;

typedef struct {
    ts_camera_kind kind;
    float white;      /* where the card stock lands, 0..1 of full scale */
    float wb[3];      /* white-balance gains (B, G, R): the lamp's colour, partly corrected */
    float saturation; /* colour boost of the processing */
    float contrast;   /* S-curve strength */
    float blur;       /* defocus sigma where in focus, px */
    float dof;        /* extra sigma at the most out-of-focus point of the frame, px */
    float motion;     /* motion blur length, px (0 = none) */
    float motion_turn;
    float noise;   /* noise sigma at mid grey, 8-bit levels */
    float chroma;  /* colour noise as a share of noise */
    float sharpen; /* unsharp-mask amount of the processing */
    float lens_k1; /* radial distortion */
    int jpeg_quality;
} ts_sensor;

/* Picks a camera for a w x h picture (small frames are mostly webcams). */
void ts_sensor_pick(ts_sensor *s, int w, int h, const ts_light *l, uint64_t *rng);
const char *ts_sensor_name(ts_camera_kind k);

/* Turns img (BGR albedo: what the surfaces reflect) into the exposed picture,
 * in place. gloss (one byte per pixel, row stride img->w, 255 = as glossy as
 * a card) takes the glare; shade (grey, frame-sized, 255 = lit) darkens.
 * card_light is the light's brightness where the cards lie (exposure). */
void ts_sensor_develop(const ts_sensor *s, const ts_light *l, ts_image *img, const uint8_t *gloss,
                       const ts_image *shade, float card_light);

/* Optics and sensor after development, in place: defocus (growing with
 * |a u + b v + c| towards dof where the table leaves the focal plane),
 * motion blur, noise, sharpening. noise_seed makes each frame's noise its own. */
int ts_sensor_finish(const ts_sensor *s, ts_image *img, const double focus[3], uint64_t noise_seed,
                     char *err);

#endif
