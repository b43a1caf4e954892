/* A pipeline for one game, as the vision tests make it. */
#ifndef TS_TEST_GAME_PIPELINE_H
#define TS_TEST_GAME_PIPELINE_H

#include <stdio.h>
#include <string.h>

#include "imageio.h"
#include "pipeline.h"

/* The pipeline of game (a --game name; the caller destroys it), or NULL
 * with the reason printed on stderr. */
static inline ts_pipeline *game_pipeline(const char *game)
{
    char err[512];
    ts_pipeline_config cfg = {.game = game};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p)
        fprintf(stderr, "%s pipeline: %s\n", game, err);
    return p;
}

/* Reads the photo at path with p: how many cards read above the floor are
 * code, and (others, when not NULL) how many are another card; -1, with
 * the reason on stderr, when the photo does not load or read. */
static inline int photo_cards(ts_pipeline *p, const char *path, const char *code, int *others)
{
    static ts_frame_result res; /* large: not on the stack */
    char err[512];
    ts_image img;
    if (ts_image_load(path, &img, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        return -1;
    }
    int rc = ts_pipeline_process(p, &img, &res, err, sizeof err);
    ts_image_free(&img);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        return -1;
    }
    int same = 0, other = 0;
    for (int k = 0; k < res.ncards; k++)
        if (res.cards[k].read)
            strcmp(res.cards[k].text, code) == 0 ? same++ : other++;
    if (others)
        *others = other;
    return same;
}

#endif
