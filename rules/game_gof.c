/* Gang of Four behind the game interface: the trick and the hand -> the
 * legal plays on the hand cards, best first, or pass; the referee's verdict
 * on a combination placed on the trick and on a trick won. */
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "game.h"
#include "gof.h"

enum { MAX_PLAYS = 4096 };

const char *ts_gof_combo_name(const ts_gof_combo *c, char buf[24])
{
    if (c->type == TS_GOF_GANG)
        snprintf(buf, 24, "gang of %d", c->n);
    else
        snprintf(buf, 24, "%s", ts_gof_type_name(c->type));
    return buf;
}

static void combo_codes(const ts_gof_combo *c, ts_code *out)
{
    for (int i = 0; i < c->n && i < TS_GOF_MAX_COMBO; i++) /* bound restated for gcc */
        out[i] = (ts_code){TS_FAM_GOF, c->cards[i]};
}

/* Classifies the read cards idx[0..n) of a state. */
static ts_gof_error classify_cards(const ts_game_state *s, const int *idx, int n, ts_gof_combo *c)
{
    int cards[TS_MAX_CARDS];
    for (int k = 0; k < n; k++) {
        if (s->cards[idx[k]].code.family != TS_FAM_GOF)
            return TS_GOF_ERR_CARD;
        cards[k] = s->cards[idx[k]].code.idx;
    }
    return ts_gof_classify(cards, n, c);
}

static int gof_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    int trick_idx[TS_MAX_CARDS], hand_idx[TS_MAX_CARDS], nt, nh;
    if (!ts_game_trick_and_hand(s, o, v, trick_idx, &nt, hand_idx, &nh))
        return 0;
    ts_gof_combo trick;
    char name[24];
    if (nt > 0) {
        ts_gof_error e = classify_cards(s, trick_idx, nt, &trick);
        if (e != TS_GOF_OK) {
            snprintf(v->headline, sizeof v->headline, "the trick is no combination: %s",
                     ts_gof_error_text(e));
            return 0;
        }
        ts_view_group *g = ts_view_add(v, TS_MARK_INFO, ts_gof_combo_name(&trick, name));
        if (g) {
            g->n = nt < TS_VIEW_GROUP_MAX ? nt : TS_VIEW_GROUP_MAX;
            memcpy(g->card, trick_idx, sizeof(int) * (size_t)g->n);
        }
    }
    v->leading = nt == 0;
    int hand[TS_MAX_CARDS], m = 0, hidx[TS_MAX_CARDS];
    for (int k = 0; k < nh; k++)
        if (s->cards[hand_idx[k]].code.family == TS_FAM_GOF) {
            hidx[m] = hand_idx[k];
            hand[m++] = s->cards[hand_idx[k]].code.idx;
        }
    static const int KEEP = TS_VIEW_MAX_GROUPS - 1;
    ts_gof_combo plays[TS_VIEW_MAX_GROUPS];
    int count = m > 0 ? ts_gof_legal_plays(hand, m, nt ? &trick : NULL, o->first_lead, plays, KEEP)
                      : 0;
    v->count = count;
    for (int i = 0; i < count && i < KEEP; i++) {
        ts_view_group *g = ts_view_add(v, TS_MARK_HINT, ts_gof_combo_name(&plays[i], name));
        ts_code codes[TS_GOF_MAX_COMBO];
        combo_codes(&plays[i], codes);
        if (g && ts_game_pick(s, hidx, m, codes, plays[i].n, g) < 0)
            v->ngroups--;
    }
    v->pass = nt > 0 && count == 0;
    if (m == 0)
        snprintf(v->headline, sizeof v->headline, "no hand in view");
    else if (v->pass)
        snprintf(v->headline, sizeof v->headline, "pass: nothing beats the %s",
                 ts_gof_combo_name(&trick, name));
    else
        snprintf(v->headline, sizeof v->headline, "%s%d play%s%s", nt ? "" : "lead: ", count,
                 count == 1 ? "" : "s", nt ? " (or pass)" : "");
    return 0;
}

/* A play that emptied its seat's hand ends the hand: every seen seat scores
 * the seed's penalty for the cards left in its hand zone. */
static void hand_end(const ts_game_state *before, const ts_game_state *after, ts_game_memory *mem,
                     ts_verdict *out)
{
    int seat = out->seat;
    if (seat <= 0 || ts_game_seat_cards(before, seat) == 0 || ts_game_seat_cards(after, seat) > 0)
        return;
    out->hand_over = 1;
    out->scores = TS_SCORES_PENALTY;
    int totals[TS_SEATS_MAX], seats[TS_SEATS_MAX];
    size_t len = strlen(out->reason);
    len += (size_t)snprintf(out->reason + len, sizeof out->reason - len,
                            "; seat %d is out: the hand is over", seat);
    int n = ts_verdict_seen_seats(out, mem, after);
    for (int k = 0; k < n; k++) {
        ts_seat_score *sc = &out->score[k];
        sc->points = ts_gof_hand_penalty(sc->cards_left);
        sc->total = mem->total[sc->seat] += sc->points;
        totals[k] = sc->total;
        seats[k] = sc->seat;
        if (sc->seat != seat && len < sizeof out->reason)
            len += (size_t)snprintf(out->reason + len, sizeof out->reason - len,
                                    ", seat %d %d point%s", sc->seat, sc->points,
                                    sc->points == 1 ? "" : "s");
    }
    int best = ts_gof_game_winner(totals, n);
    if (best >= 0) {
        out->game_over = 1;
        if (len < sizeof out->reason)
            snprintf(out->reason + len, sizeof out->reason - len,
                     "; game over: seat %d wins with %d", seats[best], totals[best]);
        memset(mem->total, 0, sizeof mem->total);
    }
    mem->nlast = 0; /* the next hand starts with an empty trick */
    mem->plays = 0;
}

static void gof_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                      ts_game_memory *mem, ts_verdict *out)
{
    int placed[TS_MOVE_MAX], np;
    char text[96], name[24];
    ts_trick_move t = ts_move_on_trick(before, after, m, mem, out, placed, &np);
    if (t == TS_TRICK_SWEPT) {
        ts_game_codes_text(mem->last, mem->nlast, text, sizeof text);
        out->ncards = mem->nlast;
        memcpy(out->cards, mem->last, sizeof(ts_code) * (size_t)mem->nlast);
        out->seat = mem->seat;
        if (mem->seat > 0)
            ts_verdict_set(out, TS_VERDICT_INFO, "trick won",
                           "all passed: seat %d's last play (%s) wins the trick; seat %d "
                           "leads next", mem->seat, text, mem->seat);
        else
            ts_verdict_set(out, TS_VERDICT_INFO, "trick won",
                           "all passed: the last play (%s) wins the trick and leads next", text);
        mem->nlast = 0;
        mem->plays = 0;
    }
    if (t != TS_TRICK_PLAY)
        return;
    ts_gof_combo play, trick;
    ts_gof_error e = classify_cards(after, placed, np, &play);
    if (e != TS_GOF_OK) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "%s", ts_gof_error_text(e));
        return;
    }
    /* The play to beat: the referee's memory, else what lay on the trick. */
    int have_trick = 0;
    if (mem->nlast > 0) {
        int cards[TS_VIEW_GROUP_MAX];
        for (int i = 0; i < mem->nlast; i++)
            cards[i] = mem->last[i].idx;
        have_trick = ts_gof_classify(cards, mem->nlast, &trick) == TS_GOF_OK;
    } else {
        int idx[TS_MAX_CARDS], u;
        int n = ts_game_cards_in(before, TS_ZONE_TRICK, idx, &u);
        if (u > 0) {
            ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                           "a card of the trick under it is not read");
            return;
        }
        have_trick = n > 0 && classify_cards(before, idx, n, &trick) == TS_GOF_OK;
    }
    const char *why = ts_gof_refusal(&play, have_trick ? &trick : NULL, mem->first_lead);
    if (why) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "%s: %s", ts_gof_combo_name(&play, name), why);
        return;
    }
    if (have_trick) {
        ts_code tc[TS_GOF_MAX_COMBO];
        combo_codes(&trick, tc);
        ts_game_codes_text(tc, trick.n, text, sizeof text);
        ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "%s beats %s", ts_gof_combo_name(&play, name),
                       text);
    } else {
        ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "%s leads", ts_gof_combo_name(&play, name));
    }
    mem->nlast = play.n;
    combo_codes(&play, mem->last);
    mem->seat = out->seat;
    mem->first_lead = 0;
    mem->plays++;
    hand_end(before, after, mem, out);
}

const ts_game TS_GAME_GOF = {"gof", "Gang of Four", TS_FAM_GOF, gof_analyse, gof_judge, 0};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

static void report_combo(const ts_writer *w, const ts_gof_combo *c)
{
    char name[24];
    tw_obj(w);
    tw_key(w, "type");
    tw_str(w, ts_gof_combo_name(c, name));
    ts_code codes[TS_GOF_MAX_COMBO];
    combo_codes(c, codes);
    ts_report_codes(w, "cards", codes, c->n);
    tw_end(w);
}

void ts_gof_report_plays(const ts_writer *w, const ts_gof_combo *trick, int first_lead,
                         const ts_gof_combo *plays, int shown, int count)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "gof");
    tw_key(w, "trick");
    if (trick)
        report_combo(w, trick);
    else
        tw_null(w);
    tw_key(w, "first_lead");
    tw_bool(w, first_lead);
    tw_key(w, "plays");
    tw_arr(w);
    for (int i = 0; i < shown; i++)
        report_combo(w, &plays[i]);
    tw_end(w);
    tw_key(w, "count");
    tw_int(w, count);
    tw_key(w, "pass");
    tw_bool(w, trick != NULL);
    tw_end(w);
}

void ts_gof_report_judge(const ts_writer *w, const ts_gof_combo *play, const char *refusal)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "gof");
    tw_key(w, "play");
    if (play)
        report_combo(w, play);
    else
        tw_null(w);
    tw_key(w, "legal");
    tw_bool(w, refusal == NULL);
    tw_key(w, "reason");
    if (refusal)
        tw_str(w, refusal);
    else
        tw_null(w);
    tw_end(w);
}
