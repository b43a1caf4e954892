/* Sap Ng Wu: suits, plays, comparison, legal plays, wu and payments (sapngwu.h). */
#include "sapngwu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tables ------------------------------------------------------------------ */

/* Domino index of low:high, as ts_domino_index() computes it, usable in tables. */
#define DOM(l, h) (((l)-1) * (14 - (l)) / 2 + ((h) - (l)))

enum { N_SUITS = 3, N_GROUPS = 4 };

static const int SUIT_SIZE[N_SUITS] = {11, 6, 4};

/* Tiles of each suit from lowest (rank 0) to highest. */
static const uint8_t BY_RANK[N_SUITS][11] = {
    {DOM(1, 5), DOM(1, 6), DOM(4, 6), DOM(5, 6), DOM(2, 2), DOM(3, 3), DOM(5, 5), DOM(1, 3),
     DOM(4, 4), DOM(1, 1), DOM(6, 6)},
    {DOM(1, 2), DOM(1, 4), DOM(2, 4), DOM(3, 4), DOM(2, 6), DOM(4, 5)},
    {DOM(2, 3), DOM(2, 5), DOM(3, 5), DOM(3, 6)},
};

/* Mixed groups from lowest to highest: civil, military-1 and military-2 tiles. */
static const uint8_t GROUP_TILES[N_GROUPS][3] = {
    {DOM(1, 3), DOM(1, 4), DOM(2, 3)}, /* fives */
    {DOM(4, 4), DOM(3, 4), DOM(2, 5)}, /* sevens */
    {DOM(1, 1), DOM(2, 6), DOM(3, 5)}, /* eights */
    {DOM(6, 6), DOM(4, 5), DOM(3, 6)}, /* nines */
};
static const char *const GROUP_NAMES[N_GROUPS] = {"fives", "sevens", "eights", "nines"};

/* The same tables by tile, for constant-time lookups (a test checks they agree). */
static const uint8_t SUIT_OF[TS_SAPNGWU_TILES] = {
    [DOM(4, 5)] = 1, [DOM(2, 6)] = 1, [DOM(3, 4)] = 1, [DOM(2, 4)] = 1, [DOM(1, 4)] = 1,
    [DOM(1, 2)] = 1, [DOM(3, 6)] = 2, [DOM(3, 5)] = 2, [DOM(2, 5)] = 2, [DOM(2, 3)] = 2,
};
static const uint8_t RANK_OF[TS_SAPNGWU_TILES] = {
    [DOM(6, 6)] = 10, [DOM(1, 1)] = 9, [DOM(4, 4)] = 8, [DOM(1, 3)] = 7, [DOM(5, 5)] = 6,
    [DOM(3, 3)] = 5,  [DOM(2, 2)] = 4, [DOM(5, 6)] = 3, [DOM(4, 6)] = 2, [DOM(1, 6)] = 1,
    [DOM(1, 5)] = 0,  [DOM(4, 5)] = 5, [DOM(2, 6)] = 4, [DOM(3, 4)] = 3, [DOM(2, 4)] = 2,
    [DOM(1, 4)] = 1,  [DOM(1, 2)] = 0, [DOM(3, 6)] = 3, [DOM(3, 5)] = 2, [DOM(2, 5)] = 1,
    [DOM(2, 3)] = 0,
};

enum { SUPREME_HIGH = DOM(2, 4), SUPREME_LOW = DOM(1, 2) };

const ts_sapngwu_options TS_SAPNGWU_DEFAULTS = {1, 1, 1};

static const ts_sapngwu_options *options(const ts_sapngwu_options *opt)
{
    return opt ? opt : &TS_SAPNGWU_DEFAULTS;
}

/* ---- Suits and ranks --------------------------------------------------------- */

int ts_sapngwu_suit_of(int tile)
{
    return tile >= 0 && tile < TS_SAPNGWU_TILES ? SUIT_OF[tile] : -1;
}

int ts_sapngwu_rank_of(int tile)
{
    return tile >= 0 && tile < TS_SAPNGWU_TILES ? RANK_OF[tile] : -1;
}

const char *ts_sapngwu_suit_name(int suit)
{
    static const char *const NAMES[N_SUITS] = {"civil", "military 1", "military 2"};
    return suit >= 0 && suit < N_SUITS ? NAMES[suit] : "?";
}

/* Mixed group of a civil tile, -1 if it has no military partners. */
static int group_of_civil(int tile)
{
    for (int g = 0; g < N_GROUPS; g++)
        if (GROUP_TILES[g][0] == tile)
            return g;
    return -1;
}

static const char *tile_name(int tile, char buf[TS_CODE_MAXLEN])
{
    ts_code c = {TS_FAM_DOMINO, (uint8_t)tile};
    ts_code_format(c, buf);
    return buf;
}

/* ---- Hands and dealing ------------------------------------------------------- */

int ts_sapngwu_hand_from_codes(const ts_code *cards, int n, ts_sapngwu_hand *hand, char *err,
                               size_t errlen)
{
    memset(hand, 0, sizeof *hand);
    for (int i = 0; i < n; i++) {
        char name[TS_CODE_MAXLEN];
        if (cards[i].family != TS_FAM_DOMINO || cards[i].idx >= ts_family_size(TS_FAM_DOMINO)) {
            snprintf(err, errlen, "card %d is not a domino card", i + 1);
            return -1;
        }
        if (cards[i].idx >= TS_SAPNGWU_TILES) { /* a double-six tile's blank end */
            ts_code_format(cards[i], name);
            snprintf(err, errlen,
                     "card %d (%s) has a blank end: Sap Ng Wu cards have 1 to 6 pips at each end",
                     i + 1, name);
            return -1;
        }
        if (++hand->n[cards[i].idx] > TS_SAPNGWU_COPIES) {
            snprintf(err, errlen, "more than %d copies of %s (the deck has %d of each card)",
                     TS_SAPNGWU_COPIES, tile_name(cards[i].idx, name), TS_SAPNGWU_COPIES);
            return -1;
        }
    }
    return n;
}

int ts_sapngwu_hand_size(int players)
{
    return players == 3 || players == 4 ? TS_SAPNGWU_DECK / players : -1;
}

uint32_t ts_sapngwu_random(uint64_t *rng)
{
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

int ts_sapngwu_deal(uint64_t *rng, int players, ts_sapngwu_hand *hands)
{
    if (ts_sapngwu_hand_size(players) < 0)
        return -1;
    uint8_t deck[TS_SAPNGWU_DECK];
    for (int i = 0; i < TS_SAPNGWU_DECK; i++)
        deck[i] = (uint8_t)(i / TS_SAPNGWU_COPIES);
    for (int i = TS_SAPNGWU_DECK - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(((uint64_t)ts_sapngwu_random(rng) * (uint64_t)(i + 1)) >> 32);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    memset(hands, 0, sizeof *hands * (size_t)players);
    for (int i = 0; i < TS_SAPNGWU_DECK; i++) /* each takes the top card in turn */
        hands[i % players].n[deck[i]]++;
    return 0;
}

/* ---- Building plays ---------------------------------------------------------- */

static ts_sapngwu_play make_play(int type, int t0, int c0, int t1, int c1, int t2, int c2)
{
    ts_sapngwu_play p = {(uint8_t)type,
                         (uint8_t)(c0 + c1 + c2),
                         {(uint8_t)t0, (uint8_t)t1, (uint8_t)t2},
                         {(uint8_t)c0, (uint8_t)c1, (uint8_t)c2}};
    return p;
}

static ts_sapngwu_play make_set(int tile, int k)
{
    return make_play(TS_SAPNGWU_SET, tile, k, 0, 0, 0, 0);
}

static ts_sapngwu_play make_mixed(int g, int civil, int mil1, int mil2)
{
    const uint8_t *t = GROUP_TILES[g];
    return make_play(TS_SAPNGWU_MIXED, t[0], civil, t[1], mil1, t[2], mil2);
}

static ts_sapngwu_play make_supreme(int high, int low)
{
    return make_play(TS_SAPNGWU_SUPREME, SUPREME_HIGH, high, SUPREME_LOW, low, 0, 0);
}

int ts_sapngwu_play_codes(const ts_sapngwu_play *play, ts_code out[TS_SAPNGWU_MAX_CARDS])
{
    int n = 0;
    for (int part = 0; part < 3; part++)
        for (int k = 0; k < play->count[part] && n < TS_SAPNGWU_MAX_CARDS; k++)
            out[n++] = (ts_code){TS_FAM_DOMINO, play->tile[part]};
    return n;
}

void ts_sapngwu_play_hand(const ts_sapngwu_play *play, ts_sapngwu_hand *out)
{
    memset(out, 0, sizeof *out);
    for (int part = 0; part < 3; part++)
        if (play->count[part])
            out->n[play->tile[part]] += play->count[part];
}

const char *ts_sapngwu_type_name(int type)
{
    static const char *const NAMES[] = {"?", "set", "mixed", "supreme"};
    return type >= TS_SAPNGWU_SET && type <= TS_SAPNGWU_SUPREME ? NAMES[type] : NAMES[0];
}

int ts_sapngwu_describe(const ts_sapngwu_play *play, char *out, size_t cap)
{
    static const char *const SET_NAMES[] = {"", "single", "pair of", "three of", "four of"};
    char a[TS_CODE_MAXLEN], b[TS_CODE_MAXLEN];
    switch (play->type) {
    case TS_SAPNGWU_SET:
        return snprintf(out, cap, "%s %s (%s)", SET_NAMES[play->count[0] <= 4 ? play->count[0] : 0],
                        tile_name(play->tile[0], a),
                        ts_sapngwu_suit_name(ts_sapngwu_suit_of(play->tile[0])));
    case TS_SAPNGWU_MIXED:
        return snprintf(out, cap, "mixed %s (%d civil, %d military 1, %d military 2)",
                        GROUP_NAMES[group_of_civil(play->tile[0]) & 3], play->count[0],
                        play->count[1], play->count[2]);
    case TS_SAPNGWU_SUPREME:
        return snprintf(out, cap, "supreme: %d x %s + %d x %s", play->count[0],
                        tile_name(play->tile[0], a), play->count[1], tile_name(play->tile[1], b));
    default: return snprintf(out, cap, "not a play");
    }
}

/* ---- Classifying ------------------------------------------------------------- */

static int classify_mixed(const ts_sapngwu_hand *h, ts_sapngwu_play *out, char *why, size_t len)
{
    char a[TS_CODE_MAXLEN], b[TS_CODE_MAXLEN];
    int civil = -1;
    for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
        if (!h->n[t] || ts_sapngwu_suit_of(t) != TS_SAPNGWU_CIVIL)
            continue;
        if (civil >= 0) {
            snprintf(why, len, "%s and %s are two different civil cards; a mixed play has one",
                     tile_name(civil, a), tile_name(t, b));
            return -1;
        }
        civil = t;
    }
    if (civil < 0) {
        snprintf(why, len,
                 "different military cards cannot be played together without a civil "
                 "card (6:6, 1:1, 4:4 or 1:3) of their rank");
        return -1;
    }
    int g = group_of_civil(civil);
    if (g < 0) {
        snprintf(why, len, "%s combines with no military card; only 6:6, 1:1, 4:4 and 1:3 do",
                 tile_name(civil, a));
        return -1;
    }
    const uint8_t *gt = GROUP_TILES[g];
    for (int t = 0; t < TS_SAPNGWU_TILES; t++)
        if (h->n[t] && t != gt[0] && t != gt[1] && t != gt[2]) {
            char c1[TS_CODE_MAXLEN], c2[TS_CODE_MAXLEN];
            snprintf(why, len, "%s does not match %s: it combines only with the %s %s and %s",
                     tile_name(t, a), tile_name(civil, b), GROUP_NAMES[g], tile_name(gt[1], c1),
                     tile_name(gt[2], c2));
            return -1;
        }
    *out = make_mixed(g, h->n[gt[0]], h->n[gt[1]], h->n[gt[2]]);
    return 0;
}

int ts_sapngwu_classify(const ts_sapngwu_hand *cards, const ts_sapngwu_options *opt,
                        ts_sapngwu_play *out, char *why, size_t whylen)
{
    char scratch[8];
    if (!why) {
        why = scratch;
        whylen = sizeof scratch;
    }
    opt = options(opt);
    int size = 0, kinds = 0, last = -1;
    for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
        if (cards->n[t] > TS_SAPNGWU_COPIES) {
            char a[TS_CODE_MAXLEN];
            snprintf(why, whylen, "more than %d copies of %s", TS_SAPNGWU_COPIES, tile_name(t, a));
            return -1;
        }
        size += cards->n[t];
        if (cards->n[t]) {
            kinds++;
            last = t;
        }
    }
    if (size == 0) {
        snprintf(why, whylen, "no cards");
        return -1;
    }
    if (kinds == 1) {
        *out = make_set(last, size);
        return 0;
    }
    if (kinds == 2 && cards->n[SUPREME_HIGH] && cards->n[SUPREME_LOW]) {
        if (!opt->supreme_lead) {
            snprintf(why, whylen, "the supreme is only laid face up before play (house rule)");
            return -1;
        }
        *out = make_supreme(cards->n[SUPREME_HIGH], cards->n[SUPREME_LOW]);
        return 0;
    }
    if (!opt->mixed) {
        snprintf(why, whylen, "only a single card or 2-4 identical cards (mixed plays are off)");
        return -1;
    }
    return classify_mixed(cards, out, why, whylen);
}

/* ---- Comparing --------------------------------------------------------------- */

/* Rank that decides between comparable plays: the set's tile rank, or the civil
 * card's rank for a mixed play (which orders the groups nines > ... > fives). */
static int play_rank(const ts_sapngwu_play *p)
{
    return ts_sapngwu_rank_of(p->tile[0]);
}

ts_sapngwu_order ts_sapngwu_compare(const ts_sapngwu_play *a, const ts_sapngwu_play *b)
{
    if (a->type != b->type || a->type == TS_SAPNGWU_SUPREME)
        return TS_SAPNGWU_INCOMPARABLE;
    if (a->type == TS_SAPNGWU_SET &&
        (a->count[0] != b->count[0] ||
         ts_sapngwu_suit_of(a->tile[0]) != ts_sapngwu_suit_of(b->tile[0])))
        return TS_SAPNGWU_INCOMPARABLE;
    if (a->type == TS_SAPNGWU_MIXED && memcmp(a->count, b->count, sizeof a->count) != 0)
        return TS_SAPNGWU_INCOMPARABLE;
    int ra = play_rank(a), rb = play_rank(b);
    return ra > rb ? TS_SAPNGWU_HIGHER : ra < rb ? TS_SAPNGWU_LOWER : TS_SAPNGWU_EQUAL;
}

int ts_sapngwu_beats(const ts_sapngwu_play *a, const ts_sapngwu_play *b)
{
    return ts_sapngwu_compare(a, b) == TS_SAPNGWU_HIGHER;
}

/* ---- Legal plays ------------------------------------------------------------- */

/* Plays from `cards` that beat `trick`, highest first, at most `limit`;
 * out may be NULL to count. Returns the count, -1 for an invalid trick. */
static int find_beaters(const ts_sapngwu_hand *cards, const ts_sapngwu_play *trick,
                        ts_sapngwu_play *out, int limit)
{
    int n = 0;
    switch (trick->type) {
    case TS_SAPNGWU_SET: {
        int s = ts_sapngwu_suit_of(trick->tile[0]), k = trick->count[0];
        if (s < 0)
            return -1;
        for (int r = SUIT_SIZE[s] - 1; r > ts_sapngwu_rank_of(trick->tile[0]) && n < limit; r--)
            if (cards->n[BY_RANK[s][r]] >= k) {
                if (out)
                    out[n] = make_set(BY_RANK[s][r], k);
                n++;
            }
        return n;
    }
    case TS_SAPNGWU_MIXED: {
        int g0 = group_of_civil(trick->tile[0]);
        if (g0 < 0)
            return -1;
        for (int g = N_GROUPS - 1; g > g0 && n < limit; g--) {
            const uint8_t *t = GROUP_TILES[g];
            if (cards->n[t[0]] >= trick->count[0] && cards->n[t[1]] >= trick->count[1] &&
                cards->n[t[2]] >= trick->count[2]) {
                if (out)
                    out[n] = make_mixed(g, trick->count[0], trick->count[1], trick->count[2]);
                n++;
            }
        }
        return n;
    }
    case TS_SAPNGWU_SUPREME: return 0;
    default: return -1;
    }
}

int ts_sapngwu_list_follows(const ts_sapngwu_hand *hand, const ts_sapngwu_play *trick,
                            ts_sapngwu_play *out)
{
    return find_beaters(hand, trick, out, TS_SAPNGWU_MAX_PLAYS);
}

int ts_sapngwu_beatable(const ts_sapngwu_play *play, const ts_sapngwu_hand *unseen)
{
    return find_beaters(unseen, play, NULL, 1) > 0;
}

/* Sort key for "best first": unique per play, smaller is better. */
static uint32_t best_first_key(const ts_sapngwu_play *p)
{
    uint32_t beaters = 0, suit = 0;
    if (p->type == TS_SAPNGWU_SET) {
        suit = (uint32_t)ts_sapngwu_suit_of(p->tile[0]);
        beaters = (uint32_t)(SUIT_SIZE[suit] - 1 - ts_sapngwu_rank_of(p->tile[0]));
    } else if (p->type == TS_SAPNGWU_MIXED) {
        beaters = (uint32_t)(N_GROUPS - 1 - group_of_civil(p->tile[0]));
    }
    return beaters << 20 | (uint32_t)(TS_SAPNGWU_MAX_CARDS - p->size) << 16 |
           (uint32_t)(TS_SAPNGWU_SUPREME - p->type) << 14 | suit << 12 |
           (uint32_t)(4 - p->count[0]) << 8 | (uint32_t)(4 - p->count[1]) << 4 |
           (uint32_t)(4 - p->count[2]);
}

static int by_best_first(const void *a, const void *b)
{
    uint32_t ka = best_first_key(a), kb = best_first_key(b);
    return (ka > kb) - (ka < kb);
}

/* Copies of a tile in the hand, capped at the deck's four (bounds the output). */
static int held(const ts_sapngwu_hand *hand, int tile)
{
    return hand->n[tile] < TS_SAPNGWU_COPIES ? hand->n[tile] : TS_SAPNGWU_COPIES;
}

int ts_sapngwu_list_leads(const ts_sapngwu_hand *hand, const ts_sapngwu_options *opt,
                          ts_sapngwu_play *out)
{
    opt = options(opt);
    int n = 0;
    if (opt->supreme_lead)
        for (int hi = 1; hi <= held(hand, SUPREME_HIGH); hi++)
            for (int lo = 1; lo <= held(hand, SUPREME_LOW); lo++)
                out[n++] = make_supreme(hi, lo);
    if (opt->mixed)
        for (int g = 0; g < N_GROUPS; g++) {
            const uint8_t *t = GROUP_TILES[g];
            for (int c = 1; c <= held(hand, t[0]); c++)
                for (int m1 = 0; m1 <= held(hand, t[1]); m1++)
                    for (int m2 = m1 ? 0 : 1; m2 <= held(hand, t[2]); m2++)
                        out[n++] = make_mixed(g, c, m1, m2);
        }
    for (int t = 0; t < TS_SAPNGWU_TILES; t++)
        for (int k = 1; k <= held(hand, t); k++)
            out[n++] = make_set(t, k);
    qsort(out, (size_t)n, sizeof *out, by_best_first);
    return n;
}

int ts_sapngwu_supreme_in_hand(const ts_sapngwu_hand *hand, ts_sapngwu_play *out)
{
    if (!hand->n[SUPREME_HIGH] || !hand->n[SUPREME_LOW])
        return 0;
    *out = make_supreme(held(hand, SUPREME_HIGH), held(hand, SUPREME_LOW));
    return 1;
}

/* ---- Wu and payments --------------------------------------------------------- */

int ts_sapngwu_wu(const ts_sapngwu_play *play, const ts_sapngwu_options *opt)
{
    int full_supreme = play->type == TS_SAPNGWU_SUPREME && play->count[0] == TS_SAPNGWU_COPIES &&
                       play->count[1] == TS_SAPNGWU_COPIES;
    return full_supreme && options(opt)->supreme_double ? 2 * play->size : play->size;
}

int ts_sapngwu_quads(const ts_sapngwu_play *play)
{
    int q = 0;
    for (int part = 0; part < 3; part++)
        q += play->count[part] == TS_SAPNGWU_COPIES;
    return q;
}

int ts_sapngwu_chips(int wu)
{
    /* 15-17: 1, 18-20: 2, 21-23: 3, 24-26: 4, 27 or more: 5, the top of the
     * ladder (also with the doubled 8-card supreme; DECISIONS.md). */
    if (wu < 15)
        return 0;
    int chips = 1 + (wu - 15) / 3;
    return chips < 5 ? chips : 5;
}

int ts_sapngwu_may_declare(int wu, int declined_at)
{
    int chips = ts_sapngwu_chips(wu);
    return chips > 0 && chips > ts_sapngwu_chips(declined_at);
}
