/* Which of a frame's glyph pairs may be the corner index of a held card
 * (ts_playing_held_pairs, readers/playing_held.c): the reader reads a held
 * card that neither its quad nor the fit reads from those pairs alone.
 * Pure geometry on made-up pairs: no data, no nets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "readers/playing_held.h"

/* A pair whose rank glyph is at (x, y) and suit glyph step px below it. */
static ts_playing_pair pair_at(float x, float y, float step)
{
    return (ts_playing_pair){.rank = {x, y}, .suit = {x, y + step}, .margin = 50};
}

/* A held quad 100 x 140 px at (200, 200). */
static const ts_pt QUAD[4] = {{200, 200}, {300, 200}, {300, 340}, {200, 340}};

static void test_index_sized_pairs_about_the_quad_kept(void **state)
{
    (void)state;
    ts_playing_pair p[] = {
        pair_at(215, 215, 15), /* an index at the quad's corner */
        pair_at(180, 190, 15), /* just outside: the quad stopped short of the index */
        pair_at(250, 270, 15), /* pips in the middle pair too: the reader's check */
    };
    int out[8];
    int n = ts_playing_held_pairs(p, 3, QUAD, out, 8);
    assert_int_equal(n, 3);
    for (int i = 0; i < n; i++)
        assert_int_equal(out[i], i); /* clearest first, as given */
}

static void test_far_or_wrongly_sized_pairs_dropped(void **state)
{
    (void)state;
    ts_playing_pair p[] = {
        pair_at(500, 500, 15), /* another place of the frame */
        pair_at(215, 215, 2),  /* specks: far smaller than an index */
        pair_at(215, 215, 80), /* glyphs as far apart as the card is wide */
        pair_at(120, 120, 15), /* beyond the quad grown by half */
        pair_at(290, 320, 15), /* kept: the bottom-right index */
    };
    int out[8];
    int n = ts_playing_held_pairs(p, 5, QUAD, out, 8);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], 4);
}

static void test_at_most_max(void **state)
{
    (void)state;
    ts_playing_pair p[6];
    for (int i = 0; i < 6; i++)
        p[i] = pair_at(210 + 10 * i, 220, 15);
    int out[6];
    assert_int_equal(ts_playing_held_pairs(p, 6, QUAD, out, 4), 4);
    assert_int_equal(out[3], 3);
    assert_int_equal(ts_playing_held_pairs(p, 0, QUAD, out, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_sized_pairs_about_the_quad_kept),
        cmocka_unit_test(test_far_or_wrongly_sized_pairs_dropped),
        cmocka_unit_test(test_at_most_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
