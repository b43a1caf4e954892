/* Qwirkle Cards (seed 002): table groups, and the plays a hand allows —
 * new groups, extensions, Qwirkle completions and plays that need the table
 * rearranged (exact partition search).
 *
 * Cards are Qwirkle indices as in codes.h: colour*6 + shape, colour R O Y G B P,
 * shape C X D S T L (0..35); the deck holds 3 copies of each. A "line" is one
 * colour (lines 0..5) or one shape (lines 6..11): every valid group lies in
 * exactly one line. Inputs are borrowed; results go to caller-provided structs.
 * Pure functions, no allocation, no global state (the partition search keeps a
 * ~130 KB memo on the stack). Rulings: docs/rules/DECISIONS.md "Qwirkle Cards".
 */
#ifndef TS_QWIRKLE_H
#define TS_QWIRKLE_H

#include <stddef.h>
#include <stdint.h>

enum {
    TS_QW_NKINDS = 36,
    TS_QW_COPIES = 3, /* of each card in the deck */
    TS_QW_NLINES = 12,
    TS_QW_QWIRKLE = 6,     /* a 6-card group is a Qwirkle and leaves the table */
    TS_QW_GROUP_MAX = 12,  /* cards a recognised group may hold (valid: 3..6) */
    TS_QW_MAX_GROUPS = 40, /* groups on a table */
    TS_QW_HAND_MAX = 24,   /* cards a hand may hold (the game deals 9) */
};

static inline int ts_qw_colour(int card)
{
    return card / 6;
}
static inline int ts_qw_shape(int card)
{
    return card % 6;
}

typedef struct {
    int n;
    uint8_t cards[TS_QW_GROUP_MAX];
} ts_qw_group;

typedef struct {
    int n;
    ts_qw_group g[TS_QW_MAX_GROUPS];
} ts_qw_table;

/* ---- Groups and tables ---------------------------------------------------------- */

typedef enum {
    TS_QW_OK = 0,
    TS_QW_ERR_CARD,      /* not a Qwirkle card index */
    TS_QW_ERR_SMALL,     /* fewer than 3 cards */
    TS_QW_ERR_LARGE,     /* more than 6 cards */
    TS_QW_ERR_DUPLICATE, /* two identical cards */
    TS_QW_ERR_MIXED,     /* neither one colour nor one shape */
    TS_QW_NERRS
} ts_qw_error;

const char *ts_qw_error_text(ts_qw_error e);
/* "red", ..., "purple" for lines 0..5; "circles", ..., "clovers" for 6..11. */
const char *ts_qw_line_name(int line);

/* Checks one group (3..6 cards, one colour all shapes different, or one shape
 * all colours different). */
ts_qw_error ts_qw_check_group(const ts_qw_group *g);
/* The line a group's cards lie in (distinct cards of one colour or one shape);
 * -1 if none. A single card lies in two lines: its colour line is returned. */
int ts_qw_group_line(const ts_qw_group *g);
/* TS_QW_OK if every group is valid; otherwise the first error, its group in *bad. */
ts_qw_error ts_qw_check_table(const ts_qw_table *t, int *bad);

/* Parses "GROUP;GROUP;..." with each GROUP a list of codes (space or comma
 * separated); empty groups are skipped. Returns the number of groups, or -1 with
 * a message naming the group and the bad token in err. */
int ts_qw_parse_table(const char *text, ts_qw_table *t, char *err, size_t errlen);

/* 1 if table + hand hold more copies of a card than the deck (a recognition
 * conflict); that card goes to *card. */
int ts_qw_too_many_copies(const ts_qw_table *t, const int *hand, int nhand, int *card);

/* ---- Plays ------------------------------------------------------------------------- */

typedef struct {
    int one_line_per_turn; /* BGG text: all cards laid in one turn share a colour
                              or a shape. Option, default off (DECISIONS.md). */
} ts_qw_rules;

extern const ts_qw_rules TS_QW_DEFAULTS;

typedef enum {
    TS_QW_NEW_GROUP = 0, /* a new group from hand cards only */
    TS_QW_EXTEND,        /* hand cards added to one table group */
    TS_QW_REARRANGE,     /* a card or Qwirkle that needs table cards moved */
    TS_QW_MOST_CARDS     /* the most hand cards one turn can lay (table may be rearranged) */
} ts_qw_play_kind;

typedef struct {
    ts_qw_play_kind kind;
    int group;                      /* TS_QW_EXTEND: the table group; else -1 */
    int line;                       /* the line built or completed; -1 if several */
    int nplayed;                    /* hand cards laid (at least 1) */
    uint8_t played[TS_QW_HAND_MAX]; /* their card indices */
    int qwirkles;                   /* 6-card groups the play completes */
    ts_qw_table after;              /* the whole table after the play, Qwirkles
                                       still on it; every group valid */
} ts_qw_play;

/* Plays from hand[0..nhand) on table t, best first (Qwirkles, then cards laid,
 * then kind). Every listed play leaves only valid groups. On a table with an
 * invalid group only rearrangements are listed (no simple play can fix it).
 * Rearrangements are listed for each hand card that has no simple play (the
 * card alone when the table can take it alone), for each Qwirkle no simple play
 * completes, and for the most Qwirkles one turn can complete together (two or
 * more). Every card that can be played at all appears in a listed play of its
 * own. rules NULL = defaults. Returns the
 * count (may exceed max; the best max are written). */
int ts_qw_plays(const ts_qw_table *t, const int *hand, int nhand, const ts_qw_rules *rules,
                ts_qw_play *out, int max);

/* The partition search on its own: lay as many hand cards as possible so that
 * table + laid cards split into valid groups. must_card >= 0 forces one copy of
 * that card to be laid; bit l of qwirkle_lines forces a Qwirkle of line l (0 =
 * none; several bits: several Qwirkles at once);
 * hand_line >= 0 allows only hand cards of that line. Returns the number of
 * hand cards laid (0 = the table can be laid out but no hand card joins) and
 * fills *after and played[] (TS_QW_HAND_MAX entries); -1 if no valid layout. */
int ts_qw_best_layout(const ts_qw_table *t, const int *hand, int nhand, int must_card,
                      unsigned qwirkle_lines, int hand_line, ts_qw_table *after, uint8_t *played);

#endif
