/* Finding western domino tiles by their middle bar.
 *
 * Tiles laid end to end or side by side merge into one white blob, and the
 * gap between them is often a hairline. Every tile, though, has one dark bar
 * across its middle, thinner and longer than any pip: find the bars among the
 * dark blobs on light paper, and each tile is the 1:2 rectangle centred on its
 * bar, short side along it. The tile's width comes from the bar's length
 * times a fixed ratio, taken as the median over the frame (one set of tiles,
 * one camera), so one badly seen bar does not size its tile wrong.
 */
#ifndef TS_DOMINO_FIND_H
#define TS_DOMINO_FIND_H

#include "detect.h"
#include "image.h"

typedef struct domino_finder domino_finder;

/* Returns a finder (caller destroys) or NULL if out of memory. */
domino_finder *domino_finder_create(void);
void domino_finder_destroy(domino_finder *f);

/* Tile quads (clockwise, q[0]-q[1] a short side), best first. Returns the
 * count (<= max) or -1 with err (TSCV_ERR_MAX). */
int domino_find_tiles(domino_finder *f, const ts_image *frame, ts_quad *out, int max, char *err);

#endif
