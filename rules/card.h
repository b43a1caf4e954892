/* A card on the table: what was read and where it lies. Pure data shared by
 * the vision pipeline (which fills it), the games, the tracker and the
 * outputs (which read it). */
#ifndef TS_RULES_CARD_H
#define TS_RULES_CARD_H

#include "codes.h"

enum { TS_MAX_CARDS = 128 }; /* a Qwirkle board holds 70 and more */

typedef struct {
    float x, y;
} ts_pt;

typedef struct {
    ts_code code;  /* best reading */
    char text[TS_CODE_MAXLEN]; /* code in the deck's own letters */
    float conf;    /* 0..1: P(the whole reading is right) */
    int read;      /* conf >= the floor: the only cards hints are built on */
    ts_pt quad[4]; /* corners in frame pixels, clockwise, from the card's top-left */
} ts_card;

#endif
