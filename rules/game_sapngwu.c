/* Sap Ng Wu behind the game interface: the trick and the hand -> the plays
 * that beat it (or the leads), best first, or pass; the referee's verdict on
 * a play and on a trick won (its wu, and the chip for four identical cards). */
#include <stdio.h>
#include <string.h>

#include "answers.h"
#include "game.h"
#include "sapngwu.h"

/* The multiset of the read cards idx[0..n); -1 with why for a non-domino card
 * or more copies than the deck. */
static int hand_of(const ts_game_state *s, const int *idx, int n, ts_sapngwu_hand *h, char *why,
                   size_t cap)
{
    ts_code codes[TS_MAX_CARDS];
    for (int k = 0; k < n; k++)
        codes[k] = s->cards[idx[k]].code;
    return ts_sapngwu_hand_from_codes(codes, n, h, why, cap);
}

static int sng_analyse(const ts_game_state *s, const ts_game_opts *o, ts_game_view *v)
{
    int trick_idx[TS_MAX_CARDS], hand_idx[TS_MAX_CARDS], nt, nh;
    if (!ts_game_trick_and_hand(s, o, v, trick_idx, &nt, hand_idx, &nh))
        return 0;
    char why[128], desc[80];
    ts_sapngwu_hand th, hh;
    ts_sapngwu_play trick;
    if (nt > 0) {
        if (hand_of(s, trick_idx, nt, &th, why, sizeof why) < 0 ||
            ts_sapngwu_classify(&th, &TS_SAPNGWU_DEFAULTS, &trick, why, sizeof why) < 0) {
            snprintf(v->headline, sizeof v->headline, "the trick is no play: %s", why);
            return 0;
        }
        ts_sapngwu_describe(&trick, desc, sizeof desc);
        ts_view_group *g = ts_view_add(v, TS_MARK_INFO, desc);
        if (g) {
            g->n = nt < TS_VIEW_GROUP_MAX ? nt : TS_VIEW_GROUP_MAX;
            memcpy(g->card, trick_idx, sizeof(int) * (size_t)g->n);
        }
    }
    v->leading = nt == 0;
    if (nh == 0) {
        snprintf(v->headline, sizeof v->headline, "no hand in view");
        return 0;
    }
    if (hand_of(s, hand_idx, nh, &hh, why, sizeof why) < 0) {
        v->conflict = 1;
        snprintf(v->headline, sizeof v->headline, "hand: %s", why);
        return 0;
    }
    ts_sapngwu_play plays[TS_SAPNGWU_MAX_PLAYS];
    int count = nt ? ts_sapngwu_list_follows(&hh, &trick, plays)
                   : ts_sapngwu_list_leads(&hh, &TS_SAPNGWU_DEFAULTS, plays);
    v->count = count < 0 ? 0 : count;
    for (int i = 0; i < v->count && v->ngroups < TS_VIEW_MAX_GROUPS; i++) {
        ts_code codes[TS_SAPNGWU_MAX_CARDS];
        int n = ts_sapngwu_play_codes(&plays[i], codes);
        ts_sapngwu_describe(&plays[i], desc, sizeof desc);
        ts_view_group *g = ts_view_add(v, TS_MARK_HINT, desc);
        if (g && ts_game_pick(s, hand_idx, nh, codes, n, g) < 0)
            v->ngroups--;
    }
    v->pass = nt > 0 && v->count == 0;
    if (v->pass)
        snprintf(v->headline, sizeof v->headline, "pass: nothing beats the trick");
    else
        snprintf(v->headline, sizeof v->headline, "%s%d play%s%s", nt ? "" : "lead: ", v->count,
                 v->count == 1 ? "" : "s", nt ? " (or pass)" : "");
    return 0;
}

static int memory_play(const ts_game_memory *mem, ts_sapngwu_play *p)
{
    ts_sapngwu_hand h;
    char why[96];
    return ts_sapngwu_hand_from_codes(mem->last, mem->nlast, &h, why, sizeof why) >= 0 &&
           ts_sapngwu_classify(&h, &TS_SAPNGWU_DEFAULTS, p, why, sizeof why) == 0;
}

/* Every seen seat's wu this hand and the chips a declaration would be paid. */
static void wu_scores(const ts_game_state *after, const ts_game_memory *mem, ts_verdict *out)
{
    out->scores = TS_SCORES_WU;
    for (int k = ts_verdict_seen_seats(out, mem, after); k-- > 0;)
        out->score[k].chips = ts_sapngwu_chips(out->score[k].total);
}

/* A trick won: its wu go to the seat that laid the last play; crossing a step
 * of the payment ladder is said; a hand emptied with the trick cleared ends
 * the hand. */
static void trick_won(const ts_game_state *after, ts_game_memory *mem, const ts_sapngwu_play *trick,
                      ts_verdict *out)
{
    char desc[80];
    ts_sapngwu_describe(trick, desc, sizeof desc);
    out->ncards = mem->nlast;
    memcpy(out->cards, mem->last, sizeof(ts_code) * (size_t)mem->nlast);
    int wu = ts_sapngwu_wu(trick, &TS_SAPNGWU_DEFAULTS), quads = ts_sapngwu_quads(trick);
    int seat = mem->seat;
    out->seat = seat;
    if (seat <= 0) {
        ts_verdict_set(out, TS_VERDICT_INFO, "trick won",
                       "the last play (%s) wins: %d wu to its player%s", desc, wu,
                       quads ? "; four identical cards: every other player pays 1 chip" : "");
        return;
    }
    int was = mem->total[seat];
    mem->total[seat] += wu;
    int now = mem->total[seat], chips = ts_sapngwu_chips(now);
    ts_verdict_set(out, TS_VERDICT_INFO, "trick won", "seat %d's play (%s) wins: %d wu, %d this hand",
                   seat, desc, wu, now);
    size_t len = strlen(out->reason);
    if (quads && len < sizeof out->reason)
        len += (size_t)snprintf(out->reason + len, sizeof out->reason - len,
                                "; four identical cards (x%d): every other player pays seat %d "
                                "%d chip%s", quads, seat, quads, quads == 1 ? "" : "s");
    if (chips > ts_sapngwu_chips(was) && len < sizeof out->reason)
        snprintf(out->reason + len, sizeof out->reason - len,
                 "; seat %d may declare: %d chip%s from each other player", seat, chips,
                 chips == 1 ? "" : "s");
    wu_scores(after, mem, out);
    for (int s = 1; s <= TS_SEATS_MAX; s++)
        if (mem->seen[s] && ts_game_seat_cards(after, s) == 0) {
            out->hand_over = 1;
            len = strlen(out->reason);
            if (len < sizeof out->reason)
                snprintf(out->reason + len, sizeof out->reason - len,
                         "; seat %d has no cards left: the hand is over", s);
            memset(mem->total, 0, sizeof mem->total);
            break;
        }
}

static void sng_judge(const ts_game_state *before, const ts_game_state *after, const ts_move *m,
                      ts_game_memory *mem, ts_verdict *out)
{
    int placed[TS_MOVE_MAX], np;
    char desc[80], why[128];
    ts_sapngwu_play play, trick;
    ts_trick_move t = ts_move_on_trick(before, after, m, mem, out, placed, &np);
    if (t == TS_TRICK_SWEPT) {
        if (!memory_play(mem, &trick)) {
            ts_verdict_no_trick_move(out);
            return;
        }
        trick_won(after, mem, &trick, out);
        mem->nlast = 0;
        mem->plays = 0;
    }
    if (t != TS_TRICK_PLAY)
        return;
    ts_sapngwu_hand h;
    if (hand_of(after, placed, np, &h, why, sizeof why) < 0 ||
        ts_sapngwu_classify(&h, &TS_SAPNGWU_DEFAULTS, &play, why, sizeof why) < 0) {
        ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "%s", why);
        return;
    }
    ts_sapngwu_describe(&play, desc, sizeof desc);
    int have = mem->nlast > 0 && memory_play(mem, &trick);
    if (!have && mem->nlast == 0) {
        int idx[TS_MAX_CARDS], u;
        int n = ts_game_cards_in(before, TS_ZONE_TRICK, idx, &u);
        if (u > 0) {
            ts_verdict_set(out, TS_VERDICT_CANNOT, "cannot judge",
                           "a card of the trick under it is not read");
            return;
        }
        ts_sapngwu_hand th;
        have = n > 0 && hand_of(before, idx, n, &th, why, sizeof why) >= 0 &&
               ts_sapngwu_classify(&th, &TS_SAPNGWU_DEFAULTS, &trick, why, sizeof why) == 0;
    }
    if (have) {
        char tdesc[80];
        ts_sapngwu_describe(&trick, tdesc, sizeof tdesc);
        ts_sapngwu_order ord = ts_sapngwu_compare(&play, &trick);
        if (ord != TS_SAPNGWU_HIGHER) {
            ts_verdict_set(out, TS_VERDICT_ILLEGAL, "illegal", "%s does not beat the trick: %s",
                           desc,
                           ord == TS_SAPNGWU_EQUAL ? "equal is not enough"
                           : ord == TS_SAPNGWU_LOWER
                               ? "it is lower"
                               : "only the same number of cards from each suit, higher, beats "
                                 "a play");
            return;
        }
        ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "%s beats %s", desc, tdesc);
    } else {
        ts_verdict_set(out, TS_VERDICT_LEGAL, "legal", "%s leads", desc);
    }
    mem->nlast = 0;
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    int n = ts_sapngwu_play_codes(&play, codes);
    for (int i = 0; i < n && i < TS_VIEW_GROUP_MAX; i++)
        mem->last[mem->nlast++] = codes[i];
    mem->seat = out->seat;
    mem->plays++;
}

const ts_game TS_GAME_SAPNGWU = {"sapngwu", "Sap Ng Wu", TS_FAM_DOMINO, sng_analyse, sng_judge, 0};

/* ---- Answers (answers.h) ------------------------------------------------------------------ */

void ts_sapngwu_play_text(const ts_sapngwu_play *p, char *out, size_t cap)
{
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    int n = ts_sapngwu_play_codes(p, codes);
    ts_game_codes_text(codes, n, out, cap);
}

static void report_play(const ts_writer *w, const ts_sapngwu_play *p, int sure)
{
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    char desc[80];
    int n = ts_sapngwu_play_codes(p, codes);
    tw_obj(w);
    ts_report_codes(w, "cards", codes, n);
    tw_key(w, "type");
    tw_str(w, ts_sapngwu_type_name(p->type));
    tw_key(w, "size");
    tw_int(w, p->size);
    ts_sapngwu_describe(p, desc, sizeof desc);
    tw_key(w, "what");
    tw_str(w, desc);
    if (sure >= 0) {
        tw_key(w, "sure");
        tw_bool(w, sure);
    }
    tw_end(w);
}

void ts_sapngwu_report_plays(const ts_writer *w, int hand_size, const ts_sapngwu_play *trick,
                             const ts_sapngwu_play *plays, int n, const ts_sapngwu_hand *unseen)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "sapngwu");
    tw_key(w, "hand_size");
    tw_int(w, hand_size);
    tw_key(w, "trick");
    if (trick)
        report_play(w, trick, -1);
    else
        tw_null(w);
    tw_key(w, "plays");
    tw_arr(w);
    for (int i = 0; i < n; i++)
        report_play(w, &plays[i], unseen ? !ts_sapngwu_beatable(&plays[i], unseen) : -1);
    tw_end(w);
    tw_key(w, "pass");
    tw_bool(w, trick && n == 0);
    tw_end(w);
}

void ts_sapngwu_report_payment(const ts_writer *w, int wu, int chips, int may_declare)
{
    tw_obj(w);
    tw_key(w, "game");
    tw_str(w, "sapngwu");
    tw_key(w, "wu");
    tw_int(w, wu);
    tw_key(w, "chips");
    tw_int(w, chips);
    tw_key(w, "may_declare");
    tw_bool(w, may_declare);
    tw_end(w);
}
