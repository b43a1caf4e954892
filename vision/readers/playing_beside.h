/* Playing cards edge to edge, or in a row with gaps (readers/playing_beside.c):
 * each card the playing reader's find() chose and read surely offers its
 * neighbours' places. Reader-internal: playing.c answers its questions. */
#ifndef TS_READERS_PLAYING_BESIDE_H
#define TS_READERS_PLAYING_BESIDE_H

#include "detect.h"
#include "image.h"
#include "reader.h"

/* What the offering asks of the reader (ctx its own). */
typedef struct {
    void *ctx;
    /* How surely chosen card q was read (0 when it was not). */
    float (*conf)(void *ctx, const ts_quad *q);
    /* How card q was found: 0 an outline or blob, 1 by a sure index, 2 a
     * late index, 3 a late index of the coarse level. */
    int (*paired)(void *ctx, const ts_pt q[4]);
    /* Reads place q of frame afresh into rd (the reader keeps it for the
     * pipeline); 0, or -1 with err. */
    int (*read)(void *ctx, const ts_image *frame, const ts_quad *q, ts_reading *rd, char *err);
} ts_beside_reader;

/* Whether quad q has a card's shape, its long sides BESIDE_LONG (1.2) of
 * its short ones or more: not an index view (a square about a fan's index,
 * playing.c give_view), whose neighbours are no cards. */
int ts_playing_card_shaped(const ts_pt q[4]);

/* Adds to the chosen cards out[0..n) (room for max) the neighbours of its
 * sure cards that read surely. Returns the new count or -1 with err. */
int ts_playing_offer_beside(const ts_beside_reader *br, const ts_image *frame, ts_quad *out, int n,
                            int max, char *err);

#endif
