/* The referee (see referee.h). */
#include "referee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ts_referee_config TS_REFEREE_DEFAULTS = {.settle_frames = 5, .max_changes = 12};

struct ts_referee {
    const ts_game *game;
    ts_referee_config cfg;
    ts_eleusis_dealer *dealer;
    ts_game_memory mem;
    ts_table_snapshot settled, before, cand;
    ts_move move;
    int quiet; /* updates cand has held, quiet */
    ts_referee_still_there still_there;
    void *still_ctx;
    int has_cand;
};

ts_referee *ts_referee_create(const ts_game *game, const ts_referee_config *cfg)
{
    ts_referee *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->game = game;
    r->cfg = cfg ? *cfg : TS_REFEREE_DEFAULTS;
    if (r->cfg.settle_frames <= 0)
        r->cfg.settle_frames = TS_REFEREE_DEFAULTS.settle_frames;
    if (r->cfg.max_changes <= 0)
        r->cfg.max_changes = TS_REFEREE_DEFAULTS.max_changes;
    return r;
}

void ts_referee_destroy(ts_referee *r)
{
    free(r);
}

void ts_referee_set_dealer(ts_referee *r, ts_eleusis_dealer *d)
{
    r->dealer = d;
}

void ts_referee_set_evidence(ts_referee *r, ts_referee_still_there fn, void *ctx)
{
    r->still_there = fn;
    r->still_ctx = ctx;
}

void ts_referee_set_first_lead(ts_referee *r, int on)
{
    r->mem.first_lead = on;
}

const ts_table_snapshot *ts_referee_before(const ts_referee *r)
{
    return &r->before;
}
const ts_table_snapshot *ts_referee_after(const ts_referee *r)
{
    return &r->settled;
}
const ts_move *ts_referee_move(const ts_referee *r)
{
    return &r->move;
}

static int same_code(ts_code a, ts_code b)
{
    return a.family == b.family && a.idx == b.idx;
}

/* Same cards, readings and zones (positions may differ: a nudge is no move). */
static int same_table(const ts_table_snapshot *a, const ts_table_snapshot *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->id[i] != b->id[i] || a->zone[i] != b->zone[i] ||
            a->cards[i].read != b->cards[i].read ||
            (a->cards[i].read && !same_code(a->cards[i].code, b->cards[i].code)))
            return 0;
    return 1;
}

static int find_id(const ts_table_snapshot *s, int id)
{
    for (int i = 0; i < s->n; i++)
        if (s->id[i] == id)
            return i;
    return -1;
}

/* The cards that left (removed) and came (added) between two settled tables.
 * A card whose zone (or, with rereads, reading) changed counts as both. A card that went and
 * came back with the same reading in the same zone (a long occlusion gives it
 * a new track) is no change. Returns added + removed, which may exceed the
 * move's room (the caller refuses such a move). */
static int diff(const ts_table_snapshot *a, const ts_table_snapshot *b, int rereads, ts_move *m)
{
    int gone[TS_MAX_CARDS], ngone = 0, came[TS_MAX_CARDS], ncame = 0;
    for (int i = 0; i < a->n; i++) {
        int j = find_id(b, a->id[i]);
        if (j < 0 || b->zone[j] != a->zone[i] ||
            (rereads && (b->cards[j].read != a->cards[i].read ||
                         (a->cards[i].read && !same_code(a->cards[i].code, b->cards[j].code)))))
            gone[ngone++] = i;
    }
    for (int j = 0; j < b->n; j++) {
        int i = find_id(a, b->id[j]);
        if (i < 0 || b->zone[j] != a->zone[i] ||
            (rereads && (b->cards[j].read != a->cards[i].read ||
                         (a->cards[i].read && !same_code(a->cards[i].code, b->cards[j].code)))))
            came[ncame++] = j;
    }
    int used[TS_MAX_CARDS] = {0};
    memset(m, 0, sizeof *m);
    for (int g = 0; g < ngone; g++) {
        const ts_card *c = &a->cards[gone[g]];
        int twin = -1;
        for (int k = 0; k < ncame && twin < 0 && c->read; k++)
            if (!used[k] && b->cards[came[k]].read &&
                same_code(b->cards[came[k]].code, c->code) &&
                b->zone[came[k]] == a->zone[gone[g]] && find_id(a, b->id[came[k]]) < 0 &&
                find_id(b, a->id[gone[g]]) < 0)
                twin = k;
        if (twin >= 0) {
            used[twin] = 1;
            continue;
        }
        if (m->nremoved < TS_MOVE_MAX)
            m->removed[m->nremoved] = gone[g];
        m->nremoved++;
    }
    for (int k = 0; k < ncame; k++) {
        if (used[k])
            continue;
        if (m->nadded < TS_MOVE_MAX)
            m->added[m->nadded] = came[k];
        m->nadded++;
    }
    return m->nadded + m->nremoved;
}

/* Cards a move took from a hand zone and laid, the same card, in another
 * zone: each is one change, not two (a 12-card play from a hand laid open is
 * one move). */
static int from_hand(const ts_table_snapshot *a, const ts_table_snapshot *b, const ts_move *m)
{
    int used[TS_MOVE_MAX] = {0}, n = 0;
    for (int k = 0; k < m->nremoved && k < TS_MOVE_MAX; k++) {
        const ts_card *c = &a->cards[m->removed[k]];
        if (ts_zone_kind_of(a->zone[m->removed[k]]) != TS_ZONE_HAND || !c->read)
            continue;
        for (int j = 0; j < m->nadded && j < TS_MOVE_MAX; j++) {
            const ts_card *d = &b->cards[m->added[j]];
            if (!used[j] && d->read && same_code(d->code, c->code) &&
                ts_zone_kind_of(b->zone[m->added[j]]) != TS_ZONE_HAND) {
                used[j] = 1;
                n++;
                break;
            }
        }
    }
    return n;
}

const ts_game_memory *ts_referee_memory(const ts_referee *r)
{
    return &r->mem;
}

int ts_referee_quiet(const ts_referee *r)
{
    return r->has_cand && r->quiet >= r->cfg.settle_frames && same_table(&r->cand, &r->settled);
}

static ts_game_state state_of(const ts_table_snapshot *s)
{
    return (ts_game_state){s->cards, s->n, s->zone, s->w, s->h};
}

/* Eleusis with a dealer: a card placed at the end of the mainline is judged;
 * so is a card laid straight on the sideline (a player who knows it is wrong),
 * but not one taken back there from the mainline after a "wrong". */
static void dealer_judge(ts_referee *r, ts_verdict *out)
{
    ts_game_state before = state_of(&r->before), after = state_of(&r->settled);
    int placed = -1, nplaced = 0, side = -1, nside = 0;
    for (int k = 0; k < r->move.nadded && k < TS_MOVE_MAX; k++) {
        int i = r->move.added[k];
        if (after.zone[i] == TS_ZONE_MAINLINE)
            placed = i, nplaced++;
        else if (after.zone[i] == TS_ZONE_SIDELINE)
            side = i, nside++;
    }
    out->zone = TS_ZONE_MAINLINE;
    if (nplaced == 0 && nside == 1) {
        for (int k = 0; k < r->move.nremoved && k < TS_MOVE_MAX; k++) {
            const ts_card *c = &before.cards[r->move.removed[k]];
            if (before.zone[r->move.removed[k]] == TS_ZONE_MAINLINE && c->read &&
                after.cards[side].read && c->code.family == after.cards[side].code.family &&
                c->code.idx == after.cards[side].code.idx) {
                ts_verdict_set(out, TS_VERDICT_NONE, "none", "a wrong card taken to the sideline");
                return;
            }
        }
        out->zone = TS_ZONE_SIDELINE;
        if (!ts_verdict_cards(out, &after, &side, 1))
            return;
        ts_eleusis_dealer_place(r->dealer, after.cards[side].code, out);
        out->zone = TS_ZONE_SIDELINE;
        if (out->kind == TS_VERDICT_ILLEGAL) { /* wrong, and where it belongs */
            out->kind = TS_VERDICT_LEGAL;
            snprintf(out->verdict, sizeof out->verdict, "wrong");
        } else if (out->kind == TS_VERDICT_LEGAL) { /* right, but laid aside */
            out->kind = TS_VERDICT_ILLEGAL;
            snprintf(out->verdict, sizeof out->verdict, "right");
            size_t len = strlen(out->reason);
            snprintf(out->reason + len, sizeof out->reason - len,
                     ": it belongs on the mainline");
        }
        return;
    }
    if (nplaced == 0) {
        ts_verdict_set(out, TS_VERDICT_NONE, "none", "no card placed on the mainline");
        return;
    }
    if (!ts_verdict_cards(out, &after, &placed, 1))
        return;
    if (nplaced + nside > 1) {
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                       "%d cards placed at once: one card at a time", nplaced + nside);
        return;
    }
    int order[TS_MAX_CARDS];
    int n = ts_eleusis_mainline_order(&after, order, NULL);
    if (n > 1 && order[n - 1] != placed) {
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                       "the card is not at the end of the mainline");
        return;
    }
    ts_eleusis_dealer_place(r->dealer, after.cards[placed].code, out);
}

int ts_referee_update(ts_referee *r, const ts_card *cards, const int *id, const int *zone, int n,
                      int w, int h, int busy, double t, ts_verdict *out)
{
    ts_table_snapshot now;
    now.w = w;
    now.h = h;
    now.n = n < 0 ? 0 : n > TS_MAX_CARDS ? TS_MAX_CARDS : n;
    now.t = t;
    for (int i = 0; i < now.n; i++) {
        now.cards[i] = cards[i];
        now.id[i] = id[i];
        now.zone[i] = zone ? zone[i] : TS_ZONE_TABLE;
    }
    if (busy > 0 || !r->has_cand || !same_table(&now, &r->cand)) {
        r->cand = now;
        r->has_cand = 1;
        r->quiet = busy > 0 ? -1 : 0; /* counting starts when it is quiet */
        return 0;
    }
    memcpy(r->cand.cards, now.cards, sizeof(ts_card) * (size_t)now.n);
    if (++r->quiet != r->cfg.settle_frames)
        return 0;
    /* Settled: a move if it differs from the last settled table. */
    ts_move m;
    /* A SET card (a Qwirkle tile) never changes in place: a new reading
     * there is the reader changing its mind, not a move. Elsewhere a card
     * laid on top of another (a sideline pile, a trick) may take over its
     * track. */
    int changes = diff(&r->settled, &r->cand, !r->game->fixed_cards, &m);
    if (changes > 0)
        changes -= from_hand(&r->settled, &r->cand, &m);
    if (changes == 0) {
        r->settled.t = t; /* a hand passed: no move */
        return 0;
    }
    r->before = r->settled;
    r->settled = r->cand;
    r->settled.t = t;
    r->move = m;
    memset(out, 0, sizeof *out);
    ts_game_state before = state_of(&r->before), after = state_of(&r->settled);
    ts_memory_see_seats(&r->mem, &before);
    ts_memory_see_seats(&r->mem, &after);
    if (changes > r->cfg.max_changes && r->before.n > 0) { /* the first layout is no move */
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                       "%d cards changed at once: too many for one move", changes);
        return 1;
    }
    for (int k = 0; r->still_there && k < r->move.nremoved && k < TS_MOVE_MAX; k++) {
        const ts_card *c = &r->before.cards[r->move.removed[k]];
        int i = r->move.removed[k], j = find_id(&r->settled, r->before.id[i]);
        if (j >= 0) /* still on the table, in another zone: it moved */
            continue;
        if (r->still_there(r->still_ctx, c)) {
            out->zone = ts_zone_kind_of(r->before.zone[i]);
            out->ncards = c->read;
            out->cards[0] = c->code;
            ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                           "%s is not found any more but still lies in its place (a shadow "
                           "or glare?)", c->read ? c->text : "a card");
            return 1;
        }
    }
    /* Cards found late lay there before: no part of the move. */
    int kept = 0;
    for (int k = 0; k < r->move.nadded && k < TS_MOVE_MAX; k++) {
        const ts_card *c = &r->settled.cards[r->move.added[k]];
        if (r->still_there && r->before.n > 0 && r->still_there(r->still_ctx, c))
            continue;
        r->move.added[kept++] = r->move.added[k];
    }
    r->move.nadded = kept < TS_MOVE_MAX ? kept : r->move.nadded;
    if (r->move.nadded == 0 && r->move.nremoved == 0) {
        ts_verdict_set(out, TS_VERDICT_NONE, "none", "cards found late: they lay there before");
        return 1;
    }
    if (r->game == &TS_GAME_ELEUSIS && r->dealer)
        dealer_judge(r, out);
    else
        r->game->judge(&before, &after, &r->move, &r->mem, out);
    return 1;
}
