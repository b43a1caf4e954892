/* SET: the Set test, the completing card, every Set on a table, the +3 decision,
 * the hint ladder and the connection-grid variant of seed 000 (接配遊戲).
 *
 * Cards are SET indices 0..80 as in codes.h. Card lists are borrowed (caller
 * owns them); results go to caller-provided arrays. Pure functions, no
 * allocation, no global state. Rulings: docs/rules/DECISIONS.md "SET".
 */
#ifndef TS_SET_H
#define TS_SET_H

/* ---- The Set test --------------------------------------------------------- */

/* 1 if a, b, c form a Set: every attribute all-same or all-different, and the
 * three cards distinct (three identical cards are NOT a Set). */
int ts_set_is_set(int a, int b, int c);

/* The unique card completing a Set with a and b (a != b). For a == b it
 * returns a, which ts_set_is_set rejects. */
int ts_set_third(int a, int b);

/* Every Set among cards[0..n) as ascending position triples i<j<k into cards[],
 * in lexicographic order. Returns the number of Sets (may exceed max; only the
 * first max are written). Duplicate cards are allowed; each position counts. */
int ts_set_find_all(const int *cards, int n, int (*sets)[3], int max);

/* 1 if two positions hold the same card (a recognition conflict: one deck has
 * no duplicates); *i < *j is the first such pair. 0 otherwise. */
int ts_set_has_duplicates(const int *cards, int n, int *i, int *j);

/* 1 if any Set exists; its positions (the first in find_all order) go to
 * set[3] when set is not NULL. */
int ts_set_exists(const int *cards, int n, int set[3]);

/* ---- Table flow (seed 000: 12 cards, +3 when nobody finds a Set) ----------- */

enum { TS_SET_TABLE_SIZE = 12 };

typedef enum {
    TS_SET_TAKE_A_SET = 0, /* a Set is on the table */
    TS_SET_DEAL_THREE,     /* no Set and the deck has cards: deal 3 more */
    TS_SET_ROUND_OVER      /* no Set and the deck is empty */
} ts_set_table_state;

ts_set_table_state ts_set_table_decision(const int *cards, int n, int deck_left);

/* Cards to deal after a Set was taken, leaving table_left cards: back up to 12,
 * never beyond (a table that grew to 15 is not refilled), bounded by the deck. */
int ts_set_refill(int table_left, int deck_left);

/* Solo play (seed 000, 單人玩法): asking for 3 more cards when a Set existed
 * costs 1 point. Returns the penalty (1 or 0) for asking on this table. */
int ts_set_deal_request_penalty(const int *cards, int n);

/* ---- Hints: one card of a Set, then two, then the whole Set ---------------- */

/* Writes min(level, 3) positions of one Set (the same Set for every level, so
 * the ladder climbs consistently) and returns how many were written; 0 when
 * there is no Set or level < 1. */
int ts_set_hint(const int *cards, int n, int level, int out[3]);

/* ---- Connection variant (seed 000 接配遊戲) ------------------------------------
 * Cards lie on a grid. A move places 1 or 2 hand cards on empty cells. A Set
 * counts when three cards lie in consecutive cells of a row, column or diagonal
 * (both directions) and at least one of them was just placed; the move scores
 * one point per such Set (three at once = 3).
 * Project rulings where the seed is silent (see the report to DECISIONS.md):
 *   - every placed card must be part of a Set the move completes (the seed only
 *     lets you place when your card(s) complete a Set; otherwise you draw 1);
 *   - two placed cards touch each other (8-neighbourhood: one placement), unless
 *     rules.pair_may_be_apart is set.
 * The grid is bounded: give it a margin of 2 empty cells on each side to model
 * the open table. */

enum { TS_SET_GRID_MAX = 24, TS_SET_EMPTY = -1 };

typedef struct {
    int rows, cols;                                     /* used part of cell[][] */
    signed char cell[TS_SET_GRID_MAX][TS_SET_GRID_MAX]; /* card 0..80 or TS_SET_EMPTY */
} ts_set_grid;

typedef struct {
    int max_cards;         /* cards per move: 1 or 2 (default 2) */
    int pair_may_be_apart; /* two placed cards need not touch (default 0) */
} ts_set_grid_rules;

extern const ts_set_grid_rules TS_SET_GRID_DEFAULTS; /* {2, 0} */

typedef struct {
    int ncards;         /* 1 or 2 */
    int hand[2];        /* positions in the hand array */
    int row[2], col[2]; /* where each goes */
    int score;          /* Sets completed */
} ts_set_grid_move;

/* Fills the grid with TS_SET_EMPTY and sets its size (clamped to the maximum). */
void ts_set_grid_clear(ts_set_grid *g, int rows, int cols);

/* Sets the move completes: windows of 3 consecutive occupied cells through a
 * placed cell holding a Set. The placed cells must be empty in g. */
int ts_set_grid_score(const ts_set_grid *g, const ts_set_grid_move *m, const int *hand);

/* Every legal move from hand[0..nhand), best first (score, then cards placed,
 * then hand position, then cell). Returns the count of legal moves (may exceed
 * max; the best max are written). rules NULL = defaults. */
int ts_set_grid_moves(const ts_set_grid *g, const int *hand, int nhand,
                      const ts_set_grid_rules *rules, ts_set_grid_move *out, int max);

#endif
