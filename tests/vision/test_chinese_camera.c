/* Chinese domino cards (the domino reader, profile "chinese") on rendered
 * tables through the simulated camera's JPEG, as ts-render-eval reads them:
 *
 * - small cards under a camera's motion smear, read on their true corners:
 *   every pip of such a card is drawn out one way (ellipses near twice as
 *   long as wide), and a blurred red pip is paler red than a sharp one;
 * - cards on a plain cloth nearly as light as their paper (seed 124029),
 *   found and read: the rays over the paper run on a few px past the side
 *   the lamp lights, and the card was measured too wide;
 * - covered pile cards no candidate of the finder lies on, offered from one
 *   group of their pips seen whole (domino.c group_cards): a four's or six's
 *   rows and columns give the ways it may lie. Those rows were the pairs of
 *   pips nearer than 0.45 of the card's width as the table's view guesses
 *   it there; a four's sides lie 0.41 of a width apart, so where the guess
 *   was short the four gave no way and its card was never offered. The
 *   neighbours are now found by the group's own spacing, and such cards are
 *   offered after the cards beside the known (domino_find_beside), which
 *   read whole there;
 * - covered pile cards read from the part that shows but then lost by the
 *   pipeline, which takes the first of two quads either of whose middles
 *   lies in the other: a card read covered lying across a card read sure is
 *   cut to its end that shows too, a card read sure is moved before a quad
 *   read unsure that would take its place, and a card's covers need not be
 *   known cards (domino.c partly_under, sure_before_unsure, lying_on);
 * - touching blocks whose seams the camera barely shows: the cards beside a
 *   known card offered where it would lie moved by its own width or length
 *   (domino_cards.c moved_known);
 * - a card found from its one end that shows, the far way chosen by the
 *   pips on its own paper only (domino_cards.c card_of_pip).
 *
 * Measured figures and the start build's (main 102cd5a, 0aa88bb for the
 * pile places, c9a9ce4 for the touching blocks) are in each test's comment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chinese_tables.h"

enum { OWN_SPACING_MIN = 30, PILE_PLACES_MIN = 56, MOVED_KNOWN_MIN = 16, PILE_OUTLINES_MIN = 65 };

/* Every fully visible card of layout's tables first..first + count - 1
 * read on its true corners: right, or sure and wrong. */
static tally read_on_truth(ts_layout layout, uint64_t first, int count)
{
    const ts_reader_class *cls;
    void *r = chinese_reader(&cls);
    char err[TSCV_ERR_MAX];
    tally t = {0};
    for (uint64_t seed = first; seed < first + (uint64_t)count; seed++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_DOMINO, seed, layout, 1, &sc, err), 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f)
                continue;
            ts_image card = {0};
            assert_int_equal(
                tscv_warp_quad(&sc.img, sc.cards[i].quad, &card, cls->card_w, cls->card_h, err), 0);
            ts_reading rd;
            assert_int_equal(cls->read(r, &card, &rd, err), 0);
            ts_image_free(&card);
            t.full++;
            if (rd.is_card && rd.conf >= cls->conf_floor) {
                t.right += rd.code.idx == sc.cards[i].code.idx;
                t.wrong += rd.code.idx != sc.cards[i].code.idx;
            }
        }
        ts_scene_free(&sc);
    }
    cls->destroy(r);
    return t;
}

/* Small cards far from a moving camera (seed 125007: cards 28 px wide,
 * smeared about 4 px one way) and the rest of the tuning range's scatter
 * and grid tables, on their true corners. The pip tests judge a blob's
 * shape less the smear every solid pip-sized blob of the card shares; red
 * is red at a fifth of the ink's red over its R (a quarter before).
 * Measured 1005/1008, 0 wrong (main 102cd5a: 1001/1008, 0 wrong); 125007
 * alone 23/24 (main 19/24). */
static void test_chinese_smeared_cards_on_truth(void **state)
{
    (void)state;
    tally one = {0}, all = {0};
    static const ts_layout layouts[] = {TS_LAYOUT_SCATTER, TS_LAYOUT_GRID};
    for (int l = 0; l < 2; l++) {
        tally a = read_on_truth(layouts[l], 125007, 1);
        tally b = read_on_truth(layouts[l], 125000, 42);
        one.full += a.full;
        one.right += a.right;
        one.wrong += a.wrong;
        all.full += b.full;
        all.right += b.right;
        all.wrong += b.wrong;
    }
    printf("smeared cards on true corners: 125007 %d/%d (%d wrong), 125000-125041 scatter and "
           "grid %d/%d (%d wrong)\n",
           one.right, one.full, one.wrong, all.right, all.full, all.wrong);
    assert_int_equal(all.wrong, 0);
    assert_true(one.right >= 23);
    assert_true(all.right >= 1005);
}

/* A plain grey cloth nearly as light as the cards (seed 124029, its grid
 * and row): a second look at a pip finds a card whole whose ends are not
 * both straight (its lines along the card near the sides ran off it),
 * then moves its sides and ends to the edges that show in the frame; and
 * an end's line is straight when four of the five lines lie on the line
 * through two of them (one line far off pulled the pairs' median slope
 * off). Measured 19/24, 0 wrong (main 102cd5a: 12/24, 0 wrong). Its
 * scatter is still lost: there the cloth beside the cards is as light as
 * their paper, and only the two sides in the cards' shadow show. */
static void test_chinese_light_plain_cloth(void **state)
{
    (void)state;
    tally grid = {0}, row = {0};
    find_and_read(TS_LAYOUT_GRID, 124029, &grid);
    find_and_read(TS_LAYOUT_ROW, 124029, &row);
    printf("light plain cloth 124029: grid %d/%d, row %d/%d fully visible read, %d wrong\n",
           grid.right, grid.full, row.right, row.full, grid.wrong + row.wrong);
    assert_int_equal(grid.wrong + row.wrong, 0);
    assert_true(grid.right + row.right >= 19);
}

/* Tables of session 27's tuning seeds with a card offered only from a
 * four seen whole whose sides the table's view made too far apart: a
 * pile's 1:4 (123010, 0.93 visible) and a touching row's 4:5 (125028,
 * fully visible); and a touching row (124001, a check seed) where a card
 * offered so before the cards beside the known were looked for took the
 * place of one read whole, and the card beyond it (1:6) was never found:
 * cards from one group now come last. Measured 31/35 at least half
 * visible, 0 of 31 confident reads wrong (main 102cd5a: 29/35, 0 wrong;
 * the groups' spacing without the order: 30/35). */
static void test_chinese_groups_by_own_spacing_last(void **state)
{
    (void)state;
    tally t = {0};
    find_and_read(TS_LAYOUT_PILE, 123010, &t);
    find_and_read(TS_LAYOUT_TOUCHING, 125028, &t);
    find_and_read(TS_LAYOUT_TOUCHING, 124001, &t);
    print_tally("groups by their own spacing, last", &t);
    assert_int_equal(t.wrong, 0);
    assert_true(t.half_ok >= OWN_SPACING_MIN);
}

/* Piles of the tuning seeds where a covered card was read right in the
 * finder and then lost: 125006, 125007 and 125015 (a card read covered
 * lying across a top read sure: each quad's middle in the other), 125003
 * and 125037 (a quad of the same card read unsure first), 127005 and
 * 127040 (the cards lying on it not all known). Measured 57/76 at least
 * half visible, 0 of 57 confident reads wrong (main 0aa88bb: 48/76, 0
 * wrong). */
static void test_chinese_pile_places_kept(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {125003, 125006, 125007, 125015, 125037, 127005, 127040};
    tally t = {0};
    find_and_read_seeds(TS_LAYOUT_PILE, seeds, sizeof seeds / sizeof seeds[0], &t);
    print_tally("pile places kept", &t);
    assert_int_equal(t.wrong, 0);
    assert_true(t.half_ok >= PILE_PLACES_MIN);
}

/* Touching blocks of the tuning seeds whose seams the camera barely shows
 * (127030: large cards on a brown cloth, a shadow across them; 129025: a
 * warm lamp, blur 1.3 px): every pip's rays ran on over the block, and the
 * cards beside the few found whole were never found. They lie where a
 * known card moved by its own width or length would (domino_cards.c
 * moved_known). Measured 16/17 fully visible, 0 of the confident reads
 * wrong (main c9a9ce4: 10/17, 0 wrong). */
static void test_chinese_touching_blocks_moved_known(void **state)
{
    (void)state;
    tally t = {0};
    find_and_read(TS_LAYOUT_TOUCHING, 127030, &t);
    find_and_read(TS_LAYOUT_TOUCHING, 129025, &t);
    print_tally("touching blocks, known cards moved", &t);
    assert_int_equal(t.wrong, 0);
    assert_true(t.right >= MOVED_KNOWN_MIN);
}

/* A scatter card of the tuning seeds (129026's 5:6) whose only pip the
 * finder took is its five's clover: its card was looked for from its one
 * end that shows as an edge, the far way chosen where other pips lie, and
 * the pips of the next card past the table beyond that end turned it the
 * wrong way. Pips past where the paper ends (rules crossed) are no longer
 * counted (domino_cards.c card_of_pip). Measured 12/12 fully visible, 0
 * wrong (main c9a9ce4: 11/12). */
static void test_chinese_far_pips_on_own_paper(void **state)
{
    (void)state;
    tally t = {0};
    find_and_read(TS_LAYOUT_SCATTER, 129026, &t);
    print_tally("far pips on the card's own paper", &t);
    assert_int_equal(t.wrong, 0);
    assert_int_equal(t.right, t.full);
}

/* Piles of session 29's tuning seeds with a card lost: 129002 and 127016
 * (a stray candidate across cards and table counted as lying on a covered
 * card: its pips hidden, no count fitted alone), 129017 (a two's pips
 * grouped with a neighbour's: no two's diagonal), 129037, 127037 and
 * 127015 (an end of a one or a five, whose pips give no way: the card's
 * outline about it does), 125016 and 125023 (a top no ray found whole,
 * its one end's outline showing). Measured 65/91 at least half visible, 0
 * of the confident reads wrong (main c9a9ce4: 56/91, 0 wrong). */
static void test_chinese_pile_covers_groups_outlines(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {129002, 129017, 129037, 127016,
                                     127037, 127015, 125016, 125023};
    tally t = {0};
    find_and_read_seeds(TS_LAYOUT_PILE, seeds, sizeof seeds / sizeof seeds[0], &t);
    print_tally("pile covers, groups, outlines", &t);
    assert_int_equal(t.wrong, 0);
    assert_true(t.half_ok >= PILE_OUTLINES_MIN);
}

int main(void)
{
    tscv_set_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chinese_smeared_cards_on_truth),
        cmocka_unit_test(test_chinese_light_plain_cloth),
        cmocka_unit_test(test_chinese_groups_by_own_spacing_last),
        cmocka_unit_test(test_chinese_pile_places_kept),
        cmocka_unit_test(test_chinese_touching_blocks_moved_known),
        cmocka_unit_test(test_chinese_far_pips_on_own_paper),
        cmocka_unit_test(test_chinese_pile_covers_groups_outlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
