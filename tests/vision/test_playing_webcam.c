/* Playing cards held up to a webcam (../shared/data/playing, the
 * cardcounter_webcam frames: 640 x 640, squeezed, blurred, a hand over the
 * card, a face, a window and a shirt behind). The reader's net never trained
 * on them. What this guards is the rule that an unsure card is unread: the
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

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"

static void test_webcam_frames_no_confident_junk(void **state)
{
    (void)state;
    FILE *f = fopen(PLAYING_DIR "labels.tsv", "r");
    if (!f) {
        fprintf(stderr, "shared data not found at %s\n", PLAYING_DIR);
        skip();
    }
    char err[256];
    ts_pipeline_config cfg = {.game = "playing"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(p);
    static ts_frame_result res;
    char line[1024];
    int frames = 0, k = 0, right = 0, sure_wrong = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "\twebcam_held_card") || k++ % 3) /* every third frame */
            continue;
        char *tab = strchr(line, '\t');
        *tab = 0;
        char label[8] = {0};
        sscanf(tab + 1, "%7s", label);
        char path[1200];
        snprintf(path, sizeof path, PLAYING_DIR "%s", line);
        ts_image img;
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        assert_int_equal(ts_pipeline_process(p, &img, &res, err, sizeof err), 0);
        int hit = 0;
        for (int i = 0; i < res.ncards; i++) {
            if (!res.cards[i].read)
                continue;
            if (!hit && strcmp(res.cards[i].text, label) == 0)
                hit = 1;
            else
                sure_wrong++;
        }
        right += hit;
        frames++;
        ts_image_free(&img);
    }
    fclose(f);
    ts_pipeline_destroy(p);
    fprintf(stderr, "webcam frames: %d, read right %d, confident cards that are not there %d\n",
            frames, right, sure_wrong);
    assert_int_equal(frames, 37);
    /* measured 14 on these 37 frames (11 read right); before the index-shape
     * check about one a frame (99 on all 111) */
    assert_true(sure_wrong <= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_webcam_frames_no_confident_junk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
