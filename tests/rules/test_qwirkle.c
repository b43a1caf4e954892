/* Qwirkle Cards rules (rules/qwirkle.h) against seed 002 and DECISIONS.md,
 * with the partition search checked against a brute-force oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"
#include "qwirkle.h"

/* ---- Helpers ----------------------------------------------------------------------------- */

static ts_qw_table table_of(const char *text)
{
    ts_qw_table t;
    char err[128];
    assert_true(ts_qw_parse_table(text, &t, err, sizeof err) >= 0);
    return t;
}

static int card(const char *code)
{
    ts_code c;
    assert_int_equal(ts_code_parse(TS_FAM_QWIRKLE, code, strlen(code), &c), 0);
    return c.idx;
}

static int hand_of(const char *text, int *hand)
{
    ts_code codes[TS_QW_HAND_MAX];
    char err[80];
    int n = ts_code_parse_list(TS_FAM_QWIRKLE, text, codes, TS_QW_HAND_MAX, err, sizeof err);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        hand[i] = codes[i].idx;
    return n;
}

static void count_cards(const ts_qw_table *t, int counts[TS_QW_NKINDS])
{
    memset(counts, 0, TS_QW_NKINDS * sizeof counts[0]);
    for (int g = 0; g < t->n; g++)
        for (int i = 0; i < t->g[g].n; i++)
            counts[t->g[g].cards[i]]++;
}

static int sixes(const ts_qw_table *t)
{
    int n = 0;
    for (int g = 0; g < t->n; g++)
        n += t->g[g].n == TS_QW_QWIRKLE;
    return n;
}

/* A play is sound: hand cards taken from the hand, the table after it holds
 * exactly the table cards plus those, and every group is valid. */
static void check_play(const ts_qw_table *t, const int *hand, int nhand, const ts_qw_play *p)
{
    int before[TS_QW_NKINDS], after[TS_QW_NKINDS], held[TS_QW_NKINDS] = {0}, bad;
    assert_true(p->nplayed >= 1);
    assert_int_equal(ts_qw_check_table(&p->after, &bad), TS_QW_OK);
    count_cards(t, before);
    count_cards(&p->after, after);
    for (int i = 0; i < nhand; i++)
        held[hand[i]]++;
    for (int i = 0; i < p->nplayed; i++) {
        before[p->played[i]]++;
        assert_true(held[p->played[i]]-- > 0);
    }
    assert_memory_equal(before, after, sizeof before);
    int q = sixes(&p->after) - sixes(t);
    assert_int_equal(p->qwirkles, q > 0 ? q : 0);
}

/* The first play laying exactly these cards (any order), or NULL. */
static const ts_qw_play *find_play(const ts_qw_play *plays, int n, const char *cards)
{
    int want[TS_QW_HAND_MAX], k = hand_of(cards, want);
    for (int p = 0; p < n; p++) {
        if (plays[p].nplayed != k)
            continue;
        int used[TS_QW_HAND_MAX] = {0}, all = 1;
        for (int i = 0; i < k && all; i++) {
            int hit = 0;
            for (int j = 0; j < k && !hit; j++)
                if (!used[j] && plays[p].played[j] == want[i])
                    used[j] = hit = 1;
            all = hit;
        }
        if (all)
            return &plays[p];
    }
    return NULL;
}

static uint32_t rng_state = 4242u;
static int rnd(int n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (int)((rng_state >> 8) % (uint32_t)n);
}

/* A random valid table of about `cards` cards and a random hand of nhand from
 * what is left of the deck (3 copies each). */
static void random_game(int cards, ts_qw_table *t, int *hand, int nhand)
{
    int deck[TS_QW_NKINDS];
    for (int k = 0; k < TS_QW_NKINDS; k++)
        deck[k] = TS_QW_COPIES;
    t->n = 0;
    int total = 0;
    for (int tries = 0; total < cards && tries < 1000; tries++) {
        int line = rnd(12), size = 3 + rnd(3), order[6];
        if (cards - total < size)
            size = cards - total < 3 ? 3 : cards - total;
        for (int j = 0; j < 6; j++)
            order[j] = j;
        for (int j = 5; j > 0; j--) {
            int r = rnd(j + 1), x = order[j];
            order[j] = order[r];
            order[r] = x;
        }
        ts_qw_group g = {0, {0}};
        for (int j = 0; j < size; j++) {
            int k = line < 6 ? line * 6 + order[j] : order[j] * 6 + line - 6;
            if (!deck[k])
                break;
            g.cards[g.n++] = (uint8_t)k;
        }
        if (g.n != size)
            continue;
        for (int j = 0; j < g.n; j++)
            deck[g.cards[j]]--;
        t->g[t->n++] = g;
        total += g.n;
    }
    for (int i = 0; i < nhand;) {
        int k = rnd(TS_QW_NKINDS);
        if (deck[k]) {
            deck[k]--;
            hand[i++] = k;
        }
    }
}

/* ---- Brute-force oracle -------------------------------------------------------------------------
 * Independent of the line theory in qwirkle.c: partition a multiset into groups
 * by taking the lowest card and trying every valid group that holds it. */

static int line_of(int line, int j)
{
    return line < 6 ? line * 6 + j : j * 6 + line - 6;
}

static int can_partition(int counts[TS_QW_NKINDS], int left)
{
    if (left == 0)
        return 1;
    int k = 0;
    while (counts[k] == 0)
        k++;
    int lines[2] = {k / 6, 6 + k % 6};
    for (int l = 0; l < 2; l++) {
        int others[5], n = 0;
        for (int j = 0; j < 6; j++) {
            int c = line_of(lines[l], j);
            if (c != k && counts[c] > 0)
                others[n++] = c;
        }
        for (unsigned m = 0; m < (1u << n); m++) {
            int size = 1;
            for (int i = 0; i < n; i++)
                size += m >> i & 1;
            if (size < 3)
                continue;
            counts[k]--;
            for (int i = 0; i < n; i++)
                counts[others[i]] -= m >> i & 1;
            int ok = can_partition(counts, left - size);
            counts[k]++;
            for (int i = 0; i < n; i++)
                counts[others[i]] += m >> i & 1;
            if (ok)
                return 1;
        }
    }
    return 0;
}

/* Most hand cards layable (each subset of hand positions; must >= 0: that card
 * among them); -1 if none works. */
static int brute_best(const ts_qw_table *t, const int *hand, int nhand, int must)
{
    int best = -1;
    for (unsigned m = 0; m < (1u << nhand); m++) {
        int counts[TS_QW_NKINDS], n = 0, total = 0, has_must = must < 0;
        count_cards(t, counts);
        for (int k = 0; k < TS_QW_NKINDS; k++)
            total += counts[k];
        for (int i = 0; i < nhand; i++)
            if (m >> i & 1) {
                counts[hand[i]]++;
                n++;
                has_must |= hand[i] == must;
            }
        if (has_must && n > best && can_partition(counts, total + n))
            best = n;
    }
    return best;
}

/* ---- Groups and tables --------------------------------------------------------------------------
 */

static void test_check_group(void **state)
{
    (void)state;
    static const struct {
        const char *cards;
        ts_qw_error want;
    } cases[] = {
        {"RC RX RD", TS_QW_OK},
        {"RC OC YC GC BC", TS_QW_OK},
        {"RC RX RD RS RT RL", TS_QW_OK}, /* a Qwirkle, still a valid group */
        {"RC RX", TS_QW_ERR_SMALL},
        {"RC", TS_QW_ERR_SMALL},
        {"RC RX RD RS RT RL RC", TS_QW_ERR_LARGE},
        {"RC RC RX", TS_QW_ERR_DUPLICATE}, /* two red circles */
        {"RC RX OX", TS_QW_ERR_MIXED},
        {"RC OX", TS_QW_ERR_MIXED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_qw_table t = table_of(cases[i].cards);
        assert_int_equal(ts_qw_check_group(&t.g[0]), cases[i].want);
        assert_non_null(ts_qw_error_text(cases[i].want));
    }
    ts_qw_group bad = {3, {0, 1, 40}};
    assert_int_equal(ts_qw_check_group(&bad), TS_QW_ERR_CARD);
}

static void test_group_line(void **state)
{
    (void)state;
    ts_qw_table t = table_of("BC BX BD; RL GL PL; YT; RC RX OX");
    assert_int_equal(ts_qw_group_line(&t.g[0]), 4);     /* blue */
    assert_int_equal(ts_qw_group_line(&t.g[1]), 6 + 5); /* clovers */
    assert_int_equal(ts_qw_group_line(&t.g[2]), 2);     /* a single card: its colour */
    assert_int_equal(ts_qw_group_line(&t.g[3]), -1);
    assert_string_equal(ts_qw_line_name(4), "blue");
    assert_string_equal(ts_qw_line_name(11), "clovers");
    int bad = -1;
    assert_int_equal(ts_qw_check_table(&t, &bad), TS_QW_ERR_SMALL);
    assert_int_equal(bad, 2);
}

static void test_parse_table(void **state)
{
    (void)state;
    ts_qw_table t;
    char err[128];
    assert_int_equal(ts_qw_parse_table("RC RX RD;BC,BX,BD ; ;", &t, err, sizeof err), 2);
    assert_int_equal(t.g[1].n, 3);
    assert_int_equal(t.g[1].cards[2], card("BD"));
    assert_int_equal(ts_qw_parse_table("", &t, err, sizeof err), 0);
    assert_int_equal(ts_qw_parse_table("RC RX RD; BC QQ BD", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "group 2"));
    assert_non_null(strstr(err, "'QQ'"));
    assert_int_equal(
        ts_qw_parse_table("RC RC RC RC RC RC RC RC RC RC RC RC RC", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many"));
}

static void test_too_many_copies(void **state)
{
    (void)state;
    ts_qw_table t = table_of("RC RX RD; RC OC YC; RC GC BC");
    int hand[2] = {card("RC"), card("PL")}, which = -1;
    assert_false(ts_qw_too_many_copies(&t, hand + 1, 1, &which));
    assert_true(ts_qw_too_many_copies(&t, hand, 2, &which));
    assert_int_equal(which, card("RC"));
}

/* ---- Plays (seed 002 examples)
 * ------------------------------------------------------------------- */

static ts_qw_play plays[512];

static void test_new_group_and_extension(void **state)
{
    (void)state;
    /* Chris plays three diamonds as a new group and a blue star to the blue group. */
    ts_qw_table t = table_of("BC BX BD; RC OC YC");
    int hand[5], nh = hand_of("RD GD YD BT PL", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    const ts_qw_play *diamonds = find_play(plays, n, "RD GD YD");
    assert_non_null(diamonds);
    assert_int_equal(diamonds->kind, TS_QW_NEW_GROUP);
    assert_int_equal(diamonds->line, 6 + 2);
    const ts_qw_play *star = find_play(plays, n, "BT");
    assert_non_null(star);
    assert_int_equal(star->kind, TS_QW_EXTEND);
    assert_int_equal(star->group, 0);
    for (int i = 0; i < n; i++)
        check_play(&t, hand, nh, &plays[i]);
    /* the purple clover has no play at all */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < plays[i].nplayed; j++)
            assert_int_not_equal(plays[i].played[j], card("PL"));
}

static void test_qwirkle_by_extension(void **state)
{
    (void)state;
    /* George lays three diamonds into the diamond group and completes a Qwirkle. */
    ts_qw_table t = table_of("RD OD BD");
    int hand[4], nh = hand_of("YD GD PD RS", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    assert_true(n > 0);
    assert_int_equal(plays[0].qwirkles, 1); /* best first */
    assert_int_equal(plays[0].kind, TS_QW_EXTEND);
    assert_int_equal(plays[0].nplayed, 3);
    assert_int_equal(plays[0].after.g[0].n, 6);
    check_play(&t, hand, nh, &plays[0]);
}

/* Issue 11: RT to the starbursts with YT to yellow completes two Qwirkles at
 * once; that play must be listed, first. */
static void test_two_qwirkles_in_one_turn(void **state)
{
    (void)state;
    ts_qw_table t = table_of("BT OT YT PT GT;YD YS YC YX YL");
    int hand[2], nh = hand_of("YT RT", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    assert_true(n >= 3);
    assert_int_equal(plays[0].qwirkles, 2);
    assert_int_equal(plays[0].nplayed, 2);
    assert_int_equal(sixes(&plays[0].after), 2);
    for (int i = 0; i < n; i++)
        check_play(&t, hand, nh, &plays[i]);
    assert_non_null(find_play(plays, n, "RT"));
    assert_non_null(find_play(plays, n, "YT"));
}

/* Issue 11: a card that can be laid alone only by rearranging is listed alone,
 * not only inside a larger play. */
static void test_card_alone_by_rearranging(void **state)
{
    (void)state;
    ts_qw_table t = table_of("RC RX RD RS; OC OX OD OS");
    int hand[2], nh = hand_of("YC BC", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    const ts_qw_play *yc = find_play(plays, n, "YC"), *bc = find_play(plays, n, "BC");
    assert_non_null(yc);
    assert_non_null(bc);
    assert_int_equal(yc->kind, TS_QW_REARRANGE);
    assert_non_null(find_play(plays, n, "YC BC"));
    for (int i = 0; i < n; i++)
        check_play(&t, hand, nh, &plays[i]);
}

static void test_seed_rearrangements(void **state)
{
    (void)state;
    /* Chris moves the blue square out of the blue group and lays two squares. */
    ts_qw_table t = table_of("BS BC BD BX");
    int hand[4], nh = hand_of("RS GS", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    const ts_qw_play *p = find_play(plays, n, "RS GS");
    assert_non_null(p);
    assert_true(p->kind == TS_QW_MOST_CARDS || p->kind == TS_QW_REARRANGE);
    check_play(&t, hand, nh, p);

    /* Sally: green square out of the squares, purple square in, two greens. */
    t = table_of("GS RS YS; PS PC PX PD");
    nh = hand_of("GC GX", hand);
    n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    p = find_play(plays, n, "GC GX");
    assert_non_null(p);
    check_play(&t, hand, nh, p);

    /* George: yellow clover out of the clovers, yellow criss-cross makes a
     * Qwirkle, a blue clover keeps the clovers at three. */
    t = table_of("YL RL GL; YC YD YS YT");
    nh = hand_of("YX BL", hand);
    n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    assert_true(n > 0);
    assert_int_equal(plays[0].qwirkles, 1);
    assert_int_equal(plays[0].nplayed, 2);
    check_play(&t, hand, nh, &plays[0]);
}

static void test_invalid_table_gets_rearrangements_only(void **state)
{
    (void)state;
    ts_qw_table t = table_of("RC RX; BD BS BT");
    int hand[2], nh = hand_of("RD OD", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        assert_true(plays[i].kind >= TS_QW_REARRANGE);
        check_play(&t, hand, nh, &plays[i]);
    }
    /* nothing from this hand can mend RC RX */
    nh = hand_of("PL", hand);
    assert_int_equal(ts_qw_plays(&t, hand, nh, NULL, plays, 512), 0);
}

static void test_one_line_per_turn_option(void **state)
{
    (void)state;
    ts_qw_table t = table_of("RC RX RD; BS GS YS");
    int hand[2], nh = hand_of("RT OS", hand);
    int n = ts_qw_plays(&t, hand, nh, NULL, plays, 512);
    assert_int_equal(plays[0].nplayed, 2); /* default: both in one turn */
    ts_qw_rules one_line = {1};
    n = ts_qw_plays(&t, hand, nh, &one_line, plays, 512);
    for (int i = 0; i < n; i++)
        assert_int_equal(plays[i].nplayed, 1); /* RT and OS share neither */
}

static void test_no_play(void **state)
{
    (void)state;
    ts_qw_table t = table_of("RC RX RD");
    int hand[2], nh = hand_of("BL PT", hand);
    assert_int_equal(ts_qw_plays(&t, hand, nh, NULL, plays, 512), 0);
}

/* ---- Properties
 * ------------------------------------------------------------------------------------ */

static void test_plays_leave_valid_tables(void **state)
{
    (void)state;
    for (int trial = 0; trial < 150; trial++) {
        ts_qw_table t;
        int hand[9];
        random_game(30, &t, hand, 9);
        int n = ts_qw_plays(&t, hand, 9, NULL, plays, 512);
        assert_true(n <= 512);
        for (int i = 0; i < n; i++) {
            check_play(&t, hand, 9, &plays[i]);
            if (i > 0)
                assert_true(plays[i - 1].qwirkles >= plays[i].qwirkles);
        }
    }
}

static void test_search_matches_brute_force(void **state)
{
    (void)state;
    for (int trial = 0; trial < 300; trial++) {
        ts_qw_table t, after;
        int hand[5];
        uint8_t played[TS_QW_HAND_MAX];
        random_game(3 + rnd(9), &t, hand, 5);
        if (trial % 3 == 0) { /* a scrambled table, often impossible to lay out */
            t.n = 1;
            t.g[0].n = 5;
            for (int i = 0; i < 5; i++)
                t.g[0].cards[i] = (uint8_t)rnd(TS_QW_NKINDS);
            int which;
            if (ts_qw_too_many_copies(&t, hand, 5, &which))
                continue; /* not a deck the oracle models */
        }
        int must = trial % 2 ? hand[rnd(5)] : -1;
        int got = ts_qw_best_layout(&t, hand, 5, must, 0, -1, &after, played);
        assert_int_equal(got, brute_best(&t, hand, 5, must));
        if (got >= 0) {
            int q = sixes(&after) - sixes(&t);
            ts_qw_play p = {TS_QW_MOST_CARDS, -1, -1, got, {0}, q > 0 ? q : 0, after};
            memcpy(p.played, played, sizeof p.played);
            if (got > 0)
                check_play(&t, hand, 5, &p);
        }
    }
}

static void test_qwirkle_search(void **state)
{
    (void)state;
    /* two red groups merge into a Qwirkle once one hand card joins elsewhere */
    ts_qw_table t = table_of("RC RX RD; RS RT RL; OC YC GC"), after;
    int hand[1] = {card("BC")};
    uint8_t played[TS_QW_HAND_MAX];
    assert_int_equal(ts_qw_best_layout(&t, hand, 1, -1, 1u << 0, -1, &after, played), 1);
    assert_int_equal(sixes(&after), 1);
    assert_int_equal(ts_qw_best_layout(&t, hand, 1, -1, 1u << 1, -1, &after, played), -1); /* no orange */
    int n = ts_qw_plays(&t, hand, 1, NULL, plays, 512);
    assert_true(n > 0);
    assert_int_equal(plays[0].qwirkles, 1);
    check_play(&t, hand, 1, &plays[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_group),
        cmocka_unit_test(test_group_line),
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_too_many_copies),
        cmocka_unit_test(test_new_group_and_extension),
        cmocka_unit_test(test_qwirkle_by_extension),
        cmocka_unit_test(test_seed_rearrangements),
        cmocka_unit_test(test_invalid_table_gets_rearrangements_only),
        cmocka_unit_test(test_one_line_per_turn_option),
        cmocka_unit_test(test_no_play),
        cmocka_unit_test(test_plays_leave_valid_tables),
        cmocka_unit_test(test_two_qwirkles_in_one_turn),
        cmocka_unit_test(test_card_alone_by_rearranging),
        cmocka_unit_test(test_search_matches_brute_force),
        cmocka_unit_test(test_qwirkle_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
