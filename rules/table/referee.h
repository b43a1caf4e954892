/* The referee: pure state over the tracker's stable tables. A move is a
 * stable change between two settled table states — the table is settled when
 * its cards (ids, readings, zones) have not changed for `settle_frames`
 * updates with nothing tentative in view (no hand, no card on its way). So a
 * hand passing over the table is no move: the table settles back unchanged.
 *
 * Each move is judged by the game (rules/game.h), or for Eleusis by the dealer
 * (eleusis_dealer.h) when one is attached. A move that cannot be judged — an
 * unread card, more changes at once than one move makes — is "cannot judge"
 * with the reason, never a guess. libc only; the caller passes the time.
 */
#ifndef TS_REFEREE_H
#define TS_REFEREE_H

#include "eleusis_dealer.h"
#include "game.h"
#include "zones.h"

typedef struct {
    /* Updates the table must stay unchanged and quiet to be settled. More
     * rides out slow hands, answers later. */
    int settle_frames; /* default 5 */
    /* More cards added + removed at once than this: cannot judge. A card
     * taken from a hand zone and laid elsewhere counts once. */
    int max_changes; /* default 12 (a Sap Ng Wu play) */
} ts_referee_config;

extern const ts_referee_config TS_REFEREE_DEFAULTS;

/* A settled table: what the before/after evidence shows. */
typedef struct {
    int w, h, n;
    ts_card cards[TS_MAX_CARDS];
    int id[TS_MAX_CARDS];
    int zone[TS_MAX_CARDS];
    double t; /* when it settled */
} ts_table_snapshot;

typedef struct ts_referee ts_referee;

/* game borrowed (static); cfg NULL = defaults. NULL when memory is short. */
ts_referee *ts_referee_create(const ts_game *game, const ts_referee_config *cfg);
void ts_referee_destroy(ts_referee *r);

/* Attaches the Eleusis dealer (borrowed; NULL detaches). */
void ts_referee_set_dealer(ts_referee *r, ts_eleusis_dealer *d);
/* Evidence from the frames (optional): asked for each card of a settled
 * move (c borrowed: a card taken as last seen, a card laid as seen now),
 * returns 1 when its place looks the same in the "before" and "after" frames.
 * A card taken that still lies there (found no more, e.g. in a shadow) makes
 * the move "cannot judge", the game's memory left as it was; a card laid
 * that already lay there (found late) is no part of the move. NULL: none. */
typedef int (*ts_referee_still_there)(void *ctx, const ts_card *c);
void ts_referee_set_evidence(ts_referee *r, ts_referee_still_there fn, void *ctx);

/* Gang of Four: the next lead is the game's first (1-5 cards with M1). */
void ts_referee_set_first_lead(ts_referee *r, int on);

/* Feeds one stable table: cards[0..n) with track ids and zones (borrowed),
 * busy = things in view not (yet) on the table plus table cards unseen now
 * (a hand over them): the table is not quiet. Returns 1 when a move settled:
 * *out holds its verdict (kind NONE: nothing to judge, e.g. cards dealt to a
 * hand) and ts_referee_before/after hold the evidence; 0 otherwise. */
int ts_referee_update(ts_referee *r, const ts_card *cards, const int *id, const int *zone, int n,
                      int w, int h, int busy, double t, ts_verdict *out);

/* 1 while the table is settled and unchanged since the last settled state
 * (a moment to take the next move's "before" picture). */
int ts_referee_quiet(const ts_referee *r);

/* The game's memory (the play to beat on the trick, ...); borrowed. */
const ts_game_memory *ts_referee_memory(const ts_referee *r);

/* The settled states of the last move (valid until the next update). */
const ts_table_snapshot *ts_referee_before(const ts_referee *r);
const ts_table_snapshot *ts_referee_after(const ts_referee *r);
/* The last move's cards: indices into before (removed) and after (added). */
const ts_move *ts_referee_move(const ts_referee *r);

#endif
