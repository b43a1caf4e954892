/* Rendered tables (and single cards) as the vision tests read them. */
#ifndef TS_TEST_RENDER_TABLE_H
#define TS_TEST_RENDER_TABLE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "geom.h"
#include "imageio.h"
#include "render.h"

/* Deals twelve cards of fam by seed, lays them out and renders the table
 * into *sc (the caller frees it: ts_scene_free). With jpeg, the picture is
 * what `render` saves and a camera sends: encoded at the simulated camera's
 * quality and decoded again (its blocks are part of the picture). Returns
 * 0, or -1 with err (TSCV_ERR_MAX). */
static inline int render_table(ts_family fam, uint64_t seed, ts_layout layout, int jpeg,
                               ts_scene *sc, char *err)
{
    ts_scene_spec spec = {.family = fam, .w = 1280, .h = 720, .seed = seed};
    ts_render_deal(&spec, 12, layout);
    if (ts_render_scene(&spec, sc, err) < 0)
        return -1;
    if (!jpeg)
        return 0;
    uint8_t *data;
    size_t len;
    ts_image img;
    int rc = ts_jpeg_encode(&sc->img, sc->info.jpeg_quality, &data, &len, err, TSCV_ERR_MAX);
    if (rc == 0) {
        rc = ts_image_decode(data, len, &img, err, TSCV_ERR_MAX);
        free(data);
    }
    if (rc < 0) {
        ts_scene_free(sc);
        return -1;
    }
    ts_image_free(&sc->img);
    sc->img = img;
    return 0;
}

/* One playing card dealt alone into a size x size frame (close-ups). */
static inline int render_one_playing_card(uint64_t seed, int size, ts_scene *sc, char *err)
{
    ts_scene_spec spec = {.family = TS_FAM_PLAYING, .w = size, .h = size, .seed = seed};
    ts_render_deal(&spec, 1, TS_LAYOUT_ROW);
    return ts_render_scene(&spec, sc, err);
}

/* Whether quad q has each corner within a tenth of the card's short side
 * of a corner of the card's true outline t (any order: the detector
 * orders corners by its own rule). */
static inline int on_corners(const ts_pt q[4], const ts_pt t[4])
{
    float side = fminf(ts_dist(t[0], t[1]), ts_dist(t[1], t[2]));
    for (int i = 0; i < 4; i++) {
        int near = 0;
        for (int j = 0; j < 4 && !near; j++)
            near = ts_dist(q[i], t[j]) < 0.1f * side;
        if (!near)
            return 0;
    }
    return 1;
}

#endif
