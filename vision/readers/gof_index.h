/* Gang of Four cards found by their corner indices.
 *
 * A card's index is a small numeral over a smaller coloured symbol, printed
 * upright in the top-left corner and turned in the bottom-right one. Where
 * the card's outline is lost - cards edge to edge in a row or a block, a
 * card half under others in a pile, stock as light as the table - the index
 * still shows, and it fixes the card: which way is down (numeral to symbol),
 * where the corner is, and the card's size (the numeral-to-symbol step).
 * This finds numeral-symbol pairs of ink (darker than its neighbourhood in
 * its darkest channel: the green, yellow and red inks and the dark one are
 * all low in some channel; the beige stock is not) and offers the card each
 * implies. The reader's nets decide whether it is a card and which.
 */
#ifndef TS_READERS_GOF_INDEX_H
#define TS_READERS_GOF_INDEX_H

#include "detect.h"
#include "image.h"
#include "readers/index_ink.h"

/* Index glyph components looked at per level (ts_index_ink_create). */
enum { TS_GOF_INK_BLOBS = 16384 };

/* Whether the card q (frame pixels) an index pair implies may be a card
 * (the finder's test that it lies on card stock), with the caller's ctx. */
typedef int (*ts_gof_index_keep)(const ts_quad *q, void *ctx);

/* ix: scratch from ts_index_ink_create(TS_GOF_INK_BLOBS), reused across
 * frames. Cards implied by the index pairs of frame (BGR) inside roi (x, y, w, h in
 * frame pixels; NULL: the whole frame), in frame pixels
 * (clockwise, q[0]-q[1] the short side at the index's top), best pair first,
 * one per card (both corners of a card give one), each kept by keep (NULL:
 * every one). score is the pair's ink contrast (grey levels). Returns the
 * count (<= max) or -1 with err (TSCV_ERR_MAX). */
int ts_gof_index_cards(ts_index_ink *ix, const ts_image *frame, const int roi[4],
                       ts_gof_index_keep keep, void *ctx, ts_quad *out, int max, char *err);

#endif
