/* Qwirkle played with tiles on a board (the shared photos' game) behind the
 * game interface: the lines the tiles make (runs of touching tiles in a row
 * or a column), valid or why not, and the referee's verdict on a turn - the
 * tiles laid in one line, touching the board, every line through them valid -
 * with its score (a point per tile of each line the turn makes or extends, 6
 * more per Qwirkle).
 *
 * Tiles are told apart from where they lie, locally: two tiles touch in a row
 * when the second lies to the right within 1.6 tile widths and less than half
 * a tile higher or lower (a column likewise), so a board seen a little in
 * perspective needs no global grid. Tiles touching only at a corner make no
 * line (the board's printed diagonal start). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "qwirkle.h"

enum { MAX_LINE = 16 };
#define NEXT_REACH 1.6f /* the next tile of a line lies within this many tile sizes */

typedef struct {
    int n;
    int idx[TS_MAX_CARDS]; /* state indices of the read Qwirkle tiles on the table */
    ts_pt c[TS_MAX_CARDS];
    float w[TS_MAX_CARDS], h[TS_MAX_CARDS];
    int next[2][TS_MAX_CARDS]; /* the touching tile to the right (0) and below (1), -1 none */
    int prev[2][TS_MAX_CARDS];
    int unread;
} board;

static void board_of(const ts_game_state *s, board *b)
{
    int idx[TS_MAX_CARDS];
    int n = ts_game_cards_in(s, TS_ZONE_TABLE, idx, &b->unread);
    b->n = 0;
    for (int k = 0; k < n; k++) {
        const ts_card *cd = &s->cards[idx[k]];
        if (cd->code.family != TS_FAM_QWIRKLE)
            continue;
        int m = b->n++;
        float x0 = cd->quad[0].x, x1 = x0, y0 = cd->quad[0].y, y1 = y0;
        for (int q = 1; q < 4; q++) {
            x0 = fminf(x0, cd->quad[q].x), x1 = fmaxf(x1, cd->quad[q].x);
            y0 = fminf(y0, cd->quad[q].y), y1 = fmaxf(y1, cd->quad[q].y);
        }
        b->idx[m] = idx[k];
        b->c[m] = ts_card_centre(cd);
        b->w[m] = x1 - x0;
        b->h[m] = y1 - y0;
    }
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < b->n; k++)
            b->next[d][k] = b->prev[d][k] = -1;
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < b->n; k++) {
            float best = 1e9f, size = d == 0 ? b->w[k] : b->h[k], side = d == 0 ? b->h[k] : b->w[k];
            for (int j = 0; j < b->n; j++) {
                float along = d == 0 ? b->c[j].x - b->c[k].x : b->c[j].y - b->c[k].y;
                float across = d == 0 ? b->c[j].y - b->c[k].y : b->c[j].x - b->c[k].x;
                if (along > 0.5f * size && along < NEXT_REACH * size &&
                    fabsf(across) < 0.5f * side && along < best) {
                    best = along;
                    b->next[d][k] = j;
                }
            }
        }
    for (int d = 0; d < 2; d++) /* a tile is the next of one tile at most */
        for (int k = 0; k < b->n; k++) {
            int j = b->next[d][k];
            if (j >= 0 && b->prev[d][j] < 0)
                b->prev[d][j] = k;
            else if (j >= 0)
                b->next[d][k] = -1;
        }
}

/* The line through tile k in direction d (0 row, 1 column), in order; its length. */
static int line_through(const board *b, int k, int d, int *out)
{
    int start = k, guard = 0;
    while (b->prev[d][start] >= 0 && guard++ < b->n)
        start = b->prev[d][start];
    int n = 0;
    for (int t = start; t >= 0 && n < MAX_LINE; t = b->next[d][t])
        out[n++] = t;
    return n;
}

/* Why a line of tiles (board positions) is no Qwirkle line; NULL if it is one. */
static const char *line_error(const ts_game_state *s, const board *b, const int *line, int n)
{
    if (n > TS_QW_QWIRKLE)
        return "a line holds at most 6 tiles";
    int colour = 1, shape = 1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int a = s->cards[b->idx[line[i]]].code.idx, c = s->cards[b->idx[line[j]]].code.idx;
            if (a == c)
                return "two identical tiles in a line";
            colour &= ts_qw_colour(a) == ts_qw_colour(c);
            shape &= ts_qw_shape(a) == ts_qw_shape(c);
        }
    if (!colour && !shape)
        return "a line is one colour or one shape";
    return NULL;
}

static void line_codes(const ts_game_state *s, const board *b, const int *line, int n, char *out,
                       size_t cap)
{
    ts_code codes[MAX_LINE];
    for (int i = 0; i < n; i++)
        codes[i] = s->cards[b->idx[line[i]]].code;
    ts_game_codes_text(codes, n, out, cap);
}

static int tiles_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    (void)o;
    board b; /* a few kB: on the stack, no state kept */
    board_of(s, &b);
    v->unread = b.unread;
    v->show_groups = v->show_cards = -1;
    int lines = 0, bad = 0;
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < b.n; k++) {
            if (b.prev[d][k] >= 0 || b.next[d][k] < 0)
                continue; /* lines are counted from their first tile */
            int line[MAX_LINE];
            int n = line_through(&b, k, d, line);
            const char *why = line_error(s, &b, line, n);
            char label[48];
            int a = s->cards[b.idx[line[0]]].code.idx, c = s->cards[b.idx[line[1]]].code.idx;
            int name = ts_qw_colour(a) == ts_qw_colour(c) ? ts_qw_colour(a) : 6 + ts_qw_shape(a);
            snprintf(label, sizeof label, "%s%s", why ? "invalid: " : n == 6 ? "QWIRKLE " : "",
                     why ? why : ts_qw_line_name(name));
            ts_view_group *g = ts_view_add(v, why ? TS_MARK_BAD : TS_MARK_GOOD, label);
            if (g) {
                g->n = n < TS_VIEW_GROUP_MAX ? n : TS_VIEW_GROUP_MAX;
                for (int i = 0; i < g->n; i++)
                    g->card[i] = b.idx[line[i]];
            }
            lines++;
            bad += why != NULL;
        }
    v->count = bad;
    if (bad)
        snprintf(v->headline, sizeof v->headline, "%d of %d line%s invalid", bad, lines,
                 lines == 1 ? "" : "s");
    else
        snprintf(v->headline, sizeof v->headline, "%d tile%s, %d line%s, all valid", b.n,
                 b.n == 1 ? "" : "s", lines, lines == 1 ? "" : "s");
    return 0;
}

static int board_pos(const board *b, int state_idx)
{
    for (int k = 0; k < b->n; k++)
        if (b->idx[k] == state_idx)
            return k;
    return -1;
}

static void tiles_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                        ts_game_memory *mem, ts_verdict *out)
{
    (void)mem;
    out->zone = TS_ZONE_TABLE;
    int placed[TS_MOVE_MAX], cleared;
    int np = ts_move_in_zone(before, after, m, TS_ZONE_TABLE, placed, &cleared);
    if (cleared > 0) {
        out->ncards = 0;
        for (int k = 0; k < m->nremoved && out->ncards < TS_MOVE_MAX; k++)
            out->cards[out->ncards++] = before->cards[m->removed[k]].code;
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                       "%d tile%s left the board: tiles stay where they are laid", cleared,
                       cleared == 1 ? "" : "s");
        return;
    }
    int old_idx[TS_MAX_CARDS];
    if (np == 0 || ts_game_cards_in(before, TS_ZONE_TABLE, old_idx, NULL) == 0) {
        ts_verdict_set(out, TS_VERDICT_NONE, "none",
                       np ? "the board as found" : "no tile laid on the board");
        return;
    }
    if (!ts_verdict_cards(out, after, placed, np))
        return;
    board b; /* a few kB: on the stack, no state kept */
    board_of(after, &b);
    int pos[TS_MOVE_MAX], is_new[TS_MAX_CARDS] = {0};
    for (int k = 0; k < np; k++) {
        pos[k] = board_pos(&b, placed[k]);
        if (pos[k] < 0) {
            ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge", "a tile laid is not a Qwirkle tile");
            return;
        }
        is_new[pos[k]] = 1;
    }
    /* One line: every tile laid lies on the row (or column) line of the first. */
    int dir = -1;
    for (int d = 0; d < 2 && dir < 0; d++) {
        int line[MAX_LINE], n = line_through(&b, pos[0], d, line), all = 1;
        for (int k = 1; k < np && all; k++) {
            int in = 0;
            for (int i = 0; i < n; i++)
                in |= line[i] == pos[k];
            all &= in;
        }
        if (all && np > 1)
            dir = d;
    }
    if (np > 1 && dir < 0) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal",
                       "the tiles of a turn go in one line, touching each other or the board");
        return;
    }
    int old = b.n - np;
    int touches = old == 0; /* the first turn touches nothing */
    int score = 0, qwirkles = 0;
    char text[96];
    for (int d = 0; d < 2; d++) {
        /* the line along the turn once, and the line across each tile laid */
        for (int k = 0; k < np; k++) {
            if (d == dir && k > 0)
                break;
            int line[MAX_LINE], n = line_through(&b, pos[k], d, line);
            for (int i = 0; i < n; i++)
                touches |= !is_new[line[i]];
            if (n < 2)
                continue;
            const char *why = line_error(after, &b, line, n);
            if (why) {
                line_codes(after, &b, line, n, text, sizeof text);
                ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "%s: %s", text, why);
                return;
            }
            score += n;
            qwirkles += n == TS_QW_QWIRKLE;
        }
    }
    if (!touches) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "the tiles laid touch no tile of the board");
        return;
    }
    if (score == 0)
        score = 1; /* the game's first tile alone */
    score += 6 * qwirkles;
    out->points = score;
    ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "%d tile%s: %d point%s%s", np,
                   np == 1 ? "" : "s in one line", score, score == 1 ? "" : "s",
                   qwirkles ? " with a QWIRKLE" : "");
}

const ts_game TS_GAME_QWIRKLE_TILES = {"qwtiles", "Qwirkle (tiles on a board)", TS_FAM_QWIRKLE,
                                       tiles_analyse, tiles_judge, .fixed_cards = 1};
