/* SET's connection-grid variant (seed 000, 接配遊戲) behind the game interface:
 * the table's cards placed on grid cells from where they lie, the hand's
 * placements that complete Sets (best first, with their score), and the
 * referee's verdict on a placement. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "game.h"
#include "set.h"

enum { MARGIN = 2, MAX_MOVES = 16, HAND_MAX = 24 };

typedef struct {
    float ox, oy, px, py; /* cell (0, 0) centre and the pitch between cells */
    int rows, cols;
    ts_set_grid g; /* with MARGIN empty cells around */
} grid_map;

static int by_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n, float fallback)
{
    if (n == 0)
        return fallback;
    qsort(v, (size_t)n, sizeof *v, by_float);
    return v[n / 2];
}

/* Lays the read SET cards idx[0..n) of s on a grid. Returns 0, -1 if none or
 * the grid is too large. */
static int map_grid(const ts_game_state *s, const int *idx, int n, grid_map *m)
{
    if (n <= 0)
        return -1;
    if (n > TS_MAX_CARDS)
        n = TS_MAX_CARDS;
    ts_pt c[TS_MAX_CARDS];
    float w[TS_MAX_CARDS], h[TS_MAX_CARDS], dx[TS_MAX_CARDS], dy[TS_MAX_CARDS];
    int ndx = 0, ndy = 0;
    for (int k = 0; k < n; k++) {
        const ts_card *cd = &s->cards[idx[k]];
        float x0 = cd->quad[0].x, x1 = x0, y0 = cd->quad[0].y, y1 = y0;
        for (int q = 1; q < 4; q++) {
            x0 = fminf(x0, cd->quad[q].x), x1 = fmaxf(x1, cd->quad[q].x);
            y0 = fminf(y0, cd->quad[q].y), y1 = fmaxf(y1, cd->quad[q].y);
        }
        c[k] = ts_card_centre(cd);
        w[k] = x1 - x0;
        h[k] = y1 - y0;
    }
    for (int k = 0; k < n; k++) { /* nearest neighbour to the right and below */
        float bx = 1e9f, by = 1e9f;
        for (int j = 0; j < n; j++) {
            float ex = c[j].x - c[k].x, ey = c[j].y - c[k].y;
            if (ex > 0.5f * w[k] && fabsf(ey) < 0.5f * h[k] && ex < bx)
                bx = ex;
            if (ey > 0.5f * h[k] && fabsf(ex) < 0.5f * w[k] && ey < by)
                by = ey;
        }
        if (bx < 1e9f)
            dx[ndx++] = bx;
        if (by < 1e9f)
            dy[ndy++] = by;
    }
    float mw = median(w, n, 1), mh = median(h, n, 1); /* sorts w, h: c[] keeps the order */
    m->px = median(dx, ndx, 1.1f * mw);
    m->py = median(dy, ndy, 1.1f * mh);
    m->ox = m->oy = 1e9f;
    for (int k = 0; k < n; k++)
        m->ox = fminf(m->ox, c[k].x), m->oy = fminf(m->oy, c[k].y);
    m->rows = m->cols = 0;
    int row[TS_MAX_CARDS], col[TS_MAX_CARDS];
    for (int k = 0; k < n; k++) {
        row[k] = (int)lroundf((c[k].y - m->oy) / m->py);
        col[k] = (int)lroundf((c[k].x - m->ox) / m->px);
        m->rows = row[k] + 1 > m->rows ? row[k] + 1 : m->rows;
        m->cols = col[k] + 1 > m->cols ? col[k] + 1 : m->cols;
    }
    if (m->rows + 2 * MARGIN > TS_SET_GRID_MAX || m->cols + 2 * MARGIN > TS_SET_GRID_MAX)
        return -1;
    ts_set_grid_clear(&m->g, m->rows + 2 * MARGIN, m->cols + 2 * MARGIN);
    for (int k = 0; k < n; k++)
        if (m->g.cell[row[k] + MARGIN][col[k] + MARGIN] == TS_SET_EMPTY)
            m->g.cell[row[k] + MARGIN][col[k] + MARGIN] = (signed char)s->cards[idx[k]].code.idx;
    return 0;
}

/* The read SET cards of a zone. */
static int set_cards(const ts_game_state *s, int zone, int *idx, int *unread)
{
    int n = ts_game_cards_in(s, zone, idx, unread), m = 0;
    for (int k = 0; k < n; k++)
        if (s->cards[idx[k]].code.family == TS_FAM_SET)
            idx[m++] = idx[k];
    return m;
}

static int grid_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    (void)o;
    int tidx[TS_MAX_CARDS], hidx[TS_MAX_CARDS], tu, hu;
    int nt = set_cards(s, TS_ZONE_TABLE, tidx, &tu);
    int nh = set_cards(s, TS_ZONE_HAND, hidx, &hu);
    v->unread = tu + hu;
    v->show_groups = v->show_cards = -1;
    grid_map m;
    if (map_grid(s, tidx, nt, &m) < 0) {
        snprintf(v->headline, sizeof v->headline, "no grid on the table");
        return 0;
    }
    if (nh > HAND_MAX)
        nh = HAND_MAX;
    int hand[HAND_MAX];
    for (int k = 0; k < nh; k++)
        hand[k] = s->cards[hidx[k]].code.idx;
    ts_set_grid_move moves[MAX_MOVES];
    static const int KEEP = MAX_MOVES;
    int count = nh ? ts_set_grid_moves(&m.g, hand, nh, NULL, moves, KEEP) : 0;
    v->count = count;
    for (int i = 0; i < count && i < KEEP; i++) {
        char label[48];
        int len = snprintf(label, sizeof label, "+%d:", moves[i].score);
        for (int p = 0; p < moves[i].ncards && len > 0 && (size_t)len < sizeof label; p++)
            len += snprintf(label + len, sizeof label - (size_t)len, " row %d col %d",
                            moves[i].row[p] - MARGIN, moves[i].col[p] - MARGIN);
        ts_view_group *g = ts_view_add(v, TS_MARK_HINT, label);
        if (!g)
            break;
        g->score = moves[i].score;
        for (int p = 0; p < moves[i].ncards; p++)
            g->card[g->n++] = hidx[moves[i].hand[p]];
    }
    if (nh == 0)
        snprintf(v->headline, sizeof v->headline, "grid %dx%d: no hand in view", m.rows, m.cols);
    else if (count == 0)
        snprintf(v->headline, sizeof v->headline, "no placement completes a Set: draw a card");
    else
        snprintf(v->headline, sizeof v->headline, "%d placement%s, best +%d", count,
                 count == 1 ? "" : "s", moves[0].score);
    return 0;
}

static void grid_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *mv,
                       ts_game_memory *mem, ts_verdict *out)
{
    (void)mem;
    out->zone = TS_ZONE_TABLE;
    int placed[TS_MOVE_MAX];
    int np = ts_move_in_zone(before, after, mv, TS_ZONE_TABLE, placed, NULL);
    int tidx[TS_MAX_CARDS];
    int nt = set_cards(before, TS_ZONE_TABLE, tidx, NULL);
    grid_map m;
    if (np == 0 || nt == 0 || map_grid(before, tidx, nt, &m) < 0) {
        ts_verdict_set(out, TS_VERDICT_NONE, "none", "no card placed on the grid");
        return;
    }
    if (!ts_verdict_cards(out, after, placed, np))
        return;
    if (np > 2) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "a move places 1 or 2 cards; %d placed",
                       np);
        return;
    }
    ts_set_grid_move move = {.ncards = np};
    int hand[2];
    for (int p = 0; p < np; p++) {
        ts_pt c = ts_card_centre(&after->cards[placed[p]]);
        move.row[p] = (int)lroundf((c.y - m.oy) / m.py) + MARGIN;
        move.col[p] = (int)lroundf((c.x - m.ox) / m.px) + MARGIN;
        move.hand[p] = p;
        hand[p] = after->cards[placed[p]].code.idx;
        if (move.row[p] < 0 || move.col[p] < 0 || move.row[p] >= m.g.rows ||
            move.col[p] >= m.g.cols || m.g.cell[move.row[p]][move.col[p]] != TS_SET_EMPTY) {
            ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                           "the card does not lie on a free cell next to the grid");
            return;
        }
    }
    int score = ts_set_grid_score(&m.g, &move, hand);
    if (score > 0)
        ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "+%d: %d Set%s completed", score, score,
                       score == 1 ? "" : "s");
    else
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal",
                       "the placement completes no Set: draw a card instead");
}

const ts_game TS_GAME_SETGRID = {"setgrid", "SET connection grid", TS_FAM_SET, grid_analyse,
                                 grid_judge, 0};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

void ts_set_report_grid(const ts_writer *w, int rows, int cols, int margin, const int *hand,
                        int nhand, const ts_set_grid_move *moves, int shown, int n)
{
    char b[TS_CODE_MAXLEN];
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "set");
    tw_key(w, "variant");
    tw_str(w, "grid");
    tw_key(w, "rows");
    tw_int(w, rows);
    tw_key(w, "cols");
    tw_int(w, cols);
    ts_report_card_indices(w, "hand", TS_FAM_SET, hand, nhand);
    tw_key(w, "moves");
    tw_arr(w);
    for (int m = 0; m < shown; m++) {
        tw_obj(w);
        tw_key(w, "score");
        tw_int(w, moves[m].score);
        tw_key(w, "place");
        tw_arr(w);
        for (int p = 0; p < moves[m].ncards; p++) {
            tw_obj(w);
            tw_key(w, "code");
            ts_code_format((ts_code){TS_FAM_SET, (uint8_t)hand[moves[m].hand[p]]}, b);
            tw_str(w, b);
            tw_key(w, "hand");
            tw_int(w, moves[m].hand[p]);
            tw_key(w, "row");
            tw_int(w, moves[m].row[p] - margin);
            tw_key(w, "col");
            tw_int(w, moves[m].col[p] - margin);
            tw_end(w);
        }
        tw_end(w);
        tw_end(w);
    }
    tw_end(w);
    tw_key(w, "count");
    tw_int(w, n);
    tw_end(w);
}
