/* Gang of Four rules (see gof.h). */
#include "gof.h"

#include <string.h>

#include "codes.h"

/* ---- Names --------------------------------------------------------------------- */

const char *ts_gof_type_name(ts_gof_type t)
{
    static const char *const names[TS_GOF_NTYPES] = {
        "single", "pair", "three", "straight", "flush", "full house", "straight flush", "gang"};
    return (unsigned)t < TS_GOF_NTYPES ? names[t] : "?";
}

const char *ts_gof_error_text(ts_gof_error e)
{
    static const char *const texts[TS_GOF_NERRS] = {
        "a legal combination",
        "no cards",
        "a combination has 1 to 7 cards",
        "not a Gang of Four card",
        "more copies of a card than the deck holds (two of each number card, one of each special)",
        "the dragon is played only as a single",
        "phoenixes play only as a single, as the phoenix pair or as the pair of a full house",
        "a pair needs two cards of the same number",
        "three cards must show the same number",
        "4, 6 or 7 cards must be a gang: all the same number",
        "straights do not wrap around from 10 to 1",
        "5 cards must be a straight, flush, full house, straight flush or gang of five"};
    return (unsigned)e < TS_GOF_NERRS ? texts[e] : "?";
}

/* ---- Cards ---------------------------------------------------------------------- */

static int valid_card(int c)
{
    return (c >= 0 && c < TS_GOF_NUMBERS) || (c >= TS_GOF_M1 && c < TS_GOF_NKINDS);
}

/* G Y R = 0 1 2; M1 ranks above red; a phoenix's colour orders GP < YP. */
static int colour_of(int c)
{
    if (c < TS_GOF_NUMBERS)
        return c / 10;
    return c == TS_GOF_M1 ? 3 : c == TS_GOF_GP ? 0 : c == TS_GOF_YP ? 1 : 2;
}

int ts_gof_value(int c)
{
    if (!valid_card(c))
        return 0;
    if (c < TS_GOF_NUMBERS)
        return c % 10 + 1;
    return c == TS_GOF_M1 ? 1 : c == TS_GOF_RD ? 12 : 11;
}

int ts_gof_card_rank(int c)
{
    return ts_gof_value(c) * 4 + colour_of(c);
}

int ts_gof_deck_copies(int c)
{
    return !valid_card(c) ? 0 : c < TS_GOF_NUMBERS ? 2 : 1;
}

/* ---- Classification ---------------------------------------------------------------- */

/* Sorts card indices strongest first (insertion sort: at most 7 cards). */
static void sort_strongest_first(uint8_t *c, int n)
{
    int rank[TS_GOF_MAX_COMBO];
    for (int i = 0; i < n && i < TS_GOF_MAX_COMBO; i++)
        rank[i] = ts_gof_card_rank(c[i]);
    for (int i = 1; i < n && i < TS_GOF_MAX_COMBO; i++)
        for (int j = i; j > 0 && rank[j] > rank[j - 1]; j--) {
            uint8_t t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
            int r = rank[j];
            rank[j] = rank[j - 1];
            rank[j - 1] = r;
        }
}

/* Five distinct values v[] (sorted high to low) that would be a run if 10 and 1
 * were neighbours, e.g. 9 10 1 2 3. */
static int wraps_around(const int *v)
{
    int present[11] = {0};
    for (int i = 0; i < 5; i++)
        present[v[i]] = 1;
    for (int start = 7; start <= 10; start++) {
        int run = 1;
        for (int k = 0; k < 5; k++)
            run &= present[(start - 1 + k) % 10 + 1];
        if (run)
            return 1;
    }
    return 0;
}

/* Five cards with no gang among them: full house, straight (flush) or flush. */
static ts_gof_error classify_five(ts_gof_combo *out, int has_phoenix)
{
    const uint8_t *c = out->cards;
    int v[5];
    for (int i = 0; i < 5; i++)
        v[i] = ts_gof_value(c[i]);

    /* full house: sorted values read 3+2 or 2+3 (the phoenix pair is value 11) */
    int trio_first = v[0] == v[2] && v[3] == v[4] && v[2] != v[3];
    int pair_first = v[0] == v[1] && v[2] == v[4] && v[1] != v[2];
    if (trio_first || pair_first) {
        if (pair_first) { /* reorder: trio, then pair */
            uint8_t t[5] = {c[2], c[3], c[4], c[0], c[1]};
            memcpy(out->cards, t, 5);
        }
        out->type = TS_GOF_FULL_HOUSE;
        return TS_GOF_OK;
    }
    if (has_phoenix)
        return TS_GOF_ERR_PHOENIX;

    int distinct = v[0] > v[1] && v[1] > v[2] && v[2] > v[3] && v[3] > v[4];
    int straight = distinct && v[0] - v[4] == 4;
    int colour = -1, flush = 1;
    for (int i = 0; i < 5; i++) {
        if (c[i] == TS_GOF_M1)
            continue; /* the multicoloured 1 takes any colour */
        if (colour < 0)
            colour = colour_of(c[i]);
        flush &= colour_of(c[i]) == colour;
    }
    if (straight || flush) {
        out->type = straight && flush ? TS_GOF_STRAIGHT_FLUSH
                    : straight        ? TS_GOF_STRAIGHT
                                      : TS_GOF_FLUSH;
        return TS_GOF_OK;
    }
    return distinct && wraps_around(v) ? TS_GOF_ERR_WRAP : TS_GOF_ERR_FIVE;
}

ts_gof_error ts_gof_classify(const int *cards, int n, ts_gof_combo *out)
{
    if (n <= 0)
        return TS_GOF_ERR_EMPTY;
    if (n > TS_GOF_MAX_COMBO)
        return TS_GOF_ERR_SIZE;
    int has_phoenix = 0, has_dragon = 0;
    for (int i = 0; i < n; i++) {
        if (!valid_card(cards[i]))
            return TS_GOF_ERR_CARD;
        has_phoenix |= cards[i] == TS_GOF_GP || cards[i] == TS_GOF_YP;
        has_dragon |= cards[i] == TS_GOF_RD;
    }
    out->n = n;
    for (int i = 0; i < out->n && i < TS_GOF_MAX_COMBO; i++) /* bound restated for gcc */
        out->cards[i] = (uint8_t)cards[i];
    sort_strongest_first(out->cards, n);
    for (int i = 0, run = 0; i < n; i++) { /* identical cards are adjacent now */
        run = i > 0 && out->cards[i] == out->cards[i - 1] ? run + 1 : 1;
        if (run > ts_gof_deck_copies(out->cards[i]))
            return TS_GOF_ERR_COPIES;
    }
    if (n == 1) {
        out->type = TS_GOF_SINGLE;
        return TS_GOF_OK;
    }
    if (has_dragon)
        return TS_GOF_ERR_DRAGON;

    /* Phoenixes share value 11, so "all the same number" covers the phoenix pair. */
    int same = 1;
    for (int i = 1; i < n; i++)
        same &= ts_gof_value(out->cards[i]) == ts_gof_value(out->cards[0]);
    if (same) {
        out->type = n == 2 ? TS_GOF_PAIR : n == 3 ? TS_GOF_THREE : TS_GOF_GANG;
        return TS_GOF_OK;
    }
    if (n == 5)
        return classify_five(out, has_phoenix);
    if (has_phoenix)
        return TS_GOF_ERR_PHOENIX;
    return n == 2 ? TS_GOF_ERR_PAIR : n == 3 ? TS_GOF_ERR_THREE : TS_GOF_ERR_GANG;
}

/* ---- Comparison --------------------------------------------------------------------- */

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

int ts_gof_comparable(const ts_gof_combo *a, const ts_gof_combo *b)
{
    return a->type == TS_GOF_GANG || b->type == TS_GOF_GANG || a->n == b->n;
}

int ts_gof_compare(const ts_gof_combo *a, const ts_gof_combo *b)
{
    int a_gang = a->type == TS_GOF_GANG, b_gang = b->type == TS_GOF_GANG;
    if (a_gang != b_gang)
        return a_gang ? 1 : -1;
    if (a->n != b->n) /* gangs: the bigger gang wins */
        return sign(a->n - b->n);
    if (a->type != b->type) /* 5 cards: straight < flush < full house < straight flush */
        return sign((int)a->type - (int)b->type);
    for (int i = 0; i < a->n; i++) {
        int d = ts_gof_card_rank(a->cards[i]) - ts_gof_card_rank(b->cards[i]);
        if (d)
            return sign(d);
    }
    return 0;
}

int ts_gof_beats(const ts_gof_combo *play, const ts_gof_combo *trick)
{
    return ts_gof_comparable(play, trick) && ts_gof_compare(play, trick) > 0;
}

int ts_gof_has_m1(const ts_gof_combo *c)
{
    for (int i = 0; i < c->n; i++)
        if (c->cards[i] == TS_GOF_M1)
            return 1;
    return 0;
}

int ts_gof_may_open(const ts_gof_combo *c)
{
    return c->n <= 5 && ts_gof_has_m1(c);
}

const char *ts_gof_refusal(const ts_gof_combo *play, const ts_gof_combo *trick, int first_lead)
{
    if (first_lead && !ts_gof_has_m1(play))
        return "the first lead of the game must contain M1";
    if (first_lead && play->n > 5)
        return "the first lead of the game is 1 to 5 cards: gangs of 6 and 7 cannot open";
    if (!trick)
        return NULL;
    if (!ts_gof_comparable(play, trick))
        return "it must have as many cards as the trick, or be a gang";
    int c = ts_gof_compare(play, trick);
    if (c == 0)
        return "it only equals the trick (equal is not enough)";
    if (c < 0) {
        if (trick->type == TS_GOF_GANG && play->type == TS_GOF_GANG)
            return trick->n > play->n ? "it is a smaller gang than the trick"
                                      : "it is a gang of a lower number than the trick";
        if (trick->type == TS_GOF_GANG)
            return "only a higher gang beats a gang";
        if (trick->type != play->type)
            return "it is a lower kind of five than the trick (straight < flush < full house < "
                   "straight flush)";
        return "it is lower than the trick";
    }
    return NULL;
}

/* ---- Legal plays ----------------------------------------------------------------------- */

typedef struct {
    const ts_gof_combo *trick; /* NULL when leading */
    int first_lead;
    int gangs_only; /* this pass enumerates gangs; the other skips them */
    ts_gof_combo *out;
    int max, kept, count;
    int pick[TS_GOF_MAX_COMBO];
} play_search;

/* Best first: gangs, then more cards, then stronger. */
static int play_before(const void *pa, const void *pb)
{
    const ts_gof_combo *a = pa, *b = pb;
    int a_gang = a->type == TS_GOF_GANG, b_gang = b->type == TS_GOF_GANG;
    if (a_gang != b_gang)
        return a_gang;
    if (a->n != b->n)
        return a->n > b->n;
    return ts_gof_compare(a, b) > 0;
}

static void consider(play_search *s, int n)
{
    ts_gof_combo c;
    if (ts_gof_classify(s->pick, n, &c) != TS_GOF_OK)
        return;
    if ((c.type == TS_GOF_GANG) != s->gangs_only)
        return; /* each gang is found once, by the gang pass */
    if (s->first_lead && !ts_gof_may_open(&c))
        return;
    if (s->trick && !ts_gof_beats(&c, s->trick))
        return;
    s->count++;
    ts_rank_insert(s->out, sizeof *s->out, &s->kept, s->max, &c, play_before);
}

/* Whether pick[0..n) can still grow into a combination of `size` cards: the
 * search drops a branch as soon as it cannot (the test only gets stricter as
 * cards are added). Gangs, pairs and threes need one number; five cards need
 * at most two numbers (full house), or a run of distinct numbers, or one colour. */
static int promising(const int *pick, int n, int size)
{
    if (n < 2)
        return 1;
    int seen[13] = {0}, numbers = 0, distinct = 1, low = 99, high = 0, colour = -1, one_colour = 1,
        special = 0;
    for (int i = 0; i < n; i++) {
        int v = ts_gof_value(pick[i]);
        if (seen[v]++)
            distinct = 0;
        else
            numbers++;
        low = v < low ? v : low;
        high = v > high ? v : high;
        special |= pick[i] > TS_GOF_M1;
        if (pick[i] != TS_GOF_M1) {
            if (colour < 0)
                colour = colour_of(pick[i]);
            one_colour &= colour_of(pick[i]) == colour;
        }
    }
    if (size != 5 || numbers == 1)
        return numbers == 1;
    if (numbers == 2)
        return 1;
    return !special && ((distinct && high - low <= 4) || one_colour);
}

/* Every multiset of `need` more cards from kinds[0..nk) (avail[] copies each). */
static void pick_multisets(play_search *s, const int *kinds, const int *avail, int nk, int need,
                           int npick)
{
    if (need == 0) {
        consider(s, npick);
        return;
    }
    if (nk == 0)
        return;
    int most = avail[0] < need ? avail[0] : need;
    for (int take = 0; take <= most; take++) {
        for (int t = 0; t < take; t++)
            s->pick[npick + t] = kinds[0];
        if (take > 0 && !promising(s->pick, npick + take, npick + need))
            break; /* more copies of this card cannot help either */
        pick_multisets(s, kinds + 1, avail + 1, nk - 1, need - take, npick + take);
    }
}

int ts_gof_legal_plays(const int *hand, int n, const ts_gof_combo *trick, int first_lead,
                       ts_gof_combo *out, int max)
{
    int copies[TS_GOF_NKINDS] = {0};
    for (int i = 0; i < n; i++)
        if (valid_card(hand[i]))
            copies[hand[i]]++;
    int kinds[TS_GOF_NKINDS], avail[TS_GOF_NKINDS], nk = 0;
    for (int k = 0; k < TS_GOF_NKINDS; k++)
        if (copies[k]) {
            kinds[nk] = k;
            avail[nk++] = copies[k];
        }

    play_search s = {trick, first_lead, 0, out, max, 0, 0, {0}};

    /* Non-gang plays: the trick's size, or every size when leading. */
    static const int lead_sizes[] = {1, 2, 3, 5};
    if (!trick) {
        for (size_t i = 0; i < sizeof lead_sizes / sizeof lead_sizes[0]; i++)
            pick_multisets(&s, kinds, avail, nk, lead_sizes[i], 0);
    } else if (trick->type != TS_GOF_GANG) {
        pick_multisets(&s, kinds, avail, nk, trick->n, 0);
    }

    /* Gangs: per number, 4..7 of its cards (M1 joins the 1s). */
    s.gangs_only = 1;
    for (int value = 1; value <= 10; value++) {
        int vk[4], va[4], nv = 0;
        for (int k = 0; k < nk; k++)
            if (kinds[k] < TS_GOF_GP && ts_gof_value(kinds[k]) == value) {
                vk[nv] = kinds[k];
                va[nv++] = avail[k];
            }
        for (int size = 4; size <= TS_GOF_MAX_COMBO; size++)
            pick_multisets(&s, vk, va, nv, size, 0);
    }
    return s.count;
}

/* ---- Scoring and the exchange ------------------------------------------------------------ */

int ts_gof_hand_penalty(int cards_left)
{
    int mult = cards_left <= 0    ? 0
               : cards_left <= 7  ? 1
               : cards_left <= 10 ? 2
               : cards_left <= 13 ? 3
               : cards_left <= 15 ? 4
                                  : 5;
    return cards_left * mult;
}

int ts_gof_game_winner(const int *totals, int nplayers)
{
    int over = 0, best = -1;
    for (int p = 0; p < nplayers; p++) {
        over |= totals[p] >= TS_GOF_GAME_END;
        if (best < 0 || totals[p] < totals[best])
            best = p;
    }
    return over ? best : -1;
}

int ts_gof_best_card(const int *hand, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (valid_card(hand[i]) &&
            (best < 0 || ts_gof_card_rank(hand[i]) > ts_gof_card_rank(hand[best])))
            best = i;
    return best;
}

int ts_gof_exchange_giver(const int *hand_penalty, const int *totals, int nplayers, int winner)
{
    int giver = -1;
    /* Visiting seats counter-clockwise from the winner makes "nearest" the first seen. */
    for (int step = 1; step <= nplayers; step++) {
        int p = (winner + step) % nplayers;
        if (p == winner)
            continue;
        if (giver < 0 || hand_penalty[p] > hand_penalty[giver] ||
            (hand_penalty[p] == hand_penalty[giver] && totals[p] > totals[giver]))
            giver = p;
    }
    return giver;
}
