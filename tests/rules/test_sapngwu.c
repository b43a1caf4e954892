/* Sap Ng Wu: suits, plays, comparison, legal plays, wu and payments
 * (seed 004, Hong Kong version; DECISIONS.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sapngwu.h"

/* ---- Helpers ----------------------------------------------------------------- */

static int tile(const char *code)
{
    ts_code c;
    assert_int_equal(ts_code_parse(TS_FAM_DOMINO, code, strlen(code), &c), 0);
    return c.idx;
}

static ts_sapngwu_hand hand_of(const char *text)
{
    ts_code codes[TS_SAPNGWU_DECK];
    ts_sapngwu_hand h;
    char err[128];
    int n = ts_code_parse_list(TS_FAM_DOMINO, text, codes, TS_SAPNGWU_DECK, err, sizeof err);
    if (n < 0 || ts_sapngwu_hand_from_codes(codes, n, &h, err, sizeof err) < 0)
        fail_msg("test data '%s': %s", text, err);
    return h;
}

/* The play made of these cards; fails the test if they are not a play. */
static ts_sapngwu_play play_of(const char *text)
{
    ts_sapngwu_hand h = hand_of(text);
    ts_sapngwu_play p;
    char why[160];
    if (ts_sapngwu_classify(&h, NULL, &p, why, sizeof why) < 0)
        fail_msg("'%s' is not a play: %s", text, why);
    return p;
}

static int is_play(const char *text, char *why, size_t len)
{
    ts_sapngwu_hand h = hand_of(text);
    ts_sapngwu_play p;
    return ts_sapngwu_classify(&h, NULL, &p, why, len) == 0;
}

static ts_sapngwu_order cmp(const char *a, const char *b)
{
    ts_sapngwu_play pa = play_of(a), pb = play_of(b);
    return ts_sapngwu_compare(&pa, &pb);
}

static int same_play(const ts_sapngwu_play *a, const ts_sapngwu_play *b)
{
    ts_sapngwu_hand ha, hb;
    ts_sapngwu_play_hand(a, &ha);
    ts_sapngwu_play_hand(b, &hb);
    return a->type == b->type && memcmp(&ha, &hb, sizeof ha) == 0;
}

/* ---- Suits and ranks (DECISIONS.md, seed table) ------------------------------ */

static void check_suit_order(const char *high_to_low, int suit)
{
    ts_code codes[16];
    char err[64];
    int n = ts_code_parse_list(TS_FAM_DOMINO, high_to_low, codes, 16, err, sizeof err);
    for (int i = 0; i < n; i++) {
        assert_int_equal(ts_sapngwu_suit_of(codes[i].idx), suit);
        assert_int_equal(ts_sapngwu_rank_of(codes[i].idx), n - 1 - i);
    }
}

static void test_suits_and_ranks(void **state)
{
    (void)state;
    check_suit_order("6:6 1:1 4:4 1:3 5:5 3:3 2:2 5:6 4:6 1:6 1:5", TS_SAPNGWU_CIVIL);
    check_suit_order("4:5 2:6 3:4 2:4 1:4 1:2", TS_SAPNGWU_MILITARY1);
    check_suit_order("3:6 3:5 2:5 2:3", TS_SAPNGWU_MILITARY2);
    int per_suit[3] = {0, 0, 0};
    for (int t = 0; t < TS_SAPNGWU_TILES; t++)
        per_suit[ts_sapngwu_suit_of(t)] += TS_SAPNGWU_COPIES;
    assert_int_equal(per_suit[0], 44);
    assert_int_equal(per_suit[1], 24);
    assert_int_equal(per_suit[2], 16);
    assert_int_equal(ts_sapngwu_suit_of(-1), -1);
    assert_int_equal(ts_sapngwu_rank_of(21), -1);
    assert_string_equal(ts_sapngwu_suit_name(TS_SAPNGWU_MILITARY2), "military 2");
}

/* Seed: group 1 holds every military card with red pips (ones and fours) plus
 * 2:6; group 2 the rest, all black. Each group has one 9, 8, 7 and 5. */
static void test_military_groups(void **state)
{
    (void)state;
    for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
        int lo, hi;
        ts_domino_pips(t, &lo, &hi);
        int red = lo == 1 || lo == 4 || hi == 1 || hi == 4;
        int suit = ts_sapngwu_suit_of(t);
        if (suit == TS_SAPNGWU_MILITARY1)
            assert_true(red || t == tile("2:6"));
        if (suit == TS_SAPNGWU_MILITARY2)
            assert_false(red);
    }
    for (int g = 1; g <= 2; g++) {
        int totals = 0;
        for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
            int lo, hi;
            ts_domino_pips(t, &lo, &hi);
            if (ts_sapngwu_suit_of(t) == g && lo + hi != 3 && lo + hi != 6)
                totals |= 1 << (lo + hi);
        }
        assert_int_equal(totals, 1 << 9 | 1 << 8 | 1 << 7 | 1 << 5);
    }
}

/* ---- Sets (seed examples) ---------------------------------------------------- */

static void test_seed_set_examples(void **state)
{
    (void)state;
    char why[160];
    /* [5:6][5:6] is beaten by [1:3][1:3] ... */
    assert_int_equal(cmp("1:3 1:3", "5:6 5:6"), TS_SAPNGWU_HIGHER);
    /* ... not by [3:5][3:5] (wrong suit) ... */
    assert_int_equal(cmp("3:5 3:5", "5:6 5:6"), TS_SAPNGWU_INCOMPARABLE);
    /* ... not by [4:4][6:6] (not an identical pair: not a play at all) ... */
    assert_false(is_play("4:4 6:6", why, sizeof why));
    assert_non_null(strstr(why, "two different civil cards"));
    /* ... and not by [5:5][5:5][5:5] (too many cards). */
    assert_int_equal(cmp("5:5 5:5 5:5", "5:6 5:6"), TS_SAPNGWU_INCOMPARABLE);
    ts_sapngwu_hand hand = hand_of("1:3 1:3 3:5 3:5 4:4 6:6 5:5 5:5 5:5");
    ts_sapngwu_play trick = play_of("5:6 5:6"), out[TS_SAPNGWU_MAX_PLAYS];
    ts_sapngwu_play want[2] = {play_of("5:5 5:5"), play_of("1:3 1:3")};
    assert_int_equal(ts_sapngwu_list_follows(&hand, &trick, out), 2);
    assert_true(same_play(&out[0], &want[1])); /* highest first: 1:3 above 5:5 */
    assert_true(same_play(&out[1], &want[0]));
}

static void test_sets_single_suit_order(void **state)
{
    (void)state;
    assert_int_equal(cmp("4:4", "1:3"), TS_SAPNGWU_HIGHER); /* civil order */
    assert_int_equal(cmp("1:5", "1:6"), TS_SAPNGWU_LOWER);
    assert_int_equal(cmp("6:6 6:6 6:6 6:6", "1:1 1:1 1:1 1:1"), TS_SAPNGWU_HIGHER);
    assert_int_equal(cmp("6:6", "6:6"), TS_SAPNGWU_EQUAL);        /* identical cards never beat */
    assert_int_equal(cmp("4:5", "3:6"), TS_SAPNGWU_INCOMPARABLE); /* the two nines */
    assert_int_equal(cmp("2:4", "1:4"), TS_SAPNGWU_HIGHER);
    assert_int_equal(cmp("2:4", "1:2"), TS_SAPNGWU_HIGHER);
    assert_int_equal(cmp("2:4", "2:3"), TS_SAPNGWU_INCOMPARABLE);
    assert_int_equal(cmp("6:6", "4:5"), TS_SAPNGWU_INCOMPARABLE); /* civil never beats military */
    assert_int_equal(cmp("6:6", "6:6 6:6"), TS_SAPNGWU_INCOMPARABLE);
    ts_sapngwu_play a = play_of("6:6"), b = play_of("1:1");
    assert_true(ts_sapngwu_beats(&a, &b));
    assert_false(ts_sapngwu_beats(&b, &a));
    assert_false(ts_sapngwu_beats(&a, &a));
}

/* navpil GenericHandTest: [6:6 x4, 2:2] beats a single 1:1 with 6:6, a pair
 * [1:1 1:1] with [6:6 6:6]. */
static void test_navpil_hand_vectors(void **state)
{
    (void)state;
    ts_sapngwu_hand hand = hand_of("6:6 6:6 6:6 6:6 2:2");
    ts_sapngwu_play out[TS_SAPNGWU_MAX_PLAYS];
    ts_sapngwu_play single = play_of("1:1"), pair = play_of("1:1 1:1");
    ts_sapngwu_play six = play_of("6:6"), sixes = play_of("6:6 6:6");
    assert_int_equal(ts_sapngwu_list_follows(&hand, &single, out), 1);
    assert_true(same_play(&out[0], &six));
    assert_int_equal(ts_sapngwu_list_follows(&hand, &pair, out), 1);
    assert_true(same_play(&out[0], &sixes));
    ts_sapngwu_play low = play_of("1:5");
    assert_int_equal(ts_sapngwu_list_follows(&hand, &low, out), 2); /* 6:6 and 2:2 */
}

/* ---- Mixed combinations (seed examples) -------------------------------------- */

static void test_seed_mixed_validity(void **state)
{
    (void)state;
    char why[160];
    assert_true(is_play("1:1 2:6", why, sizeof why));
    assert_true(is_play("1:1 3:5", why, sizeof why));
    assert_true(is_play("1:1 2:6 3:5", why, sizeof why));
    assert_false(is_play("2:6 3:5", why, sizeof why));
    assert_non_null(strstr(why, "without a civil card"));
    /* Every civil card and its partners. */
    assert_true(is_play("6:6 4:5 3:6", why, sizeof why));
    assert_true(is_play("4:4 3:4 2:5", why, sizeof why));
    assert_true(is_play("1:3 1:4 2:3", why, sizeof why));
    assert_false(is_play("6:6 2:6", why, sizeof why));
    assert_string_equal(why, "2:6 does not match 6:6: it combines only with the nines 4:5 and 3:6");
    assert_false(is_play("5:5 2:6", why, sizeof why));
    assert_string_equal(why, "5:5 combines with no military card; only 6:6, 1:1, 4:4 and 1:3 do");
    assert_false(is_play("2:4 1:2 1:4", why, sizeof why)); /* not a supreme, no civil card */
    /* Up to 12 cards. */
    ts_sapngwu_play big = play_of("6:6 6:6 6:6 6:6 4:5 4:5 4:5 4:5 3:6 3:6 3:6 3:6");
    assert_int_equal(big.type, TS_SAPNGWU_MIXED);
    assert_int_equal(big.size, 12);
    ts_sapngwu_play p = play_of("1:1 1:1 3:5");
    assert_int_equal(p.type, TS_SAPNGWU_MIXED);
    assert_int_equal(p.count[0], 2);
    assert_int_equal(p.count[1], 0);
    assert_int_equal(p.count[2], 1);
}

/* To beat [1:3][1:3][1:4][2:3][2:3]: 5 higher cards, 2 civil, 1 group 1, 2 group 2. */
static void test_seed_mixed_beating(void **state)
{
    (void)state;
    char why[160];
    const char *trick = "1:3 1:3 1:4 2:3 2:3";
    assert_int_equal(cmp("1:1 1:1 2:6 3:5 3:5", trick), TS_SAPNGWU_HIGHER);
    assert_int_equal(cmp("4:4 4:4 4:4 2:5 3:4 3:4", trick), TS_SAPNGWU_INCOMPARABLE);
    assert_int_equal(cmp("1:1 1:1 2:6 2:6 3:5", trick), TS_SAPNGWU_INCOMPARABLE);
    assert_false(is_play("6:6 6:6 2:6 3:5 3:5", why, sizeof why));
    assert_non_null(strstr(why, "does not match 6:6"));

    /* From a hand holding all of those cards, exactly one play beats the trick. */
    ts_sapngwu_hand hand = hand_of("1:1 1:1 2:6 2:6 3:5 3:5 4:4 4:4 4:4 2:5 3:4 3:4 6:6 6:6");
    ts_sapngwu_play t = play_of(trick), out[TS_SAPNGWU_MAX_PLAYS];
    ts_sapngwu_play want = play_of("1:1 1:1 2:6 3:5 3:5");
    assert_int_equal(ts_sapngwu_list_follows(&hand, &t, out), 1);
    assert_true(same_play(&out[0], &want));
}

/* navpil MultiSuitMoveTest. */
static void test_navpil_mixed_vectors(void **state)
{
    (void)state;
    assert_int_equal(cmp("1:1 3:5 3:5", "1:3 2:3 2:3"), TS_SAPNGWU_HIGHER);
    assert_int_equal(cmp("1:1 3:5 3:5", "1:3 1:4 1:4"), TS_SAPNGWU_INCOMPARABLE);
    ts_sapngwu_hand hand = hand_of("1:1 1:1 3:5 3:5 3:5");
    ts_sapngwu_play t = play_of("1:3 2:3 2:3"), out[TS_SAPNGWU_MAX_PLAYS];
    ts_sapngwu_play want = play_of("1:1 3:5 3:5");
    assert_int_equal(ts_sapngwu_list_follows(&hand, &t, out), 1);
    assert_true(same_play(&out[0], &want));
}

static void test_mixed_rank_order(void **state)
{
    (void)state;
    assert_int_equal(cmp("6:6 4:5", "1:1 2:6"), TS_SAPNGWU_HIGHER); /* nines > eights */
    assert_int_equal(cmp("1:1 2:6", "4:4 3:4"), TS_SAPNGWU_HIGHER); /* eights > sevens */
    assert_int_equal(cmp("4:4 3:4", "1:3 1:4"), TS_SAPNGWU_HIGHER); /* sevens > fives */
    assert_int_equal(cmp("1:3 2:3", "6:6 3:6"), TS_SAPNGWU_LOWER);
    assert_int_equal(cmp("6:6 4:5", "6:6 3:6"), TS_SAPNGWU_INCOMPARABLE);
    assert_int_equal(cmp("6:6 4:5", "6:6 4:5"), TS_SAPNGWU_EQUAL);
    assert_int_equal(cmp("6:6 6:6", "1:1 2:6"), TS_SAPNGWU_INCOMPARABLE); /* set vs mixed */
}

/* ---- Supreme ----------------------------------------------------------------- */

static void test_supreme(void **state)
{
    (void)state;
    ts_sapngwu_play s = play_of("2:4 1:2"), big = play_of("2:4 2:4 2:4 2:4 1:2 1:2 1:2 1:2");
    assert_int_equal(s.type, TS_SAPNGWU_SUPREME);
    assert_int_equal(play_of("2:4 2:4 2:4 1:2").type, TS_SAPNGWU_SUPREME);
    assert_int_equal(play_of("2:4 2:4").type, TS_SAPNGWU_SET); /* needs one of each */
    /* Unbeatable, beats nothing. */
    ts_sapngwu_play low = play_of("1:2"), other = play_of("2:4 1:2");
    assert_int_equal(ts_sapngwu_compare(&s, &low), TS_SAPNGWU_INCOMPARABLE);
    assert_int_equal(ts_sapngwu_compare(&low, &s), TS_SAPNGWU_INCOMPARABLE);
    assert_int_equal(ts_sapngwu_compare(&s, &other), TS_SAPNGWU_INCOMPARABLE);
    ts_sapngwu_hand full, out_hand;
    memset(&full, TS_SAPNGWU_COPIES, sizeof full);
    ts_sapngwu_play out[TS_SAPNGWU_MAX_PLAYS];
    assert_int_equal(ts_sapngwu_list_follows(&full, &s, out), 0);
    assert_false(ts_sapngwu_beatable(&s, &full));
    /* Wu: the 8-card supreme counts double. */
    assert_int_equal(ts_sapngwu_wu(&s, NULL), 2);
    assert_int_equal(ts_sapngwu_wu(&big, NULL), 16);
    ts_sapngwu_options plain = TS_SAPNGWU_DEFAULTS;
    plain.supreme_double = 0;
    assert_int_equal(ts_sapngwu_wu(&big, &plain), 8);
    /* Laid before play: the largest one in the hand. */
    ts_sapngwu_play laid;
    ts_sapngwu_hand hand = hand_of("2:4 2:4 1:2 6:6");
    assert_int_equal(ts_sapngwu_supreme_in_hand(&hand, &laid), 1);
    ts_sapngwu_play_hand(&laid, &out_hand);
    assert_int_equal(out_hand.n[tile("2:4")], 2);
    assert_int_equal(out_hand.n[tile("1:2")], 1);
    assert_int_equal(laid.size, 3);
    hand = hand_of("2:4 2:4 6:6");
    assert_int_equal(ts_sapngwu_supreme_in_hand(&hand, &laid), 0);
    /* The 16-wu supreme lets its owner declare at once. */
    assert_true(ts_sapngwu_may_declare(ts_sapngwu_wu(&big, NULL), 0));
}

/* ---- Legal plays ------------------------------------------------------------- */

static void test_leads_small_hand(void **state)
{
    (void)state;
    ts_sapngwu_hand hand = hand_of("6:6 6:6 4:5 3:6");
    ts_sapngwu_play out[TS_SAPNGWU_MAX_PLAYS];
    /* Sets: 6:6 x1, x2, 4:5, 3:6 = 4; nines: 2 civil counts x 3 military choices = 6. */
    int n = ts_sapngwu_list_leads(&hand, NULL, out);
    assert_int_equal(n, 10);
    ts_sapngwu_play first = play_of("6:6 6:6 4:5 3:6"), last = play_of("3:6");
    assert_true(same_play(&out[0], &first));
    assert_true(same_play(&out[n - 1], &last)); /* same worth, military 2 sorts last */
    ts_sapngwu_options no_mixed = TS_SAPNGWU_DEFAULTS;
    no_mixed.mixed = 0;
    assert_int_equal(ts_sapngwu_list_leads(&hand, &no_mixed, out), 4);
    ts_sapngwu_hand empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(ts_sapngwu_list_leads(&empty, NULL, out), 0);
}

static void test_leads_best_first(void **state)
{
    (void)state;
    ts_sapngwu_hand hand = hand_of("1:5 1:1 2:6 2:4 1:2 6:6");
    ts_sapngwu_play out[TS_SAPNGWU_MAX_PLAYS];
    int n = ts_sapngwu_list_leads(&hand, NULL, out);
    static const char *const WANT[] = {
        "2:4 1:2", /* supreme: nothing beats it */
        "6:6",     /* top civil */
        "1:1 2:6", /* eights: only nines beat them; two cards before one */
        "1:1",     /* one kind beats it (6:6), civil before military */
        "2:6",     /* one kind (4:5) */
        "2:4",     /* three kinds */
        "1:2",     /* five kinds */
        "1:5",     /* ten kinds */
    };
    assert_int_equal(n, 8);
    for (int i = 0; i < n; i++) {
        ts_sapngwu_play want = play_of(WANT[i]);
        if (!same_play(&out[i], &want)) {
            char got[80];
            ts_sapngwu_describe(&out[i], got, sizeof got);
            fail_msg("lead %d: got %s, want %s", i, got, WANT[i]);
        }
    }
}

static void test_describe_and_codes(void **state)
{
    (void)state;
    char d[80];
    ts_sapngwu_play p = play_of("6:6 6:6");
    ts_sapngwu_describe(&p, d, sizeof d);
    assert_string_equal(d, "pair of 6:6 (civil)");
    p = play_of("3:5 1:1 3:5");
    ts_sapngwu_describe(&p, d, sizeof d);
    assert_string_equal(d, "mixed eights (1 civil, 0 military 1, 2 military 2)");
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    assert_int_equal(ts_sapngwu_play_codes(&p, codes), 3);
    assert_int_equal(codes[0].idx, tile("1:1")); /* civil part first */
    assert_int_equal(codes[2].idx, tile("3:5"));
    p = play_of("1:2 2:4 2:4");
    ts_sapngwu_describe(&p, d, sizeof d);
    assert_string_equal(d, "supreme: 2 x 2:4 + 1 x 1:2");
    assert_string_equal(ts_sapngwu_type_name(p.type), "supreme");
    p = play_of("1:4");
    ts_sapngwu_describe(&p, d, sizeof d);
    assert_string_equal(d, "single 1:4 (military 1)");
}

static void test_beatable(void **state)
{
    (void)state;
    ts_sapngwu_hand unseen = hand_of("1:1 1:1 4:5");
    ts_sapngwu_play p = play_of("6:6");
    assert_false(ts_sapngwu_beatable(&p, &unseen));
    p = play_of("4:4");
    assert_true(ts_sapngwu_beatable(&p, &unseen));
    p = play_of("4:4 4:4 4:4");
    assert_false(ts_sapngwu_beatable(&p, &unseen)); /* nobody can hold three 1:1 */
    p = play_of("1:3 2:3");
    assert_false(ts_sapngwu_beatable(&p, &unseen)); /* no military 2 card unseen */
    p = play_of("1:3 1:4");
    unseen = hand_of("6:6 4:5");
    assert_true(ts_sapngwu_beatable(&p, &unseen));
}

static void test_bad_input(void **state)
{
    (void)state;
    ts_code codes[6];
    ts_sapngwu_hand h;
    char err[128];
    for (int i = 0; i < 5; i++)
        codes[i] = (ts_code){TS_FAM_DOMINO, (uint8_t)tile("6:6")};
    assert_int_equal(ts_sapngwu_hand_from_codes(codes, 4, &h, err, sizeof err), 4);
    assert_int_equal(ts_sapngwu_hand_from_codes(codes, 5, &h, err, sizeof err), -1);
    assert_string_equal(err, "more than 4 copies of 6:6 (the deck has 4 of each card)");
    codes[1] = (ts_code){TS_FAM_PLAYING, 3};
    assert_int_equal(ts_sapngwu_hand_from_codes(codes, 2, &h, err, sizeof err), -1);
    assert_string_equal(err, "card 2 is not a domino card");
    ts_code blank;
    assert_int_equal(ts_code_parse(TS_FAM_DOMINO, "3:0", 3, &blank), 0); /* double-six only */
    codes[1] = blank;
    assert_int_equal(ts_sapngwu_hand_from_codes(codes, 2, &h, err, sizeof err), -1);
    assert_string_equal(err,
                        "card 2 (0:3) has a blank end: Sap Ng Wu cards have 1 to 6 pips at each end");

    ts_sapngwu_play p, out[TS_SAPNGWU_MAX_PLAYS];
    char why[160];
    memset(&h, 0, sizeof h);
    assert_int_equal(ts_sapngwu_classify(&h, NULL, &p, why, sizeof why), -1);
    assert_string_equal(why, "no cards");
    h.n[0] = 5;
    assert_int_equal(ts_sapngwu_classify(&h, NULL, &p, NULL, 0), -1);
    ts_sapngwu_options opt = TS_SAPNGWU_DEFAULTS;
    opt.mixed = 0;
    h = hand_of("1:1 2:6");
    assert_int_equal(ts_sapngwu_classify(&h, &opt, &p, why, sizeof why), -1);
    assert_non_null(strstr(why, "mixed plays are off"));
    opt = TS_SAPNGWU_DEFAULTS;
    opt.supreme_lead = 0;
    h = hand_of("2:4 1:2");
    assert_int_equal(ts_sapngwu_classify(&h, &opt, &p, why, sizeof why), -1);
    assert_int_equal(ts_sapngwu_list_leads(&h, &opt, out), 2); /* the two singles only */
    ts_sapngwu_play junk = {0, 1, {0, 0, 0}, {1, 0, 0}};
    assert_int_equal(ts_sapngwu_list_follows(&h, &junk, out), -1);
}

/* ---- Deal, wu and payments --------------------------------------------------- */

static void test_deal(void **state)
{
    (void)state;
    assert_int_equal(ts_sapngwu_hand_size(3), 28);
    assert_int_equal(ts_sapngwu_hand_size(4), 21);
    assert_int_equal(ts_sapngwu_hand_size(2), -1);
    for (int players = 3; players <= 4; players++) {
        uint64_t rng = (uint64_t)players;
        ts_sapngwu_hand hands[4];
        assert_int_equal(ts_sapngwu_deal(&rng, players, hands), 0);
        int per_tile[TS_SAPNGWU_TILES] = {0};
        for (int p = 0; p < players; p++) {
            int n = 0;
            for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
                n += hands[p].n[t];
                per_tile[t] += hands[p].n[t];
            }
            assert_int_equal(n, ts_sapngwu_hand_size(players));
        }
        for (int t = 0; t < TS_SAPNGWU_TILES; t++)
            assert_int_equal(per_tile[t], TS_SAPNGWU_COPIES);
    }
    uint64_t rng = 1;
    ts_sapngwu_hand hands[2];
    assert_int_equal(ts_sapngwu_deal(&rng, 2, hands), -1);
}

static void test_payment_ladder(void **state)
{
    (void)state;
    static const int CHIPS[29] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5};
    for (int wu = 0; wu <= 28; wu++)
        assert_int_equal(ts_sapngwu_chips(wu), CHIPS[wu]);
    assert_int_equal(ts_sapngwu_chips(36), 5); /* 16-wu supreme + 20 cards: 5 is the top */
    assert_int_equal(ts_sapngwu_chips(44), 5);
    assert_int_equal(ts_sapngwu_may_declare(36, 27), 0); /* no higher rung past 27 */
    /* Seed: A reaches 15 and plays on; at 17 A may not declare, at 18 A may. */
    assert_false(ts_sapngwu_may_declare(14, 0));
    assert_true(ts_sapngwu_may_declare(15, 0));
    assert_false(ts_sapngwu_may_declare(17, 15));
    assert_true(ts_sapngwu_may_declare(18, 15));
    assert_false(ts_sapngwu_may_declare(20, 18));
    assert_true(ts_sapngwu_may_declare(21, 19));
    /* Meanwhile B, at 15 and never having declined, may declare. */
    assert_true(ts_sapngwu_may_declare(15, 0));
}

static void test_wu_and_quads(void **state)
{
    (void)state;
    ts_sapngwu_play p = play_of("6:6 6:6 6:6 6:6");
    assert_int_equal(ts_sapngwu_wu(&p, NULL), 4);
    assert_int_equal(ts_sapngwu_quads(&p), 1);
    p = play_of("6:6 6:6 6:6 6:6 4:5 4:5 4:5 4:5 3:6");
    assert_int_equal(ts_sapngwu_wu(&p, NULL), 9);
    assert_int_equal(ts_sapngwu_quads(&p), 2);
    p = play_of("4:5 4:5 4:5");
    assert_int_equal(ts_sapngwu_quads(&p), 0);
    assert_int_equal(ts_sapngwu_wu(&p, NULL), 3);
}

/* ---- Properties over random deals -------------------------------------------- */

enum { DEALS = 200 };

/* Every lead re-classifies to itself, follows are exactly the leads that beat
 * the trick, and every listed play fits in the hand. */
static void test_listing_properties(void **state)
{
    (void)state;
    uint64_t rng = 42;
    static ts_sapngwu_play leads[TS_SAPNGWU_MAX_PLAYS], other[TS_SAPNGWU_MAX_PLAYS],
        follows[TS_SAPNGWU_MAX_PLAYS];
    for (int d = 0; d < DEALS; d++) {
        ts_sapngwu_hand hands[3];
        ts_sapngwu_deal(&rng, 3, hands);
        int n = ts_sapngwu_list_leads(&hands[0], NULL, leads);
        assert_in_range(n, 1, TS_SAPNGWU_MAX_PLAYS);
        for (int i = 0; i < n; i++) {
            ts_sapngwu_hand cards;
            ts_sapngwu_play again;
            ts_sapngwu_play_hand(&leads[i], &cards);
            for (int t = 0; t < TS_SAPNGWU_TILES; t++)
                assert_true(cards.n[t] <= hands[0].n[t]);
            assert_int_equal(ts_sapngwu_classify(&cards, NULL, &again, NULL, 0), 0);
            assert_memory_equal(&again, &leads[i], sizeof again);
            if (i > 0)
                assert_false(same_play(&leads[i - 1], &leads[i]));
        }
        int m = ts_sapngwu_list_leads(&hands[1], NULL, other);
        ts_sapngwu_play trick = other[ts_sapngwu_random(&rng) % (uint32_t)m];
        int f = ts_sapngwu_list_follows(&hands[0], &trick, follows);
        int expected = 0;
        for (int i = 0; i < n; i++)
            expected += ts_sapngwu_beats(&leads[i], &trick);
        assert_int_equal(f, expected);
        for (int i = 0; i < f; i++) {
            assert_true(ts_sapngwu_beats(&follows[i], &trick));
            if (i > 0) /* highest first */
                assert_int_equal(ts_sapngwu_compare(&follows[i - 1], &follows[i]),
                                 TS_SAPNGWU_HIGHER);
        }
    }
}

/* Comparison is a strict order among comparable plays: antisymmetric,
 * transitive, EQUAL only for the same play, INCOMPARABLE symmetric. */
static void test_compare_is_strict_order(void **state)
{
    (void)state;
    enum { POOL = 600 };
    static ts_sapngwu_play pool[POOL], leads[TS_SAPNGWU_MAX_PLAYS];
    uint64_t rng = 7;
    int n = 0;
    while (n < POOL) {
        ts_sapngwu_hand hands[4];
        ts_sapngwu_deal(&rng, 4, hands);
        int m = ts_sapngwu_list_leads(&hands[0], NULL, leads);
        for (int k = 0; k < 20 && n < POOL; k++)
            pool[n++] = leads[ts_sapngwu_random(&rng) % (uint32_t)m];
    }
    long comparable = 0, chains = 0;
    for (int i = 0; i < POOL; i++)
        for (int j = 0; j < POOL; j++) {
            ts_sapngwu_order ab = ts_sapngwu_compare(&pool[i], &pool[j]);
            ts_sapngwu_order ba = ts_sapngwu_compare(&pool[j], &pool[i]);
            if (ab == TS_SAPNGWU_INCOMPARABLE) {
                assert_int_equal(ba, TS_SAPNGWU_INCOMPARABLE);
                continue;
            }
            comparable++;
            assert_int_equal((int)ab, -(int)ba);
            assert_int_equal(ab == TS_SAPNGWU_EQUAL, same_play(&pool[i], &pool[j]));
            if (ab != TS_SAPNGWU_HIGHER)
                continue;
            for (int k = 0; k < POOL; k += 3)
                if (ts_sapngwu_compare(&pool[j], &pool[k]) == TS_SAPNGWU_HIGHER) {
                    assert_int_equal(ts_sapngwu_compare(&pool[i], &pool[k]), TS_SAPNGWU_HIGHER);
                    chains++;
                }
        }
    assert_true(comparable > POOL); /* the sample really exercised the order */
    assert_true(chains > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suits_and_ranks),     cmocka_unit_test(test_military_groups),
        cmocka_unit_test(test_seed_set_examples),   cmocka_unit_test(test_sets_single_suit_order),
        cmocka_unit_test(test_navpil_hand_vectors), cmocka_unit_test(test_seed_mixed_validity),
        cmocka_unit_test(test_seed_mixed_beating),  cmocka_unit_test(test_navpil_mixed_vectors),
        cmocka_unit_test(test_mixed_rank_order),    cmocka_unit_test(test_supreme),
        cmocka_unit_test(test_leads_small_hand),    cmocka_unit_test(test_leads_best_first),
        cmocka_unit_test(test_describe_and_codes),  cmocka_unit_test(test_beatable),
        cmocka_unit_test(test_bad_input),           cmocka_unit_test(test_deal),
        cmocka_unit_test(test_payment_ladder),      cmocka_unit_test(test_wu_and_quads),
        cmocka_unit_test(test_listing_properties),  cmocka_unit_test(test_compare_is_strict_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
