/* Eleusis (seed 003): the secret-rule language, judging plays, and scoring.
 *
 * The dealer's secret rule is written in a small infix language, compiled once
 * into an opaque ts_eleusis_rule, then asked whether a candidate card may follow
 * the mainline (the cards played correctly so far, starter card first).  Only
 * mainline cards are visible to a rule, never sideline (wrong) cards.
 *
 * ---- The rule language ------------------------------------------------------
 *
 *   rule      := expr                               (must be true/false)
 *   expr      := or
 *   or        := and { 'or' and }
 *   and       := not { 'and' not }
 *   not       := 'not' not | compare
 *   compare   := sum [ cmpop sum | 'in' sum '..' sum ]      (no chaining)
 *   cmpop     := '==' | '=' | '!=' | '<' | '<=' | '>' | '>='
 *   sum       := product { ('+' | '-') product }
 *   product   := unary { ('*' | '/' | 'mod' | '%') unary }
 *   unary     := '-' unary | primary
 *   primary   := NUMBER | constant | 'length'
 *              | attribute                    the candidate card's attribute
 *              | cardref '.' attribute
 *              | func '(' expr { ',' expr } ')'
 *              | 'if' expr 'then' expr 'else' expr      (else reaches right)
 *              | '(' expr ')'
 *   cardref   := 'card'                       the candidate
 *              | 'prev' | 'previous'          the last mainline card
 *              | 'prevN' | 'previousN'        N cards back, N = 1..32
 *              | 'first'                      the starter card
 *   attribute := 'value'   1..13 (A=1, J=11, Q=12, K=13)
 *              | 'suit'    clubs < diamonds < hearts < spades
 *              | 'colour' | 'color'   red (D, H) or black (C, S)
 *              | 'face'    true for J, Q, K
 *   func      := 'odd' | 'even' (number -> true/false)
 *              | 'abs' (number) | 'min' | 'max' (two numbers)
 *   constant  := 'true' | 'false' | 'red' | 'black'
 *              | 'club(s)' | 'diamond(s)' | 'heart(s)' | 'spade(s)'
 *              | 'ace' | 'jack' | 'queen' | 'king' | 'A' | 'T' | 'J' | 'Q' | 'K'
 *   'length'  = number of mainline cards before the candidate.
 *
 * Words are case-insensitive; '#' starts a comment to the end of the line.
 * Types are checked when compiling: arithmetic and 'in' take numbers; '<' etc.
 * take numbers or suits; '==' and '!=' take two things of one type; and/or/not
 * and the condition of 'if' take true/false; both branches of 'if' have one type.
 * Numbers are integers (literals up to 1000000). '/' and 'mod' round down like
 * floor division, so 'mod' is never negative for a positive divisor; dividing
 * by zero gives 0 (a literal zero divisor is a compile error).
 *
 * History rule (seed note 2): a rule that mentions prevN (or first) needs N
 * mainline cards (first: 1); until that many exist, every card is right.
 *
 * The seed's three example rules:
 *   odd(value) != odd(prev.value)
 *   if prev.colour == prev2.colour then value in 1..7 else value in 7..K
 *   value mod 4 == (if prev.suit == clubs then 1 else if prev.suit == diamonds
 *                   then 2 else if prev.suit == hearts then 3 else 0)
 * Wrap-around values (seed note 1: Q-K-A-2): value == prev.value mod 13 + 1.
 *
 * ---- Ownership --------------------------------------------------------------
 * ts_eleusis_compile allocates the rule; the caller frees it with
 * ts_eleusis_free. Compiled rules are immutable and may be shared by threads.
 * Everything else works on caller memory; no I/O, no global state.
 */
#ifndef TS_ELEUSIS_H
#define TS_ELEUSIS_H

#include <stddef.h>

#include "codes.h"

/* ---- Compiling rules --------------------------------------------------------- */

typedef struct ts_eleusis_rule ts_eleusis_rule;

enum { TS_ELEUSIS_MAX_RULE_LEN = 65536, TS_ELEUSIS_MAX_BACK = 32 };

typedef struct {
    int pos;       /* 1-based byte position of the offending token, 0 if none */
    char msg[192]; /* "position 14: expected ')' but found 'and'" */
} ts_eleusis_error;

/* Compiles a rule. Returns NULL on error and fills err (if not NULL). */
ts_eleusis_rule *ts_eleusis_compile(const char *text, ts_eleusis_error *err);
void ts_eleusis_free(ts_eleusis_rule *rule);

/* Mainline cards the rule needs before it applies (0 = judges from the start). */
int ts_eleusis_history_needed(const ts_eleusis_rule *rule);

/* Writes the rule back in canonical, fully parenthesised form (snprintf-like:
 * returns the length it needs; out may be NULL when cap is 0). */
size_t ts_eleusis_format(const ts_eleusis_rule *rule, char *out, size_t cap);

/* ---- Judging ----------------------------------------------------------------- */

/* Is `card` right after mainline[0..n)?  1 right, 0 wrong, -1 bad input (NULL
 * rule, n < 0, or a card that is not a playing card). */
int ts_eleusis_judge(const ts_eleusis_rule *rule, const ts_code *mainline, int n, ts_code card);

/* A string of cards (New Eleusis: 2-4 cards) is right only if each card is right
 * after the mainline plus the string cards before it. Returns 1 if all are right,
 * 0 if not (then *first_wrong, if not NULL, is the index in cards[] of the first
 * wrong card), -1 on bad input. To check a whole mainline, pass its starter as
 * the mainline and the rest as the string. */
int ts_eleusis_judge_string(const ts_eleusis_rule *rule, const ts_code *mainline, int n,
                            const ts_code *cards, int k, int *first_wrong);

/* How many of the 52 card kinds would be right after mainline[0..n) (seed note 3:
 * a fair rule leaves at least a fifth of the deck playable). -1 on bad input. */
int ts_eleusis_count_right(const ts_eleusis_rule *rule, const ts_code *mainline, int n);

/* Is any of cards[0..k) right after mainline[0..n)? 1 yes, 0 no, -1 bad input.
 * Seed step 7: phase 2 ends when no remaining card can be right; only right
 * cards change the mainline, so "none is right now" means none ever will be. */
int ts_eleusis_any_right(const ts_eleusis_rule *rule, const ts_code *mainline, int n,
                         const ts_code *cards, int k);

/* ---- Scoring ----------------------------------------------------------------- */

enum { TS_ELEUSIS_MAX_PLAYERS = 16 };

typedef enum {
    TS_ELEUSIS_SCORE_SEED = 0, /* default: seed 003, two phases */
    TS_ELEUSIS_SCORE_NEW       /* New Eleusis (Abbott 1977 / Matuszek) */
} ts_eleusis_scoring;

/* One finished round, players not counting the dealer. Unused fields stay 0.
 *   Seed scoring:  wrong[] = cards each player holds at the end of phase 1 (their
 *                  rejected cards) -> dealer score;  left[] = cards each player
 *                  still holds when phase 2 ends -> player scores.
 *   New Eleusis:   left[] = cards held at the end (prophet included);
 *                  prophet = index of the surviving prophet or -1, with the right
 *                  and wrong cards played after the marker and the cards played
 *                  (mainline and sideline) before it. */
typedef struct {
    int players;
    int wrong[TS_ELEUSIS_MAX_PLAYERS];
    int left[TS_ELEUSIS_MAX_PLAYERS];
    int prophet;
    int prophet_right, prophet_wrong, before_marker;
} ts_eleusis_round;

typedef struct {
    double dealer;
    double player[TS_ELEUSIS_MAX_PLAYERS]; /* seed: the +6 bonus is split on ties */
} ts_eleusis_scores;

/* Seed dealer score: sum of all wrong counts minus players x the fewest
 * (= the others' sum minus (n-1) x the best; two players: the difference). */
int ts_eleusis_seed_dealer_score(const int *wrong, int players);

/* Seed player scores: (sum of cards left) - players x own, floor 0; the player(s)
 * with the fewest cards left share a 6-point bonus. Returns 0, -1 on bad input. */
int ts_eleusis_seed_player_scores(const int *left, int players, double *out);

/* Scores a round under either system. Returns 0, -1 on bad input (player count
 * out of 1..TS_ELEUSIS_MAX_PLAYERS, negative counts, prophet out of range). */
int ts_eleusis_score(const ts_eleusis_round *round, ts_eleusis_scoring scoring,
                     ts_eleusis_scores *out);

#endif
