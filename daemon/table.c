#include "table.h"

#include "clock.h"
#include "set.h"

void ts_table_solve(ts_table *t)
{
    double t0 = ts_now_ms();
    const ts_frame_result *r = &t->frame;
    int idx[TS_MAX_CARDS], pos[TS_MAX_CARDS], m = 0;
    t->nsets = 0;
    t->conflict = 0;
    for (int i = 0; i < r->ncards; i++) {
        const ts_card *c = &r->cards[i];
        if (!c->read)
            continue;
        for (int j = 0; j < i; j++)
            if (r->cards[j].read && r->cards[j].code.family == c->code.family &&
                r->cards[j].code.idx == c->code.idx)
                t->conflict = 1;
        if (c->code.family == TS_FAM_SET) {
            idx[m] = c->code.idx;
            pos[m++] = i;
        }
    }
    int sets[TS_MAX_SETS][3];
    int n = m >= 3 ? ts_set_find_all(idx, m, sets, TS_MAX_SETS) : 0;
    t->nsets = n < TS_MAX_SETS ? n : TS_MAX_SETS;
    for (int s = 0; s < t->nsets; s++)
        for (int k = 0; k < 3; k++)
            t->sets[s][k] = pos[sets[s][k]];
    t->ms_rules = ts_now_ms() - t0;
}
