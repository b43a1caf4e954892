/* The pipeline end to end on real photos, and the table solved from it:
 * cards, Sets, the confidence floor, the duplicate-card conflict, game
 * names and profiles, --game auto, one reader or two. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "imageio.h"
#include "pipeline.h"
#include "table.h"
#include "set.h"

#define BOARD TS_SHARED_DIR "/data/set/boards/tomwhite_set-game_data_webcam_20170529_184024.jpg"
#define CROP TS_SHARED_DIR "/data/set/crops/2RDS/tomwhite_set-game_data_train-v2_labelled_2-red-solid-diamonds_20170311_134851_2_24.jpg"

static int load(const char *path, ts_image *img)
{
    char err[256];
    if (ts_image_load(path, img, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static void test_board(void **state)
{
    (void)state;
    ts_image img;
    if (load(BOARD, &img) < 0)
        skip();
    char err[256];
    ts_pipeline *p = ts_pipeline_create(NULL, err, sizeof err);
    assert_non_null(p);
    ts_table t = {0};
    ts_frame_result r = {0};
    assert_int_equal(ts_pipeline_process(p, &img, &r, err, sizeof err), 0);
    t.frame = r;
    ts_table_solve(&t);
    assert_int_equal(r.family, TS_FAM_SET);
    assert_int_equal(r.w, 960);
    assert_int_equal(r.ncards, 12);
    /* The Sets are exactly those among the read cards. */
    int idx[TS_MAX_CARDS], pos[TS_MAX_CARDS], n = 0;
    for (int i = 0; i < r.ncards; i++)
        if (r.cards[i].read) {
            idx[n] = r.cards[i].code.idx;
            pos[n++] = i;
        }
    int sets[TS_MAX_SETS][3];
    int ns = ts_set_find_all(idx, n, sets, TS_MAX_SETS);
    assert_int_equal(t.nsets, ns);
    for (int s = 0; s < ns; s++) {
        for (int k = 0; k < 3; k++)
            assert_int_equal(t.sets[s][k], pos[sets[s][k]]);
        assert_true(ts_set_is_set(r.cards[t.sets[s][0]].code.idx, r.cards[t.sets[s][1]].code.idx,
                                  r.cards[t.sets[s][2]].code.idx));
    }
    assert_int_equal(t.conflict, 0);
    /* Stage timers are stamped inside the pipeline. */
    assert_true(r.ms_detect > 0 && r.ms_rectify > 0 && r.ms_read > 0);
    assert_true(r.ms_read_by[TS_FAM_SET] == r.ms_read);
    assert_true(r.ms_total >= r.ms_detect + r.ms_read);
    ts_pipeline_destroy(p);

    /* With a floor no reading reaches, every card is unread and no Set is drawn. */
    ts_pipeline_config cfg = {.conf_floor = 1.01f};
    p = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(p);
    assert_int_equal(ts_pipeline_process(p, &img, &r, err, sizeof err), 0);
    assert_int_equal(r.ncards, 12);
    for (int i = 0; i < r.ncards; i++)
        assert_false(r.cards[i].read);
    t.frame = r;
    ts_table_solve(&t);
    assert_int_equal(t.nsets, 0);
    ts_pipeline_destroy(p);
    ts_image_free(&img);
}

/* Two copies of one card photo on a dark table: one deck has no duplicates,
 * so the table is flagged as a recognition conflict. */
static void test_duplicate_is_conflict(void **state)
{
    (void)state;
    ts_image card, table;
    if (load(CROP, &card) < 0)
        skip();
    assert_int_equal(ts_image_alloc(&table, 800, 500, 3), 0);
    memset(table.buf, 25, (size_t)table.stride * table.h);
    for (int copy = 0; copy < 2; copy++)
        for (int y = 0; y < card.h; y++)
            memcpy(ts_image_row(&table, 100 + y) + 3 * (150 + copy * 300), ts_image_row(&card, y),
                   (size_t)card.w * 3);
    char err[256];
    ts_pipeline *p = ts_pipeline_create(NULL, err, sizeof err);
    ts_table t = {0};
    ts_frame_result *r0 = &t.frame;
    assert_int_equal(ts_pipeline_process(p, &table, r0, err, sizeof err), 0);
    ts_table_solve(&t);
    const ts_frame_result r = *r0;
    assert_int_equal(r.ncards, 2);
    assert_int_equal(r.cards[0].code.idx, r.cards[1].code.idx);
    char code[TS_CODE_MAXLEN];
    ts_code_format(r.cards[0].code, code);
    assert_string_equal(code, "2RDS");
    assert_int_equal(t.conflict, 1);
    ts_pipeline_destroy(p);
    ts_image_free(&card);
    ts_image_free(&table);
}

static void test_bad_config(void **state)
{
    (void)state;
    char err[256] = "";
    ts_pipeline_config cfg = {.game = "poker"};
    assert_null(ts_pipeline_create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "poker"));
    ts_pipeline_config cfg2 = {.profile = "nosuch"};
    assert_null(ts_pipeline_create(&cfg2, err, sizeof err));
    assert_non_null(strstr(err, "nosuch"));
    /* A profile of another family is refused by name; a game's cards are
     * the family's (eleusis is played with playing cards). */
    ts_pipeline_config cfg3 = {.game = "set", .profile = "double-six"};
    assert_null(ts_pipeline_create(&cfg3, err, sizeof err));
    assert_non_null(strstr(err, "not a set profile"));
    ts_pipeline_config cfg4 = {.game = "set"};
    ts_pipeline *p = ts_pipeline_create(&cfg4, err, sizeof err);
    assert_non_null(p);
    assert_int_equal(ts_pipeline_family(p), TS_FAM_SET);
    ts_code c;
    assert_int_equal(ts_pipeline_parse_code(p, TS_FAM_SET, "2RDS", 4, &c), 0);
    char text[TS_CODE_MAXLEN];
    ts_pipeline_format_code(p, c, text);
    assert_string_equal(text, "2RDS");
    ts_pipeline_destroy(p);
}

/* --game auto tells the family from the cards: a SET board reads as SET,
 * with the same cards as --game set. */
static void test_auto_finds_set(void **state)
{
    (void)state;
    ts_image img;
    if (load(BOARD, &img) < 0)
        skip();
    char err[256];
    ts_pipeline_config a = {.game = "auto"}, s = {.game = "set"};
    ts_pipeline *pa = ts_pipeline_create(&a, err, sizeof err), *ps = ts_pipeline_create(&s, err, sizeof err);
    assert_non_null(pa);
    assert_non_null(ps);
    assert_int_equal(ts_pipeline_family(pa), -1);
    ts_frame_result ra = {0}, rs = {0};
    assert_int_equal(ts_pipeline_process(pa, &img, &ra, err, sizeof err), 0);
    assert_int_equal(ts_pipeline_process(ps, &img, &rs, err, sizeof err), 0);
    assert_int_equal(ra.family, TS_FAM_SET);
    assert_int_equal(ra.ncards, rs.ncards);
    for (int i = 0; i < ra.ncards; i++)
        assert_string_equal(ra.cards[i].text, rs.cards[i].text);
    ts_pipeline_destroy(pa);
    ts_pipeline_destroy(ps);
    ts_image_free(&img);
}

/* Reads img with auto and with game/profile; the family must be the same,
 * and so must every card, in the deck's own letters. */
static void auto_reads_as(const ts_image *img, const char *game, const char *profile, int family)
{
    char err[256];
    ts_pipeline_config a = {.game = "auto"}, g = {.game = game, .profile = profile};
    ts_pipeline *pa = ts_pipeline_create(&a, err, sizeof err), *pg = ts_pipeline_create(&g, err, sizeof err);
    assert_non_null(pa);
    assert_non_null(pg);
    ts_frame_result ra = {0}, rg = {0};
    assert_int_equal(ts_pipeline_process(pa, img, &ra, err, sizeof err), 0);
    assert_int_equal(ts_pipeline_process(pg, img, &rg, err, sizeof err), 0);
    assert_int_equal(ra.family, family);
    assert_true(rg.ncards > 0);
    assert_int_equal(ra.ncards, rg.ncards);
    for (int i = 0; i < ra.ncards; i++)
        assert_string_equal(ra.cards[i].text, rg.cards[i].text);
    if (ra.ncards > 0) { /* codes print as the chosen deck prints them */
        char text[TS_CODE_MAXLEN];
        ts_pipeline_format_code(pa, ra.cards[0].code, text);
        assert_string_equal(text, rg.cards[0].text);
    }
    ts_pipeline_destroy(pa);
    ts_pipeline_destroy(pg);
}

/* Auto tries the profiles whose pieces need their own finder: black
 * Qwirkle tiles on a board, western domino tiles. And a single playing
 * card is a playing card, not a SET card with one red shape (both readers
 * are sure of it: the more particular reading wins). */
static void test_auto_other_pieces(void **state)
{
    (void)state;
    static const struct {
        const char *path, *game, *profile;
        int family;
    } cases[] = {
        {TS_SHARED_DIR "/data/qwirkle/images/tr1_00.jpg", "qwirkle", "tiles", TS_FAM_QWIRKLE},
        {TS_SHARED_DIR "/data/domino/images/g1_05.jpg", "domino", "double-six", TS_FAM_DOMINO},
        {TS_SHARED_DIR "/data/playing/images/guillex7_template_AH.jpg", "playing", NULL,
         TS_FAM_PLAYING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_image img;
        if (load(cases[i].path, &img) < 0)
            skip();
        auto_reads_as(&img, cases[i].game, cases[i].profile, cases[i].family);
        ts_image_free(&img);
    }
}

/* Tiny and blank frames are answered with no cards, never an error, by
 * every family's finder and reader (an 8x8 frame once failed an OpenCV
 * assertion in the detector's adaptive threshold). */
static void test_tiny_frames(void **state)
{
    (void)state;
    char err[256];
    ts_pipeline_config cfg = {.game = "auto"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(p);
    for (int side = 1; side <= 40; side += side < 16 ? 1 : 8) {
        ts_image img;
        assert_int_equal(ts_image_alloc(&img, side, side + side / 2, 3), 0);
        for (int v = 0; v <= 255; v += 255) {
            memset(img.buf, v, (size_t)img.stride * img.h);
            ts_frame_result r = {0};
            int rc = ts_pipeline_process(p, &img, &r, err, sizeof err);
            if (rc != 0)
                fprintf(stderr, "%dx%d: %s\n", img.w, img.h, err);
            assert_int_equal(rc, 0);
            assert_int_equal(r.ncards == 0 || !r.cards[0].read, 1);
        }
        ts_image_free(&img);
    }
    ts_pipeline_destroy(p);
}

/* Two readers (the live daemon's) give exactly the single reader's result,
 * frame after frame, on the shared photos and the bundled renders. */
static void test_two_readers_same_result(void **state)
{
    (void)state;
    static const char *files[] = {
        BOARD,
        TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg",
        TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_shadow2.jpg",
        TS_SOURCE_DIR "/samples/demo/set_1.jpg",
        TS_SOURCE_DIR "/samples/demo/set_10.jpg",
    };
    char err[256];
    ts_pipeline *one = ts_pipeline_create(NULL, err, sizeof err);
    ts_pipeline_config cfg = {.readers = 2};
    ts_pipeline *two = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(one);
    assert_non_null(two);
    int tested = 0;
    for (int round = 0; round < 3; round++)
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            ts_image img;
            if (load(files[f], &img) < 0)
                continue;
            ts_frame_result a = {0}, b = {0};
            assert_int_equal(ts_pipeline_process(one, &img, &a, err, sizeof err), 0);
            assert_int_equal(ts_pipeline_process(two, &img, &b, err, sizeof err), 0);
            assert_true(a.ncards > 0);
            assert_int_equal(a.ncards, b.ncards);
            for (int c = 0; c < a.ncards; c++) { /* field by field: padding may differ */
                assert_int_equal(a.cards[c].code.idx, b.cards[c].code.idx);
                assert_string_equal(a.cards[c].text, b.cards[c].text);
                assert_true(a.cards[c].conf == b.cards[c].conf);
                assert_int_equal(a.cards[c].read, b.cards[c].read);
                assert_memory_equal(a.cards[c].quad, b.cards[c].quad, sizeof a.cards[c].quad);
            }
            ts_image_free(&img);
            tested++;
        }
    assert_true(tested >= 6); /* the bundled renders at least */
    ts_pipeline_destroy(one);
    ts_pipeline_destroy(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board),
        cmocka_unit_test(test_duplicate_is_conflict),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_auto_finds_set),
        cmocka_unit_test(test_auto_other_pieces),
        cmocka_unit_test(test_tiny_frames),
        cmocka_unit_test(test_two_readers_same_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
