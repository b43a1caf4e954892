/* Gang of Four rules (rules/gof.h) against seed 001, DECISIONS.md and the
 * Erebot test vectors re-expressed in docs/rules/gang_of_four.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"
#include "gof.h"

/* ---- Helpers --------------------------------------------------------------------------- */

static int parse(const char *text, int *cards, int max)
{
    ts_code codes[64];
    char err[80];
    int n = ts_code_parse_list(TS_FAM_GOF, text, codes, max, err, sizeof err);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        cards[i] = codes[i].idx;
    return n;
}

static ts_gof_error classify(const char *text, ts_gof_combo *c)
{
    int cards[16];
    int n = parse(text, cards, 16);
    return ts_gof_classify(cards, n, c);
}

/* The combination of text; fails the test if it is none, or not of type want. */
static ts_gof_combo combo(const char *text, ts_gof_type want)
{
    ts_gof_combo c;
    assert_int_equal(classify(text, &c), TS_GOF_OK);
    assert_int_equal(c.type, want);
    return c;
}

static int beats(const char *play, ts_gof_type pt, const char *trick, ts_gof_type tt)
{
    ts_gof_combo p = combo(play, pt), t = combo(trick, tt);
    return ts_gof_beats(&p, &t);
}

static uint32_t rng_state = 777u;
static int rnd(int n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (int)((rng_state >> 8) % (uint32_t)n);
}

/* Deals k cards from a shuffled 64-card deck into out. */
static void deal(int *out, int k)
{
    int deck[64], n = 0; /* 30 number cards twice, 4 specials */
    for (int c = 0; c < 2 * TS_GOF_NUMBERS; c++)
        deck[n++] = c % TS_GOF_NUMBERS;
    for (int c = TS_GOF_M1; c < TS_GOF_NKINDS; c++)
        deck[n++] = c;
    for (int i = 0; i < k; i++) {
        int j = i + rnd(n - i);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        out[i] = deck[i];
    }
}

/* ---- Classification ----------------------------------------------------------------------- */

static void test_singles_pairs_threes(void **state)
{
    (void)state;
    for (int c = 0; c < 64; c++) {
        ts_gof_combo s;
        int card = c < TS_GOF_NUMBERS || c >= TS_GOF_M1;
        assert_int_equal(ts_gof_classify(&c, 1, &s), card ? TS_GOF_OK : TS_GOF_ERR_CARD);
        if (card)
            assert_int_equal(s.type, TS_GOF_SINGLE);
    }
    /* every colour pair and colour triple of one number */
    for (int v = 0; v < 10; v++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                int pair[2] = {a * 10 + v, b * 10 + v};
                ts_gof_combo c;
                assert_int_equal(ts_gof_classify(pair, 2, &c), TS_GOF_OK);
                assert_int_equal(c.type, TS_GOF_PAIR);
                for (int d = 0; d < 3; d++) {
                    int three[3] = {a * 10 + v, b * 10 + v, d * 10 + v};
                    ts_gof_error e = ts_gof_classify(three, 3, &c);
                    if (a == b && b == d)
                        assert_int_equal(e, TS_GOF_ERR_COPIES); /* two of each card */
                    else
                        assert_int_equal(c.type, TS_GOF_THREE);
                }
            }
    combo("M1 G1", TS_GOF_PAIR);
    combo("M1 Y1", TS_GOF_PAIR);
    combo("M1 R1", TS_GOF_PAIR);
    combo("GP YP", TS_GOF_PAIR); /* the phoenix pair */
    combo("M1 G1 R1", TS_GOF_THREE);
    combo("M1 Y1 Y1", TS_GOF_THREE);
}

static void test_straights(void **state)
{
    (void)state;
    static const char colours[] = "GYR";
    for (int base = 1; base <= 6; base++) {
        char mixed[32] = "", flush[32] = "";
        for (int k = 0; k < 5; k++) {
            char tok[8];
            snprintf(tok, sizeof tok, "%c%d ", colours[(base + k) % 3], base + k);
            strcat(mixed, tok);
            snprintf(tok, sizeof tok, "Y%d ", base + k);
            strcat(flush, tok);
        }
        combo(mixed, TS_GOF_STRAIGHT);
        combo(flush, TS_GOF_STRAIGHT_FLUSH);
    }
    combo("M1 G2 G3 G4 G5", TS_GOF_STRAIGHT_FLUSH); /* M1 takes any colour */
    combo("M1 R2 G3 G4 G5", TS_GOF_STRAIGHT);
    combo("R2 G3 Y4 R5 Y6", TS_GOF_STRAIGHT);       /* seed example */
    combo("R3 R4 R5 R6 R7", TS_GOF_STRAIGHT_FLUSH); /* seed example */
}

static void test_flushes_and_full_houses(void **state)
{
    (void)state;
    combo("M1 G3 G5 G7 G9", TS_GOF_FLUSH);
    combo("R2 R5 R7 R8 R9", TS_GOF_FLUSH); /* seed example */
    combo("G1 G1 G2 G2 G7", TS_GOF_FLUSH); /* duplicates allowed */
    ts_gof_combo fh = combo("G1 G1 G2 G2 Y2", TS_GOF_FULL_HOUSE);
    assert_int_equal(ts_gof_value(fh.cards[0]), 2); /* trio first */
    assert_int_equal(ts_gof_value(fh.cards[3]), 1);
    combo("G1 G1 Y1 G2 G2", TS_GOF_FULL_HOUSE);
    fh = combo("G1 G1 Y1 GP YP", TS_GOF_FULL_HOUSE); /* phoenix pair as the pair */
    assert_int_equal(ts_gof_value(fh.cards[0]), 1);
    assert_int_equal(fh.cards[3], TS_GOF_YP);
    combo("Y6 R6 G6 Y2 R2", TS_GOF_FULL_HOUSE); /* seed example 6 6 6 2 2 */
    combo("G1 G1 M1 G2 G2", TS_GOF_FULL_HOUSE); /* a flush too: the higher type wins */
}

static void test_gangs(void **state)
{
    (void)state;
    combo("Y7 Y7 R7 G7", TS_GOF_GANG);
    combo("Y7 Y7 R7 G7 G7", TS_GOF_GANG);
    combo("Y7 Y7 R7 R7 G7 G7", TS_GOF_GANG);
    ts_gof_combo seven = combo("G1 G1 Y1 Y1 R1 R1 M1", TS_GOF_GANG);
    assert_int_equal(seven.n, 7);
}

static void test_illegal_multisets(void **state)
{
    (void)state;
    ts_gof_combo c;
    assert_int_equal(classify("", &c), TS_GOF_ERR_EMPTY);
    assert_int_equal(classify("G1 G2 G3 G4 G5 G6 G7 G8", &c), TS_GOF_ERR_SIZE);
    assert_int_equal(classify("R7 R7 R7", &c), TS_GOF_ERR_COPIES);
    assert_int_equal(classify("RD RD", &c), TS_GOF_ERR_COPIES);
    assert_int_equal(classify("RD R10", &c), TS_GOF_ERR_DRAGON); /* pair with the dragon */
    assert_int_equal(classify("RD GP", &c), TS_GOF_ERR_DRAGON);
    assert_int_equal(classify("GP R10", &c), TS_GOF_ERR_PHOENIX);
    assert_int_equal(classify("G7 Y8", &c), TS_GOF_ERR_PAIR);
    assert_int_equal(classify("G7 Y7 R8", &c), TS_GOF_ERR_THREE);
    assert_int_equal(classify("G7 Y7 R7 R8", &c), TS_GOF_ERR_GANG);
    assert_int_equal(classify("G7 Y7 R7 R7 Y8", &c), TS_GOF_ERR_FIVE); /* 4 + 1 */
    assert_int_equal(classify("G7 Y7 R7 R8 Y9", &c), TS_GOF_ERR_FIVE); /* 3 + 1 + 1 */
    assert_int_equal(classify("G7 Y8 R9 G10 GP", &c),
                     TS_GOF_ERR_PHOENIX); /* phoenix in a straight */
    assert_int_equal(classify("G7 Y8 R9 G10 RD", &c), TS_GOF_ERR_DRAGON);
    assert_int_equal(classify("G9 Y10 R1 G2 Y3", &c), TS_GOF_ERR_WRAP); /* no wrap-around */
    combo("G8 G9 G10 M1 G2", TS_GOF_FLUSH); /* a wrap-around in one colour is just a flush */
}

/* ---- Comparison ------------------------------------------------------------------------------ */

static void test_single_order(void **state)
{
    (void)state;
    assert_false(beats("G1", TS_GOF_SINGLE, "G1", TS_GOF_SINGLE)); /* equal never beats */
    assert_true(beats("G2", TS_GOF_SINGLE, "G1", TS_GOF_SINGLE));
    assert_true(beats("Y1", TS_GOF_SINGLE, "G1", TS_GOF_SINGLE));
    assert_true(beats("R1", TS_GOF_SINGLE, "Y1", TS_GOF_SINGLE));
    assert_true(beats("R2", TS_GOF_SINGLE, "Y1", TS_GOF_SINGLE));
    assert_true(beats("M1", TS_GOF_SINGLE, "R1", TS_GOF_SINGLE)); /* M1 highest 1 */
    assert_false(beats("M1", TS_GOF_SINGLE, "G2", TS_GOF_SINGLE));
    assert_true(beats("GP", TS_GOF_SINGLE, "R10", TS_GOF_SINGLE));
    assert_true(beats("YP", TS_GOF_SINGLE, "GP", TS_GOF_SINGLE));
    assert_true(beats("RD", TS_GOF_SINGLE, "YP", TS_GOF_SINGLE));
    /* only gangs beat the dragon */
    assert_true(beats("G2 Y2 R2 R2", TS_GOF_GANG, "RD", TS_GOF_SINGLE));
    assert_true(beats("G1 G1 Y1 Y1", TS_GOF_GANG, "G1", TS_GOF_SINGLE));
}

static void test_same_type_card_by_card(void **state)
{
    (void)state;
    assert_true(beats("R7 Y7", TS_GOF_PAIR, "R7 G7", TS_GOF_PAIR));  /* second card decides */
    assert_false(beats("Y7 Y7", TS_GOF_PAIR, "Y7 Y7", TS_GOF_PAIR)); /* identical */
    assert_true(beats("G8 G8", TS_GOF_PAIR, "R7 R7", TS_GOF_PAIR));
    assert_true(beats("GP YP", TS_GOF_PAIR, "R10 R10", TS_GOF_PAIR)); /* highest pair */
    assert_true(beats("M1 G1", TS_GOF_PAIR, "R1 R1", TS_GOF_PAIR));
    assert_true(beats("G2 Y3 G4 G5 G6", TS_GOF_STRAIGHT, "R1 R2 R3 R4 Y5", TS_GOF_STRAIGHT));
    assert_true(beats("G2 Y3 G4 G5 Y6", TS_GOF_STRAIGHT, "G2 Y3 G4 G5 G6", TS_GOF_STRAIGHT));
    assert_true(beats("G3 G4 G5 G9 G10", TS_GOF_FLUSH, "R2 R5 R7 R8 R9", TS_GOF_FLUSH));
    /* full house: the trio first, then the pair */
    assert_true(beats("G4 Y4 R4 G2 Y2", TS_GOF_FULL_HOUSE, "G3 Y3 R3 R10 R10", TS_GOF_FULL_HOUSE));
    assert_true(beats("G3 Y3 R3 GP YP", TS_GOF_FULL_HOUSE, "G3 Y3 R3 R10 R10", TS_GOF_FULL_HOUSE));
}

static void test_five_card_hierarchy(void **state)
{
    (void)state;
    /* straight < flush < full house < straight flush, whatever the numbers */
    assert_true(beats("G1 G2 G3 G5 G7", TS_GOF_FLUSH, "G6 Y7 R8 G9 Y10", TS_GOF_STRAIGHT));
    assert_true(beats("G2 Y2 R2 G1 Y1", TS_GOF_FULL_HOUSE, "R5 R7 R8 R9 R10", TS_GOF_FLUSH));
    assert_true(
        beats("G1 G2 G3 G4 G5", TS_GOF_STRAIGHT_FLUSH, "R10 Y10 G10 GP YP", TS_GOF_FULL_HOUSE));
    assert_false(beats("G6 Y7 R8 G9 Y10", TS_GOF_STRAIGHT, "G1 G2 G3 G5 G7", TS_GOF_FLUSH));
}

static void test_gang_order(void **state)
{
    (void)state;
    assert_true(beats("Y10 Y10 R10 R10", TS_GOF_GANG, "G1 G1 Y1 Y1", TS_GOF_GANG));
    assert_true(beats("G9 G9 Y9 Y9 R9", TS_GOF_GANG, "G10 Y10 Y10 R10", TS_GOF_GANG));
    assert_true(beats("G2 G2 Y2 Y2 R2 R2", TS_GOF_GANG, "G9 G9 Y9 Y9 R9", TS_GOF_GANG));
    assert_true(beats("G1 G1 Y1 Y1 R1 R1 M1", TS_GOF_GANG, "G2 G2 Y2 Y2 R2 R2", TS_GOF_GANG));
    assert_true(beats("G2 Y2 R2 R2", TS_GOF_GANG, "G1 G2 G3 G4 G5", TS_GOF_STRAIGHT_FLUSH));
    assert_false(beats("G1 G2 G3 G4 G5", TS_GOF_STRAIGHT_FLUSH, "G2 Y2 R2 R2", TS_GOF_GANG));
}

static void test_not_comparable(void **state)
{
    (void)state;
    ts_gof_combo single = combo("R9", TS_GOF_SINGLE), pair = combo("G2 Y2", TS_GOF_PAIR);
    assert_false(ts_gof_comparable(&single, &pair));
    assert_false(ts_gof_beats(&pair, &single));
    assert_false(ts_gof_beats(&single, &pair));
}

/* Random legal combinations for the order properties. */
static int random_combos(ts_gof_combo *out, int max)
{
    int n = 0;
    static ts_gof_combo plays[8192];
    while (n < max) {
        int hand[16];
        deal(hand, 16);
        int k = ts_gof_legal_plays(hand, 16, NULL, 0, plays, 8192);
        if (k > 8192)
            k = 8192;
        for (int i = 0; i < 6 && n < max; i++)
            out[n++] = plays[rnd(k)];
    }
    return n;
}

static void test_order_is_strict_within_types(void **state)
{
    (void)state;
    static ts_gof_combo c[600];
    int n = random_combos(c, 600);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (!ts_gof_comparable(&c[i], &c[j]))
                continue;
            int ij = ts_gof_compare(&c[i], &c[j]);
            assert_int_equal(ij, -ts_gof_compare(&c[j], &c[i])); /* antisymmetric */
            /* equal only for the same cards */
            int same = c[i].n == c[j].n && memcmp(c[i].cards, c[j].cards, (size_t)c[i].n) == 0;
            assert_int_equal(ij == 0, same);
        }
    /* transitive over sampled triples */
    for (int t = 0; t < 200000; t++) {
        ts_gof_combo *a = &c[rnd(n)], *b = &c[rnd(n)], *d = &c[rnd(n)];
        if (!ts_gof_comparable(a, b) || !ts_gof_comparable(b, d) || !ts_gof_comparable(a, d))
            continue;
        if (ts_gof_compare(a, b) > 0 && ts_gof_compare(b, d) > 0)
            assert_true(ts_gof_compare(a, d) > 0);
    }
}

/* ---- Legal plays ------------------------------------------------------------------------------
 */

static void test_lead_lists_everything_once(void **state)
{
    (void)state;
    int hand[8];
    int n = parse("R7 R7 Y7 G7 G8 G9 G10 G6", hand, 8);
    ts_gof_combo plays[256];
    int k = ts_gof_legal_plays(hand, n, NULL, 0, plays, 256);
    int singles = 0, gangs = 0, r7 = 0;
    for (int i = 0; i < k; i++) {
        singles += plays[i].type == TS_GOF_SINGLE;
        gangs += plays[i].type == TS_GOF_GANG;
        r7 += plays[i].type == TS_GOF_SINGLE && plays[i].cards[0] == 26;
    }
    assert_int_equal(singles, 7); /* R7 once although held twice */
    assert_int_equal(r7, 1);
    assert_int_equal(gangs, 1);
    assert_int_equal(plays[0].type, TS_GOF_GANG); /* best first */
    for (int i = 1; i < k; i++)
        assert_true(plays[i - 1].type == TS_GOF_GANG || plays[i - 1].n >= plays[i].n);
}

static void test_follow_same_size_or_gang(void **state)
{
    (void)state;
    int hand[9];
    int n = parse("G3 Y5 R5 G9 G9 Y9 R9 RD GP", hand, 9);
    ts_gof_combo trick = combo("R5", TS_GOF_SINGLE), plays[64];
    int k = ts_gof_legal_plays(hand, n, &trick, 0, plays, 64);
    /* singles above R5: G9 Y9 R9 GP RD, and the gang of four 9s */
    assert_int_equal(k, 6);
    assert_int_equal(plays[0].type, TS_GOF_GANG);
    assert_int_equal(plays[1].cards[0], TS_GOF_RD);
    for (int i = 0; i < k; i++)
        assert_true(ts_gof_beats(&plays[i], &trick));
    /* a gang on the table: only bigger gangs */
    ts_gof_combo gang = combo("G4 Y4 R4 R4", TS_GOF_GANG);
    k = ts_gof_legal_plays(hand, n, &gang, 0, plays, 64);
    assert_int_equal(k, 1);
    ts_gof_combo big = combo("G10 G10 Y10 R10 R10", TS_GOF_GANG);
    assert_int_equal(ts_gof_legal_plays(hand, n, &big, 0, plays, 64), 0); /* pass */
}

static void test_first_lead_contains_m1(void **state)
{
    (void)state;
    int hand[6];
    int n = parse("M1 G1 G2 G3 G4 Y9", hand, 6);
    ts_gof_combo plays[128];
    int k = ts_gof_legal_plays(hand, n, NULL, 1, plays, 128);
    assert_int_equal(k, 3); /* M1; M1 G1; the flush M1 G1 G2 G3 G4 */
    for (int i = 0; i < k; i++)
        assert_true(ts_gof_has_m1(&plays[i]));
    assert_int_equal(ts_gof_legal_plays(hand + 1, n - 1, NULL, 1, plays, 128), 0);
}

/* Seed 001: the first lead is 1-5 cards holding M1; gangs of 6 and 7 may not open. */
static void test_first_lead_is_one_to_five_cards(void **state)
{
    (void)state;
    int hand[8];
    int n = parse("M1 G1 G1 Y1 Y1 R1 R1 Y9", hand, 8);
    static ts_gof_combo plays[512];
    int k = ts_gof_legal_plays(hand, n, NULL, 1, plays, 512);
    int gang4 = 0, gang5 = 0;
    for (int i = 0; i < k; i++) {
        assert_true(ts_gof_has_m1(&plays[i]));
        assert_true(plays[i].n <= 5);
        gang4 |= plays[i].type == TS_GOF_GANG && plays[i].n == 4;
        gang5 |= plays[i].type == TS_GOF_GANG && plays[i].n == 5;
    }
    assert_true(gang4 && gang5);
    ts_gof_combo seven = combo("M1 G1 G1 Y1 Y1 R1 R1", TS_GOF_GANG);
    ts_gof_combo six = combo("M1 G1 G1 Y1 Y1 R1", TS_GOF_GANG);
    ts_gof_combo five = combo("M1 G1 G1 Y1 Y1", TS_GOF_GANG);
    assert_false(ts_gof_may_open(&seven));
    assert_false(ts_gof_may_open(&six));
    assert_true(ts_gof_may_open(&five));
    assert_non_null(ts_gof_refusal(&seven, NULL, 1));
    assert_null(ts_gof_refusal(&seven, NULL, 0)); /* any later lead */
}

/* The refusal says why: lower is not "equal". */
static void test_refusal_reasons(void **state)
{
    (void)state;
    ts_gof_combo y5 = combo("Y5", TS_GOF_SINGLE), r5 = combo("R5", TS_GOF_SINGLE);
    ts_gof_combo g5 = combo("G5", TS_GOF_SINGLE), pair = combo("G7 Y7", TS_GOF_PAIR);
    ts_gof_combo r5b = combo("R5", TS_GOF_SINGLE);
    assert_string_equal(ts_gof_refusal(&y5, &r5, 0), "it is lower than the trick");
    assert_string_equal(ts_gof_refusal(&r5b, &r5, 0),
                        "it only equals the trick (equal is not enough)");
    assert_null(ts_gof_refusal(&r5, &g5, 0));
    assert_string_equal(ts_gof_refusal(&pair, &r5, 0),
                        "it must have as many cards as the trick, or be a gang");
    ts_gof_combo straight = combo("G6 Y7 R8 G9 Y10", TS_GOF_STRAIGHT);
    ts_gof_combo flush = combo("G1 G3 G5 G7 G9", TS_GOF_FLUSH);
    assert_non_null(strstr(ts_gof_refusal(&straight, &flush, 0), "lower kind of five"));
    ts_gof_combo g4 = combo("G4 Y4 R4 R4", TS_GOF_GANG), g9 = combo("G9 Y9 R9 R9", TS_GOF_GANG);
    assert_non_null(strstr(ts_gof_refusal(&g4, &g9, 0), "lower number"));
    assert_string_equal(ts_gof_refusal(&pair, &g4, 0), "only a higher gang beats a gang");
}

static void test_random_plays_are_legal(void **state)
{
    (void)state;
    static ts_gof_combo plays[8192];
    for (int trial = 0; trial < 200; trial++) {
        int cards[32];
        deal(cards, 32);
        int *hand = cards, *other = cards + 16;
        ts_gof_combo trick;
        int k = ts_gof_legal_plays(other, 16, NULL, 0, plays, 8192);
        trick = plays[rnd(k < 8192 ? k : 8192)];
        k = ts_gof_legal_plays(hand, 16, &trick, 0, plays, 8192);
        for (int i = 0; i < k && i < 8192; i++) {
            int cs[7];
            ts_gof_combo again;
            for (int j = 0; j < plays[i].n; j++)
                cs[j] = plays[i].cards[j];
            assert_int_equal(ts_gof_classify(cs, plays[i].n, &again), TS_GOF_OK);
            assert_true(ts_gof_beats(&plays[i], &trick));
            if (i > 0) /* best first */
                assert_true(plays[i - 1].type == TS_GOF_GANG || plays[i].type != TS_GOF_GANG);
        }
    }
}

/* Every distinct legal combination by brute force over subsets of positions. */
static int brute_plays(const int *hand, int n, const ts_gof_combo *trick, ts_gof_combo *out,
                       int max)
{
    int count = 0;
    for (unsigned m = 1; m < (1u << n); m++) {
        int cards[16], k = 0;
        for (int i = 0; i < n; i++)
            if (m >> i & 1)
                cards[k++] = hand[i];
        ts_gof_combo c;
        if (k > TS_GOF_MAX_COMBO || ts_gof_classify(cards, k, &c) != TS_GOF_OK)
            continue;
        if (trick && !ts_gof_beats(&c, trick))
            continue;
        int dup = 0;
        for (int i = 0; i < count && !dup; i++)
            dup = out[i].n == c.n && memcmp(out[i].cards, c.cards, (size_t)c.n) == 0;
        if (!dup && count < max)
            out[count++] = c;
    }
    return count;
}

static void test_legal_plays_match_brute_force(void **state)
{
    (void)state;
    static ts_gof_combo brute[4096], fast[4096];
    for (int trial = 0; trial < 40; trial++) {
        int cards[24];
        deal(cards, 24);
        ts_gof_combo trick, *t = NULL;
        if (trial % 2) {
            int k = ts_gof_legal_plays(cards + 12, 12, NULL, 0, fast, 4096);
            trick = fast[rnd(k)];
            t = &trick;
        }
        int want = brute_plays(cards, 12, t, brute, 4096);
        assert_int_equal(ts_gof_legal_plays(cards, 12, t, 0, fast, 4096), want);
    }
}

static void test_bounded_list_keeps_the_best(void **state)
{
    (void)state;
    int hand[16];
    deal(hand, 16);
    static ts_gof_combo all[8192], top[5];
    int n = ts_gof_legal_plays(hand, 16, NULL, 0, all, 8192);
    assert_int_equal(ts_gof_legal_plays(hand, 16, NULL, 0, top, 5), n);
    for (int i = 0; i < 5 && i < n; i++)
        assert_memory_equal(&top[i], &all[i], sizeof top[i]);
}

/* ---- Scoring and exchange
 * ------------------------------------------------------------------------- */

static void test_penalty_multipliers(void **state)
{
    (void)state;
    static const int left[] = {0, 1, 7, 8, 9, 10, 11, 13, 14, 15, 16};
    static const int score[] = {0, 1, 7, 16, 18, 20, 33, 39, 56, 60, 80};
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++)
        assert_int_equal(ts_gof_hand_penalty(left[i]), score[i]);
}

static void test_game_end_lowest_wins(void **state)
{
    (void)state;
    int going[4] = {10, 20, 30, 99}, over[4] = {50, 100, 30, 70};
    assert_int_equal(ts_gof_game_winner(going, 4), -1);
    assert_int_equal(ts_gof_game_winner(over, 4), 2);
}

static void test_exchange(void **state)
{
    (void)state;
    int hand[5];
    int n = parse("R10 GP G3 YP Y10", hand, 5);
    assert_int_equal(ts_gof_best_card(hand, n), 3); /* yellow phoenix */
    n = parse("R10 G3 RD YP", hand, 4);
    assert_int_equal(ts_gof_best_card(hand, n), 2); /* dragon */
    n = parse("Y10 G3 R10 R9", hand, 4);
    assert_int_equal(ts_gof_best_card(hand, n), 2);

    int penalty[4] = {0, 20, 33, 12}, totals[4] = {40, 60, 10, 0};
    assert_int_equal(ts_gof_exchange_giver(penalty, totals, 4, 0), 2); /* most penalty */
    int tied[4] = {0, 33, 33, 12};
    assert_int_equal(ts_gof_exchange_giver(tied, totals, 4, 0), 1); /* higher total */
    int same_total[4] = {40, 60, 60, 0};
    /* still tied: the seat nearest the winner counter-clockwise */
    assert_int_equal(ts_gof_exchange_giver(tied, same_total, 4, 0), 1);
    assert_int_equal(ts_gof_exchange_giver(tied, same_total, 4, 3), 1);
    int tied2[4] = {33, 0, 12, 33};
    int totals2[4] = {5, 0, 5, 5};
    assert_int_equal(ts_gof_exchange_giver(tied2, totals2, 4, 1), 3); /* 1 -> 2 -> 3 first */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_singles_pairs_threes),
        cmocka_unit_test(test_straights),
        cmocka_unit_test(test_flushes_and_full_houses),
        cmocka_unit_test(test_gangs),
        cmocka_unit_test(test_illegal_multisets),
        cmocka_unit_test(test_single_order),
        cmocka_unit_test(test_same_type_card_by_card),
        cmocka_unit_test(test_five_card_hierarchy),
        cmocka_unit_test(test_gang_order),
        cmocka_unit_test(test_not_comparable),
        cmocka_unit_test(test_order_is_strict_within_types),
        cmocka_unit_test(test_lead_lists_everything_once),
        cmocka_unit_test(test_follow_same_size_or_gang),
        cmocka_unit_test(test_first_lead_contains_m1),
        cmocka_unit_test(test_first_lead_is_one_to_five_cards),
        cmocka_unit_test(test_refusal_reasons),
        cmocka_unit_test(test_random_plays_are_legal),
        cmocka_unit_test(test_legal_plays_match_brute_force),
        cmocka_unit_test(test_bounded_list_keeps_the_best),
        cmocka_unit_test(test_penalty_multipliers),
        cmocka_unit_test(test_game_end_lowest_wins),
        cmocka_unit_test(test_exchange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
