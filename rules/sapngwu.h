/* Sap Ng Wu 十五湖 (seed 004, Hong Kong version; rulings in DECISIONS.md).
 *
 * 84 Chinese domino cards: the 21 pip pairs, four copies each. Cards are the
 * domino codes of codes.h ("1:3"); a tile is its domino index 0..20.
 *
 * Suits, highest first:
 *   civil      6:6 1:1 4:4 1:3 5:5 3:3 2:2 5:6 4:6 1:6 1:5
 *   military 1 4:5 2:6 3:4 2:4 1:4 1:2
 *   military 2 3:6 3:5 2:5 2:3
 * Plays:
 *   set      one card or 2-4 identical cards; beaten only by a set of the same
 *            size and suit with a higher tile.
 *   mixed    1-4 of a civil card with 1-8 military cards of its rank: 6:6 with
 *            the nines 4:5 / 3:6, 1:1 with the eights 2:6 / 3:5, 4:4 with the
 *            sevens 3:4 / 2:5, 1:3 with the fives 1:4 / 2:3 (up to 12 cards);
 *            beaten only by a higher rank with the same number of cards from
 *            each suit (nines > eights > sevens > fives).
 *   supreme  至尊: any number of 2:4 and 1:2, at least one of each; unbeatable,
 *            beats nothing; may be laid face up before play as wu.
 * Wu: the cards of a play that stays unbeaten (the 8-card supreme: 16). A
 * player may declare at 15 wu; the payment ladder is 15-17: 1 chip, 18-20: 2,
 * 21-23: 3, 24-26: 4, 27 or more: 5 (the top of the ladder, also past 28 with
 * the doubled 8-card supreme). Four identical cards won unbeaten: every other
 * player pays 1 chip at once.
 *
 * Everything works on caller memory; no allocation, no I/O, no global state.
 */
#ifndef TS_SAPNGWU_H
#define TS_SAPNGWU_H

#include <stddef.h>
#include <stdint.h>

#include "codes.h"

enum {
    TS_SAPNGWU_TILES = 21, /* distinct cards */
    TS_SAPNGWU_COPIES = 4, /* copies of each in the deck */
    TS_SAPNGWU_DECK = 84,
    TS_SAPNGWU_MAX_CARDS = 12, /* largest play: 4 civil + 4 + 4 military */
    TS_SAPNGWU_MAX_PLAYS = 484 /* leads from any hand: 84 sets + 384 mixed + 16 supreme */
};

typedef enum { TS_SAPNGWU_CIVIL = 0, TS_SAPNGWU_MILITARY1, TS_SAPNGWU_MILITARY2 } ts_sapngwu_suit;

/* Suit of a tile, and its rank within the suit (0 = lowest). */
int ts_sapngwu_suit_of(int tile);
int ts_sapngwu_rank_of(int tile);
const char *ts_sapngwu_suit_name(int suit); /* "civil", "military 1", "military 2" */

/* ---- Hands ------------------------------------------------------------------- */

/* A multiset of cards: how many of each tile (0..4). */
typedef struct {
    uint8_t n[TS_SAPNGWU_TILES];
} ts_sapngwu_hand;

/* Counts domino codes into a hand. Returns the number of cards, or -1 with a
 * message in err for a non-domino code or more than four copies of a card. */
int ts_sapngwu_hand_from_codes(const ts_code *cards, int n, ts_sapngwu_hand *hand, char *err,
                               size_t errlen);
int ts_sapngwu_hand_size(int players); /* 28 for 3 players, 21 for 4, else -1 */

/* Deals all 84 cards to 3 or 4 players from a deterministic generator state
 * (any seed value). Returns 0, -1 for another player count. */
int ts_sapngwu_deal(uint64_t *rng, int players, ts_sapngwu_hand *hands);
uint32_t ts_sapngwu_random(uint64_t *rng); /* the deal's generator (splitmix64) */

/* ---- Plays ------------------------------------------------------------------- */

typedef enum { TS_SAPNGWU_SET = 1, TS_SAPNGWU_MIXED, TS_SAPNGWU_SUPREME } ts_sapngwu_type;

/* A play as up to three (tile, count) parts:
 *   SET      part 0 = the tile and 1..4
 *   MIXED    part 0 = civil tile, part 1 = military-1 tile, part 2 = military-2
 *            tile of one rank (a military count may be 0)
 *   SUPREME  part 0 = 2:4, part 1 = 1:2 (both >= 1); part 2 unused (count 0) */
typedef struct {
    uint8_t type; /* ts_sapngwu_type */
    uint8_t size; /* cards in the play */
    uint8_t tile[3];
    uint8_t count[3];
} ts_sapngwu_play;

/* House rules; NULL means the defaults. */
typedef struct {
    int mixed;          /* civil+military combinations allowed (default 1) */
    int supreme_lead;   /* the supreme may be led in play (default 1) */
    int supreme_double; /* the 8-card supreme counts 16 wu (default 1) */
} ts_sapngwu_options;

extern const ts_sapngwu_options TS_SAPNGWU_DEFAULTS; /* read-only */

/* Classifies a multiset of cards. Returns 0 and fills *out for a valid play;
 * -1 with the reason in why (if not NULL) otherwise. */
int ts_sapngwu_classify(const ts_sapngwu_hand *cards, const ts_sapngwu_options *opt,
                        ts_sapngwu_play *out, char *why, size_t whylen);

/* The play's cards as codes, highest part first; returns the count. */
int ts_sapngwu_play_codes(const ts_sapngwu_play *play, ts_code out[TS_SAPNGWU_MAX_CARDS]);
/* The play's cards as a multiset. */
void ts_sapngwu_play_hand(const ts_sapngwu_play *play, ts_sapngwu_hand *out);

/* A short description: "pair of 6:6 (civil)", "mixed eights (1 civil,
 * 0 military 1, 2 military 2)", "supreme: 2 x 2:4 + 1 x 1:2". Returns the
 * length like snprintf. */
int ts_sapngwu_describe(const ts_sapngwu_play *play, char *out, size_t cap);
const char *ts_sapngwu_type_name(int type); /* "set", "mixed", "supreme" */

typedef enum {
    TS_SAPNGWU_LOWER = -1,
    TS_SAPNGWU_EQUAL = 0, /* same composition and rank: neither beats the other */
    TS_SAPNGWU_HIGHER = 1,
    TS_SAPNGWU_INCOMPARABLE = 2 /* different type, size, suit or composition; supremes */
} ts_sapngwu_order;

/* Orders two valid plays; a strict order on each class of comparable plays. */
ts_sapngwu_order ts_sapngwu_compare(const ts_sapngwu_play *a, const ts_sapngwu_play *b);
int ts_sapngwu_beats(const ts_sapngwu_play *a, const ts_sapngwu_play *b);

/* ---- Legal plays ------------------------------------------------------------- */

/* Every play that could be led from the hand, best first: the plays the fewest
 * kinds of card could beat, then more cards, then supreme, mixed, set, then
 * civil, military 1, military 2. out holds TS_SAPNGWU_MAX_PLAYS. Returns the count. */
int ts_sapngwu_list_leads(const ts_sapngwu_hand *hand, const ts_sapngwu_options *opt,
                          ts_sapngwu_play *out);

/* Every play from the hand that beats the trick, highest first (0 = pass).
 * out holds TS_SAPNGWU_MAX_PLAYS. Returns the count, -1 if the trick is invalid. */
int ts_sapngwu_list_follows(const ts_sapngwu_hand *hand, const ts_sapngwu_play *trick,
                            ts_sapngwu_play *out);

/* Could any play made of the unseen cards beat this play? 0 means it is sure
 * to win its trick. */
int ts_sapngwu_beatable(const ts_sapngwu_play *play, const ts_sapngwu_hand *unseen);

/* The largest supreme in the hand (all its 2:4 and 1:2), to lay before play.
 * Returns 1 and fills *out, or 0 if the hand holds none. */
int ts_sapngwu_supreme_in_hand(const ts_sapngwu_hand *hand, ts_sapngwu_play *out);

/* ---- Wu and payments --------------------------------------------------------- */

/* Wu a play earns when it stays unbeaten (or is laid face up, for a supreme). */
int ts_sapngwu_wu(const ts_sapngwu_play *play, const ts_sapngwu_options *opt);
/* Sets of four identical cards in the play: each makes every other player pay
 * 1 chip at once when the play is won unbeaten. */
int ts_sapngwu_quads(const ts_sapngwu_play *play);
/* Chips each other player pays a declaration at this many wu (0 below 15). */
int ts_sapngwu_chips(int wu);
/* May a player with `wu` declare, having last let a declaration pass at
 * `declined_at` wu (0 if never)? Only once the payment has gone up. */
int ts_sapngwu_may_declare(int wu, int declined_at);

#endif
