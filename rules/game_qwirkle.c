/* Qwirkle Cards behind the game interface: the table's groups (cards lying
 * together) valid or which one is not; the plays from the hand, Qwirkles
 * first; the referee's verdict at the end of a turn. */
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "game.h"
#include "qwirkle.h"

enum { MAX_PLAYS = 12 };
#define GROUP_REACH 0.85f /* cards of one group lie within this many card diagonals */

/* The table's groups from the read TABLE cards; members[g][k] are state indices. */
typedef struct {
    ts_qw_table t;
    int members[TS_QW_MAX_GROUPS][TS_QW_GROUP_MAX];
    int unread;
} table_groups;

static void groups_of(const ts_game_state *s, table_groups *tg)
{
    int idx[TS_MAX_CARDS], group_of[TS_MAX_CARDS];
    int n = ts_game_cards_in(s, TS_ZONE_TABLE, idx, &tg->unread);
    int m = 0;
    for (int k = 0; k < n; k++)
        if (s->cards[idx[k]].code.family == TS_FAM_QWIRKLE)
            idx[m++] = idx[k];
    int ng = ts_game_cluster(s, idx, m, GROUP_REACH, group_of);
    if (ng > TS_QW_MAX_GROUPS)
        ng = TS_QW_MAX_GROUPS;
    tg->t.n = ng;
    for (int g = 0; g < ng; g++)
        tg->t.g[g].n = 0;
    for (int k = 0; k < m; k++) {
        int g = group_of[k];
        if (g >= ng || tg->t.g[g].n >= TS_QW_GROUP_MAX)
            continue;
        tg->members[g][tg->t.g[g].n] = idx[k];
        tg->t.g[g].cards[tg->t.g[g].n++] = s->cards[idx[k]].code.idx;
    }
}

static int qw_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    (void)o;
    static const int PLAYS = MAX_PLAYS;
    table_groups tg;
    groups_of(s, &tg);
    int hand_idx[TS_MAX_CARDS], hu;
    int nh = ts_game_cards_in(s, TS_ZONE_HAND, hand_idx, &hu);
    v->unread = tg.unread + hu;
    v->show_groups = v->show_cards = -1;
    int bad = -1;
    for (int g = 0; g < tg.t.n; g++) {
        ts_qw_error e = ts_qw_check_group(&tg.t.g[g]);
        char label[48];
        if (e == TS_QW_OK)
            snprintf(label, sizeof label, "%s%s", tg.t.g[g].n == TS_QW_QWIRKLE ? "QWIRKLE " : "",
                     ts_qw_line_name(ts_qw_group_line(&tg.t.g[g])));
        else
            snprintf(label, sizeof label, "invalid: %.38s", ts_qw_error_text(e));
        if (e != TS_QW_OK) {
            v->count++;
            if (bad < 0)
                bad = g;
        }
        ts_view_group *vg = ts_view_add(v, e == TS_QW_OK ? TS_MARK_GOOD : TS_MARK_BAD, label);
        if (vg) {
            vg->n = tg.t.g[g].n;
            memcpy(vg->card, tg.members[g], sizeof(int) * (size_t)vg->n);
        }
    }
    int hand[TS_QW_HAND_MAX], hidx[TS_QW_HAND_MAX], m = 0;
    for (int k = 0; k < nh && m < TS_QW_HAND_MAX; k++)
        if (s->cards[hand_idx[k]].code.family == TS_FAM_QWIRKLE) {
            hidx[m] = hand_idx[k];
            hand[m++] = s->cards[hand_idx[k]].code.idx;
        }
    int card;
    v->conflict = ts_qw_too_many_copies(&tg.t, hand, m, &card);
    int nplays = 0, best_q = 0;
    if (m > 0 && !v->conflict) {
        ts_qw_play plays[MAX_PLAYS];
        nplays = ts_qw_plays(&tg.t, hand, m, NULL, plays, PLAYS);
        for (int i = 0; i < nplays && i < PLAYS; i++) {
            char label[48];
            snprintf(label, sizeof label, "%s%d card%s", plays[i].qwirkles ? "QWIRKLE " : "",
                     plays[i].nplayed, plays[i].nplayed == 1 ? "" : "s");
            ts_view_group *g = ts_view_add(v, TS_MARK_HINT, label);
            ts_code codes[TS_QW_HAND_MAX];
            for (int k = 0; k < plays[i].nplayed; k++)
                codes[k] = (ts_code){TS_FAM_QWIRKLE, plays[i].played[k]};
            if (g && ts_game_pick(s, hidx, m, codes, plays[i].nplayed, g) < 0)
                v->ngroups--;
            else if (g)
                g->score = plays[i].qwirkles;
            if (plays[i].qwirkles > best_q)
                best_q = plays[i].qwirkles;
        }
    }
    int len = bad < 0 ? snprintf(v->headline, sizeof v->headline, "%d group%s valid", tg.t.n,
                                 tg.t.n == 1 ? "" : "s")
                      : snprintf(v->headline, sizeof v->headline, "group %d invalid: %s", bad + 1,
                                 ts_qw_error_text(ts_qw_check_group(&tg.t.g[bad])));
    if (m > 0 && len > 0 && (size_t)len < sizeof v->headline)
        snprintf(v->headline + len, sizeof v->headline - (size_t)len, " | %d play%s%s", nplays,
                 nplays == 1 ? "" : "s", best_q ? ", QWIRKLE first" : "");
    return 0;
}

static void qw_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                     ts_game_memory *mem, ts_verdict *out)
{
    (void)mem;
    out->zone = TS_ZONE_TABLE;
    if (before->n == 0) {
        ts_verdict_set(out, TS_VERDICT_NONE, "none", "the table is laid out");
        return;
    }
    int laid[TS_MOVE_MAX], n = 0;
    for (int k = 0; k < m->nadded; k++)
        if (ts_game_zone(after, m->added[k]) == TS_ZONE_TABLE)
            laid[n++] = m->added[k];
    if (!ts_verdict_cards(out, after, laid, n))
        return;
    table_groups tg;
    groups_of(after, &tg);
    if (tg.unread > 0) {
        ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge", "%d card%s on the table unread",
                       tg.unread, tg.unread == 1 ? "" : "s");
        return;
    }
    int qwirkles = 0;
    for (int g = 0; g < tg.t.n; g++) {
        ts_qw_error e = ts_qw_check_group(&tg.t.g[g]);
        if (e != TS_QW_OK) {
            ts_code codes[TS_QW_GROUP_MAX];
            char text[64];
            for (int k = 0; k < tg.t.g[g].n; k++)
                codes[k] = (ts_code){TS_FAM_QWIRKLE, tg.t.g[g].cards[k]};
            ts_game_codes_text(codes, tg.t.g[g].n, text, sizeof text);
            ts_verdict_set(out, TS_VERDICT_ILLEGAL, "invalid", "group %d (%s): %s", g + 1, text,
                           ts_qw_error_text(e));
            return;
        }
        qwirkles += tg.t.g[g].n == TS_QW_QWIRKLE;
    }
    if (qwirkles)
        ts_verdict_set(out, TS_VERDICT_LEGAL, "QWIRKLE",
                       "every group valid; %d Qwirkle%s: take it off the table", qwirkles,
                       qwirkles == 1 ? "" : "s");
    else
        ts_verdict_set(out, TS_VERDICT_LEGAL, "valid", "every group on the table is valid");
}

const ts_game TS_GAME_QWIRKLE = {"qwirkle", "Qwirkle Cards", TS_FAM_QWIRKLE, qw_analyse, qw_judge, 0};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

static void report_cards(const ts_writer *w, const char *key, const uint8_t *cards, int n)
{
    ts_code codes[TS_QW_HAND_MAX > TS_QW_GROUP_MAX ? TS_QW_HAND_MAX : TS_QW_GROUP_MAX];
    for (int i = 0; i < n && i < (int)(sizeof codes / sizeof codes[0]); i++)
        codes[i] = (ts_code){TS_FAM_QWIRKLE, cards[i]};
    ts_report_codes(w, key, codes, n);
}

static const char *kind_name(ts_qw_play_kind k)
{
    static const char *const names[] = {"new_group", "extend", "rearrange", "most_cards"};
    return (unsigned)k <= TS_QW_MOST_CARDS ? names[k] : "?";
}

void ts_qw_report_answer(const ts_writer *w, const ts_qw_table *t, const ts_qw_play *plays,
                         int shown, int count)
{
    int bad;
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "qwirkle");
    tw_key(w, "table");
    tw_arr(w);
    for (int g = 0; g < t->n; g++) {
        ts_qw_error e = ts_qw_check_group(&t->g[g]);
        tw_obj(w);
        report_cards(w, "cards", t->g[g].cards, t->g[g].n);
        tw_key(w, "valid");
        tw_bool(w, e == TS_QW_OK);
        tw_key(w, e == TS_QW_OK ? "line" : "error");
        tw_str(w, e == TS_QW_OK ? ts_qw_line_name(ts_qw_group_line(&t->g[g])) : ts_qw_error_text(e));
        tw_key(w, "qwirkle");
        tw_bool(w, e == TS_QW_OK && t->g[g].n == TS_QW_QWIRKLE);
        tw_end(w);
    }
    tw_end(w);
    tw_key(w, "valid");
    tw_bool(w, ts_qw_check_table(t, &bad) == TS_QW_OK);
    if (plays) {
        tw_key(w, "plays");
        tw_arr(w);
        for (int i = 0; i < shown; i++) {
            const ts_qw_play *p = &plays[i];
            tw_obj(w);
            tw_key(w, "kind");
            tw_str(w, kind_name(p->kind));
            tw_key(w, "group");
            tw_int(w, p->group);
            tw_key(w, "line");
            if (p->line >= 0)
                tw_str(w, ts_qw_line_name(p->line));
            else
                tw_null(w);
            report_cards(w, "cards", p->played, p->nplayed);
            tw_key(w, "qwirkles");
            tw_int(w, p->qwirkles);
            tw_key(w, "after");
            tw_arr(w);
            for (int g = 0; g < p->after.n; g++)
                report_cards(w, NULL, p->after.g[g].cards, p->after.g[g].n);
            tw_end(w);
            tw_end(w);
        }
        tw_end(w);
        tw_key(w, "count");
        tw_int(w, count);
    }
    tw_end(w);
}
