/* Playing cards held up to a webcam (../shared/data/playing, the
 * cardcounter_webcam frames: 640 x 640, squeezed, blurred, a hand over the
 * card, a face, a window and a shirt behind). The reader's net trained on
 * the earlier half of them (in the time order of the UUID1 in their names,
 * models/playing_frame_labels.py); this reads the later half, never trained
 * on. What it guards is the rule that an unsure card is unread: the
 * window's bars, the face and the shirt must not come out as confident
 * cards (before the index-shape check, 36 confident false cards and 63
 * confident misreadings on the 111 frames). Skips when ../shared is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game_pipeline.h"
#include "imageio.h"
#include "pipeline.h"
#include "render_table.h"
#include "uuid1_time.h"

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"

enum { MAX_FRAMES = 256 };

static void test_webcam_frames_no_confident_junk(void **state)
{
    (void)state;
    static webcam_frame fr[MAX_FRAMES];
    int h, n = webcam_frames(PLAYING_DIR "labels.tsv", fr, MAX_FRAMES, &h);
    if (n < 0) {
        fprintf(stderr, "shared data not found at %s\n", PLAYING_DIR);
        skip();
    }
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    int frames = 0, right = 0, sure_wrong = 0;
    for (int i = h; i < n; i++) {
        char path[1100];
        snprintf(path, sizeof path, PLAYING_DIR "%s", fr[i].name);
        int others = 0, same = photo_cards(p, path, fr[i].label, &others);
        assert_true(same >= 0);
        right += same > 0;
        sure_wrong += others + (same > 1 ? same - 1 : 0); /* the card read twice */
        frames++;
    }
    ts_pipeline_destroy(p);
    fprintf(stderr, "webcam frames: %d, read right %d, confident cards that are not there %d\n",
            frames, right, sure_wrong);
    assert_int_equal(n, 111);
    assert_int_equal(frames, 55);
    /* measured 0 on these 55 frames (session 6's net, never trained on any
     * webcam frame: 9); before the index-shape check about one a frame (99
     * on all 111) */
    assert_true(sure_wrong <= 2);
    /* measured 46 (session 17: a held card neither its quad nor the fit
     * reads, read from a glyph pair about it where the face agrees;
     * session 15: 43, a fitted quad's index read where its glyph
     * pair lies; session 14: 42, the held finder unsqueezes a squeezed
     * frame's pips; session 13: 41; session 12: 39; the fit looking at the
     * quad shrunk, and the index shape looked for on the fitted quad
     * grown, added 2); every
     * held quad fitted, pips cut by the frame's edge not counted: 36 before;
     * held quads fitted to the face: 30 without; 15 before the held-card
     * finder) */
    assert_true(right >= 44);
}

/* Other games' rendered tables read as playing cards: their pips and
 * symbols make held-card quads too, and neither a quad fitted to the face
 * nor the face alone may make a sure card of them. Each of these scenes
 * gave one when every held quad was fitted (a domino 6D at 0.93 read from
 * the face alone, seed 96001 of tests/cli/auto_family.sh; a domino AH at
 * 0.98 and a Gang of Four JD at 0.97 read from the index of a fitted quad;
 * a domino 2S at 0.92 from a loose quad a fitted one no longer covered). */
static void test_other_games_no_held_cards(void **state)
{
    (void)state;
    static const struct {
        ts_family fam;
        uint64_t seed;
    } scenes[] = {{TS_FAM_DOMINO, 96001}, {TS_FAM_DOMINO, 98017}, {TS_FAM_GOF, 98004},
                  {TS_FAM_DOMINO, 97006}};
    char err[TSCV_ERR_MAX];
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    static ts_frame_result res;
    for (size_t s = 0; s < sizeof scenes / sizeof *scenes; s++) {
        ts_scene sc;
        assert_int_equal(render_table(scenes[s].fam, scenes[s].seed, TS_LAYOUT_AUTO, 1, &sc, err), 0);
        assert_int_equal(ts_pipeline_process(p, &sc.img, &res, err, sizeof err), 0);
        for (int k = 0; k < res.ncards; k++) {
            if (res.cards[k].read)
                fprintf(stderr, "seed %llu: sure %s\n", (unsigned long long)scenes[s].seed,
                        res.cards[k].text);
            assert_false(res.cards[k].read);
        }
        ts_scene_free(&sc);
    }
    ts_pipeline_destroy(p);
}

/* A playing table's top card under a held quad found on its pips (seed
 * 109021 of tests/tools/auto_family_lists.sh's renders): a glyph pair's
 * card twelve times the held quad's size was read 7H there, surely and
 * steadily, and the pipeline, given the held quad's area with it, dropped
 * the 7H as a speck. A pair's card must be of a card's size for the held
 * quad (the table path reads the 7H), and a quad the held path moves
 * carries its own area. */
static void test_moved_quad_keeps_its_size(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    static ts_frame_result res;
    ts_scene sc;
    assert_int_equal(render_table(TS_FAM_PLAYING, 109021, TS_LAYOUT_AUTO, 1, &sc, err), 0);
    assert_int_equal(ts_pipeline_process(p, &sc.img, &res, err, sizeof err), 0);
    int top = 0;
    for (int k = 0; k < res.ncards; k++)
        top += res.cards[k].read && strcmp(res.cards[k].text, "7H") == 0;
    assert_int_equal(top, 1);
    ts_scene_free(&sc);
    ts_pipeline_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_webcam_frames_no_confident_junk),
        cmocka_unit_test(test_other_games_no_held_cards),
        cmocka_unit_test(test_moved_quad_keeps_its_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
