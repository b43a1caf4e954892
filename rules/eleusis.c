/* Eleusis: scoring (seed 003 and New Eleusis) and deck-wide questions about a
 * rule. The rule language itself lives in eleusis_lang.c. */
#include "eleusis.h"

/* ---- Deck-wide questions ----------------------------------------------------- */

int ts_eleusis_count_right(const ts_eleusis_rule *rule, const ts_code *mainline, int n)
{
    int right = 0;
    for (int idx = 0; idx < 52; idx++) {
        ts_code c = {TS_FAM_PLAYING, (uint8_t)idx};
        int v = ts_eleusis_judge(rule, mainline, n, c);
        if (v < 0)
            return -1;
        right += v;
    }
    return right;
}

int ts_eleusis_any_right(const ts_eleusis_rule *rule, const ts_code *mainline, int n,
                         const ts_code *cards, int k)
{
    if (k < 0 || (k > 0 && !cards))
        return -1;
    int any = 0;
    for (int i = 0; i < k; i++) {
        int v = ts_eleusis_judge(rule, mainline, n, cards[i]);
        if (v < 0)
            return -1;
        any |= v;
    }
    return any;
}

/* ---- Seed scoring (default) -------------------------------------------------- */

static int valid_counts(const int *counts, int players)
{
    if (!counts || players < 1 || players > TS_ELEUSIS_MAX_PLAYERS)
        return 0;
    for (int i = 0; i < players; i++)
        if (counts[i] < 0)
            return 0;
    return 1;
}

static int sum_of(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

static int min_of(const int *v, int n)
{
    int m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

static int max_of(const int *v, int n)
{
    int m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

/* The others' wrong cards minus (n-1) x the best player's: sum - n x min. */
int ts_eleusis_seed_dealer_score(const int *wrong, int players)
{
    if (!valid_counts(wrong, players))
        return -1;
    return sum_of(wrong, players) - players * min_of(wrong, players);
}

int ts_eleusis_seed_player_scores(const int *left, int players, double *out)
{
    if (!valid_counts(left, players) || !out)
        return -1;
    int total = sum_of(left, players), fewest = min_of(left, players), best = 0;
    for (int i = 0; i < players; i++) {
        int s = total - players * left[i];
        out[i] = s > 0 ? s : 0;
        best += left[i] == fewest;
    }
    for (int i = 0; i < players; i++)
        if (left[i] == fewest)
            out[i] += 6.0 / best; /* the best player's bonus, shared on ties */
    return 0;
}

/* ---- New Eleusis scoring (option) -------------------------------------------- */

static int new_eleusis_scores(const ts_eleusis_round *r, ts_eleusis_scores *out)
{
    int n = r->players;
    if (r->prophet < -1 || r->prophet >= n || r->prophet_right < 0 || r->prophet_wrong < 0 ||
        r->before_marker < 0)
        return -1;
    int high = max_of(r->left, n);
    double best = 0;
    for (int i = 0; i < n; i++) {
        int s = high - r->left[i] + (r->left[i] == 0 ? 4 : 0);
        if (i == r->prophet)
            s += r->prophet_right + 2 * r->prophet_wrong;
        out->player[i] = s;
        if (s > best)
            best = s;
    }
    /* No surviving prophet: the cap of twice the cards before the marker is undefined. */
    out->dealer = best;
    if (r->prophet >= 0 && 2.0 * r->before_marker < best)
        out->dealer = 2.0 * r->before_marker;
    return 0;
}

/* ---- Either system ----------------------------------------------------------- */

int ts_eleusis_score(const ts_eleusis_round *round, ts_eleusis_scoring scoring,
                     ts_eleusis_scores *out)
{
    if (!round || !out || !valid_counts(round->left, round->players))
        return -1;
    for (int i = 0; i < TS_ELEUSIS_MAX_PLAYERS; i++)
        out->player[i] = 0;
    out->dealer = 0;
    if (scoring == TS_ELEUSIS_SCORE_NEW)
        return new_eleusis_scores(round, out);
    if (scoring != TS_ELEUSIS_SCORE_SEED || !valid_counts(round->wrong, round->players))
        return -1;
    out->dealer = ts_eleusis_seed_dealer_score(round->wrong, round->players);
    return ts_eleusis_seed_player_scores(round->left, round->players, out->player);
}
