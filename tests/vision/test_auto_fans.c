/* --game auto on Gang of Four fans that other readers claimed (session 28):
 * rendered tables 122026, 122027, 125021, 126006, 126009, 126014 and 127027
 * as `render` saves them, each a fan of twelve cards whose own reader reads
 * few of them surely. Main 0aa88bb took SET, playing, domino, SET, playing,
 * playing and playing for them. Session 29 added 128012, 128029 and 129017
 * (main c9a9ce4 took SET, playing and playing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "auto_tables.h"

/* A SET reader's lattice of cells over a fan (126006; 122026 too): twelve
 * sure cards, seven of them copies of SET cards beyond the one its deck
 * holds. Such copies count against the reading however sure its reader
 * was, so its five distinct cards no longer outweigh the Gang of Four
 * reader's three sure ones. */
static void test_copies_count_against(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 126006}, {TS_FAM_GOF, 122026}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

/* Fans where no sure card is backed by the face net (126009, 126014): the
 * playing reader read four and five sure indexes, most of them on green or
 * yellow numerals or faces the net gives to another family, against the
 * Gang of Four reader's one and four. When every reading is only a guess,
 * sure cards shown to be another family's do not make a reading the
 * likelier. */
static void test_claimed_cards_do_not_guess(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 126009}, {TS_FAM_GOF, 126014}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

/* A playing reading more of whose sure cards are another deck's than not
 * misreads that deck's table: with one sure card the net accepts (7D on a
 * red 7's star) and two on green numerals (127027) it is not taken instead
 * of the Gang of Four reading; with four sure indexes, three of them on
 * coloured numerals (122027), its fourth is no better a guess than the
 * Gang of Four reader's one card at 0.6. */
static void test_mostly_claimed_readings(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 127027}, {TS_FAM_GOF, 122027}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

/* A fan on gingham (125021): the Gang of Four reader read two strips at
 * 0.6, likelier right than not, none of which the net gives to another
 * family, and the face net called one other strip a Chinese domino card,
 * where the domino reader read nothing. One face does not outweigh them. */
static void test_one_face_against_held_cards(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 125021}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

/* Fans whose top card the Gang of Four reader read surely at its index
 * but outlined a third short (session 29): the face net calls that outline
 * no card, or a playing card (128012's G7 at 0.84), and the playing reader
 * read two to three sure indexes on the strips (128029: 3H and 6H on red
 * squares under black numerals, 3S and 8S on green ones). The top card's
 * green ink is most of its coloured ink: no playing card from ace to ten
 * prints it, so the net's playing card there does not count, and the card
 * is backed by its inks (main c9a9ce4 took SET and playing). */
static void test_own_inks_back_gof_cards(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 128012}, {TS_FAM_GOF, 128029}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

/* A fan on wood (129017): the playing reader read 7D and 6D on red strips,
 * the Gang of Four reader its red dragon (outlined short) and an R4 at 0.6,
 * no face placed. 7D's outline holds a red 1 and a yellow 2: 17 of its 1536
 * warp pixels yellow, 52% of its coloured ink, an alien ink now that 1% of
 * a card is enough (no sure playing card from ace to ten on the rendered
 * playing tables 121000-129041 shows 1% of it; 11 pixels the most, 128030,
 * none on the shared photos), and the guesses go
 * to the Gang of Four reading (main c9a9ce4 took playing). */
static void test_a_little_alien_ink(void **state)
{
    const seeded_table t[] = {{TS_FAM_GOF, 129017}};
    assert_families(*state, t, sizeof t / sizeof t[0]);
}

#define PIPELINE_TEST(t) cmocka_unit_test_setup_teardown(t, pipeline_setup, pipeline_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        PIPELINE_TEST(test_copies_count_against),
        PIPELINE_TEST(test_claimed_cards_do_not_guess),
        PIPELINE_TEST(test_mostly_claimed_readings),
        PIPELINE_TEST(test_one_face_against_held_cards),
        PIPELINE_TEST(test_own_inks_back_gof_cards),
        PIPELINE_TEST(test_a_little_alien_ink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
