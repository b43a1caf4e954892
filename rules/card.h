/* A card on the table as the pipeline sees it: pure data, so the rules core
 * and the table state (rules/table/) can use it without the vision code. */
#ifndef TS_CARD_H
#define TS_CARD_H

#include "codes.h"

enum { TS_MAX_CARDS = 64 };

typedef struct {
    float x, y;
} ts_pt;

typedef struct {
    ts_code code;              /* best reading */
    char text[TS_CODE_MAXLEN]; /* code in the deck's own letters */
    float conf;                /* 0..1: confidence of the whole reading */
    int read;                  /* conf >= the floor: the only cards hints may use */
    ts_pt quad[4];             /* corners in frame pixels, clockwise */
} ts_card;

#endif
