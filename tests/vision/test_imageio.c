/* JPEG/PNG decoding: real photos, EXIF orientation, and every kind of bad file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "imageio.h"

#define BOARD TS_SHARED_DIR "/data/set/boards/tomwhite_set-game_data_webcam_20170529_184024.jpg"

static void skip_without_shared(void)
{
    FILE *f = fopen(BOARD, "rb");
    if (!f) {
        fprintf(stderr, "shared data not found at %s\n", TS_SHARED_DIR);
        skip();
    }
    fclose(f);
}

/* A small synthetic BGR test pattern: pixel (x, y) = (x, y, 128). */
static ts_image pattern(int w, int h)
{
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, w, h, 3), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = ts_image_row(&img, y) + 3 * x;
            p[0] = (uint8_t)(x * 255 / (w - 1));
            p[1] = (uint8_t)(y * 255 / (h - 1));
            p[2] = 128;
        }
    return img;
}

static void test_real_photo(void **state)
{
    (void)state;
    skip_without_shared();
    ts_image img;
    char err[256];
    assert_int_equal(ts_image_load(BOARD, &img, err, sizeof err), 0);
    assert_int_equal(img.w, 960);
    assert_int_equal(img.h, 720);
    assert_int_equal(img.channels, 3);
    ts_image_free(&img);
    assert_null(img.buf);
}

static void test_png_round_trip(void **state)
{
    (void)state;
    ts_image a = pattern(37, 23), b;
    char err[256], path[] = "/tmp/ts_test_XXXXXX.png";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    assert_int_equal(ts_image_save(&a, path, err, sizeof err), 0);
    assert_int_equal(ts_image_load(path, &b, err, sizeof err), 0);
    assert_int_equal(b.w, 37);
    assert_int_equal(b.h, 23);
    for (int y = 0; y < a.h; y++)
        assert_memory_equal(ts_image_row(&a, y), ts_image_row(&b, y), (size_t)a.w * 3);
    unlink(path);
    ts_image_free(&a);
    ts_image_free(&b);
}

static void test_jpeg_round_trip(void **state)
{
    (void)state;
    ts_image a = pattern(64, 48), b;
    uint8_t *jpg;
    size_t len;
    char err[256];
    assert_int_equal(ts_jpeg_encode(&a, 95, &jpg, &len, err, sizeof err), 0);
    assert_int_equal(ts_image_decode(jpg, len, &b, err, sizeof err), 0);
    assert_int_equal(b.w, 64);
    assert_int_equal(b.h, 48);
    /* Lossy, but a smooth gradient survives within a few levels. */
    int worst = 0;
    for (int y = 0; y < a.h; y++)
        for (int x = 0; x < a.w * 3; x++) {
            int d = abs(ts_image_row(&a, y)[x] - ts_image_row(&b, y)[x]);
            worst = d > worst ? d : worst;
        }
    assert_true(worst < 12);
    free(jpg);
    ts_image_free(&a);
    ts_image_free(&b);
}

/* Inserts an EXIF APP1 segment with the given orientation after SOI. */
static uint8_t *with_exif(const uint8_t *jpg, size_t len, int orientation, size_t *outlen)
{
    static const uint8_t tiff[] = {'I', 'I', 42, 0, 8, 0, 0, 0, /* header, IFD at 8 */
                                   1, 0,                         /* one entry */
                                   0x12, 0x01, 3, 0, 1, 0, 0, 0, /* 0x0112 SHORT x1 */
                                   0, 0, 0, 0,                   /* value (patched) */
                                   0, 0, 0, 0};                  /* next IFD */
    size_t seg = 2 + 6 + sizeof tiff;
    uint8_t *out = malloc(len + 2 + seg);
    memcpy(out, jpg, 2);
    uint8_t *p = out + 2;
    *p++ = 0xFF;
    *p++ = 0xE1;
    *p++ = (uint8_t)(seg >> 8);
    *p++ = (uint8_t)seg;
    memcpy(p, "Exif\0\0", 6);
    p += 6;
    memcpy(p, tiff, sizeof tiff);
    p[18] = (uint8_t)orientation;
    p += sizeof tiff;
    memcpy(p, jpg + 2, len - 2);
    *outlen = len + 2 + seg;
    return out;
}

static void test_exif_orientation(void **state)
{
    (void)state;
    ts_image a = pattern(40, 20);
    uint8_t *jpg;
    size_t len;
    char err[256];
    assert_int_equal(ts_jpeg_encode(&a, 95, &jpg, &len, err, sizeof err), 0);
    assert_int_equal(ts_exif_orientation(jpg, len), 1);
    for (int o = 1; o <= 8; o++) {
        size_t elen;
        uint8_t *e = with_exif(jpg, len, o, &elen);
        assert_int_equal(ts_exif_orientation(e, elen), o);
        ts_image b;
        assert_int_equal(ts_image_decode(e, elen, &b, err, sizeof err), 0);
        /* 5..8 swap the axes. */
        assert_int_equal(b.w, o >= 5 ? 20 : 40);
        assert_int_equal(b.h, o >= 5 ? 40 : 20);
        if (o == 6) { /* rotate 90 clockwise: the source's top-left goes top-right */
            const uint8_t *tr = ts_image_row(&b, 0) + 3 * (b.w - 1);
            assert_true(tr[0] < 30 && tr[1] < 30);
        }
        if (o == 3) { /* rotate 180: the source's top-left goes bottom-right */
            const uint8_t *br = ts_image_row(&b, b.h - 1) + 3 * (b.w - 1);
            assert_true(br[0] < 30 && br[1] < 30);
        }
        ts_image_free(&b);
        free(e);
    }
    free(jpg);
    ts_image_free(&a);
}

static void expect_decode_error(const uint8_t *data, size_t len, const char *needle)
{
    ts_image img;
    char err[256] = "";
    assert_int_equal(ts_image_decode(data, len, &img, err, sizeof err), -1);
    assert_null(img.buf);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    ts_image a = pattern(64, 48);
    uint8_t *jpg;
    size_t len;
    char err[256];
    assert_int_equal(ts_jpeg_encode(&a, 90, &jpg, &len, err, sizeof err), 0);

    expect_decode_error(jpg, 0, "empty");
    expect_decode_error((const uint8_t *)"hello, not an image", 19, "not a JPEG or PNG");
    expect_decode_error(jpg, len / 2, "truncated");
    expect_decode_error(jpg, 3, "truncated");
    expect_decode_error((const uint8_t *)"\x89PNG\r\n\x1a\n\0\0", 10, "PNG");

    /* Garbage after a valid header, with an end marker: corrupt, not a crash. */
    uint8_t *bad = malloc(len);
    memcpy(bad, jpg, len);
    for (size_t i = len / 3; i < len - 2; i++)
        bad[i] = (uint8_t)(i * 7919);
    ts_image img;
    int rc = ts_image_decode(bad, len, &img, err, sizeof err);
    if (rc == 0) /* libjpeg may recover with a warning; the image is then whole */
        assert_true(img.w == 64 && img.h == 48);
    ts_image_free(&img);

    /* An absurd size in the frame header is refused before allocating. */
    memcpy(bad, jpg, len);
    for (size_t i = 2; i + 8 < len; i++)
        if (bad[i] == 0xFF && (bad[i + 1] == 0xC0 || bad[i + 1] == 0xC2)) {
            bad[i + 5] = 0xFF; /* height 0xFFxx */
            bad[i + 7] = 0xFF; /* width  0xFFxx */
            break;
        }
    expect_decode_error(bad, len, "too large");
    free(bad);
    free(jpg);
    ts_image_free(&a);
}

static void test_missing_and_empty_files(void **state)
{
    (void)state;
    ts_image img;
    char err[256];
    assert_int_equal(ts_image_load("/nonexistent/x.jpg", &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.jpg"));
    char path[] = "/tmp/ts_empty_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ts_image_load(path, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "empty"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_photo),
        cmocka_unit_test(test_png_round_trip),
        cmocka_unit_test(test_jpeg_round_trip),
        cmocka_unit_test(test_exif_orientation),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_missing_and_empty_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
