/* Finding Chinese domino cards by their waist.
 *
 * The cards are long and narrow, lie edge to edge in rows, fanned and
 * overlapped, often on patterned cloth: a white-blob detector merges them or
 * loses them. Each card, though, prints the same waist at its middle: a small
 * red lozenge, wider than tall, between two thin rules across the card. The
 * lozenge gives the card's centre, its short axis and its scale (the deck's
 * printed sizes, in mm); the rules confirm it; the card's sides are then
 * measured where the paper meets its printed outline, so a card is found
 * whatever lies around it, and a card covered except for its middle is still
 * found (and read from the ends that show).
 */
#ifndef TS_DOMINO_CARDS_H
#define TS_DOMINO_CARDS_H

#include "detect.h"
#include "image.h"

typedef struct domino_card_finder domino_card_finder;

/* Returns a finder (caller destroys) or NULL if out of memory. */
domino_card_finder *domino_card_finder_create(void);
void domino_card_finder_destroy(domino_card_finder *f);

/* Card quads (clockwise, q[0]-q[1] a short side), best first. Returns the
 * count (<= max) or -1 with err (TSCV_ERR_MAX). */
int domino_find_cards(domino_card_finder *f, const ts_image *frame, ts_quad *out, int max,
                      char *err);

#endif
