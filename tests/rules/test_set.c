/* SET rules: the Set test, completing card, finding, table flow, hints and the
 * connection-grid variant (rules/set.h), against docs/rules/set.md and
 * DECISIONS.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"
#include "set.h"

/* ---- Helpers ----------------------------------------------------------------------- */

static int card(const char *code)
{
    int idx = -1;
    assert_int_equal(ts_set_parse(NULL, code, strlen(code), &idx), 0);
    return idx;
}

/* Parses a space separated list of classic codes into cards[]; returns n. */
static int cards_of(const char *text, int *cards, int max)
{
    ts_code codes[81];
    char err[80];
    int n = ts_code_parse_list(TS_FAM_SET, text, codes, max, err, sizeof err);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        cards[i] = codes[i].idx;
    return n;
}

/* Card from the r/dailyprogrammer notation of set.md: shape D/O/S, colour
 * R/P/G, number 1-3, shading O(pen)/H(atched)/F(illed). */
static int dp_card(const char *s)
{
    const char *shapes = "DOS", *colours = "RGP", *shadings = "FHO"; /* solid striped open */
    int shape = (int)(strchr(shapes, s[0]) - shapes);
    int colour = (int)(strchr(colours, s[1]) - colours);
    int shading = (int)(strchr(shadings, s[3]) - shadings);
    return ts_set_make(s[2] - '1', colour, shape, shading);
}

/* Card from setwithfriends' four-digit notation (each digit one attribute). */
static int digits_card(const char *s)
{
    return ts_set_make(s[0] - '0', s[1] - '0', s[2] - '0', s[3] - '0');
}

static uint32_t rng_state = 12345u;
static int rnd(int n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (int)((rng_state >> 8) % (uint32_t)n);
}

/* k distinct random cards. */
static void random_cards(int *out, int k)
{
    int deck[81];
    for (int i = 0; i < 81; i++)
        deck[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + rnd(81 - i);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        out[i] = deck[i];
    }
}

/* ---- The Set test ----------------------------------------------------------------------- */

static void test_is_set_rule(void **state)
{
    (void)state;
    /* all same except shading all different (seed example 1.1) */
    assert_true(ts_set_is_set(card("1GDS"), card("1GDT"), card("1GDO")));
    /* everything different */
    assert_true(ts_set_is_set(card("1RDS"), card("2GOT"), card("3PSO")));
    /* two open, one solid: not a Set (seed example 2.1) */
    assert_false(ts_set_is_set(card("1RSO"), card("1GSO"), card("1PSS")));
    /* two leaf, one hexagon: not a Set (seed example 2.2) */
    assert_false(ts_set_is_set(card("2RDT"), card("2GOT"), card("2POT")));
    /* order does not matter */
    assert_true(ts_set_is_set(card("3PSO"), card("1RDS"), card("2GOT")));
}

static void test_identical_cards_are_no_set(void **state)
{
    (void)state;
    int a = card("2GST");
    assert_false(ts_set_is_set(a, a, a));
    assert_false(ts_set_is_set(a, a, card("2GSO")));
    assert_int_equal(ts_set_third(a, a), a); /* and is_set rejects it */
    assert_false(ts_set_is_set(-1, 0, 1));
    assert_false(ts_set_is_set(0, 1, 81));
}

static void test_every_pair_has_one_completing_card(void **state)
{
    (void)state;
    for (int a = 0; a < 81; a++)
        for (int b = 0; b < 81; b++) {
            if (a == b)
                continue;
            int completing = 0;
            for (int c = 0; c < 81; c++)
                completing += ts_set_is_set(a, b, c);
            assert_int_equal(completing, 1);
            assert_true(ts_set_is_set(a, b, ts_set_third(a, b)));
        }
}

static void test_setwithfriends_conjugate(void **state)
{
    (void)state;
    assert_int_equal(ts_set_third(digits_card("1201"), digits_card("1002")), digits_card("1100"));
}

/* ---- Finding Sets ------------------------------------------------------------------------- */

static void test_full_deck_holds_1080_sets(void **state)
{
    (void)state;
    static int sets[1080][3];
    int deck[81], per_card[81] = {0};
    for (int i = 0; i < 81; i++)
        deck[i] = i;
    assert_int_equal(ts_set_find_all(deck, 81, sets, 1080), 1080);
    for (int s = 0; s < 1080; s++) {
        assert_true(sets[s][0] < sets[s][1] && sets[s][1] < sets[s][2]);
        for (int k = 0; k < 3; k++)
            per_card[sets[s][k]]++;
    }
    for (int i = 0; i < 81; i++)
        assert_int_equal(per_card[i], 40); /* set.md: SETs containing a given card */
}

static void test_count_exceeding_max(void **state)
{
    (void)state;
    int deck[81], sets[5][3];
    for (int i = 0; i < 81; i++)
        deck[i] = i;
    assert_int_equal(ts_set_find_all(deck, 81, sets, 5), 1080);
    assert_int_equal(ts_set_find_all(deck, 81, NULL, 0), 1080);
    int first[3] = {sets[0][0], sets[0][1], sets[0][2]};
    assert_true(ts_set_is_set(deck[first[0]], deck[first[1]], deck[first[2]]));
}

static void test_plane_holds_12_sets(void **state)
{
    (void)state;
    int plane[9], n = 0, sets[20][3];
    for (int colour = 0; colour < 3; colour++) /* count and shading fixed */
        for (int shape = 0; shape < 3; shape++)
            plane[n++] = ts_set_make(1, colour, shape, 2);
    assert_int_equal(ts_set_find_all(plane, 9, sets, 20), 12);
}

static void check_board(const char *const board[12], const char *const expected[6][3])
{
    int cards[12], sets[20][3];
    for (int i = 0; i < 12; i++)
        cards[i] = dp_card(board[i]);
    assert_int_equal(ts_set_find_all(cards, 12, sets, 20), 6);
    for (int e = 0; e < 6; e++) {
        int want[3], found = 0;
        for (int k = 0; k < 3; k++)
            want[k] = dp_card(expected[e][k]);
        for (int s = 0; s < 6; s++) {
            int hits = 0;
            for (int k = 0; k < 3; k++)
                for (int m = 0; m < 3; m++)
                    hits += cards[sets[s][k]] == want[m];
            found |= hits == 3;
        }
        assert_true(found);
    }
}

static void test_oracle_board_a(void **state)
{
    (void)state;
    static const char *const board[12] = {"SP3F", "DP3O", "DR2F", "SP3H", "DG3O", "SR1H",
                                          "SG2O", "SP1F", "SP3O", "OR3O", "OR3H", "OR2H"};
    static const char *const sets[6][3] = {{"SP3F", "SR1H", "SG2O"}, {"SP3F", "DG3O", "OR3H"},
                                           {"SP3F", "SP3H", "SP3O"}, {"DR2F", "SR1H", "OR3O"},
                                           {"DG3O", "SP1F", "OR2H"}, {"DG3O", "SP3O", "OR3O"}};
    check_board(board, sets);
}

static void test_oracle_board_b(void **state)
{
    (void)state;
    static const char *const board[12] = {"DP2H", "DP1F", "SR2F", "SP1O", "OG3F", "SP3H",
                                          "OR2O", "SG3O", "DG2H", "DR2H", "DR1O", "DR3O"};
    static const char *const sets[6][3] = {{"DP1F", "SR2F", "OG3F"}, {"DP2H", "DG2H", "DR2H"},
                                           {"DP1F", "DG2H", "DR3O"}, {"SR2F", "OR2O", "DR2H"},
                                           {"SP1O", "OG3F", "DR2H"}, {"OG3F", "SP3H", "DR3O"}};
    check_board(board, sets);
}

static void test_setwithfriends_tables(void **state)
{
    (void)state;
    static const char *const none[8] = {"1121", "2222", "1010", "2021",
                                        "0201", "1021", "1022", "0112"};
    static const char *const one[8] = {"1111", "2222", "1010", "2021",
                                       "0201", "1021", "1022", "0112"};
    int a[8], b[8];
    for (int i = 0; i < 8; i++) {
        a[i] = digits_card(none[i]);
        b[i] = digits_card(one[i]);
    }
    assert_false(ts_set_exists(a, 8, NULL));
    int set[3];
    assert_true(ts_set_exists(b, 8, set));
    assert_true(ts_set_is_set(b[set[0]], b[set[1]], b[set[2]]));
}

static void test_20_cards_without_a_set(void **state)
{
    (void)state;
    /* A maximal cap (set.md: at most 20 cards without a Set), found by search. */
    static const char *const cap[20] = {"0002", "0012", "0100", "0111", "0200", "0211", "1002",
                                        "1022", "1101", "1120", "1201", "1220", "2000", "2001",
                                        "2011", "2020", "2112", "2122", "2212", "2222"};
    int cards[21], in_cap[81] = {0};
    for (int i = 0; i < 20; i++) {
        cards[i] = digits_card(cap[i]);
        in_cap[cards[i]] = 1;
    }
    assert_false(ts_set_exists(cards, 20, NULL));
    for (int extra = 0; extra < 81; extra++) {
        if (in_cap[extra])
            continue;
        cards[20] = extra; /* any 21st card makes a Set */
        assert_true(ts_set_exists(cards, 21, NULL));
    }
}

static void test_any_21_cards_contain_a_set(void **state)
{
    (void)state;
    for (int trial = 0; trial < 3000; trial++) {
        int cards[21];
        random_cards(cards, 21);
        assert_true(ts_set_exists(cards, 21, NULL));
    }
}

static void test_find_all_matches_brute_force(void **state)
{
    (void)state;
    for (int trial = 0; trial < 300; trial++) {
        int cards[15], sets[64][3];
        random_cards(cards, 15);
        int n = ts_set_find_all(cards, 15, sets, 64), expect = 0;
        for (int i = 0; i < 15; i++)
            for (int j = i + 1; j < 15; j++)
                for (int k = j + 1; k < 15; k++)
                    if (ts_set_is_set(cards[i], cards[j], cards[k])) {
                        assert_int_equal(sets[expect][0], i); /* lexicographic order */
                        assert_int_equal(sets[expect][1], j);
                        assert_int_equal(sets[expect][2], k);
                        expect++;
                    }
        assert_int_equal(n, expect);
    }
}

static void test_duplicates_each_position_counts(void **state)
{
    (void)state;
    int cards[4], sets[8][3], i = -1, j = -1;
    cards_of("1RDS 1RDS 2GOT 3PSO", cards, 4);
    assert_int_equal(ts_set_find_all(cards, 4, sets, 8), 2);
    assert_int_equal(sets[0][0], 0);
    assert_int_equal(sets[1][0], 1);
    assert_int_equal(sets[1][1], 2);
    assert_int_equal(sets[1][2], 3);
    assert_true(ts_set_has_duplicates(cards, 4, &i, &j));
    assert_int_equal(i, 0);
    assert_int_equal(j, 1);
    assert_false(ts_set_has_duplicates(cards + 1, 3, &i, &j));
}

/* ---- Table flow -------------------------------------------------------------------------- */

static void test_table_decision(void **state)
{
    (void)state;
    int with_set[3], no_set[16];
    cards_of("1RDS 2GOT 3PSO", with_set, 3);
    for (int m = 0; m < 16; m++)
        no_set[m] = ts_set_make(m & 1, m >> 1 & 1, m >> 2 & 1, m >> 3 & 1);
    assert_int_equal(ts_set_table_decision(with_set, 3, 69), TS_SET_TAKE_A_SET);
    assert_int_equal(ts_set_table_decision(no_set, 12, 69), TS_SET_DEAL_THREE);
    assert_int_equal(ts_set_table_decision(no_set, 12, 0), TS_SET_ROUND_OVER);
}

static void test_refill_back_to_twelve_only(void **state)
{
    (void)state;
    assert_int_equal(ts_set_refill(9, 60), 3);  /* 12 - a Set */
    assert_int_equal(ts_set_refill(12, 60), 0); /* 15 - a Set: no refill */
    assert_int_equal(ts_set_refill(15, 60), 0); /* 18 - a Set */
    assert_int_equal(ts_set_refill(9, 0), 0);   /* deck empty */
    assert_int_equal(ts_set_refill(6, 3), 3);   /* deck shorter than the gap */
}

static void test_solo_penalty(void **state)
{
    (void)state;
    int with_set[4], no_set[16];
    cards_of("1RDS 2GOT 3PSO 1RDO", with_set, 4);
    for (int m = 0; m < 16; m++)
        no_set[m] = ts_set_make(m & 1, m >> 1 & 1, m >> 2 & 1, m >> 3 & 1);
    assert_int_equal(ts_set_deal_request_penalty(with_set, 4), 1);
    assert_int_equal(ts_set_deal_request_penalty(no_set, 12), 0);
}

/* ---- Hints --------------------------------------------------------------------------------- */

static void test_hint_ladder(void **state)
{
    (void)state;
    int cards[5], out[3] = {-1, -1, -1}, full[3];
    cards_of("1RDO 1RDS 2GOT 2GOO 3PSO", cards, 5);
    assert_int_equal(ts_set_hint(cards, 5, 3, full), 3);
    assert_true(ts_set_is_set(cards[full[0]], cards[full[1]], cards[full[2]]));
    assert_int_equal(ts_set_hint(cards, 5, 1, out), 1);
    assert_int_equal(out[0], full[0]);
    assert_int_equal(out[1], -1);
    assert_int_equal(ts_set_hint(cards, 5, 2, out), 2);
    assert_int_equal(out[1], full[1]);
    assert_int_equal(ts_set_hint(cards, 5, 7, out), 3);
    assert_int_equal(ts_set_hint(cards, 5, 0, out), 0);
    assert_int_equal(ts_set_hint(cards, 2, 3, out), 0); /* no Set */
}

/* ---- Connection grid ---------------------------------------------------------------------- */

static void test_grid_one_card_completes_a_row(void **state)
{
    (void)state;
    ts_set_grid g;
    ts_set_grid_clear(&g, 5, 7);
    int a = card("1RDS"), b = card("2GOT");
    g.cell[2][2] = (signed char)a;
    g.cell[2][3] = (signed char)b;
    int hand[2] = {card("3PDS"), ts_set_third(a, b)};
    ts_set_grid_move moves[16];
    int n = ts_set_grid_moves(&g, hand, 2, NULL, moves, 16);
    /* the completing card goes at either end of the pair */
    assert_int_equal(n, 2);
    for (int m = 0; m < 2; m++) {
        assert_int_equal(moves[m].ncards, 1);
        assert_int_equal(moves[m].hand[0], 1);
        assert_int_equal(moves[m].score, 1);
        assert_int_equal(moves[m].row[0], 2);
    }
    assert_int_equal(moves[0].col[0], 1); /* ranked by cell */
    assert_int_equal(moves[1].col[0], 4);
    assert_int_equal(ts_set_grid_score(&g, &moves[1], hand), 1);
}

static void test_grid_three_sets_at_once_score_3(void **state)
{
    (void)state;
    /* x completes a row, a column and a diagonal at once (seed 圖三). */
    ts_set_grid g;
    ts_set_grid_clear(&g, 7, 7);
    int x = card("2GOT");
    int p[3] = {card("1RDS"), card("1GDO"), card("3PDT")}, dr[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    for (int l = 0; l < 3; l++) {
        g.cell[3 - dr[l][0]][3 - dr[l][1]] = (signed char)p[l];
        g.cell[3 + dr[l][0]][3 + dr[l][1]] = (signed char)ts_set_third(p[l], x);
    }
    ts_set_grid_move m = {1, {0, 0}, {3, 0}, {3, 0}, 0};
    assert_int_equal(ts_set_grid_score(&g, &m, &x), 3);
    ts_set_grid_move best[4];
    assert_true(ts_set_grid_moves(&g, &x, 1, NULL, best, 4) >= 1);
    assert_int_equal(best[0].score, 3);
    assert_int_equal(best[0].row[0], 3);
    assert_int_equal(best[0].col[0], 3);
}

static void test_grid_two_cards_with_one_table_card(void **state)
{
    (void)state;
    ts_set_grid g;
    ts_set_grid_clear(&g, 5, 5);
    int t = card("1RDS"), h1 = card("2GOT");
    g.cell[2][2] = (signed char)t;
    int hand[2] = {h1, ts_set_third(t, h1)};
    ts_set_grid_move moves[64];
    int n = ts_set_grid_moves(&g, hand, 2, NULL, moves, 64);
    assert_true(n > 0);
    for (int i = 0; i < n && i < 64; i++) {
        assert_int_equal(moves[i].ncards, 2);
        assert_int_equal(moves[i].score, 1);
        /* the two placed cards touch each other */
        int dr = moves[i].row[0] - moves[i].row[1], dc = moves[i].col[0] - moves[i].col[1];
        assert_true(dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1);
    }
    /* one card alone cannot complete a Set with a single table card */
    ts_set_grid_rules one = {1, 0};
    assert_int_equal(ts_set_grid_moves(&g, hand, 2, &one, moves, 64), 0);
}

static void test_grid_every_placed_card_must_score(void **state)
{
    (void)state;
    ts_set_grid g;
    ts_set_grid_clear(&g, 5, 8);
    int a = card("1RDS"), b = card("2GOT");
    g.cell[2][2] = (signed char)a;
    g.cell[2][3] = (signed char)b;
    int hand[2] = {ts_set_third(a, b), card("1RDO")};
    ts_set_grid_move moves[64];
    int n = ts_set_grid_moves(&g, hand, 2, NULL, moves, 64);
    for (int i = 0; i < n && i < 64; i++)
        assert_int_equal(moves[i].ncards, 1); /* the second card never joins a Set */
}

static void test_grid_start_and_no_move_means_draw(void **state)
{
    (void)state;
    /* Start: three cards forming a Set in a line (seed 000). A hand that
     * completes nothing has no move: the player draws a card. */
    ts_set_grid g;
    ts_set_grid_clear(&g, 5, 7);
    int start[3];
    cards_of("1RDS 2GOT 3PSO", start, 3);
    for (int c = 0; c < 3; c++)
        g.cell[2][2 + c] = (signed char)start[c];
    int hand[7];
    cards_of("1RDO 1RDT 1ROO 1ROT 1RSO 1RST 1GDO", hand, 7);
    ts_set_grid_move moves[8];
    for (int i = 0; i < 7; i++) /* no hand card completes a pair on the grid */
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++)
                if (ts_set_third(start[a], start[b]) == hand[i])
                    fail();
    int n = ts_set_grid_moves(&g, hand, 7, NULL, moves, 8);
    for (int i = 0; i < n && i < 8; i++)
        assert_int_equal(moves[i].ncards, 2); /* only two hand cards with one table card */
    ts_set_grid_rules one = {1, 0};
    assert_int_equal(ts_set_grid_moves(&g, hand, 7, &one, moves, 8), 0);
}

static void test_grid_pair_apart_is_an_option(void **state)
{
    (void)state;
    /* Two separate pairs far apart, each completed by one hand card. */
    ts_set_grid g;
    ts_set_grid_clear(&g, 3, 12);
    int a = card("1RDS"), b = card("2GOT"), c = card("1PSO"), d = card("2PST");
    g.cell[1][1] = (signed char)a;
    g.cell[1][2] = (signed char)b;
    g.cell[1][8] = (signed char)c;
    g.cell[1][9] = (signed char)d;
    int hand[2] = {ts_set_third(a, b), ts_set_third(c, d)};
    ts_set_grid_move moves[64];
    int n = ts_set_grid_moves(&g, hand, 2, NULL, moves, 64);
    assert_true(n > 0);
    assert_int_equal(moves[0].score, 1); /* touching pairs score no more than 1 here */
    ts_set_grid_rules apart = {2, 1};
    n = ts_set_grid_moves(&g, hand, 2, &apart, moves, 64);
    assert_true(n > 0);
    assert_int_equal(moves[0].ncards, 2);
    assert_int_equal(moves[0].score, 2);
}

static void test_grid_best_first_and_bounded(void **state)
{
    (void)state;
    ts_set_grid g;
    ts_set_grid_clear(&g, 9, 9);
    int cards[9];
    random_cards(cards, 9);
    for (int i = 0; i < 9; i++)
        g.cell[2 + i / 3 * 2][2 + i % 3 * 2] = (signed char)cards[i];
    int hand[7];
    random_cards(hand, 7);
    static ts_set_grid_move all[4096], top[3];
    int n = ts_set_grid_moves(&g, hand, 7, NULL, all, 4096);
    assert_true(n <= 4096);
    for (int i = 1; i < n; i++)
        assert_true(all[i - 1].score >= all[i].score);
    int m = ts_set_grid_moves(&g, hand, 7, NULL, top, 3);
    assert_int_equal(m, n);
    for (int i = 0; i < 3 && i < n; i++)
        assert_memory_equal(&top[i], &all[i], sizeof top[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_set_rule),
        cmocka_unit_test(test_identical_cards_are_no_set),
        cmocka_unit_test(test_every_pair_has_one_completing_card),
        cmocka_unit_test(test_setwithfriends_conjugate),
        cmocka_unit_test(test_full_deck_holds_1080_sets),
        cmocka_unit_test(test_count_exceeding_max),
        cmocka_unit_test(test_plane_holds_12_sets),
        cmocka_unit_test(test_oracle_board_a),
        cmocka_unit_test(test_oracle_board_b),
        cmocka_unit_test(test_setwithfriends_tables),
        cmocka_unit_test(test_20_cards_without_a_set),
        cmocka_unit_test(test_any_21_cards_contain_a_set),
        cmocka_unit_test(test_find_all_matches_brute_force),
        cmocka_unit_test(test_duplicates_each_position_counts),
        cmocka_unit_test(test_table_decision),
        cmocka_unit_test(test_refill_back_to_twelve_only),
        cmocka_unit_test(test_solo_penalty),
        cmocka_unit_test(test_hint_ladder),
        cmocka_unit_test(test_grid_one_card_completes_a_row),
        cmocka_unit_test(test_grid_three_sets_at_once_score_3),
        cmocka_unit_test(test_grid_two_cards_with_one_table_card),
        cmocka_unit_test(test_grid_every_placed_card_must_score),
        cmocka_unit_test(test_grid_start_and_no_move_means_draw),
        cmocka_unit_test(test_grid_pair_apart_is_an_option),
        cmocka_unit_test(test_grid_best_first_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
