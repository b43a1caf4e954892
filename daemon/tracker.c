/* The live table (see tracker.h): rules/table's tracker plus the game. */
#include "tracker.h"

#include <stdlib.h>
#include <string.h>

struct ts_tracker {
    ts_table_tracker *trk;
    ts_table_rules rules;
    int has_rules;
    unsigned char gone[TS_MAX_CARDS]; /* out's cards left out of the last solve */
    ts_table *present; /* scratch: the stable table without its gone cards */
    ts_stable out;
};

ts_tracker *ts_tracker_create(const ts_tracker_config *cfg)
{
    ts_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->trk = ts_table_tracker_create(cfg);
    t->present = malloc(sizeof *t->present);
    if (!t->trk || !t->present) {
        ts_table_tracker_destroy(t->trk);
        free(t->present);
        free(t);
        return NULL;
    }
    return t;
}

void ts_tracker_destroy(ts_tracker *t)
{
    if (!t)
        return;
    ts_table_tracker_destroy(t->trk);
    free(t->present);
    free(t);
}

const char *ts_event_name(ts_event_type type)
{
    return ts_table_event_name(type);
}

/* Solves the stable table without its gone cards (unseen for
 * TS_TRACK_GONE_AFTER frames or more): they stay on the table (the referee,
 * the JSON) but no hint may be built on, nor any count include, a card that is
 * not there. The game sees the present cards only; its groups are mapped back
 * to the table's card indices. */
static void solve(ts_tracker *t)
{
    ts_table *all = &t->out.table;
    const ts_table_rules *rules = t->has_rules ? &t->rules : NULL;
    ts_table_solve_with(all, rules); /* every card's zone, and the answer if none is gone */
    int n = all->frame.ncards, map[TS_MAX_CARDS], k = 0;
    for (int i = 0; i < n; i++)
        if (!t->gone[i])
            map[k++] = i;
    if (k == n)
        return;
    ts_table *here = t->present;
    here->frame = all->frame;
    here->frame.ncards = k;
    for (int j = 0; j < k; j++)
        here->frame.cards[j] = all->frame.cards[map[j]];
    ts_table_solve_with(here, rules);
    all->view = here->view;
    for (int g = 0; g < all->view.ngroups; g++)
        for (int j = 0; j < all->view.group[g].n; j++)
            all->view.group[g].card[j] = map[all->view.group[g].card[j]];
    all->nsets = here->nsets;
    for (int s = 0; s < here->nsets; s++)
        for (int j = 0; j < 3; j++)
            all->sets[s][j] = map[here->sets[s][j]];
    all->conflict = here->conflict;
    all->ms_rules += here->ms_rules;
}

/* Marks the gone cards; 1 if that changed which cards are gone. */
static int mark_gone(ts_tracker *t)
{
    int changed = 0;
    for (int i = 0; i < t->out.table.frame.ncards; i++) {
        unsigned char g = t->out.missing[i] >= TS_TRACK_GONE_AFTER;
        changed |= g != t->gone[i];
        t->gone[i] = g;
    }
    return changed;
}

void ts_tracker_set_rules(ts_tracker *t, const ts_table_rules *rules)
{
    t->has_rules = rules != NULL;
    if (rules)
        t->rules = *rules;
    solve(t);
}

const ts_stable *ts_tracker_update(ts_tracker *t, const ts_frame_result *r, uint64_t frame,
                                   double time)
{
    const ts_table_stable *st =
        ts_table_tracker_update(t->trk, r->cards, r->ncards, r->w, r->h, frame, time);
    ts_stable *o = &t->out;
    ts_frame_result *f = &o->table.frame;
    f->w = r->w;
    f->h = r->h;
    f->family = r->family;
    f->ms_decode = r->ms_decode;
    f->ms_detect = r->ms_detect;
    f->ms_rectify = r->ms_rectify;
    f->ms_read = r->ms_read;
    f->ms_total = r->ms_total;
    memcpy(f->ms_read_by, r->ms_read_by, sizeof f->ms_read_by);
    f->ncards = st->ncards;
    memcpy(f->cards, st->cards, sizeof(ts_card) * (size_t)st->ncards);
    memcpy(o->id, st->id, sizeof(int) * (size_t)st->ncards);
    memcpy(o->missing, st->missing, sizeof(int) * (size_t)st->ncards);
    o->busy = st->tentative;
    for (int i = 0; i < st->ncards; i++)
        o->busy += st->missing[i] > 0;
    o->version = st->version;
    o->frame = st->frame;
    o->t = st->t;
    o->nevents = st->nevents;
    memcpy(o->events, st->events, sizeof(ts_event) * (size_t)st->nevents);
    if (mark_gone(t) || st->nevents > 0)
        solve(t);
    return o;
}
