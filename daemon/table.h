/* A recognised table and what its game makes of it: the cards (a frame's, or
 * the tracker's stable ones), each card's zone, and the game's view (rules/
 * game.h: Sets, legal plays, groups, headline). What the overlay draws, the
 * JSON reports and the tracker publishes. */
#ifndef TS_TABLE_H
#define TS_TABLE_H

#include "game.h"
#include "pipeline.h"
#include "zones.h"

enum { TS_MAX_SETS = 256 };

/* Which game, where its zones are, and its options; zeroed = the game of the
 * cards' family, its default zones and options. */
typedef struct {
    const ts_game *game;    /* NULL: by the frame's family */
    const ts_zones *zones;  /* NULL: the game's default layout (borrowed) */
    ts_game_opts opts;      /* hint_level 0 is taken as "every Set" unless set_opts */
    int set_opts;           /* opts were given */
} ts_table_rules;

typedef struct {
    ts_frame_result frame;   /* cards, size, stage times */
    const ts_game *game;     /* the game that solved it (NULL: no game for the family) */
    int zone[TS_MAX_CARDS];  /* ts_zone_kind of each card */
    ts_game_view view;       /* what the game makes of the read cards */
    int nsets;                /* SET: every Set among read cards */
    int sets[TS_MAX_SETS][3]; /* indices into frame.cards[], ascending */
    int conflict;             /* two read cards with the same code (one is misread) */
    double ms_rules;
} ts_table;

/* Solves t->frame's read cards with the game interface and times it. */
void ts_table_solve(ts_table *t);
void ts_table_solve_with(ts_table *t, const ts_table_rules *rules);

/* The game's state view of t (borrowed pointers into t). */
ts_game_state ts_table_state(const ts_table *t);

#endif
