/* process_frame() end to end on real photos: cards, Sets, the confidence
 * floor, and the duplicate-card conflict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "imageio.h"
#include "process.h"
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
    ts_processor *p = ts_processor_create(NULL, err, sizeof err);
    assert_non_null(p);
    ts_frame_result r = {0};
    assert_int_equal(ts_process_frame(p, &img, &r, err, sizeof err), 0);
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
    assert_int_equal(r.nsets, ns);
    for (int s = 0; s < ns; s++) {
        for (int k = 0; k < 3; k++)
            assert_int_equal(r.sets[s][k], pos[sets[s][k]]);
        assert_true(ts_set_is_set(r.cards[r.sets[s][0]].code.idx, r.cards[r.sets[s][1]].code.idx,
                                  r.cards[r.sets[s][2]].code.idx));
    }
    assert_int_equal(r.conflict, 0);
    ts_processor_destroy(p);

    /* With a floor no reading reaches, every card is unread and no Set is drawn. */
    ts_processor_config cfg = {.conf_floor = 1.01f};
    p = ts_processor_create(&cfg, err, sizeof err);
    assert_non_null(p);
    assert_int_equal(ts_process_frame(p, &img, &r, err, sizeof err), 0);
    assert_int_equal(r.ncards, 12);
    for (int i = 0; i < r.ncards; i++)
        assert_false(r.cards[i].read);
    assert_int_equal(r.nsets, 0);
    ts_processor_destroy(p);
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
    ts_processor *p = ts_processor_create(NULL, err, sizeof err);
    ts_frame_result r = {0};
    assert_int_equal(ts_process_frame(p, &table, &r, err, sizeof err), 0);
    assert_int_equal(r.ncards, 2);
    assert_int_equal(r.cards[0].code.idx, r.cards[1].code.idx);
    char code[TS_CODE_MAXLEN];
    ts_code_format(r.cards[0].code, code);
    assert_string_equal(code, "2RDS");
    assert_int_equal(r.conflict, 1);
    ts_processor_destroy(p);
    ts_image_free(&card);
    ts_image_free(&table);
}

static void test_bad_config(void **state)
{
    (void)state;
    char err[256] = "";
    ts_processor_config cfg = {.game = "poker"};
    assert_null(ts_processor_create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "poker"));
    ts_processor_config cfg2 = {.profile = "nosuch"};
    assert_null(ts_processor_create(&cfg2, err, sizeof err));
    assert_non_null(strstr(err, "nosuch.profile"));
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
    ts_processor *one = ts_processor_create(NULL, err, sizeof err);
    ts_processor_config cfg = {.readers = 2};
    ts_processor *two = ts_processor_create(&cfg, err, sizeof err);
    assert_non_null(one);
    assert_non_null(two);
    int tested = 0;
    for (int round = 0; round < 3; round++)
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            ts_image img;
            if (load(files[f], &img) < 0)
                continue;
            ts_frame_result a = {0}, b = {0};
            assert_int_equal(ts_process_frame(one, &img, &a, err, sizeof err), 0);
            assert_int_equal(ts_process_frame(two, &img, &b, err, sizeof err), 0);
            assert_true(a.ncards > 0);
            assert_int_equal(a.ncards, b.ncards);
            for (int c = 0; c < a.ncards; c++) { /* field by field: padding may differ */
                assert_int_equal(a.cards[c].code.idx, b.cards[c].code.idx);
                assert_string_equal(a.cards[c].text, b.cards[c].text);
                assert_true(a.cards[c].conf == b.cards[c].conf);
                assert_int_equal(a.cards[c].read, b.cards[c].read);
                assert_memory_equal(a.cards[c].quad, b.cards[c].quad, sizeof a.cards[c].quad);
            }
            assert_int_equal(a.nsets, b.nsets);
            assert_memory_equal(a.sets, b.sets, sizeof a.sets[0] * (size_t)a.nsets);
            ts_image_free(&img);
            tested++;
        }
    assert_true(tested >= 6); /* the bundled renders at least */
    ts_processor_destroy(one);
    ts_processor_destroy(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board),
        cmocka_unit_test(test_duplicate_is_conflict),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_two_readers_same_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
