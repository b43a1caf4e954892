/* Snaps a Gang of Four candidate's sides to the card's edges in the full
 * frame.
 *
 * The finder looks for cards on a decimated image (a 1280-px frame searched
 * at 320 px), so its corners are off by several frame pixels: 9% of a
 * card's short side at the median on rendered tables, which on a card 50 px
 * wide moves the corner index out of the reader's patch. Each side is moved
 * to where the card stock (the finder's beige score) ends, measured across
 * the side at the full resolution along its middle part (the corners are
 * rounded and may be covered), and the corners are the sides' crossings.
 */
#ifndef TS_READERS_GOF_EDGES_H
#define TS_READERS_GOF_EDGES_H

#include "detect.h"
#include "image.h"

/* One stock score (0..255) of a B, G, R pixel: bright in red and green, and
 * no bluer than beige (white cloth and paper are). */
static inline int ts_gof_stock_score(int b, int g, int r)
{
    int rg = g < r ? g : r;
    int blue = b - (rg * 7) / 8;
    int s = rg - (blue > 0 ? 4 * blue : 0);
    return s < 0 ? 0 : s > 255 ? 255 : s;
}

/* Refines q in place (frame: BGR). A side whose edge does not show along
 * enough of it (another card's stock beyond it, the frame's edge) keeps its
 * line. Returns how many of the four sides moved, or -1 if the refined quad
 * was implausible and q was left as it was. */
int ts_gof_snap_edges(const ts_image *frame, ts_quad *q);

/* How far quad q's opposite sides are from parallel: the larger sine of the
 * angle between them (1 when they run opposite ways). A card's stay within
 * 6 degrees in any view of the table on renders. */
float ts_gof_skew(const ts_pt q[4]);

#endif
