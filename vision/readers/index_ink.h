/* The ink of printed card indices, level by level, for the corner-index
 * finders (playing_index.c, gof_index.c).
 *
 * A level is the frame at one size. Ink is what is darker than its
 * neighbourhood in the darkest channel (coloured inks are dark in some
 * channel, card stock in none), so the level's grey is 255 minus its
 * darkest channel (ink bright) and its mask is the grey above its local
 * mean; the mask's components are the glyph candidates. */
#ifndef TS_READERS_INDEX_INK_H
#define TS_READERS_INDEX_INK_H

#include <stddef.h>
#include <stdint.h>

#include "components.h"
#include "cv/cvwrap.h"
#include "image.h"

typedef struct ts_index_ink {
    ts_image small;    /* the frame at the level's size (unused when it is that size) */
    ts_image next;     /* the next level's, made with a halved frame's (one pass) */
    const uint8_t *next_of; /* the frame buffer next was made from, for the very next
                               call only; NULL: none */
    ts_image grey;     /* 255 - darkest channel: ink bright */
    ts_image bin;      /* ink mask */
    int *labels;       /* component labels of bin (when keep_labels) */
    size_t nlabels;
    int keep_labels;   /* 1 after create; 0: the blobs alone (a finder that reads no labels) */
    ts_components *cc; /* finds them */
    tscv_blob *blobs;  /* the components, room for max_blobs */
    int max_blobs;
} ts_index_ink;

/* Scratch reused across frames and levels, room for max_blobs components a
 * level (caller destroys), or NULL if out of memory. */
ts_index_ink *ts_index_ink_create(int max_blobs);
void ts_index_ink_destroy(ts_index_ink *k); /* NULL is fine */

/* Level w x h of frame (BGR or grey): its grey, its ink mask (block: the
 * local mean's window, px; ink: how much darker than the mean ink is) and
 * the mask's components in k->blobs. Returns their count, or -1 with err
 * (TSCV_ERR_MAX). */
int ts_index_ink_level(ts_index_ink *k, const ts_image *frame, int w, int h, int block, int ink,
                       char *err);

/* The level's grey at (x, y), clamped to the level. */
int ts_index_ink_grey(const ts_index_ink *k, float x, float y);
/* How dark a glyph's ink is (the grey, ink bright): the brightest of its
 * centre and four points a quarter of its extent about it. The centre alone
 * falls in the hole of a 0, 6, 8, 9, A or Q, which then looks inkless. */
int ts_index_ink_glyph(const ts_index_ink *k, float cx, float cy, float ext);

#endif
