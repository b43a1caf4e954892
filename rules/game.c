/* The game registry and the helpers the game files share (see game.h). */
#include "game.h"
#include "answers.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const ts_game_opts TS_GAME_OPTS_DEFAULT = {.hint_level = 4, .first_lead = 0};

static const ts_game *const GAMES[] = {&TS_GAME_SET,     &TS_GAME_GOF,     &TS_GAME_QWIRKLE,
                                       &TS_GAME_ELEUSIS, &TS_GAME_SAPNGWU, &TS_GAME_SETGRID,
                                       &TS_GAME_QWIRKLE_TILES, NULL};

const ts_game *const *ts_games(void)
{
    return GAMES;
}

const ts_game *ts_game_find(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "playing") == 0)
        return &TS_GAME_ELEUSIS;
    if (strcmp(name, "domino") == 0)
        return &TS_GAME_SAPNGWU;
    for (int i = 0; GAMES[i]; i++)
        if (strcmp(GAMES[i]->name, name) == 0)
            return GAMES[i];
    return NULL;
}

const ts_game *ts_game_for_family(int family)
{
    for (int i = 0; GAMES[i]; i++)
        if ((int)GAMES[i]->family == family)
            return GAMES[i];
    return NULL;
}

const char *ts_verdict_kind_name(ts_verdict_kind k)
{
    static const char *const names[] = {"none", "legal", "illegal", "info", "cannot judge"};
    return (unsigned)k <= TS_VERDICT_CANNOT ? names[k] : "?";
}

int ts_game_zone(const ts_game_state *s, int i)
{
    return s->zone ? ts_zone_kind_of(s->zone[i]) : TS_ZONE_TABLE;
}

int ts_game_seat(const ts_game_state *s, int i)
{
    return s->zone && ts_zone_kind_of(s->zone[i]) == TS_ZONE_HAND ? ts_zone_seat(s->zone[i]) : 0;
}

int ts_game_seat_cards(const ts_game_state *s, int seat)
{
    int n = 0;
    for (int i = 0; i < s->n && i < TS_MAX_CARDS; i++)
        n += ts_game_zone(s, i) == TS_ZONE_HAND && ts_game_seat(s, i) == seat;
    return n;
}

int ts_move_seat(const ts_game_state *before, const ts_move *m)
{
    int seat = -1;
    for (int k = 0; k < m->nremoved && k < TS_MOVE_MAX; k++) {
        int i = m->removed[k];
        if (ts_game_zone(before, i) != TS_ZONE_HAND)
            continue;
        int s = ts_game_seat(before, i);
        if (seat >= 0 && s != seat)
            return 0;
        seat = s;
    }
    return seat > 0 ? seat : 0;
}

void ts_memory_see_seats(ts_game_memory *mem, const ts_game_state *s)
{
    for (int i = 0; i < s->n && i < TS_MAX_CARDS; i++) {
        int seat = ts_game_seat(s, i);
        if (seat > 0 && seat <= TS_SEATS_MAX)
            mem->seen[seat] = 1;
    }
}

int ts_move_in_zone(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                    int z, int *placed, int *cleared)
{
    int np = 0;
    for (int k = 0; k < m->nadded; k++)
        if (ts_game_zone(after, m->added[k]) == z)
            placed[np++] = m->added[k];
    if (cleared) {
        *cleared = 0;
        for (int k = 0; k < m->nremoved; k++)
            *cleared += ts_game_zone(before, m->removed[k]) == z;
    }
    return np;
}

void ts_verdict_no_trick_move(ts_verdict *out)
{
    ts_verdict_set(out, TS_VERDICT_NONE, "none", "no cards placed on the trick");
}

ts_trick_move ts_move_on_trick(const ts_game_state *before, const ts_game_state *after,
                               const ts_move *m, const ts_game_memory *mem, ts_verdict *out,
                               int *placed, int *np)
{
    int cleared, idx[TS_MAX_CARDS];
    *np = ts_move_in_zone(before, after, m, TS_ZONE_TRICK, placed, &cleared);
    out->zone = TS_ZONE_TRICK;
    if (*np == 0) {
        if (cleared > 0 && mem->nlast > 0 && ts_game_cards_in(after, TS_ZONE_TRICK, idx, NULL) == 0)
            return TS_TRICK_SWEPT;
        ts_verdict_no_trick_move(out);
        return TS_TRICK_NOTHING;
    }
    out->seat = ts_move_seat(before, m);
    return ts_verdict_cards(out, after, placed, *np) ? TS_TRICK_PLAY : TS_TRICK_NOTHING;
}

int ts_verdict_seen_seats(ts_verdict *out, const ts_game_memory *mem, const ts_game_state *after)
{
    out->nscores = 0;
    for (int s = 1; s <= TS_SEATS_MAX; s++) {
        if (!mem->seen[s])
            continue;
        ts_seat_score *sc = &out->score[out->nscores++];
        sc->seat = s;
        sc->cards_left = ts_game_seat_cards(after, s);
        sc->total = mem->total[s];
    }
    return out->nscores;
}

int ts_game_cards_in(const ts_game_state *s, int z, int *idx, int *unread)
{
    int n = 0, u = 0;
    for (int i = 0; i < s->n && i < TS_MAX_CARDS; i++) {
        int zi = ts_game_zone(s, i);
        if (zi == TS_ZONE_OFF || (z >= 0 && zi != z))
            continue;
        if (s->cards[i].read)
            idx[n++] = i;
        else
            u++;
    }
    if (unread)
        *unread = u;
    return n;
}

ts_view_group *ts_view_add(ts_game_view *v, ts_mark mark, const char *label)
{
    if (v->ngroups >= TS_VIEW_MAX_GROUPS)
        return NULL;
    ts_view_group *g = &v->group[v->ngroups++];
    memset(g, 0, sizeof *g);
    g->mark = mark;
    snprintf(g->label, sizeof g->label, "%s", label ? label : "");
    return g;
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

int ts_game_cluster(const ts_game_state *s, const int *idx, int n, float reach, int *group_of)
{
    int parent[TS_MAX_CARDS];
    ts_pt c[TS_MAX_CARDS];
    float d[TS_MAX_CARDS];
    if (n > TS_MAX_CARDS)
        n = TS_MAX_CARDS;
    for (int k = 0; k < n; k++) {
        parent[k] = k;
        c[k] = ts_card_centre(&s->cards[idx[k]]);
        d[k] = ts_card_diag(&s->cards[idx[k]]);
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            float lim = reach * (d[a] > d[b] ? d[a] : d[b]);
            if (hypotf(c[a].x - c[b].x, c[a].y - c[b].y) < lim)
                parent[find_root(parent, a)] = find_root(parent, b);
        }
    /* Number the groups by their leftmost card, so the order reads like the table. */
    int root_group[TS_MAX_CARDS], ng = 0;
    float left[TS_MAX_CARDS];
    for (int k = 0; k < n; k++)
        root_group[k] = -1;
    for (int k = 0; k < n; k++) {
        int r = find_root(parent, k);
        if (root_group[r] < 0) {
            root_group[r] = ng;
            left[ng++] = c[k].x;
        } else if (c[k].x < left[root_group[r]]) {
            left[root_group[r]] = c[k].x;
        }
    }
    int rank[TS_MAX_CARDS];
    for (int g = 0; g < ng; g++) {
        rank[g] = 0;
        for (int h = 0; h < ng; h++)
            rank[g] += left[h] < left[g] || (left[h] == left[g] && h < g);
    }
    for (int k = 0; k < n; k++)
        group_of[k] = rank[root_group[find_root(parent, k)]];
    return ng;
}

int ts_game_analyse(const ts_game *g, const ts_game_state *s, const ts_game_opts *opts,
                    ts_game_view *v)
{
    memset(v, 0, sizeof *v);
    if (!opts)
        opts = &TS_GAME_OPTS_DEFAULT;
    int rc = g->analyse(s, opts, v);
    if (v->unread > 0) {
        size_t len = strlen(v->headline);
        snprintf(v->headline + len, sizeof v->headline - len, "%s%d unread",
                 len ? " | " : "", v->unread);
    }
    return rc;
}

static const char *mark_name(ts_mark m)
{
    static const char *const names[] = {"hint", "good", "bad", "info"};
    return (unsigned)m <= TS_MARK_INFO ? names[m] : "?";
}

void ts_game_report(const ts_game *g, const ts_game_view *v, const ts_writer *w)
{
    if (g == &TS_GAME_SET) { /* the output contract's "sets", as before */
        tw_key(w, "sets");
        tw_arr(w);
        for (int i = 0; i < v->ngroups; i++) {
            if (v->group[i].n != 3 || v->group[i].mark != TS_MARK_HINT)
                continue;
            tw_arr(w);
            for (int k = 0; k < 3; k++)
                tw_int(w, v->group[i].card[k]);
            tw_end(w);
        }
        tw_end(w);
    }
    tw_key(w, "hints");
    tw_arr(w);
    for (int i = 0; i < v->ngroups; i++) {
        const ts_view_group *h = &v->group[i];
        tw_obj(w);
        tw_key(w, "cards");
        tw_arr(w);
        for (int k = 0; k < h->n; k++)
            tw_int(w, h->card[k]);
        tw_end(w);
        tw_key(w, "mark");
        tw_str(w, mark_name(h->mark));
        tw_key(w, "label");
        tw_str(w, h->label);
        if (h->score) {
            tw_key(w, "score");
            tw_int(w, h->score);
        }
        tw_end(w);
    }
    tw_end(w);
    if (v->show_groups >= 0) { /* the SET hint ladder: the cards shown */
        tw_key(w, "shown");
        tw_arr(w);
        for (int i = 0; i < v->show_groups && i < v->ngroups; i++) {
            int last = i == v->show_groups - 1 && v->show_cards >= 0;
            for (int k = 0; k < v->group[i].n && (!last || k < v->show_cards); k++)
                tw_int(w, v->group[i].card[k]);
        }
        tw_end(w);
    }
    tw_key(w, "count");
    tw_int(w, v->count);
    tw_key(w, "headline");
    tw_str(w, v->headline);
    tw_key(w, "unread");
    tw_int(w, v->unread);
    if (g->family == TS_FAM_GOF || g->family == TS_FAM_DOMINO) {
        tw_key(w, "pass");
        tw_bool(w, v->pass);
        tw_key(w, "leading");
        tw_bool(w, v->leading);
    }
}

void ts_verdict_report(const ts_verdict *v, const char *game, double t, const ts_writer *w)
{
    tw_key(w, "t");
    tw_num(w, t, 3);
    tw_key(w, "game");
    tw_str(w, game);
    tw_key(w, "zone");
    tw_str(w, ts_zone_name(v->zone));
    tw_key(w, "cards");
    tw_arr(w);
    for (int i = 0; i < v->ncards; i++) {
        char b[TS_CODE_MAXLEN];
        ts_code_format(v->cards[i], b);
        tw_str(w, b);
    }
    tw_end(w);
    tw_key(w, "kind");
    tw_str(w, ts_verdict_kind_name(v->kind));
    tw_key(w, "verdict");
    tw_str(w, v->verdict);
    tw_key(w, "reason");
    tw_str(w, v->reason);
    if (v->points > 0) {
        tw_key(w, "points");
        tw_int(w, v->points);
    }
    if (v->seat > 0) {
        tw_key(w, "seat");
        tw_int(w, v->seat);
    }
    if (v->hand_over) {
        tw_key(w, "hand_over");
        tw_bool(w, 1);
    }
    if (v->game_over) {
        tw_key(w, "game_over");
        tw_bool(w, 1);
    }
    if (v->scores == TS_SCORES_NONE)
        return;
    tw_key(w, "scores");
    tw_arr(w);
    for (int i = 0; i < v->nscores; i++) {
        const ts_seat_score *sc = &v->score[i];
        tw_obj(w);
        tw_key(w, "seat");
        tw_int(w, sc->seat);
        tw_key(w, "cards_left");
        tw_int(w, sc->cards_left);
        if (v->scores == TS_SCORES_PENALTY) {
            tw_key(w, "points");
            tw_int(w, sc->points);
            tw_key(w, "total");
            tw_int(w, sc->total);
        } else {
            tw_key(w, "wu");
            tw_int(w, sc->total);
            tw_key(w, "chips");
            tw_int(w, sc->chips);
        }
        tw_end(w);
    }
    tw_end(w);
}

int ts_game_pick(const ts_game_state *s, const int *idx, int nidx, const ts_code *codes, int n,
                 ts_view_group *g)
{
    int used[TS_MAX_CARDS] = {0};
    g->n = 0;
    for (int k = 0; k < n && g->n < TS_VIEW_GROUP_MAX; k++) {
        int hit = -1;
        for (int j = 0; j < nidx && hit < 0; j++)
            if (!used[j] && s->cards[idx[j]].code.family == codes[k].family &&
                s->cards[idx[j]].code.idx == codes[k].idx)
                hit = j;
        if (hit < 0)
            return -1;
        used[hit] = 1;
        g->card[g->n++] = idx[hit];
    }
    return 0;
}

int ts_game_trick_and_hand(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v,
                           int *trick_idx, int *nt, int *hand_idx, int *nh)
{
    int tu, hu;
    *nt = ts_game_cards_in(s, TS_ZONE_TRICK, trick_idx, &tu);
    *nh = ts_game_cards_in(s, TS_ZONE_HAND, hand_idx, &hu);
    v->unread = tu + hu;
    v->show_groups = v->show_cards = -1;
    if (tu > 0) {
        snprintf(v->headline, sizeof v->headline, "trick not read: no hints");
        return 0;
    }
    ts_view_group known;
    if (o->ntrick > 0 && *nt > 0 &&
        ts_game_pick(s, trick_idx, *nt, o->trick, o->ntrick, &known) == 0) {
        *nt = known.n;
        memcpy(trick_idx, known.card, sizeof(int) * (size_t)*nt);
    }
    return 1;
}

void ts_game_codes_text(const ts_code *codes, int n, char *out, size_t cap)
{
    size_t len = 0;
    if (cap)
        out[0] = '\0';
    for (int i = 0; i < n && len + TS_CODE_MAXLEN + 1 < cap; i++) {
        char b[TS_CODE_MAXLEN];
        ts_code_format(codes[i], b);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", b);
    }
}

void ts_verdict_set(ts_verdict *v, ts_verdict_kind kind, const char *verdict, const char *fmt, ...)
{
    v->kind = kind;
    snprintf(v->verdict, sizeof v->verdict, "%s", verdict);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
}

int ts_verdict_cards(ts_verdict *v, const ts_game_state *s, const int *idx, int n)
{
    v->ncards = 0;
    int unread = -1;
    for (int k = 0; k < n && v->ncards < TS_MOVE_MAX; k++) {
        if (s->cards[idx[k]].read) /* an unread card has no code to name */
            v->cards[v->ncards++] = s->cards[idx[k]].code;
        else if (unread < 0)
            unread = k;
    }
    if (unread >= 0) {
        ts_verdict_set(v, TS_VERDICT_CANNOT, "cannot judge",
                       "card %d of the move is not read (best guess %s, %.0f%%)", unread + 1,
                       s->cards[idx[unread]].text, 100.0 * s->cards[idx[unread]].conf);
        return 0;
    }
    return 1;
}

/* ---- Answers' shared pieces (answers.h) ------------------------------------------------ */

void ts_report_codes(const ts_writer *w, const char *key, const ts_code *codes, int n)
{
    char b[TS_CODE_MAXLEN];
    if (key)
        tw_key(w, key);
    tw_arr(w);
    for (int i = 0; i < n; i++) {
        ts_code_format(codes[i], b);
        tw_str(w, b);
    }
    tw_end(w);
}

void ts_report_card_indices(const ts_writer *w, const char *key, ts_family fam, const int *idx,
                            int n)
{
    char b[TS_CODE_MAXLEN];
    if (key)
        tw_key(w, key);
    tw_arr(w);
    for (int i = 0; i < n; i++) {
        ts_code_format((ts_code){(uint8_t)fam, (uint8_t)idx[i]}, b);
        tw_str(w, b);
    }
    tw_end(w);
}
