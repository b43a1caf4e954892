/* The real-world decoding corpus (tests/corpus, written by generate.py): every
 * odd-but-valid file decodes to the upright picture (checked by content, so a
 * wrong EXIF rotation, channel order or CMYK inversion fails), and every
 * refusal names the file and the reason. Also the decoding limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "imageio.h"

#define CORPUS TS_SOURCE_DIR "/tests/corpus"

/* Mean B, G, R over a 5x5 patch around the centre of quadrant (qx, qy). */
static void quadrant(const ts_image *img, int qx, int qy, int bgr[3])
{
    int cx = img->w / 4 + qx * (img->w / 2), cy = img->h / 4 + qy * (img->h / 2);
    int sum[3] = {0, 0, 0}, n = 0;
    for (int y = cy - 2; y <= cy + 2; y++)
        for (int x = cx - 2; x <= cx + 2; x++) {
            const uint8_t *p = ts_image_row(img, y) + 3 * x;
            for (int c = 0; c < 3; c++)
                sum[c] += p[c];
            n++;
        }
    for (int c = 0; c < 3; c++)
        bgr[c] = sum[c] / n;
}

/* The upright picture: red, green / blue, white (quad) or 0, 85 / 170, 255 (grey). */
static int picture_ok(const ts_image *img, const char *picture, char *why, size_t n)
{
    static const int QUAD[4][3] = {{0, 0, 255}, {0, 255, 0}, {255, 0, 0}, {255, 255, 255}};
    static const int GREY[4] = {0, 85, 170, 255};
    int grey = strcmp(picture, "grey") == 0;
    for (int q = 0; q < 4; q++) {
        int got[3];
        quadrant(img, q % 2, q / 2, got);
        for (int c = 0; c < 3; c++) {
            int want = grey ? GREY[q] : QUAD[q][c];
            if (abs(got[c] - want) > 60) {
                snprintf(why, n, "quadrant %d is BGR %d,%d,%d", q, got[0], got[1], got[2]);
                return 0;
            }
        }
    }
    return 1;
}

static void test_corpus(void **state)
{
    (void)state;
    FILE *f = fopen(CORPUS "/expected.tsv", "r");
    assert_non_null(f);
    char line[512];
    int files = 0, read_ok = 0, refused = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char name[128], kind[16], what[128];
        int w, h;
        if (sscanf(line, "%127[^\t]\t%15[^\t]\t%d\t%d\t%127[^\n]", name, kind, &w, &h, what) != 5)
            continue;
        files++;
        char path[512], err[512] = "";
        snprintf(path, sizeof path, "%s/%s", CORPUS, name);
        ts_image img;
        int rc = ts_image_load(path, &img, err, sizeof err);
        if (strcmp(kind, "ok") == 0) {
            char why[128] = "";
            if (rc < 0) {
                print_message("FAIL %s: not read: %s\n", name, err);
                bad++;
            } else if (img.w != w || img.h != h) {
                print_message("FAIL %s: %dx%d, want %dx%d\n", name, img.w, img.h, w, h);
                bad++;
            } else if (!picture_ok(&img, what, why, sizeof why)) {
                print_message("FAIL %s: wrong picture: %s\n", name, why);
                bad++;
            } else {
                read_ok++;
            }
            if (rc == 0 && strcmp(what, "grey") == 0 && !ts_image_is_grey(&img)) {
                print_message("FAIL %s: a grey picture is not found grey\n", name);
                bad++;
            }
            if (rc == 0 && strcmp(what, "quad") == 0 && ts_image_is_grey(&img)) {
                print_message("FAIL %s: a colour picture is found grey\n", name);
                bad++;
            }
            ts_image_free(&img);
        } else {
            if (rc == 0) {
                print_message("FAIL %s: decoded, should be refused (%s)\n", name, what);
                ts_image_free(&img);
                bad++;
            } else if (!strstr(err, path) || !strstr(err, what) || strchr(err, '\n')) {
                print_message("FAIL %s: reason '%s' should name the file and say '%s'\n", name,
                              err, what);
                bad++;
            } else {
                assert_null(img.buf);
                refused++;
            }
        }
    }
    fclose(f);
    print_message("corpus: %d files, %d read right, %d refused with a reason, %d wrong\n", files,
                  read_ok, refused, bad);
    assert_true(files >= 40);
    assert_int_equal(bad, 0);
}

/* A real photo with a phone's metadata trailer after its end marker (as
 * Samsung phones write them) decodes to exactly the same pixels. */
static void test_real_photo_with_trailer(void **state)
{
    (void)state;
    const char *photo =
        TS_SHARED_DIR "/data/set/boards/tomwhite_set-game_data_webcam_20170529_184024.jpg";
    uint8_t *data;
    size_t len;
    char err[512];
    if (ts_read_file(photo, TS_FILE_MAX_BYTES, &data, &len, err, sizeof err) < 0)
        skip();
    static const char tail[] = "\0\0\0\0SEFHsamsung trailer: depth map, audio, edit history"
                               "\x10\0\0\0SEFT";
    uint8_t *more = malloc(len + sizeof tail + 65536);
    assert_non_null(more);
    memcpy(more, data, len);
    memcpy(more + len, tail, sizeof tail);
    memcpy(more + len + sizeof tail, data, 65536 < len ? 65536 : len); /* and part of a JPEG */
    ts_image a, b;
    assert_int_equal(ts_image_decode(data, len, &a, err, sizeof err), 0);
    assert_int_equal(ts_image_decode(more, len + sizeof tail + (65536 < len ? 65536 : len), &b, err,
                                     sizeof err),
                     0);
    assert_int_equal(a.w, b.w);
    assert_int_equal(a.h, b.h);
    for (int y = 0; y < a.h; y++)
        assert_memory_equal(ts_image_row(&a, y), ts_image_row(&b, y), (size_t)a.w * 3);
    ts_image_free(&b);
    /* Cut inside the image data: refused as truncated. */
    assert_int_equal(ts_image_decode(data, len * 3 / 4, &b, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    ts_image_free(&a);
    free(more);
    free(data);
}

/* A pixel limit refuses before decoding; a target decodes a JPEG scaled. */
static void test_limits(void **state)
{
    (void)state;
    ts_image img;
    char err[512];
    ts_decode_limits small = {.max_pixels = 96 * 64 - 1};
    assert_int_equal(ts_image_load_limited(CORPUS "/baseline_444.jpg", &small, &img, err,
                                           sizeof err), -1);
    assert_non_null(strstr(err, "too large"));
    assert_int_equal(ts_image_load_limited(CORPUS "/rgb8.png", &small, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "too large"));
    small.max_pixels = 96 * 64;
    assert_int_equal(ts_image_load_limited(CORPUS "/rgb8.png", &small, &img, err, sizeof err), 0);
    ts_image_free(&img);

    /* 96x64 with a target of 1600 pixels: 1/2 is 48x32 = 1536. */
    ts_decode_limits scaled = {.target_pixels = 1600};
    assert_int_equal(ts_image_load_limited(CORPUS "/exif_orientation_6.jpg", &scaled, &img, err,
                                           sizeof err), 0);
    assert_int_equal(img.w, 48);
    assert_int_equal(img.h, 32);
    char why[128];
    assert_true(picture_ok(&img, "quad", why, sizeof why));
    ts_image_free(&img);
    ts_decode_limits full = {.target_pixels = -1};
    assert_int_equal(ts_image_load_limited(CORPUS "/progressive.jpg", &full, &img, err, sizeof err),
                     0);
    assert_int_equal(img.w, 96);
    ts_image_free(&img);
}

/* Non-regular files are refused at once, naming what they are. */
static void test_special_files(void **state)
{
    (void)state;
    ts_image img;
    char err[512];
    assert_int_equal(ts_image_load(CORPUS, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "directory"));
    assert_int_equal(ts_image_load("/dev/null", &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "device"));
    char fifo[] = "/tmp/ts_fifo_XXXXXX";
    int fd = mkstemp(fifo);
    assert_true(fd >= 0);
    close(fd);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* No writer: this would wait forever if the file were opened for reading. */
    assert_int_equal(ts_image_load(fifo, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "FIFO"));
    assert_non_null(strstr(err, fifo));
    unlink(fifo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_real_photo_with_trailer),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_special_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
