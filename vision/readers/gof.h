/* The Gang of Four reader's geometry and decision, shared with its training
 * tool (models/gof_patches.c) so both cut the corner index the same way.
 *
 * A card is read from its two corner indices (numeral over a coloured
 * symbol), never from the big numeral: 6 and 9 differ only by which way up
 * the card lies, and the index is printed upright in the top-left corner and
 * turned in the bottom-right one. Each corner goes through a small net
 * (models/gof-index.tsnet) with two heads: the numeral (1-10, phoenix,
 * dragon, or "no index here") and the colour (green, yellow, red, multi).
 */
#ifndef TS_READERS_GOF_H
#define TS_READERS_GOF_H

#include "cv/cvwrap.h"
#include "image.h"

enum {
    /* Rectified card: 56 x 87 mm at about 1.86 px/mm. */
    TS_GOF_CARD_W = 104,
    TS_GOF_CARD_H = 162,
    /* One corner patch, cut from the rectified card: 15 x 23.6 mm, the
     * index with a margin for a quad a little off. */
    TS_GOF_PATCH_W = 28,
    TS_GOF_PATCH_H = 44,
    /* The whole-card net's input: the rectified card shrunk (area mean) so
     * the big numeral and the layout of the two indices (numeral over
     * symbol: which way up the card lies) still show on a card 40 px wide
     * in the frame, where the index numeral alone no longer reads. */
    TS_GOF_NET_W = 32,
    TS_GOF_NET_H = 50,
    /* Numeral head classes: 0..9 = 1..10, then phoenix, dragon, none. */
    TS_GOF_NUM_PHOENIX = 10,
    TS_GOF_NUM_DRAGON = 11,
    TS_GOF_NUM_NONE = 12,
    TS_GOF_NUM_CLASSES = 13,
    /* Colour head classes: green, yellow, red, multicoloured. */
    TS_GOF_COL_MULTI = 3,
    TS_GOF_COL_CLASSES = 4
};

/* Cuts the two corner patches of a rectified card (BGR, TS_GOF_CARD_W x
 * TS_GOF_CARD_H): patch[0] the top-left corner as it lies, patch[1] the
 * bottom-right corner turned half a turn, so both show an upright index.
 * patch[k] are caller-allocated TS_GOF_PATCH_W x TS_GOF_PATCH_H BGR images. */
void ts_gof_corners(const ts_image *card, ts_image patch[2]);

/* The labels of a card index (0..29, 60..63) for the two heads. Returns 0,
 * or -1 for an index that is not a card. */
int ts_gof_labels(int idx, int *num, int *col);

#endif
