/* Chinese domino cards fanned in a hand: each card under the top one shows
 * a long strip (one long edge, the paper beside it, both ends' pips on
 * that side) and the card lying on it hides the rest.
 *
 * From a card found whole (and read whole: it sizes the rest), the card
 * under it is the same card turned about a point on its axis: each turn
 * and point is tried, and kept when its free long edge and the free part
 * of an end show as edges in the frame, its paper inside them. The chain
 * goes on from that card (the next turned about the same point, give or
 * take). Each strip is read from the pips that show: an end allows each
 * count of the deck whose places (ones and fours red, a column of each of
 * 6:6's sixes red, the rest black) explain every pip seen and that holds
 * a pip at every place showing whole; the card is read when exactly one
 * card of the deck fits both ends and each end shows a pip of it seen
 * whole. Otherwise nothing is reported for it: a strip is never guessed.
 * Cards spread side by side without a turn are not looked for.
 */
#ifndef TS_DOMINO_STRIPS_H
#define TS_DOMINO_STRIPS_H

#include "detect.h"
#include "image.h"
#include "reader.h"

typedef struct {
    ts_quad q;     /* the strip that shows (clockwise, q[0]-q[1] an end) */
    ts_quad card;  /* the whole card, partly covered */
    ts_reading r;  /* its reading (both ends fixed by what shows) */
} domino_strip;

/* Cards fanned under the cards found whole tops[0..ntops) (quads of the
 * frame, BGR, borrowed), each read by the caller with both ends shown (the
 * chain's first card gives every other its size: a quad of a card found
 * too short or across two is no measure); work is the caller's scratch image (allocated here
 * if zeroed, freed by the caller). Returns the number of strips read into
 * out (<= max), or -1 with err (TSCV_ERR_MAX). */
int domino_fan_strips(const ts_image *frame, const ts_quad *tops, int ntops, ts_image *work,
                      domino_strip *out, int max, char *err);

/* Reads card c (a quad of the frame, q[0]-q[1] an end; card its warp,
 * DOMINO_CARD_W x DOMINO_CARD_H) from the part not under the cards
 * cov[0..ncov) lying on it, as a strip is read: only when exactly one card
 * of the deck fits the pips that show at both ends. Returns 1 and fills r
 * if so, else 0 (the card is left unread). */
int domino_read_covered(const ts_image *frame, const ts_pt c[4], const ts_quad *cov, int ncov,
                        const ts_image *card, ts_reading *r);

#endif
