/* Eleusis behind the game interface: the mainline (left to right) and the
 * sideline as seen. Judging needs the secret rule, which only the automatic
 * dealer holds (rules/table/eleusis_dealer.h); the referee asks it. */
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "game.h"

/* Read MAINLINE cards of s in order along the line (left to right). */
int ts_eleusis_mainline_order(const ts_game_state *s, int *idx, int *unread)
{
    int n = ts_game_cards_in(s, TS_ZONE_MAINLINE, idx, unread);
    for (int i = 1; i < n; i++) /* insertion sort by x: a line is short */
        for (int j = i; j > 0; j--) {
            ts_pt a = ts_card_centre(&s->cards[idx[j - 1]]), b = ts_card_centre(&s->cards[idx[j]]);
            if (a.x <= b.x)
                break;
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

static int el_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    (void)o;
    int main_idx[TS_MAX_CARDS], side_idx[TS_MAX_CARDS], mu, su;
    int nm = ts_eleusis_mainline_order(s, main_idx, &mu);
    int ns = ts_game_cards_in(s, TS_ZONE_SIDELINE, side_idx, &su);
    v->unread = mu + su;
    v->show_groups = v->show_cards = -1;
    v->count = nm;
    ts_view_group *g = nm ? ts_view_add(v, TS_MARK_INFO, "mainline") : NULL;
    if (g) {
        int first = nm > TS_VIEW_GROUP_MAX ? nm - TS_VIEW_GROUP_MAX : 0; /* the latest cards */
        for (int k = first; k < nm; k++)
            g->card[g->n++] = main_idx[k];
    }
    g = ns ? ts_view_add(v, TS_MARK_BAD, "sideline") : NULL;
    for (int k = 0; g && k < ns && g->n < TS_VIEW_GROUP_MAX; k++)
        g->card[g->n++] = side_idx[k];
    snprintf(v->headline, sizeof v->headline, "mainline %d card%s, sideline %d", nm,
             nm == 1 ? "" : "s", ns);
    return 0;
}

static void el_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                     ts_game_memory *mem, ts_verdict *out)
{
    (void)before, (void)after, (void)m, (void)mem;
    out->zone = TS_ZONE_MAINLINE;
    ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                   "no dealer: give the secret rule (--rule FILE)");
}

const ts_game TS_GAME_ELEUSIS = {"eleusis", "Eleusis", TS_FAM_PLAYING, el_analyse, el_judge, 0};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

void ts_eleusis_report_judge(const ts_writer *w, const char *rule, int needs_history,
                             const ts_code *mainline, int n, const char *what,
                             const ts_code *judged, int k, const int *verdict, int right,
                             int first_wrong)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "eleusis");
    tw_key(w, "rule");
    tw_str(w, rule);
    tw_key(w, "needs_history");
    tw_int(w, needs_history);
    ts_report_codes(w, "mainline", mainline, n);
    if (verdict) {
        for (int want = 1; want >= 0; want--) {
            tw_key(w, want ? "right" : "wrong");
            tw_arr(w);
            for (int i = 0; i < k; i++)
                if (!!verdict[i] == want) {
                    char code[TS_CODE_MAXLEN];
                    ts_code_format(judged[i], code);
                    tw_str(w, code);
                }
            tw_end(w);
        }
    } else {
        ts_report_codes(w, what, judged, k);
        tw_key(w, "verdict");
        tw_str(w, right ? "right" : "wrong");
        tw_key(w, "first_wrong");
        if (first_wrong < 0)
            tw_null(w);
        else
            tw_int(w, first_wrong);
    }
    tw_end(w);
}

/* A whole score as an integer, else with four decimals. */
static void report_score(const ts_writer *w, double v)
{
    if ((double)(long long)v == v)
        tw_int(w, (long long)v);
    else
        tw_num(w, v, 4);
}

void ts_eleusis_report_scores(const ts_writer *w, const char *scoring, const double *dealer,
                              const double *players, int nplayers)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "eleusis");
    tw_key(w, "scoring");
    tw_str(w, scoring);
    if (dealer) {
        tw_key(w, "dealer");
        report_score(w, *dealer);
    }
    if (players) {
        tw_key(w, "players");
        tw_arr(w);
        for (int i = 0; i < nplayers; i++)
            report_score(w, players[i]);
        tw_end(w);
    }
    tw_end(w);
}
