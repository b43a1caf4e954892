/* Held webcam cards whose index the frame's glyph pairs miss (dim frames,
 * glyphs of 8-10 px blurred together, some inside a light box drawn round
 * the index): the reader looks for the pairs again in the held quad's
 * region, enlarged (held_pairs, readers/playing.c). Each frame must read
 * its one card sure and no other card sure; a black 5 whose enlarged pips
 * pair read 5C before the pairs were held to an index's step. Skips when
 * ../shared is absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game_pipeline.h"
#include "imageio.h"
#include "shared_data.h"

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"

static void test_dim_frames_read_from_region_pairs(void **state)
{
    (void)state;
    if (!shared_file_exists(PLAYING_DIR "labels.tsv")) {
        skip();
        return;
    }
    static const struct {
        const char *name;
        const char *code;
    } frames[] = {
        {"cardcounter_webcam_10s-9af256ef-3992-11ed-8b75-ec2e98cc7ff6_jpg.jpg", "TS"},
        {"cardcounter_webcam_3s-ed7cff5e-3992-11ed-b1f8-ec2e98cc7ff6_jpg.jpg", "3S"},
        {"cardcounter_webcam_8d-7f928c9d-3991-11ed-9ed4-ec2e98cc7ff6_jpg.jpg", "8D"},
        {"cardcounter_webcam_5s-d58af2c0-3992-11ed-8a0f-ec2e98cc7ff6_jpg.jpg", "5S"},
    };
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%simages/%s", PLAYING_DIR, frames[i].name);
        int wrong = 0;
        int right = photo_cards(p, path, frames[i].code, &wrong);
        fprintf(stderr, "%s: %s read %d, other cards sure %d\n", frames[i].name, frames[i].code,
                right, wrong);
        assert_int_equal(right, 1);
        assert_int_equal(wrong, 0);
    }
    ts_pipeline_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dim_frames_read_from_region_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
