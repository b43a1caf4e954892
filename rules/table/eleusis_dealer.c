/* The automatic Eleusis dealer (see eleusis_dealer.h). */
#include "eleusis_dealer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ts_eleusis_dealer {
    ts_eleusis_rule *rule;
    int players, turn, phase, dealer_score;
    int nmain;
    ts_code mainline[TS_DEALER_MAX_MAINLINE];
    int nwrong[TS_ELEUSIS_MAX_PLAYERS];
    ts_code wrong[TS_ELEUSIS_MAX_PLAYERS][TS_DEALER_MAX_WRONG];
};

ts_eleusis_dealer *ts_eleusis_dealer_create(const char *rule_text, int players, char *err,
                                            size_t errlen)
{
    if (players < 1 || players > TS_ELEUSIS_MAX_PLAYERS) {
        snprintf(err, errlen, "players: 1 to %d (not counting the dealer)",
                 TS_ELEUSIS_MAX_PLAYERS);
        return NULL;
    }
    ts_eleusis_error e;
    ts_eleusis_rule *rule = ts_eleusis_compile(rule_text, &e);
    if (!rule) {
        snprintf(err, errlen, "secret rule: %s", e.msg);
        return NULL;
    }
    ts_eleusis_dealer *d = calloc(1, sizeof *d);
    if (!d) {
        ts_eleusis_free(rule);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->rule = rule;
    d->players = players;
    d->phase = 1;
    return d;
}

void ts_eleusis_dealer_destroy(ts_eleusis_dealer *d)
{
    if (!d)
        return;
    ts_eleusis_free(d->rule);
    free(d);
}

static int same(ts_code a, ts_code b)
{
    return a.family == b.family && a.idx == b.idx;
}

/* Phase 2 ends when a player has no card left or none left can be right. */
static void check_phase2_end(ts_eleusis_dealer *d)
{
    if (d->phase != 2)
        return;
    int any = 0;
    for (int p = 0; p < d->players; p++) {
        if (d->nwrong[p] == 0) {
            d->phase = 3;
            return;
        }
        if (ts_eleusis_any_right(d->rule, d->mainline, d->nmain, d->wrong[p], d->nwrong[p]) > 0)
            any = 1;
    }
    if (!any)
        d->phase = 3;
}

void ts_eleusis_dealer_place(ts_eleusis_dealer *d, ts_code card, ts_verdict *out)
{
    memset(out, 0, sizeof *out);
    out->zone = TS_ZONE_MAINLINE;
    out->ncards = 1;
    out->cards[0] = card;
    char code[TS_CODE_MAXLEN];
    ts_code_format(card, code);
    if (card.family != TS_FAM_PLAYING) {
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge", "%s is not a playing card", code);
        return;
    }
    if (d->nmain == 0) {
        d->mainline[d->nmain++] = card;
        ts_verdict_set(out, TS_VERDICT_INFO, "starter", "%s starts the mainline", code);
        return;
    }
    if (d->phase == 3) {
        ts_verdict_set(out, TS_VERDICT_NONE, "over", "the round is over: --reveal shows the rule");
        return;
    }
    int p = d->turn;
    d->turn = (d->turn + 1) % d->players;
    int right = ts_eleusis_judge(d->rule, d->mainline, d->nmain, card);
    if (right < 0) {
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge", "the rule cannot judge %s", code);
        return;
    }
    if (right) {
        if (d->nmain < TS_DEALER_MAX_MAINLINE)
            d->mainline[d->nmain++] = card;
        if (d->phase == 2) /* played from the player's wrong cards */
            for (int k = 0; k < d->nwrong[p]; k++)
                if (same(d->wrong[p][k], card)) {
                    d->wrong[p][k] = d->wrong[p][--d->nwrong[p]];
                    break;
                }
        ts_verdict_set(out, TS_VERDICT_LEGAL, "right", "%s is right (player %d)", code, p + 1);
        check_phase2_end(d);
        return;
    }
    if (d->phase == 1 && d->nwrong[p] < TS_DEALER_MAX_WRONG)
        d->wrong[p][d->nwrong[p]++] = card;
    ts_verdict_set(out, TS_VERDICT_ILLEGAL, "wrong", "%s is wrong: to the sideline (player %d, %d wrong)",
                   code, p + 1, d->nwrong[p]);
}

int ts_eleusis_dealer_end_phase1(ts_eleusis_dealer *d)
{
    d->dealer_score = ts_eleusis_seed_dealer_score(d->nwrong, d->players);
    if (d->phase == 1) {
        d->phase = 2;
        d->turn = 0;
        check_phase2_end(d);
    }
    return d->dealer_score;
}

int ts_eleusis_dealer_phase(const ts_eleusis_dealer *d)
{
    return d->phase;
}

int ts_eleusis_dealer_scores(const ts_eleusis_dealer *d, ts_eleusis_scores *out)
{
    memset(out, 0, sizeof *out);
    if (d->phase < 2)
        return -1;
    out->dealer = d->dealer_score;
    return ts_eleusis_seed_player_scores(d->nwrong, d->players, out->player);
}

int ts_eleusis_dealer_wrong(const ts_eleusis_dealer *d, int player)
{
    return player >= 0 && player < d->players ? d->nwrong[player] : 0;
}

int ts_eleusis_dealer_mainline(const ts_eleusis_dealer *d, const ts_code **cards)
{
    *cards = d->mainline;
    return d->nmain;
}

int ts_eleusis_dealer_turn(const ts_eleusis_dealer *d)
{
    return d->turn;
}

size_t ts_eleusis_dealer_reveal(const ts_eleusis_dealer *d, char *out, size_t cap)
{
    return ts_eleusis_format(d->rule, out, cap);
}
