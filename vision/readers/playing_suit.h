/* The index's suit glyph measured by its outline (readers/playing_suit.c):
 * a check on the index net's suit where colour cannot help. On a card with
 * no colour (a grey photo) diamonds and spades, hearts and clubs differ by
 * shape alone, and the net, trained mostly on colour, reads diamonds as
 * spades. A diamond is the one suit whose outline is the same turned upside
 * down (four straight sides, no stem, no lobes): its row widths read the
 * same from the top as from the bottom, a spade's, heart's or club's do
 * not. Used by the playing reader only; exposed for its tests. */
#ifndef TS_READERS_PLAYING_SUIT_H
#define TS_READERS_PLAYING_SUIT_H

#include "image.h"

typedef struct ts_playing_suit ts_playing_suit;

/* Scratch for one index patch at a time (reused). NULL if memory is short. */
ts_playing_suit *ts_playing_suit_create(void);
void ts_playing_suit_destroy(ts_playing_suit *s); /* NULL is fine */

/* True if the card (borrowed, BGR or grey) shows no colour: the net's suit
 * is then a question of shape. */
int ts_playing_card_grey(const ts_image *card);

/* The suit glyph of an upright index patch (borrowed, BGR or grey, the
 * rank glyph above the suit glyph): how far its outline is from its own
 * upside-down image, the mean difference of the row widths read from the
 * top and from the bottom over the widest row (0 a diamond; a spade, heart
 * or club 0.1-0.5). Returns -1 when no rank-above-suit glyph pair is found,
 * when the suit glyph is too small for its outline to show, or when the
 * patch is larger than the scratch's room. */
float ts_playing_suit_asym(ts_playing_suit *s, const ts_image *patch);

enum { TS_PLAYING_SUIT_D = 1 }; /* diamonds in the suit order C D H S */

/* The verdict on a reading's suit (0..3: C D H S) from asym (-1: none):
 * 1 if the glyph's outline contradicts it (a diamond's for another suit,
 * clearly not a diamond's for a diamond), else 0. */
int ts_playing_suit_contradicts(int suit, float asym);

#endif
