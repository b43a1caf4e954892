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
#include "cv/cvdraw.h"
#include "cv/cvwrap.h"
#include "detect.h"
#include "imageio.h"
#include "set_reader.h"

#define SET_DIR TS_SHARED_DIR "/data/set/"

#define have_shared() shared_file_exists(SET_DIR "crops.tsv")

/* The classic deck's profile (into prof) and a reader of it (caller destroys). */
static ts_set_reader *classic_reader(ts_profile *prof)
{
    char err[256];
    assert_int_equal(ts_profile_load("classic", NULL, prof, err, sizeof err), 0);
    ts_set_reader *r = ts_set_reader_create(prof);
    assert_non_null(r);
    return r;
}

static void test_reader_on_held_out_crops(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_profile prof;
    char err[256];
    ts_set_reader *r = classic_reader(&prof);
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

/* What is no SET shape, made from real cards: a lone shape's place
 * painted over with the paper beside it (rows y0..y1), then a round blob
 * of its ink in the middle (a domino's pip, a heart or a spade read in a
 * quad of its own), or the lower half of a diamond painted over (a
 * triangle: a diamond cut by the edge of a card lying over it). The reader
 * must not be sure of either. (A cut oval or squiggle leaves a half still
 * fairly alike to itself turned half a turn: not tested.) */
static void paint_paper(ts_image *card, int y0, int y1)
{
    for (int y = y0; y < y1; y++) {
        uint8_t *row = ts_image_row(card, y);
        const uint8_t *paper = row + 3 * (card->w / 10);
        for (int x = card->w / 10 + 1; x < card->w * 9 / 10; x++)
            memcpy(row + 3 * x, paper, 3);
    }
}

static void round_blob(ts_image *card)
{
    const uint8_t *mid = ts_image_row(card, card->h / 2) + 3 * (card->w / 2);
    ts_bgr ink = {mid[0], mid[1], mid[2]};
    char err[256];
    paint_paper(card, card->h / 4, card->h * 3 / 4);
    assert_int_equal(tscv_circle(card, card->w / 2.0f, card->h / 2.0f, card->w * 0.15f, ink, -1,
                                 err),
                     0);
}

/* Whether the reader is sure of card (no SET card: any reading above the floor). */
static int sure_of(ts_set_reader *r, const ts_image *card, float floor)
{
    ts_set_reading rd;
    char err[256];
    assert_int_equal(ts_set_read(r, card, &rd, err), 0);
    return rd.is_card && rd.conf_all >= floor;
}

/* Whether the reader reads card as no SET card or as another deck's marks
 * (ts_set_reading.foreign: the pipeline reads no other quad there). */
static int foreign_or_none(ts_set_reader *r, const ts_image *card)
{
    ts_set_reading rd;
    char err[256];
    assert_int_equal(ts_set_read(r, card, &rd, err), 0);
    return !rd.is_card || rd.foreign;
}

/* Every single solid symbol of the held-out half, the first crop of each
 * code (chosen by rule), that the reader reads right as it is. */
static void test_reader_unsure_of_no_set_shape(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_profile prof;
    char err[256];
    ts_set_reader *r = classic_reader(&prof);
    FILE *f = fopen(SET_DIR "crops.tsv", "r");
    assert_non_null(f);
    char line[1024], seen[32][5] = {{0}};
    int lineno = 0, nseen = 0, whole = 0, diamonds = 0, sure_blob = 0, sure_cut = 0;
    int foreign_blob = 0;
    while (fgets(line, sizeof line, f) && nseen < 32) {
        lineno++;
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || lineno % 2 != 0 || !tab || tab[1] != '1' || tab[4] != 'S')
            continue;
        int first = 1;
        for (int k = 0; k < nseen && first; k++)
            first = memcmp(seen[k], tab + 1, 4) != 0;
        if (!first)
            continue;
        memcpy(seen[nseen++], tab + 1, 4);
        *tab = '\0';
        int want;
        assert_int_equal(ts_set_parse(NULL, tab + 1, 4, &want), 0);
        char path[2048];
        snprintf(path, sizeof path, SET_DIR "%s", line);
        ts_image img, card = {0}, blob = {0};
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        assert_int_equal(tscv_resize(&img, &card, TS_CARD_W, TS_CARD_H, err), 0);
        ts_set_reading rd;
        assert_int_equal(ts_set_read(r, &card, &rd, err), 0);
        if (rd.is_card && rd.idx == want && rd.conf_all >= prof.conf_floor) {
            assert_false(rd.foreign); /* a SET symbol has SET's form */
            whole++;
            assert_int_equal(tscv_resize(&card, &blob, TS_CARD_W, TS_CARD_H, err), 0);
            round_blob(&blob);
            sure_blob += sure_of(r, &blob, prof.conf_floor);
            foreign_blob += foreign_or_none(r, &blob);
            if (tab[3] == 'D') {
                diamonds++;
                paint_paper(&card, card.h / 2, card.h * 3 / 4);
                sure_cut += sure_of(r, &card, prof.conf_floor);
            }
        }
        ts_image_free(&img);
        ts_image_free(&card);
        ts_image_free(&blob);
    }
    fclose(f);
    ts_set_reader_destroy(r);
    fprintf(stderr, "single solid shapes: %d read whole; sure of %d as round blobs, of %d of %d "
            "diamonds cut\n", whole, sure_blob, sure_cut, diamonds);
    assert_true(whole >= 6 && diamonds >= 2);
    assert_int_equal(sure_blob, 0);
    assert_int_equal(foreign_blob, whole);
    assert_int_equal(sure_cut, 0);
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
        cmocka_unit_test(test_reader_unsure_of_no_set_shape),
        cmocka_unit_test(test_detector_finds_every_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
