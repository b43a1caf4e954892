/* A recognised table solved through the game interface (see table.h). */
#include "table.h"

#include <string.h>

#include "clock.h"

ts_game_state ts_table_state(const ts_table *t)
{
    return (ts_game_state){t->frame.cards, t->frame.ncards, t->zone, t->frame.w, t->frame.h};
}

void ts_table_solve_with(ts_table *t, const ts_table_rules *rules)
{
    double t0 = ts_now_ms();
    static const ts_table_rules none = {0};
    if (!rules)
        rules = &none;
    const ts_frame_result *r = &t->frame;
    t->game = rules->game ? rules->game : ts_game_for_family(r->family);
    if (!t->game && r->family < 0)
        t->game = &TS_GAME_SET; /* nothing read: an empty SET table */
    ts_zones def;
    const ts_zones *z = rules->zones;
    if (!z) {
        ts_zones_default(t->game ? t->game->name : "set", &def);
        z = &def;
    }
    int n = r->ncards < 0 ? 0 : r->ncards > TS_MAX_CARDS ? TS_MAX_CARDS : r->ncards;
    for (int i = 0; i < n; i++)
        t->zone[i] = ts_zones_card(z, &r->cards[i], r->w, r->h);
    memset(&t->view, 0, sizeof t->view);
    t->nsets = 0;
    t->conflict = 0;
    if (t->game) {
        ts_game_state s = ts_table_state(t);
        ts_game_analyse(t->game, &s, rules->set_opts ? &rules->opts : NULL, &t->view);
    }
    /* SET: every Set, as the output contract has it. */
    if (t->game == &TS_GAME_SET)
        for (int g = 0; g < t->view.ngroups && t->nsets < TS_MAX_SETS; g++)
            if (t->view.group[g].n == 3) {
                memcpy(t->sets[t->nsets], t->view.group[g].card, sizeof t->sets[0]);
                t->nsets++;
            }
    /* Duplicate readings: one deck (of one kind) holds each card once per copy. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i && r->cards[i].read; j++)
            if (r->cards[j].read && r->cards[j].code.family == TS_FAM_SET &&
                r->cards[i].code.family == TS_FAM_SET && r->cards[j].code.idx == r->cards[i].code.idx)
                t->conflict = 1;
    t->conflict |= t->view.conflict;
    t->ms_rules = ts_now_ms() - t0;
}

void ts_table_solve(ts_table *t)
{
    ts_table_solve_with(t, NULL);
}
