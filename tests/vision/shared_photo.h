/* Shared photos as the detector sees them, for the tests that compare the
 * project's image stages with OpenCV's (test_blur.c, test_canny.c,
 * test_contours.c). Include after cmocka.h. */
#ifndef TS_TEST_SHARED_PHOTO_H
#define TS_TEST_SHARED_PHOTO_H

#include <stdio.h>

#include "cv/cvwrap.h"
#include "imageio.h"

#define TABLE_PHOTO TS_SHARED_DIR "/data/playing/images/cardcounter_phone_IMG_20220921_194841_jpg.jpg"
#define BOARD_PHOTO TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg"

/* Loads path into *grey (the test is skipped when the shared data is not
 * there) and, when small is given, shrinks it to 640 wide as the detector
 * does. The caller frees what it gets. */
static inline void load_grey_photo(const char *path, ts_image *grey, ts_image *small)
{
    ts_image img;
    char err[TSCV_ERR_MAX];
    if (ts_image_load(path, &img, err, sizeof err) < 0) {
        fprintf(stderr, "shared photo not found: %s\n", err);
        skip();
    }
    assert_int_equal(tscv_grey(&img, grey, err), 0);
    ts_image_free(&img);
    if (small)
        assert_int_equal(tscv_resize(grey, small, 640, grey->h * 640 / grey->w, err), 0);
}

#endif
