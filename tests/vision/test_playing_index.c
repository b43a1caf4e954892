/* The playing-card corner-index finder (vision/readers/playing_index.c) and
 * the cards the reader finds through it.
 *
 * Rendered tables (samples/render, seeds 81000+, never used while tuning)
 * give each card's true corners: the finder must put a glyph pair on an
 * index corner of nearly every fully visible card, and the reader's finder
 * must then read those cards. Real photos of a card held up to a webcam
 * (../shared/data/playing, a series never trained on) check the same on
 * cards whose outline fingers and a white wall hide. Floors sit under the
 * measured figures, so the tests catch regressions, not noise.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "geom.h"
#include "imageio.h"
#include "reader.h"
#include "readers/playing.h"
#include "readers/readers.h"
#include "render.h"
#include "render_table.h"

enum { MAX_PAIRS = 512, MAX_CAND = 256 };
/* Big close-ups: rendered at this size (px), enlarged to 640 x 640. */
enum { BIG_FROM = 160 };

/* A point given in card widths/heights (u, v in 0..1) of a card's quad. */
static ts_pt on_card(const ts_pt q[4], float u, float v)
{
    return (ts_pt){(1 - u) * (1 - v) * q[0].x + u * (1 - v) * q[1].x + u * v * q[2].x +
                       (1 - u) * v * q[3].x,
                   (1 - u) * (1 - v) * q[0].y + u * (1 - v) * q[1].y + u * v * q[2].y +
                       (1 - u) * v * q[3].y};
}

/* How far the nearest pair's rank glyph lies from the rank glyph of either
 * index corner of card q, in card widths. */
static float nearest_pair(const ts_pt q[4], const ts_playing_pair *pairs, int np)
{
    ts_pt at[2] = {on_card(q, 0.10f, 0.08f), on_card(q, 0.90f, 0.92f)};
    float best = 1e9f;
    for (int i = 0; i < np; i++)
        for (int k = 0; k < 2; k++)
            best = fminf(best, ts_dist(pairs[i].rank, at[k]));
    return best / ts_dist(q[0], q[1]);
}

static void render_playing(uint64_t seed, ts_layout layout, ts_scene *sc)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(render_table(TS_FAM_PLAYING, seed, layout, 0, sc, err), 0);
}

/* ---- Geometry ------------------------------------------------------------ */

static void test_index_card_geometry(void **state)
{
    (void)state;
    /* an upright index: rank at (100, 100), suit 20 px below */
    ts_playing_pair p = {.rank = {100, 100}, .suit = {100, 120}, .margin = 100};
    ts_pt card[4], patch[4];
    ts_playing_index_card(&p, 0, card, patch);
    float w = ts_dist(card[0], card[1]), h = ts_dist(card[1], card[2]);
    assert_true(fabsf(h / w - 1.397f) < 0.01f); /* a card's shape */
    assert_true(w > 100 && w < 160);            /* the index is about a seventh of the card */
    /* the card runs right and down from the index, which lies in its patch */
    assert_true(card[0].x < 100 && card[0].y < 100 && card[2].x > 150 && card[2].y > 200);
    assert_true(ts_point_in_quad(patch, 100, 100) && ts_point_in_quad(patch, 100, 120));
    assert_true(ts_point_in_quad(card, patch[2].x - 0.5f, patch[2].y - 0.5f));
    /* the same index upside down: the card runs left and up */
    ts_playing_pair t = {.rank = {100, 120}, .suit = {100, 100}, .margin = 100};
    ts_playing_index_card(&t, 0, card, patch);
    assert_true(card[2].x < 50 && card[2].y < 20);
    /* a frame squeezed sideways (stretch 1): the card is as tall, narrower */
    ts_pt sq[4], sp[4];
    ts_playing_index_card(&p, 1, sq, sp);
    ts_playing_index_card(&p, 0, card, patch);
    assert_true(fabsf(ts_dist(sq[1], sq[2]) - ts_dist(card[1], card[2])) < 0.5f);
    assert_true(ts_dist(sq[0], sq[1]) < 0.6f * ts_dist(card[0], card[1]));
}

/* ---- The corner beside an index -------------------------------------------- */

/* A card's true quad on a rendered table (cards scattered apart on cloth,
 * felt, wood or a desk) ends beside its index; the same quad moved a third
 * of a card into the card (its corner among the pips, as pips pair like an
 * index) does not: 110/120 and 1/120 (on a grid, whose gaps are narrower
 * than the band looked at beyond an edge, 61/120 show). Seeds
 * 81010-81019, never used while tuning. */
static void test_index_corner_shows(void **state)
{
    (void)state;
    int cards = 0, shows = 0, inside = 0;
    for (uint64_t seed = 81010; seed < 81020; seed++) {
        ts_scene sc;
        render_playing(seed, TS_LAYOUT_SCATTER, &sc);
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible < 0.99f)
                continue;
            const ts_pt *q = sc.cards[c].quad;
            ts_pt moved[4];
            float dx = 0.35f * (q[1].x - q[0].x) + 0.3f * (q[3].x - q[0].x);
            float dy = 0.35f * (q[1].y - q[0].y) + 0.3f * (q[3].y - q[0].y);
            for (int k = 0; k < 4; k++)
                moved[k] = (ts_pt){q[k].x + dx, q[k].y + dy};
            cards++;
            shows += ts_playing_index_corner(&sc.img, q);
            inside += ts_playing_index_corner(&sc.img, moved);
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "index corners: %d/%d cards' show, %d moved into the card\n", shows, cards,
            inside);
    assert_true(cards >= 60);
    assert_true(shows >= 0.85 * cards);
    assert_true(inside <= 0.05 * cards);
}

/* ---- Rendered tables ----------------------------------------------------- */

/* The glyph-pair tests' finder and pair buffer. */
typedef struct {
    ts_index_ink *ix;
    ts_playing_pair *pairs;
} pair_fixture;

static int pair_setup(void **state)
{
    pair_fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    fx->ix = ts_index_ink_create(TS_PLAYING_INK_BLOBS);
    fx->pairs = malloc(sizeof *fx->pairs * MAX_PAIRS);
    *state = fx;
    return fx->ix && fx->pairs ? 0 : -1;
}

static int pair_teardown(void **state)
{
    pair_fixture *fx = *state;
    if (fx) {
        ts_index_ink_destroy(fx->ix);
        free(fx->pairs);
        free(fx);
    }
    return 0;
}

static void test_pairs_at_index_corners(void **state)
{
    pair_fixture *fx = *state;
    ts_index_ink *ix = fx->ix;
    ts_playing_pair *pairs = fx->pairs;
    char err[TSCV_ERR_MAX];
    int cards = 0, hit = 0;
    for (uint64_t seed = 81000; seed < 81004; seed++) {
        ts_scene sc;
        render_playing(seed, seed & 1 ? TS_LAYOUT_TOUCHING : TS_LAYOUT_GRID, &sc);
        int np = ts_playing_index_pairs(ix, &sc.img, pairs, MAX_PAIRS, err);
        assert_true(np > 0);
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible < 0.99f)
                continue;
            float near = nearest_pair(sc.cards[c].quad, pairs, np);
            cards++;
            hit += near < 0.08f;
            if (near >= 0.08f && getenv("TS_DEBUG"))
                fprintf(stderr, "seed %d card %d: nearest pair %.2f widths off\n", (int)seed, c,
                        near);
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "glyph pairs at an index corner of %d/%d fully visible cards\n", hit, cards);
    assert_true(cards >= 30);
    assert_true(hit >= 0.9 * cards);
}

/* Fans of twelve cards on printed cloths whose pattern gives thousands of
 * glyph-sized blobs (two dotted, one checked), as a camera sends them. At
 * main 8eac721 (the first 600 glyphs in scan order paired all against all,
 * the first 512 pairs kept) no fanned card's index had a pair (0/33).
 * Paired by neighbours, every glyph, the clearest pairs kept: 26/33, 13/33
 * among the first READ (playing.c's READ_PAIRS, the ones the reader reads);
 * the cloth's own pairs are as clear as an index's. */
enum { READ = 48 };
static const uint64_t CLOTH_FANS[] = {113004, 113026, 116035};

static void render_cloth_fan(uint64_t seed, ts_scene *sc)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(render_table(TS_FAM_PLAYING, seed, TS_LAYOUT_AUTO, 1, sc, err), 0);
    assert_string_equal(sc->info.table, "printed cloth");
}

static void test_pairs_on_printed_cloth_fans(void **state)
{
    pair_fixture *fx = *state;
    char err[TSCV_ERR_MAX];
    int cards = 0, found = 0, read = 0;
    for (size_t k = 0; k < sizeof CLOTH_FANS / sizeof *CLOTH_FANS; k++) {
        ts_scene sc;
        render_cloth_fan(CLOTH_FANS[k], &sc);
        int np = ts_playing_index_pairs(fx->ix, &sc.img, fx->pairs, MAX_PAIRS, err);
        assert_true(np > 0);
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible >= 0.4f)
                continue; /* the fanned cards, their index corner showing */
            cards++;
            found += nearest_pair(sc.cards[c].quad, fx->pairs, np) < 0.08f;
            read += nearest_pair(sc.cards[c].quad, fx->pairs, np < READ ? np : READ) < 0.08f;
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "printed cloth fans: a pair at %d/%d fanned cards' indices, %d among the first %d\n",
            found, cards, read, READ);
    assert_true(cards >= 30);
    assert_true(found >= 22);
    assert_true(read >= 10);
}

/* A gingham cloth's white checks are outlined like small squat cards: at
 * main 8eac721 they filled the reader's 256 candidates on fans 116016 and
 * 116031 (256, 196 outlines; the fans' index cards found no room) and were
 * each read. The finder drops them (55, 12 left); the whole cards of
 * playing grids and touching tables keep their outlines (33/48 on their
 * corners, with the drop and without). */
static void test_cloth_checks_not_outlined(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    ts_playing_finder *f = ts_playing_finder_create();
    ts_quad *q = malloc(sizeof *q * MAX_CAND);
    assert_non_null(f);
    assert_non_null(q);
    int cards = 0, kept = 0;
    for (uint64_t seed = 81000; seed < 81004; seed++) {
        ts_scene sc;
        render_playing(seed, seed & 1 ? TS_LAYOUT_TOUCHING : TS_LAYOUT_GRID, &sc);
        int n = ts_playing_outlines(f, &sc.img, q, MAX_CAND, err);
        assert_true(n >= 0);
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible < 0.99f)
                continue;
            int on = 0;
            for (int i = 0; i < n && !on; i++)
                on = on_corners(q[i].q, sc.cards[c].quad);
            cards++;
            kept += on;
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "grids: %d/%d whole cards outlined\n", kept, cards);
    assert_true(cards >= 30);
    assert_true(kept >= 33); /* as many as without the drop (touching cards outline in twos) */
    const uint64_t gingham[2] = {116016, 116031};
    for (int k = 0; k < 2; k++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_PLAYING, gingham[k], TS_LAYOUT_AUTO, 1, &sc, err), 0);
        int n = ts_playing_outlines(f, &sc.img, q, MAX_CAND, err);
        fprintf(stderr, "gingham %d: %d outlines\n", (int)gingham[k], n);
        assert_true(n >= 0 && n < 64);
        ts_scene_free(&sc);
    }
    free(q);
    ts_playing_finder_destroy(f);
}

/* The pairing by neighbours finds what every glyph against every other
 * finds: the same pairs in the same order, on a playing grid and on a
 * dotted cloth's fan (more pairs than are kept). */
static void test_neighbour_pairs_equal_exhaustive(void **state)
{
    pair_fixture *fx = *state;
    char err[TSCV_ERR_MAX];
    ts_playing_pair *all = malloc(sizeof *all * MAX_PAIRS);
    assert_non_null(all);
    for (int k = 0; k < 2; k++) {
        ts_scene sc;
        if (k == 0)
            render_playing(81000, TS_LAYOUT_GRID, &sc);
        else
            render_cloth_fan(113004, &sc);
        int np = ts_playing_index_pairs(fx->ix, &sc.img, fx->pairs, MAX_PAIRS, err);
        int na = ts_playing_index_pairs_exhaustive(fx->ix, &sc.img, all, MAX_PAIRS, err);
        assert_true(np > 10);
        assert_int_equal(np, na);
        for (int i = 0; i < np; i++) {
            assert_true(fx->pairs[i].rank.x == all[i].rank.x && fx->pairs[i].rank.y == all[i].rank.y);
            assert_true(fx->pairs[i].suit.x == all[i].suit.x && fx->pairs[i].suit.y == all[i].suit.y);
            assert_true(fx->pairs[i].margin == all[i].margin);
        }
        ts_scene_free(&sc);
    }
    free(all);
}

/* One playing card dealt alone into a size x size frame. */
static void render_one_card(uint64_t seed, int size, ts_scene *sc)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(render_one_playing_card(seed, size, sc, err), 0);
}

/* Close-ups: one card filling most of a 640 x 640 frame, so its index
 * glyphs are 20-40 px tall and the centre of a 9, Q, A or 6 is paper (the
 * phone photos' close-ups). Before the ink was looked for around a glyph's
 * centre, 31 of these 40 cards had a pair at an index corner. */
static void test_pairs_on_close_ups(void **state)
{
    pair_fixture *fx = *state;
    ts_index_ink *ix = fx->ix;
    ts_playing_pair *pairs = fx->pairs;
    char err[TSCV_ERR_MAX];
    int cards = 0, hit = 0;
    for (uint64_t seed = 81100; seed < 81140; seed++) {
        ts_scene sc;
        render_one_card(seed, 640, &sc);
        int np = ts_playing_index_pairs(ix, &sc.img, pairs, MAX_PAIRS, err);
        assert_true(np >= 0);
        for (int c = 0; c < sc.ncards; c++) {
            cards++;
            hit += nearest_pair(sc.cards[c].quad, pairs, np) < 0.08f;
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "close-ups: glyph pairs at an index corner of %d/%d cards\n", hit, cards);
    assert_true(cards >= 40);
    assert_true(hit >= 0.95 * cards);
}

/* Closer still: the same cards rendered at BIG_FROM px and enlarged four
 * times, each cut out alone (a card on a white desk, nothing else in the
 * frame), so their index glyphs are about twice as big as above, near the
 * top of the finder's two levels (the phone photos' nearest close-ups). A
 * frame with no pair at either level is looked at a level coarser: 38/40
 * here, 36/40 without that, which the floor catches. */
static void test_pairs_on_big_close_ups(void **state)
{
    pair_fixture *fx = *state;
    ts_index_ink *ix = fx->ix;
    ts_playing_pair *pairs = fx->pairs;
    char err[TSCV_ERR_MAX];
    int cards = 0, hit = 0;
    ts_image big = {0};
    for (uint64_t seed = 81100; seed < 81140; seed++) {
        ts_scene sc;
        render_one_card(seed, BIG_FROM, &sc);
        assert_int_equal(tscv_resize(&sc.img, &big, 640, 640, err), 0);
        /* the card alone, as on a white desk: nothing else offers a pair */
        ts_pt q[4];
        float x0 = 640, y0 = 640, x1 = 0, y1 = 0;
        for (int k = 0; k < 4; k++) {
            q[k] = (ts_pt){sc.cards[0].quad[k].x * 640.0f / BIG_FROM,
                           sc.cards[0].quad[k].y * 640.0f / BIG_FROM};
            x0 = fminf(x0, q[k].x), y0 = fminf(y0, q[k].y);
            x1 = fmaxf(x1, q[k].x), y1 = fmaxf(y1, q[k].y);
        }
        int cx = x0 < 0 ? 0 : (int)x0, cy = y0 < 0 ? 0 : (int)y0;
        int cw = (x1 > 640 ? 640 : (int)x1) - cx, ch = (y1 > 640 ? 640 : (int)y1) - cy;
        ts_image alone = ts_image_roi(&big, cx, cy, cw, ch);
        int np = ts_playing_index_pairs(ix, &alone, pairs, MAX_PAIRS, err);
        assert_true(np >= 0);
        for (int k = 0; k < 4; k++)
            q[k] = (ts_pt){q[k].x - (float)cx, q[k].y - (float)cy};
        cards++;
        hit += nearest_pair(q, pairs, np) < 0.08f;
        ts_scene_free(&sc);
    }
    fprintf(stderr, "big close-ups: glyph pairs at an index corner of %d/%d cards\n", hit, cards);
    assert_true(cards >= 40);
    assert_true(hit >= 37);
    ts_image_free(&big);
}

/* Reads a frame as the pipeline does: candidates in order, one per place. */
static int read_frame(const ts_reader_class *cls, void *rd, const ts_image *img, ts_code *got,
                      int max)
{
    static ts_quad cand[MAX_CAND];
    ts_quad taken[32];
    char err[TSCV_ERR_MAX];
    int nc = cls->find(rd, img, cand, MAX_CAND, err), n = 0;
    assert_true(nc >= 0);
    ts_image card = {0};
    for (int i = 0; i < nc && n < max; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = ts_quad_overlap(&taken[k], &cand[i]);
        if (seen)
            continue;
        ts_reading r;
        assert_int_equal(tscv_warp_quad(img, cand[i].q, &card, cls->card_w, cls->card_h, err), 0);
        assert_int_equal(cls->read(rd, &card, &r, err), 0);
        if (!r.is_card)
            continue;
        taken[n] = cand[i];
        got[n++] = r.conf >= cls->conf_floor ? r.code : (ts_code){TS_FAM_PLAYING, 255};
    }
    ts_image_free(&card);
    return n;
}

static void test_reads_rendered_tables(void **state)
{
    (void)state;
    const ts_reader_class *cls = &ts_playing_reader_class;
    char err[256];
    void *rd = cls->create(NULL, err, sizeof err);
    assert_non_null(rd);
    int cards = 0, right = 0, wrong = 0;
    for (uint64_t seed = 81010; seed < 81013; seed++) {
        ts_scene sc;
        render_playing(seed, TS_LAYOUT_GRID, &sc);
        ts_code got[32];
        int n = read_frame(cls, rd, &sc.img, got, 32);
        int used[32] = {0};
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible < 0.99f)
                continue;
            cards++;
            for (int j = 0; j < n; j++)
                if (!used[j] && got[j].idx == sc.cards[c].code.idx) {
                    used[j] = 1;
                    right++;
                    break;
                }
        }
        for (int j = 0; j < n; j++)
            wrong += !used[j] && got[j].idx != 255;
        ts_scene_free(&sc);
    }
    fprintf(stderr, "rendered grids: %d/%d fully visible cards read, %d read wrong\n", right,
            cards, wrong);
    assert_true(right >= 0.9 * cards);
    assert_true(wrong <= 2);
    cls->destroy(rd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_card_geometry),
        cmocka_unit_test(test_index_corner_shows),
        cmocka_unit_test_setup_teardown(test_pairs_at_index_corners, pair_setup, pair_teardown),
        cmocka_unit_test_setup_teardown(test_pairs_on_printed_cloth_fans, pair_setup, pair_teardown),
        cmocka_unit_test_setup_teardown(test_neighbour_pairs_equal_exhaustive, pair_setup,
                                        pair_teardown),
        cmocka_unit_test(test_cloth_checks_not_outlined),
        cmocka_unit_test_setup_teardown(test_pairs_on_close_ups, pair_setup, pair_teardown),
        cmocka_unit_test_setup_teardown(test_pairs_on_big_close_ups, pair_setup, pair_teardown),
        cmocka_unit_test(test_reads_rendered_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
