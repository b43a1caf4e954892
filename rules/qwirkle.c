/* Qwirkle Cards rules (see qwirkle.h). */
#include "qwirkle.h"

#include <stdio.h>
#include <string.h>

#include "codes.h"

/* ---- Names and lines --------------------------------------------------------------- */

const char *ts_qw_error_text(ts_qw_error e)
{
    static const char *const texts[TS_QW_NERRS] = {
        "a valid group",
        "not a Qwirkle card",
        "a group needs at least 3 cards",
        "a group holds at most 6 cards",
        "two identical cards in one group",
        ("a group is one colour with all shapes different, or one shape with all colours "
         "different")};
    return (unsigned)e < TS_QW_NERRS ? texts[e] : "?";
}

const char *ts_qw_line_name(int line)
{
    static const char *const names[TS_QW_NLINES] = {
        "red",     "orange",        "yellow",   "green",   "blue",       "purple",
        "circles", "criss-crosses", "diamonds", "squares", "starbursts", "clovers"};
    return line >= 0 && line < TS_QW_NLINES ? names[line] : "?";
}

/* The j-th card (0..5) of a line. */
static int line_card(int line, int j)
{
    return line < 6 ? line * 6 + j : j * 6 + (line - 6);
}

static int in_line(int card, int line)
{
    return line < 6 ? ts_qw_colour(card) == line : ts_qw_shape(card) == line - 6;
}

/* Lines 0..5 are colours, 6..11 shapes: a card's two lines. */
static int colour_line(int card)
{
    return ts_qw_colour(card);
}
static int shape_line(int card)
{
    return 6 + ts_qw_shape(card);
}

/* ---- Groups and tables ------------------------------------------------------------- */

static int has_duplicate(const ts_qw_group *g)
{
    for (int i = 0; i < g->n; i++)
        for (int j = i + 1; j < g->n; j++)
            if (g->cards[i] == g->cards[j])
                return 1;
    return 0;
}

int ts_qw_group_line(const ts_qw_group *g)
{
    if (g->n <= 0 || g->n > TS_QW_GROUP_MAX || has_duplicate(g))
        return -1;
    int lines[2] = {colour_line(g->cards[0]), shape_line(g->cards[0])};
    for (int l = 0; l < 2; l++) {
        int all = 1;
        for (int i = 0; i < g->n; i++)
            all &= g->cards[i] < TS_QW_NKINDS && in_line(g->cards[i], lines[l]);
        if (all)
            return lines[l];
    }
    return -1;
}

ts_qw_error ts_qw_check_group(const ts_qw_group *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->cards[i] >= TS_QW_NKINDS)
            return TS_QW_ERR_CARD;
    if (g->n > TS_QW_QWIRKLE)
        return TS_QW_ERR_LARGE;
    if (has_duplicate(g))
        return TS_QW_ERR_DUPLICATE;
    if (g->n >= 2 && ts_qw_group_line(g) < 0)
        return TS_QW_ERR_MIXED;
    if (g->n < 3)
        return TS_QW_ERR_SMALL;
    return TS_QW_OK;
}

ts_qw_error ts_qw_check_table(const ts_qw_table *t, int *bad)
{
    for (int i = 0; i < t->n; i++) {
        ts_qw_error e = ts_qw_check_group(&t->g[i]);
        if (e != TS_QW_OK) {
            *bad = i;
            return e;
        }
    }
    return TS_QW_OK;
}

int ts_qw_parse_table(const char *text, ts_qw_table *t, char *err, size_t errlen)
{
    t->n = 0;
    int seen = 0; /* groups in the text, empty ones included, for messages */
    for (const char *p = text;; p++) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        ts_code codes[TS_QW_GROUP_MAX];
        char why[96];
        seen++;
        int n =
            ts_code_parse_listn(TS_FAM_QWIRKLE, p, len, codes, TS_QW_GROUP_MAX, why, sizeof why);
        if (n < 0) {
            snprintf(err, errlen, "group %d: %s", seen, why);
            return -1;
        }
        if (n > 0) {
            if (t->n == TS_QW_MAX_GROUPS) {
                snprintf(err, errlen, "too many groups (at most %d)", TS_QW_MAX_GROUPS);
                return -1;
            }
            ts_qw_group *g = &t->g[t->n++];
            g->n = n;
            for (int i = 0; i < n; i++)
                g->cards[i] = codes[i].idx;
        }
        if (!end)
            return t->n;
        p = end;
    }
}

/* Copies of each card on the table; 0 if a card index is out of range. */
static int count_table(const ts_qw_table *t, int counts[TS_QW_NKINDS])
{
    memset(counts, 0, TS_QW_NKINDS * sizeof counts[0]);
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < t->g[i].n && j < TS_QW_GROUP_MAX; j++) {
            if (t->g[i].cards[j] >= TS_QW_NKINDS)
                return 0;
            counts[t->g[i].cards[j]]++;
        }
    return 1;
}

int ts_qw_too_many_copies(const ts_qw_table *t, const int *hand, int nhand, int *card)
{
    int counts[TS_QW_NKINDS];
    count_table(t, counts);
    for (int i = 0; i < nhand; i++)
        if (hand[i] >= 0 && hand[i] < TS_QW_NKINDS)
            counts[hand[i]]++;
    for (int k = 0; k < TS_QW_NKINDS; k++)
        if (counts[k] > TS_QW_COPIES) {
            *card = k;
            return 1;
        }
    return 0;
}

/* ---- Partition search ------------------------------------------------------------------
 * Each card on the final table lies in its colour line or its shape line, and a
 * line's cards split into valid groups iff it is empty or 3 * (most copies of one
 * card) <= (cards in the line): deal the cards, sorted, round-robin into that
 * many groups. So the search only chooses, per card kind, how many hand copies
 * to lay (u) and how many copies go to the colour line (x; the rest go to the
 * shape line). Kind k = colour*6 + shape is cell (row colour, column shape) of a
 * 6x6 grid, walked row by row; the state is each column's and the current row's
 * (most copies, total), normalised so that equivalent futures look the same.
 * The search answers "can at least `need` hand cards be laid?" depth first,
 * hand copies first, and remembers per (cell, state) an upper bound on what can
 * still be laid from there. The caller lowers `need` from "every hand card that
 * could join a line" until it succeeds: most hands lay (nearly) all their cards,
 * so the first tries usually succeed at once. */

enum {
    LINE_OK = 63,        /* line state: valid whatever comes (or empty for good) */
    MEMO_SIZE = 1 << 14, /* memo entries (128 KB) */
    MEMO_PROBES = 8,
    NO_BOUND = 250
};

typedef struct {
    int table[TS_QW_NKINDS], hand[TS_QW_NKINDS], must[TS_QW_NKINDS];
    int as_laid[TS_QW_NKINDS]; /* table copies now in colour groups: tried first */
    int row_rest[TS_QW_NKINDS], row_rest_max[TS_QW_NKINDS]; /* row cells after cell i */
    int col_rest[TS_QW_NKINDS], col_rest_max[TS_QW_NKINDS]; /* column cells below cell i */
    int hand_rest[TS_QW_NKINDS];                            /* hand copies in cells i.. */
    uint8_t u[TS_QW_NKINDS], x[TS_QW_NKINDS];               /* choices of the success */
    uint64_t memo[MEMO_SIZE];                               /* key << 8 | bound; 0 = free */
} solver;

/* Adds v cards to a line state (code = most << 4 | total, or LINE_OK). rest is
 * the capacity still to come in this line, rest_max its largest cell.
 * Returns the new code, or -1 if the line can no longer become valid. */
static int line_add(int code, int v, int rest, int rest_max)
{
    if (code == LINE_OK)
        return LINE_OK;
    int most = code >> 4, total = (code & 15) + v;
    if (v > most)
        most = v;
    if (3 * most > total + rest)
        return -1;
    int final_most = most > rest_max ? most : rest_max;
    return total >= 3 * final_most ? LINE_OK : most << 4 | total; /* total < 9 here */
}

/* One cell's choice: u hand copies laid, x copies to the colour line. Returns 0
 * if it leaves some line unable to become valid. */
static int step(const solver *s, int i, uint64_t cols, int row, int u, int x, uint64_t *ncols,
                int *nrow)
{
    int c = i % 6, n = s->table[i] + u;
    int r = line_add(row, x, s->row_rest[i], s->row_rest_max[i]);
    int k = line_add((int)(cols >> (6 * c) & 63), n - x, s->col_rest[i], s->col_rest_max[i]);
    if (r < 0 || k < 0 || (c == 5 && r != LINE_OK))
        return 0;
    *nrow = c == 5 ? 0 : r; /* a finished row starts the next one empty */
    *ncols = (cols & ~((uint64_t)63 << (6 * c))) | ((uint64_t)k << (6 * c));
    return 1;
}

static unsigned memo_hash(uint64_t key)
{
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 40) & (MEMO_SIZE - 1);
}

/* Upper bound on the hand cards layable from this state; NO_BOUND if unknown. */
static int memo_bound(const solver *s, uint64_t key)
{
    unsigned h = memo_hash(key);
    for (int p = 0; p < MEMO_PROBES; p++) {
        uint64_t e = s->memo[(h + p) & (MEMO_SIZE - 1)];
        if (e == 0)
            break;
        if (e >> 8 == key)
            return (int)(e & 255);
    }
    return NO_BOUND;
}

/* Records "fewer than `need` from here" (bound need - 1, stored + 1 so that it
 * is never 0); a full neighbourhood loses its first entry. */
static void memo_fail(solver *s, uint64_t key, int need)
{
    unsigned h = memo_hash(key);
    uint64_t e = key << 8 | (uint64_t)need; /* need - 1, + 1 */
    for (int p = 0; p < MEMO_PROBES; p++) {
        uint64_t *slot = &s->memo[(h + p) & (MEMO_SIZE - 1)];
        if (*slot == 0 || *slot >> 8 == key) {
            *slot = e;
            return;
        }
    }
    s->memo[h] = e;
}

/* 1 if cells i.. can lay at least `need` hand cards with every line valid; the
 * choices are left in s->u, s->x. */
static int reach(solver *s, int i, uint64_t cols, int row, int need)
{
    static const uint64_t ALL_OK = ((uint64_t)1 << 36) - 1;
    if (i == TS_QW_NKINDS)
        return cols == ALL_OK && need <= 0;
    if (need > s->hand_rest[i])
        return 0;
    s->u[i] = s->x[i] = 0;
    if (s->table[i] + s->hand[i] == 0) { /* empty cell: nothing to choose, nothing to remember */
        uint64_t ncols;
        int nrow;
        return step(s, i, cols, row, 0, 0, &ncols, &nrow) && reach(s, i + 1, ncols, nrow, need);
    }
    uint64_t key = ((uint64_t)i << 42) | ((uint64_t)row << 36) | cols;
    if (need > memo_bound(s, key) - 1)
        return 0;
    for (int u = s->hand[i]; u >= s->must[i]; u--)
        for (int n = s->table[i] + u, t = 0; t <= n; t++) {
            /* x = as laid, then more to the colour line, then fewer */
            int first = s->as_laid[i] < n ? s->as_laid[i] : n;
            int x = t <= n - first ? first + t : n - t;
            uint64_t ncols;
            int nrow;
            if (step(s, i, cols, row, u, x, &ncols, &nrow) &&
                reach(s, i + 1, ncols, nrow, need - u)) {
                s->u[i] = (uint8_t)u;
                s->x[i] = (uint8_t)x;
                return 1;
            }
        }
    memo_fail(s, key, need);
    return 0;
}

/* Most copies of one card a line can take: the largest group count g with
 * sum(min(copies, g)) >= 3g over its cards (table + hand copies); 0 if the line
 * must stay empty. */
static int line_most(const solver *s, int line)
{
    for (int g = TS_QW_COPIES; g >= 1; g--) {
        int sum = 0;
        for (int j = 0; j < 6; j++) {
            int cap = s->table[line_card(line, j)] + s->hand[line_card(line, j)];
            sum += cap < g ? cap : g;
        }
        if (sum >= 3 * g)
            return g;
    }
    return 0;
}

/* Bounds each card's copies by what its two lines can take — a cheap proof of
 * most impossible requests, and fewer hand copies to try — then sets the
 * capacities still to come after each cell. Returns 0 if a card that must be
 * laid (table copies, the forced card) cannot fit. */
static int solver_prepare(solver *s)
{
    for (int changed = 1; changed;) {
        int most[TS_QW_NLINES];
        for (int line = 0; line < TS_QW_NLINES; line++)
            most[line] = line_most(s, line);
        changed = 0;
        for (int k = 0; k < TS_QW_NKINDS; k++) {
            int room = most[colour_line(k)] + most[shape_line(k)];
            if (s->table[k] + s->must[k] > room)
                return 0;
            if (s->table[k] + s->hand[k] > room) {
                s->hand[k] = room - s->table[k];
                changed = 1;
            }
        }
    }
    for (int i = TS_QW_NKINDS - 1; i >= 0; i--) {
        int r = i / 6, c = i % 6;
        s->hand_rest[i] = s->hand[i] + (i + 1 < TS_QW_NKINDS ? s->hand_rest[i + 1] : 0);
        s->row_rest[i] = s->row_rest_max[i] = s->col_rest[i] = s->col_rest_max[i] = 0;
        for (int cc = c + 1; cc < 6; cc++) {
            int cap = s->table[r * 6 + cc] + s->hand[r * 6 + cc];
            s->row_rest[i] += cap;
            if (cap > s->row_rest_max[i])
                s->row_rest_max[i] = cap;
        }
        for (int rr = r + 1; rr < 6; rr++) {
            int cap = s->table[rr * 6 + c] + s->hand[rr * 6 + c];
            s->col_rest[i] += cap;
            if (cap > s->col_rest_max[i])
                s->col_rest_max[i] = cap;
        }
    }
    memset(s->memo, 0, sizeof s->memo);
    return 1;
}

/* Deals a line's cards (count[j] copies of its j-th card) round-robin into
 * max(count) groups, appended to t. */
static void deal_line(ts_qw_table *t, int line, const int count[6])
{
    int groups = 0;
    for (int j = 0; j < 6; j++)
        if (count[j] > groups)
            groups = count[j];
    if (t->n + groups > TS_QW_MAX_GROUPS)
        return; /* cannot happen: at most 108 cards, groups of 3 or more */
    ts_qw_group *g = &t->g[t->n];
    for (int k = 0; k < groups; k++)
        g[k].n = 0;
    int next = 0;
    for (int j = 0; j < 6; j++)
        for (int copy = 0; copy < count[j]; copy++) {
            ts_qw_group *dst = &g[next++ % groups];
            dst->cards[dst->n++] = (uint8_t)line_card(line, j);
        }
    t->n += groups;
}

int ts_qw_best_layout(const ts_qw_table *t, const int *hand, int nhand, int must_card,
                      unsigned qwirkle_lines, int hand_line, ts_qw_table *after, uint8_t *played)
{
    solver s;
    int nplayed = 0;
    if (nhand > TS_QW_HAND_MAX)
        nhand = TS_QW_HAND_MAX; /* played[] holds that many */
    if (!count_table(t, s.table))
        return -1;
    memset(s.as_laid, 0, sizeof s.as_laid);
    for (int g = 0; g < t->n; g++)
        if (ts_qw_group_line(&t->g[g]) < 6) /* colour groups (and mixed ones) */
            for (int j = 0; j < t->g[g].n; j++)
                s.as_laid[t->g[g].cards[j]]++;
    memset(s.hand, 0, sizeof s.hand);
    memset(s.must, 0, sizeof s.must);
    for (int i = 0; i < nhand; i++)
        if (hand[i] >= 0 && hand[i] < TS_QW_NKINDS &&
            (hand_line < 0 || in_line(hand[i], hand_line)))
            s.hand[hand[i]]++;
    for (int k = 0; k < TS_QW_NKINDS; k++) {
        if (s.table[k] > TS_QW_COPIES)
            return -1;
        if (s.hand[k] > TS_QW_COPIES - s.table[k])
            s.hand[k] = TS_QW_COPIES - s.table[k];
    }

    after->n = 0;
    int must_done = 0;
    for (int line = 0; line < TS_QW_NLINES; line++) {
        if (!(qwirkle_lines >> line & 1u))
            continue;
        /* Set the Qwirkle aside first, taking table copies before hand copies:
         * a table copy left behind would have to be placed anyway. */
        ts_qw_group *q = &after->g[after->n++];
        q->n = 0;
        for (int j = 0; j < 6; j++) {
            int k = line_card(line, j);
            if (s.table[k] > 0) {
                s.table[k]--;
            } else if (s.hand[k] > 0) {
                s.hand[k]--;
                played[nplayed++] = (uint8_t)k;
                must_done |= k == must_card;
            } else {
                return -1;
            }
            q->cards[q->n++] = (uint8_t)k;
        }
    }
    if (must_card >= 0 && !must_done) {
        if (must_card >= TS_QW_NKINDS || s.hand[must_card] < 1)
            return -1;
        s.must[must_card] = 1;
    }

    if (!solver_prepare(&s))
        return -1;
    /* Every hand card first (the usual answer), then whether any layout exists
     * (its failures hold for every need), then fewer cards down from the top. */
    int top = s.hand_rest[0], best = -1;
    if (reach(&s, 0, 0, 0, top))
        best = top;
    else if (!reach(&s, 0, 0, 0, 0))
        return -1;
    for (int need = top - 1; need > 0 && best < 0; need--)
        if (reach(&s, 0, 0, 0, need))
            best = need;
    if (best < 0)
        reach(&s, 0, 0, 0, 0); /* succeeds again: refills the choices */

    /* Every line's cards, then deal each line into groups. */
    int colour_count[6][6], shape_count[6][6];
    for (int i = 0; i < TS_QW_NKINDS; i++) {
        for (int c = 0; c < s.u[i] && nplayed < TS_QW_HAND_MAX; c++)
            played[nplayed++] = (uint8_t)i;
        colour_count[i / 6][i % 6] = s.x[i];
        shape_count[i % 6][i / 6] = s.table[i] + s.u[i] - s.x[i];
    }
    for (int line = 0; line < TS_QW_NLINES; line++)
        deal_line(after, line, line < 6 ? colour_count[line] : shape_count[line - 6]);
    return nplayed;
}

/* ---- Plays ------------------------------------------------------------------------------- */

const ts_qw_rules TS_QW_DEFAULTS = {0};

static int qwirkles_on(const ts_qw_table *t)
{
    int n = 0;
    for (int i = 0; i < t->n; i++)
        n += t->g[i].n == TS_QW_QWIRKLE;
    return n;
}

/* Best first: Qwirkles, cards laid, kind, then group and cards for a stable order. */
static int play_before(const void *pa, const void *pb)
{
    const ts_qw_play *a = pa, *b = pb;
    if (a->qwirkles != b->qwirkles)
        return a->qwirkles > b->qwirkles;
    if (a->nplayed != b->nplayed)
        return a->nplayed > b->nplayed;
    if (a->kind != b->kind)
        return a->kind < b->kind;
    if (a->group != b->group)
        return a->group < b->group;
    return memcmp(a->played, b->played, (size_t)a->nplayed) < 0;
}

typedef struct {
    const ts_qw_table *table;
    int table_qwirkles;
    ts_qw_play *out;
    int max, kept, count;
    int laid[TS_QW_NKINDS];           /* some listed play lays this card */
    int qwirkle_simply[TS_QW_NLINES]; /* a simple play completes this line's Qwirkle */
    int most_laid;                    /* most cards a listed play lays */
} play_list;

static void add_play(play_list *pl, ts_qw_play *p)
{
    p->qwirkles = qwirkles_on(&p->after) - pl->table_qwirkles;
    if (p->qwirkles < 0)
        p->qwirkles = 0;
    if (p->nplayed > pl->most_laid)
        pl->most_laid = p->nplayed;
    pl->count++;
    ts_rank_insert(pl->out, sizeof *pl->out, &pl->kept, pl->max, p, play_before);
}

/* A new group or an extension: the cards of `line` picked by mask from
 * avail[] go to group `group` (-1 = a new group). */
static void add_simple(play_list *pl, ts_qw_play *p, int group, int line, unsigned mask)
{
    p->kind = group < 0 ? TS_QW_NEW_GROUP : TS_QW_EXTEND;
    p->group = group;
    p->line = line;
    p->nplayed = 0;
    p->after = *pl->table;
    ts_qw_group *g = group < 0 ? &p->after.g[p->after.n++] : &p->after.g[group];
    if (group < 0)
        g->n = 0;
    for (int j = 0; j < 6; j++)
        if (mask >> j & 1) {
            int k = line_card(line, j);
            p->played[p->nplayed++] = (uint8_t)k;
            g->cards[g->n++] = (uint8_t)k;
            pl->laid[k] = 1;
        }
    if (g->n == TS_QW_QWIRKLE)
        pl->qwirkle_simply[line] = 1;
    add_play(pl, p);
}

static int popcount6(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static void simple_plays(play_list *pl, const int *in_hand, ts_qw_play *p)
{
    const ts_qw_table *t = pl->table;
    for (int line = 0; line < TS_QW_NLINES; line++) {
        unsigned have = 0; /* cards of the line in hand */
        for (int j = 0; j < 6; j++)
            if (in_hand[line_card(line, j)])
                have |= 1u << j;
        for (unsigned m = 1; m < 64; m++)
            if ((m & ~have) == 0 && popcount6(m) >= 3)
                add_simple(pl, p, -1, line, m);
        for (int gi = 0; gi < t->n; gi++) {
            const ts_qw_group *g = &t->g[gi];
            if (ts_qw_group_line(g) != line)
                continue;
            unsigned fits = have;
            for (int i = 0; i < g->n; i++)
                for (int j = 0; j < 6; j++)
                    if (g->cards[i] == line_card(line, j))
                        fits &= ~(1u << j);
            for (unsigned m = 1; m < 64; m++)
                if ((m & ~fits) == 0 && g->n + popcount6(m) <= TS_QW_QWIRKLE)
                    add_simple(pl, p, gi, line, m);
        }
    }
}

/* The partition search under the rules: with one line per turn, the best over
 * the lines the laid cards may share (forced Qwirkles must lie in that line). */
static int rules_layout(const ts_qw_rules *rules, const ts_qw_table *t, const int *hand, int nhand,
                        int must_card, unsigned qwirkle_lines, ts_qw_play *p)
{
    if (!rules->one_line_per_turn)
        return ts_qw_best_layout(t, hand, nhand, must_card, qwirkle_lines, -1, &p->after,
                                 p->played);
    int best = -1;
    ts_qw_play trial;
    for (int line = 0; line < TS_QW_NLINES; line++) {
        if ((must_card >= 0 && !in_line(must_card, line)) ||
            (qwirkle_lines & ~(1u << line)) != 0)
            continue;
        int n = ts_qw_best_layout(t, hand, nhand, must_card, qwirkle_lines, line, &trial.after,
                                  trial.played);
        if (n > best) {
            best = n;
            p->after = trial.after;
            memcpy(p->played, trial.played, sizeof p->played);
        }
    }
    return best;
}

static void add_rearranged(play_list *pl, ts_qw_play *p, ts_qw_play_kind kind, int line, int n)
{
    p->kind = kind;
    p->group = -1;
    p->line = line;
    p->nplayed = n;
    for (int i = 0; i < n; i++)
        pl->laid[p->played[i]] = 1;
    add_play(pl, p);
}

static int popcount12(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

enum { MAX_QWIRKLE_TRIES = 512 }; /* solver calls spent on multi-Qwirkle plays */

static void add_most_qwirkles(play_list *pl, const ts_qw_rules *rules, const ts_qw_table *t,
                              const int *hand, int nhand, unsigned around, ts_qw_play *p)
{
    int lines = popcount12(around), tries = 0;
    for (int size = lines; size >= 2; size--) {
        int found = 0;
        ts_qw_play best;
        int best_n = 0;
        memset(&best, 0, sizeof best);
        for (unsigned m = around;; m = (m - 1) & around) {
            if (popcount12(m) == size && tries++ < MAX_QWIRKLE_TRIES) {
                int n = rules_layout(rules, t, hand, nhand, -1, m, p);
                if (n > best_n) {
                    best_n = n;
                    best = *p;
                    found = 1;
                }
            }
            if (m == 0)
                break;
        }
        if (found) {
            add_rearranged(pl, &best, TS_QW_REARRANGE, -1, best_n);
            return;
        }
    }
}

int ts_qw_plays(const ts_qw_table *t, const int *hand, int nhand, const ts_qw_rules *rules,
                ts_qw_play *out, int max)
{
    if (!rules)
        rules = &TS_QW_DEFAULTS;
    if (nhand > TS_QW_HAND_MAX)
        nhand = TS_QW_HAND_MAX;
    play_list pl;
    memset(&pl, 0, sizeof pl);
    pl.table = t;
    pl.table_qwirkles = qwirkles_on(t);
    pl.out = out;
    pl.max = max;

    int in_hand[TS_QW_NKINDS] = {0}, table_has[TS_QW_NKINDS];
    for (int i = 0; i < nhand; i++)
        if (hand[i] >= 0 && hand[i] < TS_QW_NKINDS)
            in_hand[hand[i]]++;
    count_table(t, table_has);

    ts_qw_play p;
    int bad;
    if (ts_qw_check_table(t, &bad) == TS_QW_OK)
        simple_plays(&pl, in_hand, &p);

    /* The most cards one turn can lay: listed last, if it adds anything. */
    ts_qw_play most;
    int nmost = rules_layout(rules, t, hand, nhand, -1, 0, &most), in_most[TS_QW_NKINDS] = {0};
    for (int i = 0; i < nmost; i++)
        in_most[most.played[i]] = 1;

    /* Each hand card no simple play lays: alone, by rearranging the table, when
     * it can be; otherwise with as many other hand cards as it needs. */
    for (int k = 0; k < TS_QW_NKINDS; k++) {
        if (!in_hand[k] || pl.laid[k])
            continue;
        int alone[1] = {k};
        int n = rules_layout(rules, t, alone, 1, k, 0, &p);
        if (n <= 0 && !in_most[k])
            n = rules_layout(rules, t, hand, nhand, k, 0, &p);
        if (n > 0)
            add_rearranged(&pl, &p, TS_QW_REARRANGE, -1, n);
    }

    /* Each Qwirkle no simple play completes, when its six cards are around. */
    unsigned around_lines = 0;
    for (int line = 0; line < TS_QW_NLINES; line++) {
        int around = 1;
        for (int j = 0; j < 6; j++)
            around &= in_hand[line_card(line, j)] + table_has[line_card(line, j)] > 0;
        if (!around)
            continue;
        around_lines |= 1u << line;
        if (pl.qwirkle_simply[line])
            continue;
        int n = rules_layout(rules, t, hand, nhand, -1, 1u << line, &p);
        if (n > 0)
            add_rearranged(&pl, &p, TS_QW_REARRANGE, line, n);
    }

    /* Several Qwirkles in one turn: the largest set of lines that complete
     * together (most cards for it), tried from the most lines down. */
    add_most_qwirkles(&pl, rules, t, hand, nhand, around_lines, &p);

    if (nmost > 0) {
        int adds = nmost > pl.most_laid;
        for (int i = 0; i < nmost; i++)
            adds |= !pl.laid[most.played[i]];
        if (adds)
            add_rearranged(&pl, &most, TS_QW_MOST_CARDS, -1, nmost);
    }
    return pl.count;
}
