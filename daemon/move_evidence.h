/* Evidence for the referee from the frames themselves: does a card the
 * readings lost still lie where it was? A card in a hand's shadow or under
 * glare can stop being found while nobody touched it; judging its
 * disappearance as a move would be a wrong verdict. Plain C over ts_image. */
#ifndef TS_MOVE_EVIDENCE_H
#define TS_MOVE_EVIDENCE_H

#include "card.h"
#include "image.h"

/* Similarity (-1..1) of what lies inside quad q (frame pixels) in frames a
 * and b (same size, borrowed): the normalised correlation of the grey levels
 * sampled on a grid inside the quad, less each patch's best plane (a soft
 * shadow edge), the best over shifts of up to 0.15 card widths (a nudged
 * camera). A card darkened by a shadow keeps its print and stays high; a card taken leaves the table's texture (low). Returns
 * -2 when it cannot tell (sizes differ, quad outside, a flat patch). */
float ts_quad_similarity(const ts_image *a, const ts_image *b, const ts_pt q[4]);

/* Above this the card is taken to be still there (tests/daemon/
 * test_move_evidence.c on a real board: shadowed or nudged 0.91+, covered
 * with table 0.59 at most; the shared photos' cards taken or re-laid: 0.2 at
 * most). */
#define TS_STILL_THERE 0.8f

#endif
