/* SET rules (see set.h). */
#include "set.h"

#include <string.h>

#include "codes.h"

enum { NKINDS = 81 };

static int valid_card(int c)
{
    return c >= 0 && c < NKINDS;
}

/* ---- The Set test --------------------------------------------------------- */

int ts_set_is_set(int a, int b, int c)
{
    if (!valid_card(a) || !valid_card(b) || !valid_card(c) || a == b)
        return 0; /* a == b forces c == a: identical cards are no Set */
    for (int attr = 0; attr < 4; attr++)
        if ((ts_set_attr(a, attr) + ts_set_attr(b, attr) + ts_set_attr(c, attr)) % 3 != 0)
            return 0;
    return 1;
}

int ts_set_third(int a, int b)
{
    int v[4];
    for (int attr = 0; attr < 4; attr++)
        v[attr] = (6 - ts_set_attr(a, attr) - ts_set_attr(b, attr)) % 3;
    return ts_set_make(v[0], v[1], v[2], v[3]);
}

int ts_set_find_all(const int *cards, int n, int (*sets)[3], int max)
{
    /* last[card] = last position holding it, so each pair needs only to look
     * between j and that position: O(n^2) on a table without duplicates. */
    int last[NKINDS];
    for (int k = 0; k < NKINDS; k++)
        last[k] = -1;
    for (int p = 0; p < n; p++)
        if (valid_card(cards[p]))
            last[cards[p]] = p;

    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!valid_card(cards[i]))
            continue;
        for (int j = i + 1; j < n; j++) {
            if (!valid_card(cards[j]) || cards[j] == cards[i])
                continue;
            int t = ts_set_third(cards[i], cards[j]);
            for (int k = j + 1; k <= last[t]; k++) {
                if (cards[k] != t)
                    continue;
                if (count < max) {
                    sets[count][0] = i;
                    sets[count][1] = j;
                    sets[count][2] = k;
                }
                count++;
            }
        }
    }
    return count;
}

int ts_set_has_duplicates(const int *cards, int n, int *i, int *j)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (cards[a] == cards[b]) {
                *i = a;
                *j = b;
                return 1;
            }
    return 0;
}

int ts_set_exists(const int *cards, int n, int set[3])
{
    int first[1][3];
    if (ts_set_find_all(cards, n, first, 1) == 0)
        return 0;
    if (set)
        memcpy(set, first[0], sizeof first[0]);
    return 1;
}

/* ---- Table flow ------------------------------------------------------------ */

ts_set_table_state ts_set_table_decision(const int *cards, int n, int deck_left)
{
    if (ts_set_exists(cards, n, NULL))
        return TS_SET_TAKE_A_SET;
    return deck_left > 0 ? TS_SET_DEAL_THREE : TS_SET_ROUND_OVER;
}

int ts_set_refill(int table_left, int deck_left)
{
    int want = TS_SET_TABLE_SIZE - table_left;
    if (want < 0)
        want = 0;
    return want < deck_left ? want : (deck_left > 0 ? deck_left : 0);
}

int ts_set_deal_request_penalty(const int *cards, int n)
{
    return ts_set_exists(cards, n, NULL);
}

/* ---- Hints ----------------------------------------------------------------- */

int ts_set_hint(const int *cards, int n, int level, int out[3])
{
    int set[3];
    if (level < 1 || !ts_set_exists(cards, n, set))
        return 0;
    int k = level < 3 ? level : 3;
    memcpy(out, set, (size_t)k * sizeof set[0]);
    return k;
}

/* ---- Connection variant ------------------------------------------------------ */

const ts_set_grid_rules TS_SET_GRID_DEFAULTS = {2, 0};

/* Line directions: row, column, both diagonals. */
static const int DIRS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

void ts_set_grid_clear(ts_set_grid *g, int rows, int cols)
{
    g->rows = rows < 0 ? 0 : rows > TS_SET_GRID_MAX ? TS_SET_GRID_MAX : rows;
    g->cols = cols < 0 ? 0 : cols > TS_SET_GRID_MAX ? TS_SET_GRID_MAX : cols;
    memset(g->cell, TS_SET_EMPTY, sizeof g->cell);
}

/* Card at (r, c) with the move's cards placed; TS_SET_EMPTY off the grid. */
static int card_at(const ts_set_grid *g, const ts_set_grid_move *m, const int *hand, int r, int c)
{
    if (r < 0 || c < 0 || r >= g->rows || c >= g->cols)
        return TS_SET_EMPTY;
    for (int p = 0; p < m->ncards; p++)
        if (m->row[p] == r && m->col[p] == c)
            return hand[m->hand[p]];
    return g->cell[r][c];
}

static int is_placed(const ts_set_grid_move *m, int p, int r, int c)
{
    return p < m->ncards && m->row[p] == r && m->col[p] == c;
}

/* Counts the Sets the move completes; *all_used tells whether every placed card
 * lies in one of them. A window holding both placed cards is counted once. */
static int score_move(const ts_set_grid *g, const ts_set_grid_move *m, const int *hand,
                      int *all_used)
{
    int score = 0, used[2] = {0, 0};
    for (int p = 0; p < m->ncards; p++)
        for (int d = 0; d < 4; d++)
            for (int off = 0; off < 3; off++) {
                int r[3], c[3], w[3], holds[2] = {0, 0};
                for (int s = 0; s < 3; s++) {
                    r[s] = m->row[p] + (s - off) * DIRS[d][0];
                    c[s] = m->col[p] + (s - off) * DIRS[d][1];
                    w[s] = card_at(g, m, hand, r[s], c[s]);
                    for (int q = 0; q < m->ncards; q++)
                        holds[q] |= is_placed(m, q, r[s], c[s]);
                }
                if (p == 1 && holds[0])
                    continue; /* already seen from card 0 */
                if (!ts_set_is_set(w[0], w[1], w[2]))
                    continue;
                score++;
                used[0] |= holds[0];
                used[1] |= holds[1];
            }
    *all_used = used[0] && (m->ncards < 2 || used[1]);
    return score;
}

int ts_set_grid_score(const ts_set_grid *g, const ts_set_grid_move *m, const int *hand)
{
    int all_used;
    return score_move(g, m, hand, &all_used);
}

/* An empty cell can only hold a scoring card if a table card lies within two
 * steps of it along a line (every Set window holds at least one table card). */
static int near_table(const ts_set_grid *g, int r, int c)
{
    if (g->cell[r][c] != TS_SET_EMPTY)
        return 0;
    for (int d = 0; d < 4; d++)
        for (int step = -2; step <= 2; step++) {
            int rr = r + step * DIRS[d][0], cc = c + step * DIRS[d][1];
            if (step && rr >= 0 && cc >= 0 && rr < g->rows && cc < g->cols &&
                g->cell[rr][cc] != TS_SET_EMPTY)
                return 1;
        }
    return 0;
}

/* Ranking: more points, more cards, then hand position, then cell. */
static int move_before(const void *pa, const void *pb)
{
    const ts_set_grid_move *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score;
    if (a->ncards != b->ncards)
        return a->ncards > b->ncards;
    for (int p = 0; p < a->ncards; p++) {
        if (a->hand[p] != b->hand[p])
            return a->hand[p] < b->hand[p];
        if (a->row[p] != b->row[p])
            return a->row[p] < b->row[p];
        if (a->col[p] != b->col[p])
            return a->col[p] < b->col[p];
    }
    return 0;
}

int ts_set_grid_moves(const ts_set_grid *g, const int *hand, int nhand,
                      const ts_set_grid_rules *rules, ts_set_grid_move *out, int max)
{
    if (!rules)
        rules = &TS_SET_GRID_DEFAULTS;
    int cand[TS_SET_GRID_MAX * TS_SET_GRID_MAX][2], ncand = 0;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            if (near_table(g, r, c)) {
                cand[ncand][0] = r;
                cand[ncand][1] = c;
                ncand++;
            }

    int count = 0, kept = 0;
    ts_set_grid_move m;
    for (int a = 0; a < ncand; a++) {
        /* one card */
        m.ncards = 1;
        m.row[0] = cand[a][0];
        m.col[0] = cand[a][1];
        for (int h = 0; h < nhand; h++) {
            m.hand[0] = h;
            int all_used;
            m.score = score_move(g, &m, hand, &all_used);
            if (m.score > 0) {
                count++;
                ts_rank_insert(out, sizeof *out, &kept, max, &m, move_before);
            }
        }
        if (rules->max_cards < 2)
            continue;
        /* two cards: the cell pair once, both assignments of hand cards */
        m.ncards = 2;
        for (int b = a + 1; b < ncand; b++) {
            int dr = cand[b][0] - cand[a][0], dc = cand[b][1] - cand[a][1];
            if (!rules->pair_may_be_apart && (dr < -1 || dr > 1 || dc < -1 || dc > 1))
                continue;
            m.row[1] = cand[b][0];
            m.col[1] = cand[b][1];
            for (int h0 = 0; h0 < nhand; h0++)
                for (int h1 = 0; h1 < nhand; h1++) {
                    if (h0 == h1)
                        continue;
                    m.hand[0] = h0;
                    m.hand[1] = h1;
                    int all_used;
                    m.score = score_move(g, &m, hand, &all_used);
                    if (m.score > 0 && all_used) {
                        count++;
                        ts_rank_insert(out, sizeof *out, &kept, max, &m, move_before);
                    }
                }
        }
    }
    return count;
}
