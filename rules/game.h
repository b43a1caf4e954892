/* The game interface: one small table per game and a registry, so the live
 * overlay, the referee, `scan` and `tablesight rules` all ask the same code
 * what a table state means.
 *
 * A table state is the cards on the table (ts_card, borrowed) with each card's
 * zone (rules/table/zones.h). Only cards read above the confidence floor are
 * used; the rest are counted as unread and never guessed.
 *
 *   analyse  what the game makes of one state: hint groups (Sets, legal plays
 *            drawn on hand cards, table groups valid or not), a headline
 *   judge    a verdict on a move between two settled states (the referee)
 *   report   the game's members of the JSON object of a frame
 *
 * Everything works on caller memory; no I/O, no global mutable state.
 */
#ifndef TS_GAME_H
#define TS_GAME_H

#include <stddef.h>

#include "card.h"
#include "codes.h"
#include "report.h"
#include "zones.h"

enum {
    TS_VIEW_MAX_GROUPS = 256, /* hint groups kept, best first (every Set of 21 cards) */
    TS_VIEW_GROUP_MAX = 12,  /* cards in one group (a 12-card Sap Ng Wu play) */
    TS_TEXT_MAX = 200,
    TS_REASON_MAX = 400 /* a verdict's reason: a hand's end names every seat's score */
};

/* What a group of cards is, for drawing and JSON. */
typedef enum {
    TS_MARK_HINT = 0, /* a Set, a legal play: a suggestion */
    TS_MARK_GOOD,     /* a valid table group, a right card */
    TS_MARK_BAD,      /* an invalid group, a wrong card */
    TS_MARK_INFO      /* the trick, the mainline: context */
} ts_mark;

typedef struct {
    int n;
    int card[TS_VIEW_GROUP_MAX]; /* indices into the state's cards */
    ts_mark mark;
    int score;       /* Qwirkles of a play, the Sets of a placement; 0 otherwise */
    char label[48];  /* "pair", "QWIRKLE", "invalid: two identical cards" */
} ts_view_group;

/* One state as the game sees it. */
typedef struct {
    const ts_card *cards; /* borrowed */
    int n;
    const int *zone; /* zone value of each card (zones.h: kind and seat); NULL = all TS_ZONE_TABLE */
    int w, h;        /* frame size (for geometry: groups, order along a line) */
} ts_game_state;

/* Per-game options the front ends set. */
typedef struct {
    int hint_level; /* SET ladder: 0 nothing, 1 one card of a Set, 2 two, 3 the Set,
                       4 every Set (default 4: every Set, as before) */
    int first_lead; /* Gang of Four: the game's first lead (1-5 cards with M1) */
    /* Climbing games: the play to beat as the referee saw it laid (older plays
     * still lie on the trick); 0 = the trick zone's cards are the play. */
    int ntrick;
    ts_code trick[TS_VIEW_GROUP_MAX];
} ts_game_opts;

extern const ts_game_opts TS_GAME_OPTS_DEFAULT;

typedef struct {
    int count;      /* Sets, legal plays, invalid groups: the game's main number */
    int ngroups;    /* groups kept (<= TS_VIEW_MAX_GROUPS), best first */
    ts_view_group group[TS_VIEW_MAX_GROUPS];
    int show_groups; /* groups to draw (the SET hint ladder); -1 = all */
    int show_cards;  /* cards of the last shown group to draw; -1 = all */
    int unread;     /* cards in play that are not read (not used) */
    int conflict;   /* more copies of a card than the deck holds: one is misread */
    int pass;       /* climbing games: nothing in hand beats the trick */
    int leading;    /* climbing games: the trick is empty, the hand leads */
    char headline[TS_TEXT_MAX]; /* "3 Sets", "no Set: deal three more", "pass" */
} ts_game_view;

/* ---- Moves and verdicts (the referee) ---------------------------------------- */

typedef enum {
    TS_VERDICT_NONE = 0,  /* nothing to judge (e.g. cards dealt to a hand) */
    TS_VERDICT_LEGAL,     /* a legal move / a valid Set / a right card */
    TS_VERDICT_ILLEGAL,   /* the move breaks a rule: reason says which */
    TS_VERDICT_INFO,      /* an event: a trick won, a Qwirkle taken, a penalty */
    TS_VERDICT_CANNOT     /* cannot judge: reason says why */
} ts_verdict_kind;

enum { TS_MOVE_MAX = 24 };

/* A move: cards added (indices into after) and removed (indices into before). */
typedef struct {
    int nadded, nremoved;
    int added[TS_MOVE_MAX];
    int removed[TS_MOVE_MAX];
} ts_move;

/* What the referee remembers between moves, per game. Seats are 1..TS_SEATS_MAX
 * (zones.h); index 0 is unused. */
typedef struct {
    int nlast;                      /* the play to beat on the trick (0: none) */
    ts_code last[TS_VIEW_GROUP_MAX];
    int seat;                       /* whose play that is (0: not known) */
    int first_lead;                 /* Gang of Four: the next lead is the game's first */
    int plays;                      /* plays judged legal since the trick opened */
    int seen[TS_SEATS_MAX + 1];     /* seats whose hand zone has held cards */
    int total[TS_SEATS_MAX + 1];    /* Gang of Four: penalty points over the game's hands;
                                       Sap Ng Wu: wu won this hand */
} ts_game_memory;

/* A seat's standing when a hand ends (or, Sap Ng Wu, when a trick is won). */
typedef struct {
    int seat;
    int cards_left; /* cards in the seat's hand zone, read or not */
    int points;     /* Gang of Four: this hand's penalty points */
    int total;      /* Gang of Four: the game's total; Sap Ng Wu: wu this hand */
    int chips;      /* Sap Ng Wu: what each other player pays a declaration now */
} ts_seat_score;

typedef enum { TS_SCORES_NONE = 0, TS_SCORES_PENALTY, TS_SCORES_WU } ts_scores_kind;

typedef struct {
    ts_verdict_kind kind;
    int zone;                     /* the zone of the move (ts_zone_kind) */
    int ncards;
    ts_code cards[TS_MOVE_MAX];   /* the cards of the move */
    char verdict[32];             /* "legal", "illegal", "valid Set", "not a Set", ... */
    char reason[TS_REASON_MAX];   /* why, in one sentence */
    int points;                   /* what the move scores (Qwirkle tiles); 0: not scored */
    int seat;                     /* who moved (the seat whose hand the cards left); 0 unknown */
    int hand_over;                /* a hand emptied: the hand is over, scores below */
    int game_over;                /* Gang of Four: a total reached 100 */
    ts_scores_kind scores;        /* what nscores/score hold */
    int nscores;
    ts_seat_score score[TS_SEATS_MAX];
} ts_verdict;

const char *ts_verdict_kind_name(ts_verdict_kind k); /* "none" "legal" "illegal" "info" "cannot judge" */

/* ---- The interface -------------------------------------------------------------- */

typedef struct ts_game ts_game;

struct ts_game {
    const char *name;  /* "set", "gof", "qwirkle", "eleusis", "sapngwu", "setgrid", "qwtiles" */
    const char *title; /* "SET", "Gang of Four", ... */
    ts_family family;  /* the cards it is played with */
    /* Fills *v for state s. Returns 0. */
    int (*analyse)(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v);
    /* A verdict on move m from before to after; mem is the game's memory, updated. */
    void (*judge)(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                  ts_game_memory *mem, ts_verdict *out);
    /* A card never changes in place (SET, Qwirkle tiles): a new reading
     * there is the reader changing its mind, not a move. */
    int fixed_cards;
};

/* What `tablesight rules GAME` answers in card codes, and the JSON of those
 * answers through the same writer: answers.h. */

/* The registry: every game, in a fixed order; NULL-terminated. */
const ts_game *const *ts_games(void);
/* The game of a name ("set", "gof", ...; the card family names "playing" and
 * "domino" name Eleusis and Sap Ng Wu), NULL if unknown. */
const ts_game *ts_game_find(const char *name);
/* The game played with a card family (-1 or unknown: NULL). */
const ts_game *ts_game_for_family(int family);

/* Analyses s (opts NULL = defaults); view's headline names unread cards too. */
int ts_game_analyse(const ts_game *g, const ts_game_state *s, const ts_game_opts *opts,
                    ts_game_view *v);

/* Writes the game's members into an object the caller opened:
 *   "hints": [{"cards":[i,...],"mark":"hint","label":"...","score":n}, ...],
 *   "count", "headline", "unread", "conflict", and per game: "sets" (SET: the
 *   index triples, as before), "pass"/"leading" (climbing games). */
void ts_game_report(const ts_game *g, const ts_game_view *v, const ts_writer *w);

/* A verdict's members (time t in seconds, game, zone, cards, kind, verdict,
 * reason; "seat", "hand_over", "game_over" and "scores" where known) into an
 * object the caller opened (and closes). */
void ts_verdict_report(const ts_verdict *v, const char *game, double t, const ts_writer *w);

/* ---- Helpers the game files share ------------------------------------------------ */

/* The zone kind of card i (TABLE when s->zone is NULL), without its seat. */
int ts_game_zone(const ts_game_state *s, int i);
/* The seat of card i's hand zone (0: none or unnamed). */
int ts_game_seat(const ts_game_state *s, int i);
/* Cards (read or not) in seat's hand zone. */
int ts_game_seat_cards(const ts_game_state *s, int seat);
/* The seat a move's cards came from: the one seated hand every card the
 * move took from a hand left (0: none, unnamed, or more than one). */
int ts_move_seat(const ts_game_state *before, const ts_move *m);
/* Marks the seats whose hand zone holds cards in s as seen. */
void ts_memory_see_seats(ts_game_memory *mem, const ts_game_state *s);
/* Indices of the read cards of zone z (z < 0: every zone but OFF) into idx[];
 * returns how many; *unread counts that zone's unread cards (may be NULL). */
int ts_game_cards_in(const ts_game_state *s, int z, int *idx, int *unread);
/* The cards a move laid in zone z (indices into after, into placed[], room
 * for TS_MOVE_MAX; returns how many), and how many it took from z (into
 * *cleared, may be NULL). */
int ts_move_in_zone(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                    int z, int *placed, int *cleared);
/* What a move did to a climbing game's trick zone. TS_TRICK_PLAY: it laid
 * cards there (placed[0..*np), out's seat and cards are set); TS_TRICK_SWEPT:
 * it took the whole trick after the remembered play (the game says who won
 * it); TS_TRICK_NOTHING: out's verdict is set (none, or cannot judge). */
typedef enum { TS_TRICK_NOTHING, TS_TRICK_SWEPT, TS_TRICK_PLAY } ts_trick_move;
ts_trick_move ts_move_on_trick(const ts_game_state *before, const ts_game_state *after,
                               const ts_move *m, const ts_game_memory *mem, ts_verdict *out,
                               int *placed, int *np);
/* Sets "no cards placed on the trick" (a move that did nothing there). */
void ts_verdict_no_trick_move(ts_verdict *out);
/* One score row per seen seat (seat, cards left in its hand zone after the
 * move, the memory's running total) into out's score[]; returns how many. */
int ts_verdict_seen_seats(ts_verdict *out, const ts_game_memory *mem, const ts_game_state *after);
/* Appends a group to v (kept only while there is room; count is the caller's). */
ts_view_group *ts_view_add(ts_game_view *v, ts_mark mark, const char *label);
/* Spatial groups of the given cards: cards whose centres lie within `reach`
 * card diagonals of each other are one group. group_of[k] for idx[k]; returns
 * the number of groups, numbered by their leftmost card. */
int ts_game_cluster(const ts_game_state *s, const int *idx, int n, float reach, int *group_of);

/* Puts into g the hand positions (idx[]) holding codes[0..n), each position
 * used once. Returns 0, -1 if the hand lacks one. */
int ts_game_pick(const ts_game_state *s, const int *idx, int nidx, const ts_code *codes, int n,
                 ts_view_group *g);
/* The climbing games' table: the read cards of the trick (only the newest
 * play when o names it: older plays lie under it) and of the hand, into
 * trick_idx/hand_idx (room for TS_MAX_CARDS each). Sets v's unread count.
 * Returns 0 with v's headline set when the trick has an unread card (no
 * hints then), else 1. */
int ts_game_trick_and_hand(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v,
                           int *trick_idx, int *nt, int *hand_idx, int *nh);
/* Codes of the cards idx[0..n) as text "G7 Y7" into out. */
void ts_game_codes_text(const ts_code *codes, int n, char *out, size_t cap);
/* Fills the verdict's cards from state cards idx[0..n); returns 1 if every one
 * is read, else 0 with a "cannot judge" verdict naming the unread card. */
int ts_verdict_cards(ts_verdict *v, const ts_game_state *s, const int *idx, int n);
/* Sets kind, verdict word and reason (printf-like). */
void ts_verdict_set(ts_verdict *v, ts_verdict_kind kind, const char *verdict, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Eleusis: the read MAINLINE cards in order along the line (left to right). */
int ts_eleusis_mainline_order(const ts_game_state *s, int *idx, int *unread);

/* The games (game_*.c). */
extern const ts_game TS_GAME_SET, TS_GAME_GOF, TS_GAME_QWIRKLE, TS_GAME_ELEUSIS, TS_GAME_SAPNGWU,
    TS_GAME_SETGRID, TS_GAME_QWIRKLE_TILES;

#endif
