/* A recognised table and what the game makes of it: the cards (a frame's, or
 * the tracker's stable ones) and, for SET, its Sets. What the overlay draws,
 * the JSON reports and the tracker publishes. */
#ifndef TS_TABLE_H
#define TS_TABLE_H

#include "pipeline.h"

enum { TS_MAX_SETS = 256 };

typedef struct {
    ts_frame_result frame; /* cards, size, stage times */
    int nsets;                /* SET: every Set among read cards */
    int sets[TS_MAX_SETS][3]; /* indices into frame.cards[], ascending */
    int conflict;             /* two read cards with the same code (one is misread) */
    double ms_rules;
} ts_table;

/* Solves t->frame's read cards with the rules core (Sets, duplicate
 * readings) and times it. */
void ts_table_solve(ts_table *t);

#endif
