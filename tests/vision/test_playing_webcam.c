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

#include "imageio.h"
#include "pipeline.h"
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
    char err[256];
    ts_pipeline_config cfg = {.game = "playing"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(p);
    static ts_frame_result res;
    int frames = 0, right = 0, sure_wrong = 0;
    for (int i = h; i < n; i++) {
        char path[1100];
        snprintf(path, sizeof path, PLAYING_DIR "%s", fr[i].name);
        ts_image img;
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        assert_int_equal(ts_pipeline_process(p, &img, &res, err, sizeof err), 0);
        int hit = 0;
        for (int k = 0; k < res.ncards; k++) {
            if (!res.cards[k].read)
                continue;
            if (!hit && strcmp(res.cards[k].text, fr[i].label) == 0)
                hit = 1;
            else
                sure_wrong++;
        }
        right += hit;
        frames++;
        ts_image_free(&img);
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
    /* measured 36 (held quads fitted to the face: 30 without; 15 before the
     * held-card finder) */
    assert_true(right >= 33);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_webcam_frames_no_confident_junk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
