/* The synthetic table renderer: card faces drawn from their real designs,
 * laid on a table, seen by a camera, with exact ground truth.
 *
 * Everything is deterministic for a given seed. Images are BGR ts_images
 * owned by the caller (ts_image_free / ts_scene_free).
 */
#ifndef TS_RENDER_H
#define TS_RENDER_H

#include <stdint.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "image.h"

enum { TS_RENDER_MAX_CARDS = 64 };

/* SET decks the renderer draws. */
typedef enum { TS_DECK_CLASSIC = 0, TS_DECK_SEECARDS = 1 } ts_set_deck;

/* Draws one card face, upright, at px_per_mm, into *face (allocated here) and
 * its alpha (rounded corners, worn edges) into *alpha. The printing varies
 * with rng: ink tone, line width, stock tint. Returns 0 or -1 with err
 * (TSCV_ERR_MAX). */
int ts_render_face(ts_code code, ts_set_deck deck, float px_per_mm, uint64_t *rng, ts_image *face,
                   ts_image *alpha, char *err);

/* Physical card size of a family, mm (width, height). */
void ts_render_card_size(ts_family fam, float *w_mm, float *h_mm);

typedef struct {
    ts_code code;
    ts_pt quad[4];  /* image corners, clockwise from the printed top-left */
    float visible;  /* fraction of the card not covered by later cards */
} ts_scene_card;

typedef struct {
    ts_image img;
    int jpeg_quality; /* the webcam-like quality to save it at */
    int ncards;
    ts_scene_card cards[TS_RENDER_MAX_CARDS];
} ts_scene;

/* A table layout: where each card lies, in table millimetres. */
typedef struct {
    ts_code code;
    float x, y;   /* centre */
    float angle;  /* radians */
    int hidden;   /* not on the table in this frame (still framed by the camera) */
} ts_card_place;

typedef struct {
    ts_family family;
    ts_set_deck deck;
    int w, h;         /* image size */
    uint64_t seed;    /* picks table, light, camera, printing and noise */
    int frame;        /* frames of one sequence differ only in sensor noise */
    int overlap;      /* allow cards to overlap (fans, piles) */
    int ncards;
    ts_card_place cards[TS_RENDER_MAX_CARDS];
} ts_scene_spec;

/* Lays ncards of spec out in a loose grid (or a fan when spec->overlap),
 * filling x, y, angle of spec->cards[] from their codes. */
void ts_render_layout(ts_scene_spec *spec, uint64_t *rng);

/* Renders the scene. Returns 0 or -1 with err (TSCV_ERR_MAX). */
int ts_render_scene(const ts_scene_spec *spec, ts_scene *out, char *err);
void ts_scene_free(ts_scene *s);

#endif
