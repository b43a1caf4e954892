/* Playing cards cut by the frame's edge, read through the pipeline.
 *
 * A phone held over a table cuts the cards at the picture's edge; the
 * index corner that stays in the frame is all there is to read them by.
 * Rendered close-ups of one card (seeds 81200+, never used while tuning)
 * are cut through the middle of the card, keeping one index corner in the
 * frame: the card must read right from that index. Real phone photos (../shared/data/playing, the
 * held-out series from 19:50) check one such card each.
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
#include "game_pipeline.h"
#include "pipeline.h"
#include "render.h"
#include "render_table.h"
#include "shared_data.h"

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"

/* One playing card dealt alone into a size x size frame. */
static void render_one_card(uint64_t seed, int size, ts_scene *sc)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(render_one_playing_card(seed, size, sc, err), 0);
}

/* How the pipeline read a frame with one card of code want: 1 right, -1
 * another code above the floor (or a second card), 0 nothing read. */
static int read_one(ts_pipeline *p, const ts_image *img, int want)
{
    char err[256];
    ts_frame_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ts_pipeline_process(p, img, &r, err, sizeof err), 0);
    int right = 0, wrong = 0;
    if (getenv("TS_DEBUG"))
        for (int i = 0; i < r.ncards; i++)
            fprintf(stderr, "  want %d read %d conf %.3f\n", want, r.cards[i].code.idx,
                    r.cards[i].conf);
    for (int i = 0; i < r.ncards; i++) {
        if (!r.cards[i].read)
            continue;
        if (r.cards[i].code.idx == want && !right)
            right = 1;
        else
            wrong = 1;
    }
    return wrong ? -1 : right;
}

/* Close-ups cut through the card's middle across its length, the half
 * with an index corner kept. Measured: 15 of 20 read right, 3 read wrong
 * above the floor (the start of session 11: 12 right, 4 wrong). The wrong
 * ones are ranks misread from a quad around the half that shows (3D as 2D
 * twice, 8S as 9D), a known weakness: the floors keep it from growing. */
static void test_rendered_cut_cards(void **state)
{
    (void)state;
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    int cards = 0, right = 0, wrong = 0;
    for (uint64_t seed = 81200; seed < 81220; seed++) {
        ts_scene sc;
        render_one_card(seed, 640, &sc);
        const ts_pt *q = sc.cards[0].quad;
        /* the card's middle across its length, in frame rows: the frame is
         * cut there, above it the top-left index corner (the card may lie
         * turned, so the cut follows the index's corner) */
        ts_pt idx = {0.9f * q[0].x + 0.1f * q[2].x, 0.9f * q[0].y + 0.1f * q[2].y};
        ts_pt mid = {0.5f * (q[0].x + q[2].x), 0.5f * (q[0].y + q[2].y)};
        int top = idx.y < mid.y;
        int cut = (int)lroundf(mid.y);
        ts_image part = top ? ts_image_roi(&sc.img, 0, 0, sc.img.w, cut)
                            : ts_image_roi(&sc.img, 0, cut, sc.img.w, sc.img.h - cut);
        int got = read_one(p, &part, sc.cards[0].code.idx);
        cards++;
        right += got == 1;
        wrong += got < 0;
        if (got != 1 && getenv("TS_DEBUG"))
            fprintf(stderr, "seed %d: %s\n", (int)seed, got < 0 ? "wrong" : "not read");
        ts_scene_free(&sc);
    }
    fprintf(stderr, "cut close-ups: %d/%d read right, %d wrong\n", right, cards, wrong);
    assert_true(right >= 14);
    assert_true(wrong <= 3);
    ts_pipeline_destroy(p);
}

/* Held-out phone photos (19:50 on) each with a card that no candidate found
 * at the start of session 11 (0 of 3): a 2D cut by the right edge beside
 * an 8S, whose one index shows, and close-ups of a 9C and a KH on a white
 * desk, whose index glyphs are too big for the index finder's two levels. */
static void test_phone_cut_cards(void **state)
{
    (void)state;
    if (!shared_file_exists(PLAYING_DIR "labels.tsv")) {
        skip();
        return;
    }
    static const struct {
        const char *name;
        const char *code;
    } photos[] = {
        {"cardcounter_phone_IMG_20220921_200200_jpg.jpg", "2D"},
        {"cardcounter_phone_IMG_20220921_195304_jpg.jpg", "9C"},
        {"cardcounter_phone_IMG_20220921_195309_jpg.jpg", "KH"},
    };
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    int right = 0;
    for (size_t i = 0; i < sizeof photos / sizeof photos[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%simages/%s", PLAYING_DIR, photos[i].name);
        int found = photo_cards(p, path, photos[i].code, NULL);
        assert_true(found >= 0);
        right += found > 0;
    }
    fprintf(stderr, "phone photos' cut cards: %d/3 read\n", right);
    assert_int_equal(right, 3);
    ts_pipeline_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rendered_cut_cards),
        cmocka_unit_test(test_phone_cut_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
