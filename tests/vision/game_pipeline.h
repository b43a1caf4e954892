/* A pipeline for one game, as the vision tests make it. */
#ifndef TS_TEST_GAME_PIPELINE_H
#define TS_TEST_GAME_PIPELINE_H

#include <stdio.h>

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

#endif
