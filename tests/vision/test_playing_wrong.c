/* Playing cards the reader was sure of and read wrong (vision/readers/
 * playing.c suit_by_pips, lies_across; playing_face.c
 * ts_playing_face_twin_suit). An unsure card is left unread; a sure wrong
 * card is the worst outcome. Rendered tables of the tuning seeds (127000,
 * 129000), as the camera sends them (JPEG):
 *
 * - on a small card (under 100 px wide) the index's suit glyph is 4-6 px,
 *   a club and a spade alike, and the index net was sure of the wrong one
 *   (129025's TC read TS 1.00); the face, many pips the size of the glyph
 *   and more, tells them apart;
 * - a card a glyph pair implied whole (sized by its glyph step) lay over
 *   the face of the card on it without holding its middle (129037's KS
 *   under the fan's top QS): it is given as its index view.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "playing_tables.h"
#include "readers/playing.h"
#include "readers/playing_face.h"

enum { NRANK = 13, TEN = 9 };

/* The small pip cards (A-10, under 100 px wide) of the scattered and row
 * tables of 127000-127011, read by the face on their true corners: the
 * face never rules out a card's own suit, and rules out the other suit of
 * its colour on most. */
static void test_small_pips_tell_twin_suits(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    ts_playing_face *f = ts_playing_face_create(NULL, err, sizeof err);
    assert_non_null(f);
    static const ts_layout layouts[] = {TS_LAYOUT_SCATTER, TS_LAYOUT_ROW};
    int cards = 0, own_ruled_out = 0, twin_ruled_out = 0;
    ts_image card = {0};
    for (int l = 0; l < 2; l++)
        for (uint64_t seed = 127000; seed < 127012; seed++) {
            ts_scene sc;
            assert_int_equal(render_table(TS_FAM_PLAYING, seed, layouts[l], 1, &sc, err), 0);
            for (int c = 0; c < sc.ncards; c++) {
                const ts_pt *q = sc.cards[c].quad;
                int rank = sc.cards[c].code.idx % NRANK, suit = sc.cards[c].code.idx / NRANK;
                if (sc.cards[c].visible < 0.99f || rank > TEN || ts_dist(q[0], q[1]) >= 100)
                    continue;
                assert_int_equal(tscv_warp_quad(&sc.img, q, &card, TS_PLAYING_CARD_W,
                                                TS_PLAYING_CARD_H, err),
                                 0);
                ts_playing_face_reading fr;
                assert_int_equal(ts_playing_face_read(f, &card, &fr, err), 0);
                cards++;
                /* twin_suit(rank, s): the face is sure of s's twin, not s */
                own_ruled_out += ts_playing_face_twin_suit(&fr, rank, suit);
                twin_ruled_out += ts_playing_face_twin_suit(&fr, rank, 3 - suit);
            }
            ts_scene_free(&sc);
        }
    fprintf(stderr, "small pip cards: %d, own suit ruled out %d, twin suit ruled out %d\n", cards,
            own_ruled_out, twin_ruled_out);
    /* measured 226 cards: own 0, twin 224 */
    assert_true(cards >= 200);
    assert_int_equal(own_ruled_out, 0);
    assert_true(twin_ruled_out >= cards * 8 / 10);
    ts_image_free(&card);
    ts_playing_face_destroy(f);
}

/* Tables where main c9a9ce4 read a small card's twin suit sure and wrong
 * (scatter 129032's 2D read 2H, row 129025's 3C read 3S, row 129017's AC
 * read AS). */
static void test_sure_wrong_cards_left_unread(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {129032, TS_LAYOUT_SCATTER}, {129025, TS_LAYOUT_ROW}, {129017, TS_LAYOUT_ROW}};
    int n = 0, ok = 0, wrong = 0;
    read_tables_seen("sure wrong", t, sizeof t / sizeof *t, 0.5f, &n, &ok, &wrong);
    /* measured 27/36, 0 wrong; main c9a9ce4 26/36, 3 wrong */
    assert_true(n >= 36);
    assert_true(ok >= 26);
    assert_int_equal(wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_pips_tell_twin_suits),
        cmocka_unit_test(test_sure_wrong_cards_left_unread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
