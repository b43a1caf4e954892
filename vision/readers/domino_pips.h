/* Pip counting on one rectified domino (a card or a tile): the pips of each
 * end and their colour.
 *
 * The card arrives portrait (DOMINO_CARD_W x DOMINO_CARD_H), either way up.
 * Each end is read on its own from the dark (or red) blobs on the paper:
 * a pip is a compact blob of about a pip's size; the Hong Kong five of the
 * Chinese cards is one large black blob (its centre pip overlaps the four
 * corners). An end that is not clean paper with clean pips (covered by
 * another card, cut off, smudged) is reported as not shown.
 */
#ifndef TS_DOMINO_PIPS_H
#define TS_DOMINO_PIPS_H

#include "image.h"

enum { DOMINO_CARD_W = 64, DOMINO_CARD_H = 176 };

typedef enum {
    DOMINO_CHINESE = 0, /* 84-card Chinese deck: 1..6 pips, ones and fours red */
    DOMINO_DOUBLE_SIX,  /* western tiles: 0..6 black pips, a bar across the middle */
} domino_style;

typedef struct {
    int pips;   /* 0..6, -1 if the end does not show */
    int red;    /* pips that read red */
    float conf; /* 0..1 that pips is right */
} domino_end;

typedef struct {
    int is_card;       /* paper of the right brightness with a pip pattern */
    domino_end end[2]; /* [0] the quad's first short side, [1] the far one */
    int colour_ok;     /* the paper looks white: red and black can be told apart */
    float middle_paper; /* fraction of the band between the ends that is paper */
} domino_pips;

/* The Chinese deck's pip centres for 1..6 pips (the five, one clover, and
 * 0 are empty) in their group's square, x and y in 0..1, as printed. */
extern const float domino_layout[7][6][2];

/* The paper level of a card from the histogram of its green (ink, red or
 * black, is low in green) over total pixels: the level with 30% of them at
 * or above it. */
int domino_paper_level(const int hist[256], int total);

/* True if a blob of area pixels is red ink: red well above green (red_sum,
 * the sum of R - G, more than 25 a pixel and over share of r_sum, its sum
 * of R) and as bright in red as the paper (paper_r, its mean R; 0 if not
 * known): black ink under a warm light is reddish but dark in every
 * channel. */
int domino_ink_red(double red_sum, double r_sum, int area, double share, double paper_r);

/* True if ink of area pixels is of a colour no deck prints pips in (a
 * cloth's blue, green or orange spots): lift the sum of max(B, G) minus
 * its grey (B + 2G + R) / 4, green the sum of G - B, below how far its
 * mean grey lies under the paper's. */
int domino_ink_coloured(double lift, double green, int area, double below);

/* Reads one card (BGR, borrowed). Pure function of the image: no state. */
void domino_read_pips(domino_style style, const ts_image *card, domino_pips *out);

#endif
