/* SET cards edge to edge: the shared detector, then a second look where it
 * saw paper that is not one card.
 *
 * A grid of white cards laid edge to edge merges into one bright blob whose
 * seams may not show. Two things still locate cards there: a card already
 * read fixes its neighbours (the same size, across each of its sides), and
 * the ink symbols fix the card around them (a SET card's 1-3 symbols are
 * stacked along its long axis at a fixed pitch, each across the card, and
 * the symbol's size gives the card's). Every such hypothesis is kept only if
 * the reader reads it, confidently, with the count it predicts.
 */
#ifndef TS_SET_FIND_H
#define TS_SET_FIND_H

#include "detect.h"
#include "image.h"
#include "set_reader.h"

typedef struct ts_set_finder ts_set_finder;

/* How the finder reads a rectified card: fn(ctx, ...) as ts_set_read. */
typedef struct {
    int (*fn)(void *ctx, const ts_image *card, ts_set_reading *out, char *err);
    void *ctx;
} ts_set_read_with;

/* Returns a finder for cards of this aspect range (long/short side), or NULL
 * if out of memory. Caller destroys. */
ts_set_finder *ts_set_finder_create(float min_aspect, float max_aspect);
void ts_set_finder_destroy(ts_set_finder *f);

/* ts_detect's contract (detect.h): candidates in frame pixels, in the order
 * to try them, overlaps allowed. Cards the finder verified by reading them
 * with r (borrowed; one thread at a time) come first. Returns the count
 * (<= max) or -1 with err (TSCV_ERR_MAX). */
int ts_set_find(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame, ts_quad *out,
                int max, char *err);

#endif
