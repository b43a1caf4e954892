/* Overlay: what is drawn where, checked on pixels of a plain synthetic frame. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "imageio.h"
#include "overlay.h"

enum { W = 1280, H = 720 };
static const uint8_t CLOTH[3] = {40, 90, 30}; /* dark green table, B,G,R */

static ts_image cloth(void)
{
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, W, H, 3), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            memcpy(ts_image_row(&img, y) + 3 * x, CLOTH, 3);
    return img;
}

static const uint8_t *at(const ts_image *img, int x, int y)
{
    return ts_image_row(img, y) + 3 * x;
}

static int is_cloth(const ts_image *img, int x, int y)
{
    return memcmp(at(img, x, y), CLOTH, 3) == 0;
}

static int near(const uint8_t *p, const unsigned char c[3], int tol)
{
    for (int i = 0; i < 3; i++)
        if (abs((int)p[i] - (int)c[i]) > tol)
            return 0;
    return 1;
}

/* Whether any pixel within r of (x, y) is close to colour c. */
static int colour_near(const ts_image *img, int x, int y, int r, const unsigned char c[3])
{
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && y + dy >= 0 && x + dx < img->w && y + dy < img->h &&
                near(at(img, x + dx, y + dy), c, 40))
                return 1;
    return 0;
}

/* An axis-aligned card at (x, y), 120 x 180, clockwise from top-left. */
static void card(ts_table *r, int x, int y, const char *text, int read)
{
    ts_card *c = &r->frame.cards[r->frame.ncards++];
    memset(c, 0, sizeof *c);
    c->quad[0] = (ts_pt){(float)x, (float)y};
    c->quad[1] = (ts_pt){(float)x + 120, (float)y};
    c->quad[2] = (ts_pt){(float)x + 120, (float)y + 180};
    c->quad[3] = (ts_pt){(float)x, (float)y + 180};
    snprintf(c->text, sizeof c->text, "%s", text);
    c->conf = read ? 0.95f : 0.2f;
    c->read = read;
}

static ts_table *table_of_three(void)
{
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = W;
    r.frame.h = H;
    card(&r, 100, 100, "1RDS", 1);
    card(&r, 400, 100, "2RDS", 1);
    card(&r, 700, 100, "3RDS", 1);
    r.nsets = 1;
    r.sets[0][0] = 0, r.sets[0][1] = 1, r.sets[0][2] = 2;
    return &r;
}

/* The SET hint ladder: nothing, one card of a Set, two, the Set. */
static void set_hint_ladder(void **state)
{
    (void)state;
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    for (int level = 0; level <= 4; level++) {
        ts_table *r = table_of_three();
        for (int i = 0; i < 3; i++)
            ts_code_parse(TS_FAM_SET, r->frame.cards[i].text, 4, &r->frame.cards[i].code);
        r->frame.family = TS_FAM_SET;
        ts_table_rules rules = {.game = &TS_GAME_SET, .set_opts = 1};
        rules.opts.hint_level = level;
        ts_table_solve_with(r, &rules);
        assert_int_equal(r->nsets, 1);
        ts_image img = cloth();
        assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
        int ringed = 0;
        for (int i = 0; i < 3; i++) {
            int found = 0;
            for (int y = 100 - 25; y < 100 && !found; y++)
                found = near(at(&img, 160 + 300 * i, y), c0, 40);
            ringed += found;
        }
        assert_int_equal(ringed, level >= 3 ? 3 : level);
        ts_image_free(&img);
    }
}

/* Gang of Four: the best play ringed on the hand; nothing beats: PASS. */
static void plays_on_the_hand(void **state)
{
    (void)state;
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = W;
    r.frame.h = H;
    r.frame.family = TS_FAM_GOF;
    card(&r, 500, 80, "G5", 1); /* the trick, top half */
    card(&r, 200, 450, "R9", 1); /* the hand, bottom half */
    card(&r, 700, 450, "G3", 1);
    for (int i = 0; i < 3; i++)
        ts_code_parse(TS_FAM_GOF, r.frame.cards[i].text, strlen(r.frame.cards[i].text),
                      &r.frame.cards[i].code);
    ts_table_solve(&r);
    assert_int_equal(r.zone[0], TS_ZONE_TRICK);
    assert_int_equal(r.zone[1], TS_ZONE_HAND);
    assert_int_equal(r.view.count, 1); /* R9 */
    ts_image img = cloth();
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    int found = 0;
    for (int y = 450 - 25; y < 450 && !found; y++)
        found = near(at(&img, 260, y), c0, 40);
    assert_true(found);
    for (int y = 450 - 25; y < 450; y++) /* G3 beats nothing: no ring */
        assert_false(near(at(&img, 760, y), c0, 40));
    ts_image_free(&img);
    r.frame.cards[1].code.idx = 0; /* R9 -> G1: nothing beats G5 */
    snprintf(r.frame.cards[1].text, sizeof r.frame.cards[1].text, "G1");
    ts_table_solve(&r);
    assert_true(r.view.pass);
    assert_string_equal(r.view.headline, "pass: nothing beats the single");
}

/* A verdict is drawn large, in its colour, near the move. */
static void verdict_near_the_move(void **state)
{
    (void)state;
    ts_image img = cloth();
    static ts_table empty;
    ts_overlay_opts oo = {.hide_sets = 1, .verdict = "not a Set: colour", .verdict_kind = TS_VERDICT_ILLEGAL,
                          .verdict_x = 900, .verdict_y = 500};
    assert_int_equal(ts_overlay_draw(&img, &empty, &oo), 0);
    static const unsigned char red[3] = {40, 40, 230};
    assert_true(colour_near(&img, 900, 500, 40, red));
    assert_true(is_cloth(&img, 100, 100));
    ts_image_free(&img);
}

static void outlines_cards_and_leaves_the_rest(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    r->nsets = 0;
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    static const unsigned char white[3] = {255, 255, 255};
    /* Middle of each card's top edge is white; far from any card is untouched. */
    for (int i = 0; i < 3; i++)
        assert_true(colour_near(&img, 160 + 300 * i, 100, 2, white));
    assert_true(is_cloth(&img, 1100, 500));
    assert_true(is_cloth(&img, 50, 400));
    /* The code is drawn on a dark backing at the card's centre. */
    const uint8_t *mid = at(&img, 160, 190);
    assert_false(memcmp(mid, CLOTH, 3) == 0);
    ts_image_free(&img);
}

static void set_ring_has_the_set_colour_outside_the_card(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    /* The ring lies just outside the card edge (above the top edge). */
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int y = 100 - 25; y < 100 && !found; y++)
            found = near(at(&img, 160 + 300 * i, y), c0, 40);
        assert_true(found);
    }
    /* A card in no Set gets no ring. */
    card(r, 100, 400, "1GOO", 1);
    ts_image img2 = cloth();
    assert_int_equal(ts_overlay_draw(&img2, r, NULL), 0);
    for (int y = 400 - 25; y < 400; y++)
        assert_false(near(at(&img2, 160, y), c0, 40));
    ts_image_free(&img);
    ts_image_free(&img2);
}

static void card_in_two_sets_shows_both_colours(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    card(r, 100, 400, "1GDS", 1);
    card(r, 400, 400, "1PDS", 1);
    r->nsets = 2; /* card 0 is in both */
    r->sets[1][0] = 0, r->sets[1][1] = 3, r->sets[1][2] = 4;
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    unsigned char c0[3], c1[3];
    ts_overlay_set_colour(0, c0);
    ts_overlay_set_colour(1, c1);
    assert_false(memcmp(c0, c1, 3) == 0);
    int y0 = -1, y1 = -1; /* scan upward from card 0's top edge */
    for (int y = 99; y > 100 - 40; y--) {
        if (y0 < 0 && near(at(&img, 160, y), c0, 40))
            y0 = y;
        if (y1 < 0 && near(at(&img, 160, y), c1, 40))
            y1 = y;
    }
    assert_true(y0 > 0 && y1 > 0);
    assert_true(y1 < y0); /* the second Set's ring is further out */
    ts_image_free(&img);
}

static void unread_card_is_dashed_grey_with_question_mark(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    card(&r, 300, 300, "2GST", 0);
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    static const unsigned char white[3] = {255, 255, 255}, grey[3] = {170, 170, 170};
    /* Along the top edge: separate grey dashes, no white outline. */
    int dashes = 0, in_dash = 0, whites = 0;
    for (int x = 305; x < 415; x++) {
        const uint8_t *p = at(&img, x, 300);
        int g = near(p, grey, 30);
        dashes += g && !in_dash;
        in_dash = g;
        whites += near(p, white, 10);
    }
    assert_true(dashes >= 4);
    assert_int_equal(whites, 0);
    /* The best guess is not printed: the centre shows "?" (light strokes on dark). */
    int light = 0;
    for (int y = 370; y < 410; y++)
        for (int x = 340; x < 380; x++)
            light += near(at(&img, x, y), grey, 60);
    assert_true(light > 5);
    ts_image_free(&img);
}

static void hide_sets_draws_no_rings(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_overlay_opts o = {.hide_sets = 1};
    assert_int_equal(ts_overlay_draw(&img, table_of_three(), &o), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_false(near(at(&img, x, y), c0, 20));
    ts_image_free(&img);
}

static void status_and_stale_marker(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    ts_overlay_opts o = {.status = "30.0 fps  12 ms  set  videotestsrc"};
    assert_int_equal(ts_overlay_draw(&img, &r, &o), 0);
    assert_false(is_cloth(&img, 5, 5));     /* status band */
    assert_true(is_cloth(&img, 640, 400)); /* not stale: frame untouched */
    ts_image_free(&img);

    img = cloth();
    o.stale = 1;
    o.stale_reason = "no frame for 3 s, retrying";
    assert_int_equal(ts_overlay_draw(&img, &r, &o), 0);
    const uint8_t *p = at(&img, 640, 400); /* dimmed */
    assert_true(p[1] < CLOTH[1]);
    static const unsigned char red[3] = {40, 40, 230};
    assert_true(colour_near(&img, 2, 360, 2, red)); /* red border */
    ts_image_free(&img);
}

static void rejects_bad_input_and_skips_wild_quads(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ts_overlay_draw(NULL, &r, NULL), -1);
    assert_int_equal(ts_overlay_draw(&img, NULL, NULL), -1);
    ts_image grey;
    assert_int_equal(ts_image_alloc(&grey, 10, 10, 1), 0);
    assert_int_equal(ts_overlay_draw(&grey, &r, NULL), -1);
    ts_image_free(&grey);

    card(&r, 100, 100, "1RDS", 1);
    r.frame.cards[0].quad[2].x = NAN;
    card(&r, 100, 100, "1RDS", 1);
    r.frame.cards[1].quad[1].x = 1e30f;
    r.nsets = 1; /* indices out of range and on skipped cards are ignored */
    r.sets[0][0] = 0, r.sets[0][1] = 1, r.sets[0][2] = 99;
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    r.frame.ncards = 1000; /* clamped to TS_MAX_CARDS */
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    ts_image_free(&img);
}

static void draws_on_a_padded_stride_view(void **state)
{
    (void)state;
    /* A view into a wider buffer (as a GStreamer frame with row padding). */
    ts_image big = cloth();
    ts_image view = ts_image_roi(&big, 0, 0, 640, 360);
    ts_table *r = table_of_three();
    assert_int_equal(ts_overlay_draw(&view, r, NULL), 0);
    assert_true(is_cloth(&big, 1000, 100)); /* nothing right of the view */
    assert_true(is_cloth(&big, 300, 600));  /* nor below it */
    ts_image_free(&big);
}

static void tiny_frame_does_not_crash(void **state)
{
    (void)state;
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, 8, 6, 3), 0);
    memset(img.buf, 0, (size_t)img.stride * 6);
    ts_overlay_opts o = {.status = "x", .stale = 1};
    assert_int_equal(ts_overlay_draw(&img, table_of_three(), &o), 0);
    ts_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_hint_ladder),
        cmocka_unit_test(plays_on_the_hand),
        cmocka_unit_test(verdict_near_the_move),
        cmocka_unit_test(outlines_cards_and_leaves_the_rest),
        cmocka_unit_test(set_ring_has_the_set_colour_outside_the_card),
        cmocka_unit_test(card_in_two_sets_shows_both_colours),
        cmocka_unit_test(unread_card_is_dashed_grey_with_question_mark),
        cmocka_unit_test(hide_sets_draws_no_rings),
        cmocka_unit_test(status_and_stale_marker),
        cmocka_unit_test(rejects_bad_input_and_skips_wild_quads),
        cmocka_unit_test(draws_on_a_padded_stride_view),
        cmocka_unit_test(tiny_frame_does_not_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
