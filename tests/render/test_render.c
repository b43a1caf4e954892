/* The renderer: determinism, ground truth that matches the picture, every
 * family and deck, layouts and visibility, sequences of play, bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "geom.h"
#include "gof.h"
#include "render.h"
#include "set.h"

/* n cards dealt from the family's deck, laid out. */
static ts_scene_spec spec_for(ts_family fam, int n, uint64_t seed, ts_layout layout)
{
    ts_scene_spec s;
    memset(&s, 0, sizeof s);
    s.family = fam;
    s.w = 480;
    s.h = 320;
    s.seed = seed;
    ts_render_deal(&s, n, layout);
    return s;
}

static void render_ok(const ts_scene_spec *s, ts_scene *sc)
{
    char err[TSCV_ERR_MAX] = "";
    int rc = ts_render_scene(s, sc, err);
    if (rc != 0)
        fail_msg("render failed: %s", err);
    assert_int_equal(sc->ncards, s->ncards);
    assert_int_equal(sc->img.w, s->w);
    assert_int_equal(sc->img.h, s->h);
}

static void test_deterministic(void **state)
{
    (void)state;
    ts_scene_spec s = spec_for(TS_FAM_SET, 12, 42, TS_LAYOUT_AUTO);
    ts_scene_spec again = spec_for(TS_FAM_SET, 12, 42, TS_LAYOUT_AUTO);
    assert_memory_equal(&s, &again, sizeof s);
    ts_scene a, b;
    render_ok(&s, &a);
    render_ok(&s, &b);
    assert_memory_equal(a.img.buf, b.img.buf, (size_t)a.img.stride * (size_t)a.img.h);
    assert_memory_equal(a.cards, b.cards, sizeof a.cards[0] * (size_t)a.ncards);
    assert_int_equal(a.info.jpeg_quality, b.info.jpeg_quality);
    /* Another frame of the same sequence: same cards and corners, new noise. */
    s.frame = 1;
    ts_scene_free(&b);
    render_ok(&s, &b);
    assert_memory_equal(a.cards, b.cards, sizeof a.cards[0] * (size_t)a.ncards);
    assert_memory_not_equal(a.img.buf, b.img.buf, (size_t)a.img.stride * (size_t)a.img.h);
    /* Another seed: another picture. */
    s = spec_for(TS_FAM_SET, 12, 43, TS_LAYOUT_AUTO);
    ts_scene_free(&b);
    render_ok(&s, &b);
    assert_memory_not_equal(a.img.buf, b.img.buf, (size_t)a.img.stride * (size_t)a.img.h);
    ts_scene_free(&a);
    ts_scene_free(&b);
}

/* q grown (f > 1) or shrunk (f < 1) about its centre. */
static void scale_quad(const ts_pt q[4], float f, ts_pt out[4])
{
    float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4,
          cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    for (int k = 0; k < 4; k++)
        out[k] = (ts_pt){cx + (q[k].x - cx) * f, cy + (q[k].y - cy) * f};
}

/* The same table, light, camera and noise without the cards differs from
 * the scene inside every card's quad and hardly anywhere away from them: the
 * corners say where the cards are. Every quad lies in the frame. */
static void test_truth_matches_picture(void **state)
{
    (void)state;
    const ts_family fams[] = {TS_FAM_SET, TS_FAM_PLAYING, TS_FAM_GOF, TS_FAM_QWIRKLE,
                              TS_FAM_DOMINO};
    for (int k = 0; k < 10; k++) {
        ts_scene_spec s = spec_for(fams[k % 5], 9, 100 + (uint64_t)k, TS_LAYOUT_AUTO);
        ts_scene_spec empty = s;
        empty.ncards = 0;
        ts_scene sc, bare;
        render_ok(&s, &sc);
        render_ok(&empty, &bare);
        for (int i = 0; i < sc.ncards; i++) {
            assert_int_equal(sc.cards[i].code.idx, s.cards[i].code.idx);
            assert_true(sc.cards[i].visible > 0 && sc.cards[i].visible <= 1);
            for (int q = 0; q < 4; q++) {
                assert_true(sc.cards[i].quad[q].x >= 0 && sc.cards[i].quad[q].x <= s.w);
                assert_true(sc.cards[i].quad[q].y >= 0 && sc.cards[i].quad[q].y <= s.h);
            }
            if (sc.cards[i].visible < 0.9f)
                continue;
            ts_pt core[4];
            scale_quad(sc.cards[i].quad, 0.8f, core);
            double diff = 0;
            long n = 0;
            for (int y = 0; y < s.h; y++)
                for (int x = 0; x < s.w; x++)
                    if (ts_point_in_quad(core, x + 0.5f, y + 0.5f)) {
                        const uint8_t *a = ts_image_row(&sc.img, y) + 3 * x,
                                      *b = ts_image_row(&bare.img, y) + 3 * x;
                        diff += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
                        n++;
                    }
            assert_true(n > 0);
            if (diff / n < 12)
                fail_msg("seed %d card %d: no card where its quad is (diff %.1f)", 100 + k, i,
                         diff / n);
        }
        long far = 0, changed = 0;
        for (int y = 0; y < s.h; y++)
            for (int x = 0; x < s.w; x++) {
                int near = 0;
                for (int i = 0; i < sc.ncards && !near; i++) {
                    ts_pt grown[4];
                    scale_quad(sc.cards[i].quad, 1.35f, grown);
                    near = ts_point_in_quad(grown, x + 0.5f, y + 0.5f);
                }
                if (near)
                    continue;
                const uint8_t *a = ts_image_row(&sc.img, y) + 3 * x,
                              *b = ts_image_row(&bare.img, y) + 3 * x;
                far++;
                changed += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 24;
            }
        if (changed > far / 200)
            fail_msg("seed %d: %ld of %ld pixels away from the cards changed", 100 + k, changed,
                     far);
        ts_scene_free(&sc);
        ts_scene_free(&bare);
    }
}

static void test_every_family(void **state)
{
    (void)state;
    const ts_family fams[] = {TS_FAM_SET, TS_FAM_PLAYING, TS_FAM_GOF, TS_FAM_QWIRKLE,
                              TS_FAM_DOMINO};
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        int decks = fams[f] == TS_FAM_SET ? 2 : 1;
        for (int deck = 0; deck < decks; deck++)
            for (int idx = 0; idx < ts_family_size(fams[f]); idx++) {
                ts_code c = {(uint8_t)fams[f], (uint8_t)idx};
                if (ts_render_deck_copies(c) == 0)
                    continue;
                ts_image face, alpha;
                char err[TSCV_ERR_MAX];
                assert_int_equal(
                    ts_render_face(c, (ts_set_deck)deck, 3, 5, (uint64_t)idx, &face, &alpha, err),
                    0);
                long ink = 0;
                for (int y = 0; y < face.h; y++)
                    for (int x = 0; x < face.w; x++) {
                        const uint8_t *p = ts_image_row(&face, y) + 3 * x;
                        ink += p[0] < 170 || p[1] < 170 || p[2] < 170;
                    }
                assert_true(ink > 20);                           /* something was printed */
                assert_int_equal(ts_image_row(&alpha, 0)[0], 0); /* rounded corner */
                assert_int_equal(ts_image_row(&alpha, face.h / 2)[face.w / 2], 255);
                ts_image_free(&face);
                ts_image_free(&alpha);
            }
        ts_scene_spec s = spec_for(fams[f], 6, 11, TS_LAYOUT_AUTO);
        ts_scene sc;
        render_ok(&s, &sc);
        ts_scene_free(&sc);
    }
    /* The two SET decks print the same card differently. */
    ts_code c = {TS_FAM_SET, 40};
    ts_image a, b, al;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_render_face(c, TS_DECK_CLASSIC, 3, 1, 1, &a, &al, err), 0);
    ts_image_free(&al);
    assert_int_equal(ts_render_face(c, TS_DECK_SEECARDS, 3, 1, 1, &b, &al, err), 0);
    ts_image_free(&al);
    assert_memory_not_equal(a.buf, b.buf, (size_t)a.stride * (size_t)a.h);
    ts_image_free(&a);
    ts_image_free(&b);
}

static void test_layouts_and_visibility(void **state)
{
    (void)state;
    for (int l = TS_LAYOUT_AUTO; l < TS_LAYOUT_COUNT; l++) {
        assert_int_equal(ts_layout_from_name(ts_layout_name((ts_layout)l)), l);
        ts_scene_spec s = spec_for(TS_FAM_PLAYING, 7, 3, (ts_layout)l);
        assert_true(s.view[2] > s.view[0] && s.view[3] > s.view[1]);
    }
    assert_int_equal(ts_layout_from_name("heap"), -1);
    /* A grid: every card in full view. */
    ts_scene_spec s = spec_for(TS_FAM_SET, 12, 8, TS_LAYOUT_GRID);
    ts_scene sc;
    render_ok(&s, &sc);
    for (int i = 0; i < sc.ncards; i++)
        assert_true(sc.cards[i].visible > 0.97f);
    ts_scene_free(&sc);
    /* A fan: every card but the last partly covered by the next. */
    s = spec_for(TS_FAM_PLAYING, 6, 3, TS_LAYOUT_FAN);
    render_ok(&s, &sc);
    for (int i = 0; i < sc.ncards - 1; i++)
        assert_true(sc.cards[i].visible < 0.9f);
    assert_true(sc.cards[sc.ncards - 1].visible > 0.97f);
    ts_scene_free(&sc);
    /* Scattered cards do not overlap. */
    s = spec_for(TS_FAM_QWIRKLE, 10, 4, TS_LAYOUT_SCATTER);
    render_ok(&s, &sc);
    for (int i = 0; i < sc.ncards; i++)
        assert_true(sc.cards[i].visible > 0.97f);
    ts_scene_free(&sc);
}

static void test_decks(void **state)
{
    (void)state;
    const int sizes[TS_FAM_COUNT] = {81, 52, 64, 108, 84};
    for (int f = 0; f < TS_FAM_COUNT; f++) {
        assert_int_equal(ts_render_deck_size((ts_family)f), sizes[f]);
        ts_code all[128];
        int n = ts_render_draw_cards((ts_family)f, 200, 9, all);
        assert_int_equal(n, sizes[f]); /* never more than the deck holds */
        int seen[128] = {0};
        for (int i = 0; i < n; i++)
            seen[all[i].idx]++;
        for (int idx = 0; idx < ts_family_size((ts_family)f); idx++)
            assert_int_equal(seen[idx], ts_render_deck_copies((ts_code){(uint8_t)f, (uint8_t)idx}));
    }
    assert_int_equal(ts_render_deck_copies((ts_code){TS_FAM_GOF, 35}), 0); /* no such card */
    assert_int_equal(ts_render_deck_copies((ts_code){TS_FAM_GOF, 61}), 1);
    assert_int_equal(ts_render_deck_copies((ts_code){TS_FAM_GOF, 3}), 2);
}

static void test_sequences(void **state)
{
    (void)state;
    ts_scene_spec look = {.w = 320, .h = 240, .seed = 5};
    static ts_sequence seq;
    char err[TSCV_ERR_MAX];
    for (int k = 0; k < TS_SEQ_COUNT; k++) {
        assert_int_equal(ts_sequence_from_name(ts_sequence_name((ts_sequence_kind)k)), k);
        assert_int_equal(ts_render_sequence((ts_sequence_kind)k, &look, &seq, err), 0);
        assert_int_equal(seq.table.family, ts_sequence_family((ts_sequence_kind)k));
        assert_true(seq.nframes >= 10 && seq.nframes <= TS_SEQ_MAX_FRAMES);
        assert_true(seq.table.ncards > 0 && seq.table.ncards < 64);
        for (int f = 0; f < seq.nframes; f++) /* frames hold only planned cards */
            assert_int_equal(seq.present[f] >> seq.table.ncards, 0);
    }
    /* deal: 40 frames from an empty table to twelve cards, then a Set gone */
    assert_int_equal(ts_render_sequence(TS_SEQ_DEAL, &look, &seq, err), 0);
    assert_int_equal(seq.nframes, 40);
    ts_scene_spec f0, f1;
    ts_sequence_frame(&seq, 0, &f0);
    assert_int_equal(f0.ncards, 0);
    int most = 0, taken[3], nt = 0;
    for (int f = 0; f < seq.nframes; f++) {
        ts_sequence_frame(&seq, f, &f1);
        most = f1.ncards > most ? f1.ncards : most;
    }
    assert_int_equal(most, 12);
    assert_int_equal(f1.ncards, 9);
    for (int i = 0; i < 12; i++)
        if (!(seq.present[seq.nframes - 1] >> i & 1))
            taken[nt++] = seq.table.cards[i].code.idx;
    assert_int_equal(nt, 3);
    assert_true(ts_set_is_set(taken[0], taken[1], taken[2]));
    /* the camera stays put: a card at rest has the same corners in two frames */
    ts_sequence_frame(&seq, 4, &f0);
    ts_sequence_frame(&seq, 30, &f1);
    ts_scene a, b;
    render_ok(&f0, &a);
    render_ok(&f1, &b);
    assert_memory_equal(a.cards[0].quad, b.cards[0].quad, sizeof a.cards[0].quad);
    ts_scene_free(&a);
    ts_scene_free(&b);
    /* trick: cards only arrive, and each play beats the one before */
    assert_int_equal(ts_render_sequence(TS_SEQ_TRICK, &look, &seq, err), 0);
    ts_gof_combo last;
    int plays = 0;
    for (int f = 1; f < seq.nframes; f++) {
        assert_int_equal(seq.present[f - 1] & ~seq.present[f], 0);
        uint64_t added = seq.present[f] & ~seq.present[f - 1];
        if (!added)
            continue;
        int cards[8], n = 0;
        for (int i = 0; i < seq.table.ncards; i++)
            if (added >> i & 1)
                cards[n++] = seq.table.cards[i].code.idx;
        ts_gof_combo play;
        assert_int_equal(ts_gof_classify(cards, n, &play), TS_GOF_OK);
        if (plays++)
            assert_true(ts_gof_beats(&play, &last));
        last = play;
    }
    assert_true(plays >= 2);
    /* mainline: one card more every two frames */
    assert_int_equal(ts_render_sequence(TS_SEQ_MAINLINE, &look, &seq, err), 0);
    ts_sequence_frame(&seq, seq.nframes - 1, &f1);
    assert_int_equal(f1.ncards, seq.table.ncards);
    assert_int_equal(f1.family, TS_FAM_PLAYING);
}

static void test_bad_input(void **state)
{
    (void)state;
    ts_scene_spec s = spec_for(TS_FAM_SET, 3, 1, TS_LAYOUT_GRID);
    ts_scene sc;
    char err[TSCV_ERR_MAX] = "";
    s.w = 10;
    assert_int_equal(ts_render_scene(&s, &sc, err), -1);
    assert_non_null(strstr(err, "10x320"));
    assert_int_equal(sc.ncards, 0);
    ts_scene_free(&sc); /* safe after a failure */
    s.w = 480;
    s.ncards = TS_RENDER_MAX_CARDS + 1;
    assert_int_equal(ts_render_scene(&s, &sc, err), -1);
    assert_non_null(strstr(err, "cards"));
    s.ncards = 1;
    s.cards[0].code = (ts_code){TS_FAM_GOF, 35};
    assert_int_equal(ts_render_scene(&s, &sc, err), -1);
    assert_non_null(strstr(err, "no card"));
    ts_image face, alpha;
    assert_int_equal(
        ts_render_face((ts_code){TS_FAM_SET, 81}, TS_DECK_CLASSIC, 4, 1, 1, &face, &alpha, err),
        -1);
    assert_int_equal(
        ts_render_face((ts_code){TS_FAM_SET, 3}, TS_DECK_CLASSIC, 0, 1, 1, &face, &alpha, err), -1);
    assert_int_equal(ts_render_sequence((ts_sequence_kind)7, &s, &(ts_sequence){0}, err), -1);
    assert_int_equal(ts_sequence_from_name("poker"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_truth_matches_picture),
        cmocka_unit_test(test_every_family),  cmocka_unit_test(test_layouts_and_visibility),
        cmocka_unit_test(test_decks),         cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
