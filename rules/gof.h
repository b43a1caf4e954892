/* Gang of Four (seed 001): combinations, their order, legal plays, scoring and
 * the between-hands exchange.
 *
 * Cards are Gang of Four indices as in codes.h: colour*10 + number-1 with
 * colour G Y R (0..29, two copies of each in the deck), 60 = M1, 61 = GP,
 * 62 = YP, 63 = RD; 30..59 are no cards. Card lists are
 * borrowed; results go to caller-provided structs. Pure functions, no
 * allocation, no global state. Rulings: docs/rules/DECISIONS.md "Gang of Four".
 */
#ifndef TS_GOF_H
#define TS_GOF_H

#include <stdint.h>

enum {
    TS_GOF_NUMBERS = 30, /* number cards are 0..29 */
    TS_GOF_M1 = 60,
    TS_GOF_GP = 61,
    TS_GOF_YP = 62,
    TS_GOF_RD = 63,
    TS_GOF_NKINDS = 64,
    TS_GOF_MAX_COMBO = 7,  /* a gang of seven 1s */
    TS_GOF_GAME_END = 100, /* the game ends when a total reaches this */
};

/* In rising order; the four 5-card types rank in this order too. */
typedef enum {
    TS_GOF_SINGLE = 0,
    TS_GOF_PAIR,
    TS_GOF_THREE,
    TS_GOF_STRAIGHT,
    TS_GOF_FLUSH,
    TS_GOF_FULL_HOUSE,
    TS_GOF_STRAIGHT_FLUSH,
    TS_GOF_GANG, /* 4-7 cards of one number */
    TS_GOF_NTYPES
} ts_gof_type;

typedef struct {
    ts_gof_type type;
    int n;                           /* cards */
    uint8_t cards[TS_GOF_MAX_COMBO]; /* strongest first; full house: trio, then pair */
} ts_gof_combo;

/* Why a multiset is no combination. */
typedef enum {
    TS_GOF_OK = 0,
    TS_GOF_ERR_EMPTY,
    TS_GOF_ERR_SIZE,
    TS_GOF_ERR_CARD,
    TS_GOF_ERR_COPIES,
    TS_GOF_ERR_DRAGON,
    TS_GOF_ERR_PHOENIX,
    TS_GOF_ERR_PAIR,
    TS_GOF_ERR_THREE,
    TS_GOF_ERR_GANG,
    TS_GOF_ERR_WRAP,
    TS_GOF_ERR_FIVE,
    TS_GOF_NERRS
} ts_gof_error;

/* "single", "pair", "three", "straight", "flush", "full house", "straight flush", "gang". */
const char *ts_gof_type_name(ts_gof_type t);
/* A sentence saying why, e.g. "the dragon is played only as a single". */
const char *ts_gof_error_text(ts_gof_error e);

/* ---- Cards ------------------------------------------------------------------- */

/* Number 1..10 (M1 = 1), 11 for a phoenix, 12 for the dragon (seed: 鳳 = 11, 龍 = 12). */
int ts_gof_value(int card);
/* Single-card strength: value, then colour G < Y < R < M1. Higher is stronger. */
int ts_gof_card_rank(int card);
/* Copies the deck holds: 2 of a number card, 1 of a special, 0 of a non-card. */
int ts_gof_deck_copies(int card);

/* ---- Combinations ------------------------------------------------------------ */

/* Classifies cards[0..n) (any order). Fills *out on success. */
ts_gof_error ts_gof_classify(const int *cards, int n, ts_gof_combo *out);

/* 1 if a and b can be compared: both gangs, a gang and anything, or two
 * non-gangs with the same number of cards. */
int ts_gof_comparable(const ts_gof_combo *a, const ts_gof_combo *b);
/* -1, 0, 1 as a is weaker, equal, stronger than b (only when comparable).
 * Gang > non-gang; gangs by size then number; 5-card types straight < flush <
 * full house < straight flush; then card by card from the strongest. */
int ts_gof_compare(const ts_gof_combo *a, const ts_gof_combo *b);
/* 1 if play may follow trick: comparable and strictly stronger. */
int ts_gof_beats(const ts_gof_combo *play, const ts_gof_combo *trick);

/* 1 if the combination holds the multicoloured 1. */
int ts_gof_has_m1(const ts_gof_combo *c);

/* 1 if the combination may be the game's first lead: 1-5 cards holding M1
 * (seed 001; gangs of 6 and 7 cannot open the game). */
int ts_gof_may_open(const ts_gof_combo *c);

/* Why a valid combination may not be played: NULL if it may; otherwise one
 * sentence ("it is lower than the trick", "it only equals the trick (equal is
 * not enough)", "the first lead of the game must contain M1", ...). trick NULL
 * = leading; first_lead: the game's first lead. Static strings. */
const char *ts_gof_refusal(const ts_gof_combo *play, const ts_gof_combo *trick, int first_lead);

/* Every legal play from hand[0..n) against trick (NULL = leading), each
 * multiset once, best first: gangs (strongest first), then more cards before
 * fewer, then stronger before weaker. first_lead: the game's first lead, which
 * is 1-5 cards and contains M1. Passing (when following) is always legal and not listed.
 * Returns the count (may exceed max; the best max are written). */
int ts_gof_legal_plays(const int *hand, int n, const ts_gof_combo *trick, int first_lead,
                       ts_gof_combo *out, int max);

/* ---- Scoring and the exchange ------------------------------------------------- */

/* Penalty for the cards left in a hand: 1-7 x1, 8-10 x2, 11-13 x3, 14-15 x4, 16 x5. */
int ts_gof_hand_penalty(int cards_left);

/* Index of the winner (lowest total) once a total reached TS_GOF_GAME_END,
 * the first such seat on a tie; -1 while the game goes on. */
int ts_gof_game_winner(const int *totals, int nplayers);

/* Position in hand of the card the loser must give: the highest single. */
int ts_gof_best_card(const int *hand, int n);

/* The seat that gives its best card before the next hand: the highest hand
 * penalty; ties go to the higher game total, then to the seat nearest the
 * winner counter-clockwise. Seats are numbered counter-clockwise. */
int ts_gof_exchange_giver(const int *hand_penalty, const int *totals, int nplayers, int winner);

#endif
