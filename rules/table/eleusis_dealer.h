/* The automatic Eleusis dealer (seed 003): holds the secret rule the players
 * do not see, judges each card placed at the end of the mainline at once,
 * flags a wrong card for the sideline, counts each player's wrong cards
 * (players play in turn), and scores both phases the seed's way.
 *
 *   phase 1  players play from their hands; a wrong card goes back face up in
 *            front of its player. Ends on the dealer's word (ts_eleusis_dealer_
 *            end_phase1): the dealer's score = the seed's from the wrong counts.
 *   phase 2  players play from those wrong cards; ends when one player has none
 *            left or no remaining card can be right; then the players' scores.
 *
 * The first card of the mainline is the starter (never judged). The rule is
 * shown only by ts_eleusis_dealer_reveal. Owns its compiled rule; libc only.
 */
#ifndef TS_ELEUSIS_DEALER_H
#define TS_ELEUSIS_DEALER_H

#include <stddef.h>

#include "eleusis.h"
#include "game.h"

typedef struct ts_eleusis_dealer ts_eleusis_dealer;

enum { TS_DEALER_MAX_MAINLINE = 256, TS_DEALER_MAX_WRONG = 64 };

/* Compiles rule_text; players 1..TS_ELEUSIS_MAX_PLAYERS (not the dealer).
 * NULL with a one-line reason in err. Caller destroys. */
ts_eleusis_dealer *ts_eleusis_dealer_create(const char *rule_text, int players, char *err,
                                            size_t errlen);
void ts_eleusis_dealer_destroy(ts_eleusis_dealer *d);

/* A card placed at the end of the mainline by the player whose turn it is.
 * The first card ever placed is the starter. Fills *out (LEGAL "right",
 * ILLEGAL "wrong: to the sideline", INFO "starter") and passes the turn. */
void ts_eleusis_dealer_place(ts_eleusis_dealer *d, ts_code card, ts_verdict *out);

/* Ends phase 1: returns the dealer's score (seed). */
int ts_eleusis_dealer_end_phase1(ts_eleusis_dealer *d);
/* 1 or 2; 3 once phase 2 has ended (a player is out, or no card can be right). */
int ts_eleusis_dealer_phase(const ts_eleusis_dealer *d);
/* Player scores (seed) from the cards each still holds in phase 2; the dealer's
 * score from phase 1. Returns 0, -1 before phase 1 ended. */
int ts_eleusis_dealer_scores(const ts_eleusis_dealer *d, ts_eleusis_scores *out);
/* Wrong cards each player holds now (phase 1: taken back; phase 2: left). */
int ts_eleusis_dealer_wrong(const ts_eleusis_dealer *d, int player);
/* The mainline (accepted cards, starter first); returns its length. */
int ts_eleusis_dealer_mainline(const ts_eleusis_dealer *d, const ts_code **cards);
/* Whose turn it is (0-based). */
int ts_eleusis_dealer_turn(const ts_eleusis_dealer *d);
/* The secret rule in canonical form (snprintf-like). */
size_t ts_eleusis_dealer_reveal(const ts_eleusis_dealer *d, char *out, size_t cap);

#endif
