/* SET behind the game interface: every Set, the hint ladder, "no Set: deal
 * three more", and the referee's verdicts on a claim and on three more cards. */
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "game.h"
#include "set.h"

enum { MAX_SETS = 256 };

static int table_cards(const ts_game_state *s, int *idx, int *codes, int *unread)
{
    int n = ts_game_cards_in(s, TS_ZONE_TABLE, idx, unread);
    for (int k = 0; k < n; k++)
        codes[k] = s->cards[idx[k]].code.family == TS_FAM_SET ? s->cards[idx[k]].code.idx : -1;
    int m = 0; /* another family's card (a misread) is left out */
    for (int k = 0; k < n; k++)
        if (codes[k] >= 0) {
            idx[m] = idx[k];
            codes[m++] = codes[k];
        }
    return m;
}

static int set_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    int idx[TS_MAX_CARDS], codes[TS_MAX_CARDS];
    int n = table_cards(s, idx, codes, &v->unread);
    int di, dj;
    v->conflict = ts_set_has_duplicates(codes, n, &di, &dj);
    static const int CAP = MAX_SETS;
    int sets[MAX_SETS][3];
    int nsets = n >= 3 ? ts_set_find_all(codes, n, sets, CAP) : 0;
    v->count = nsets;
    for (int k = 0; k < nsets && k < CAP; k++) {
        ts_view_group *g = ts_view_add(v, TS_MARK_HINT, "Set");
        if (!g)
            break;
        g->n = 3;
        for (int j = 0; j < 3; j++)
            g->card[j] = idx[sets[k][j]];
    }
    /* The ladder: nothing, one card, two, the Set, every Set. */
    int level = o->hint_level < 0 ? 0 : o->hint_level > 4 ? 4 : o->hint_level;
    v->show_groups = level == 0 ? 0 : level == 4 ? -1 : 1;
    v->show_cards = level >= 1 && level <= 2 ? level : -1;
    if (nsets == 0 && n > 0)
        snprintf(v->headline, sizeof v->headline, "no Set: deal three more");
    else if (nsets > 0)
        snprintf(v->headline, sizeof v->headline, "%d Set%s%s", nsets, nsets == 1 ? "" : "s",
                 level == 0   ? " | hint: press h"
                 : level == 1 ? " | hint: one card"
                 : level == 2 ? " | hint: two cards"
                 : level == 3 ? " | hint: one Set"
                              : "");
    if (v->conflict) {
        size_t len = strlen(v->headline);
        snprintf(v->headline + len, sizeof v->headline - len,
                 "%stwo cards read the same: one is misread", len ? " | " : "");
    }
    return 0;
}

static const char *const ATTR[4] = {"number", "colour", "shape", "shading"};

/* Why three distinct cards are no Set: the first attribute two share and one lacks. */
static void why_not(int a, int b, int c, char *out, size_t cap)
{
    if (a == b || b == c || a == c) {
        snprintf(out, cap, "two of the cards are the same card");
        return;
    }
    for (int k = 0; k < 4; k++) {
        int x = ts_set_attr(a, k), y = ts_set_attr(b, k), z = ts_set_attr(c, k);
        if ((x + y + z) % 3 != 0) {
            snprintf(out, cap, "%s: two are the same and one is different", ATTR[k]);
            return;
        }
    }
    snprintf(out, cap, "not a Set");
}

/* Judges a claim of n cards (codes). */
static void judge_claim(const ts_code *codes, int n, ts_verdict *out)
{
    out->ncards = 0;
    for (int k = 0; k < n && k < TS_MOVE_MAX; k++)
        out->cards[out->ncards++] = codes[k];
    if (n != 3) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "not a Set", "a Set is three cards; %d %s taken",
                       n, n == 1 ? "was" : "were");
        return;
    }
    if (ts_set_is_set(codes[0].idx, codes[1].idx, codes[2].idx)) {
        ts_verdict_set(out, TS_VERDICT_LEGAL, "valid Set",
                       "every attribute is all the same or all different");
    } else {
        out->kind = TS_VERDICT_ILLEGAL;
        snprintf(out->verdict, sizeof out->verdict, "not a Set");
        why_not(codes[0].idx, codes[1].idx, codes[2].idx, out->reason, sizeof out->reason);
    }
}

/* A claim may be taken a card or two at a time: the cards taken wait in the
 * memory until three are gone (or cards are dealt, which ends the claim). */
static void set_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                      ts_game_memory *mem, ts_verdict *out)
{
    out->zone = TS_ZONE_TABLE;
    if (m->nremoved > 0) {
        for (int k = 0; k < m->nremoved && k < TS_MOVE_MAX; k++) {
            const ts_card *c = &before->cards[m->removed[k]];
            if (!c->read) {
                mem->nlast = 0;
                out->ncards = 0; /* an unread card has no code to name */
                ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge", "a card taken was not read");
                return;
            }
            if (mem->nlast < TS_VIEW_GROUP_MAX)
                mem->last[mem->nlast++] = c->code;
        }
        if (mem->nlast < 3 && m->nadded == 0) {
            out->ncards = 0;
            ts_verdict_set(out, TS_VERDICT_NONE, "none", "%d of a claim's 3 cards taken",
                           mem->nlast);
            return;
        }
        judge_claim(mem->last, mem->nlast, out);
        mem->nlast = 0;
        return;
    }
    if (mem->nlast > 0) { /* cards dealt while a claim was short */
        judge_claim(mem->last, mem->nlast, out);
        mem->nlast = 0;
        return;
    }
    /* Cards dealt: three more onto a table with a Set costs a solo player a point. */
    out->ncards = 0;
    for (int k = 0; k < m->nadded && k < TS_MOVE_MAX; k++)
        out->cards[out->ncards++] = after->cards[m->added[k]].code;
    int idx[TS_MAX_CARDS], codes[TS_MAX_CARDS], unread;
    int n = table_cards(before, idx, codes, &unread);
    if (m->nadded != 3 || n + unread < TS_SET_TABLE_SIZE) {
        out->kind = TS_VERDICT_NONE;
        snprintf(out->verdict, sizeof out->verdict, "dealt");
        snprintf(out->reason, sizeof out->reason, "%d card%s dealt", m->nadded,
                 m->nadded == 1 ? "" : "s");
        return;
    }
    int set[3];
    if (ts_set_exists(codes, n, set)) {
        char b[3][TS_CODE_MAXLEN];
        for (int j = 0; j < 3; j++)
            ts_code_format(before->cards[idx[set[j]]].code, b[j]);
        out->kind = TS_VERDICT_ILLEGAL;
        snprintf(out->verdict, sizeof out->verdict, "penalty");
        snprintf(out->reason, sizeof out->reason,
                 "three more dealt with a Set on the table (%s %s %s): 1 point off", b[0], b[1],
                 b[2]);
    } else if (unread > 0) {
        out->kind = TS_VERDICT_CANNOT;
        snprintf(out->verdict, sizeof out->verdict, "cannot judge");
        snprintf(out->reason, sizeof out->reason,
                 "%d card%s on the table unread: cannot tell whether a Set was there", unread,
                 unread == 1 ? "" : "s");
    } else {
        out->kind = TS_VERDICT_LEGAL;
        snprintf(out->verdict, sizeof out->verdict, "three more");
        snprintf(out->reason, sizeof out->reason, "there was no Set on the table");
    }
}

const ts_game TS_GAME_SET = {"set", "SET", TS_FAM_SET, set_analyse, set_judge, .fixed_cards = 1};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

void ts_set_report_table(const ts_writer *w, const int *cards, int n, const int (*sets)[3],
                         int shown, int nsets, ts_set_table_state decision)
{
    static const char *const DECISIONS[] = {"take", "deal3", "round_over"};
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "set");
    ts_report_card_indices(w, "cards", TS_FAM_SET, cards, n);
    tw_key(w, "sets");
    tw_arr(w);
    for (int s = 0; s < shown; s++) {
        tw_arr(w);
        for (int k = 0; k < 3; k++)
            tw_int(w, sets[s][k]);
        tw_end(w);
    }
    tw_end(w);
    tw_key(w, "count");
    tw_int(w, nsets);
    tw_key(w, "decision");
    tw_str(w, DECISIONS[decision]);
    tw_key(w, "duplicates");
    tw_arr(w);
    for (int a = 0; a < n; a++) /* every identical pair */
        for (int c = a + 1; c < n; c++)
            if (cards[a] == cards[c]) {
                tw_arr(w);
                tw_int(w, a);
                tw_int(w, c);
                tw_end(w);
            }
    tw_end(w);
    tw_end(w);
}

void ts_set_report_hint(const ts_writer *w, const int *cards, int level, const int *pos, int k)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "set");
    tw_key(w, "hint");
    tw_int(w, level);
    tw_key(w, "positions");
    tw_arr(w);
    for (int i = 0; i < k; i++)
        tw_int(w, pos[i]);
    tw_end(w);
    int codes[3];
    for (int i = 0; i < k && i < 3; i++)
        codes[i] = cards[pos[i]];
    ts_report_card_indices(w, "cards", TS_FAM_SET, codes, k < 3 ? k : 3);
    tw_end(w);
}
