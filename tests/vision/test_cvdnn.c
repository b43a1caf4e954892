/* tscv_net_run (vision/cv/cvdnn.h) on the shipped nets: a batch gives every
 * image exactly the probabilities it gets alone. The readers batch their
 * candidates (the playing reader's reads ahead, the Gang of Four reader's
 * two corners) and keep the readings byte-identical to reading one by one
 * only because of this. The images are windows of a real phone photo and of a
 * webcam frame, warped to the readers' card size, in all their variety. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "cv/cvdnn.h"
#include "cv/cvwrap.h"
#include "datadir.h"
#include "imageio.h"
#include "shared_data.h"

#define PHOTO TS_SHARED_DIR "/data/playing/images/cardcounter_phone_IMG_20220921_194841_jpg.jpg"

enum { N = 13, MAX_TOTAL = 3 * TSCV_NET_MAX_CLASSES };

/* n windows of the photo, card-shaped, spread over it, warped to w x h. */
static void windows(const ts_image *photo, int n, int w, int h, ts_image *out)
{
    char err[TSCV_ERR_MAX];
    for (int i = 0; i < n; i++) {
        float cw = photo->w * (0.12f + 0.02f * (float)(i % 5)), ch = cw * 1.45f;
        float x = (photo->w - cw) * (float)((i * 7) % n) / (float)n;
        float y = (photo->h - ch) * (float)((i * 3) % n) / (float)n;
        ts_pt q[4] = {{x, y}, {x + cw, y + 0.05f * ch}, {x + cw, y + ch}, {x, y + 0.95f * ch}};
        out[i] = (ts_image){0};
        assert_int_equal(tscv_warp_quad(photo, q, &out[i], w, h, err), 0);
    }
}

static void check_net(const char *file, const ts_image *photo, int w, int h)
{
    char path[1024], err[256];
    assert_int_equal(ts_model_path(NULL, file, path, sizeof path), 0);
    tscv_net *net = tscv_net_load(path, err, sizeof err);
    if (!net)
        fprintf(stderr, "%s\n", err);
    assert_non_null(net);
    const tscv_net_info *in = tscv_net_get_info(net);
    int total = 0;
    for (int h2 = 0; h2 < in->noutputs; h2++)
        total += in->out[h2].nclass;
    assert_true(total <= MAX_TOTAL);
    ts_image img[N];
    windows(photo, N, w, h, img);
    static float one[N * MAX_TOTAL], batch[N * MAX_TOTAL];
    for (int i = 0; i < N; i++)
        assert_int_equal(tscv_net_run(net, &img[i], 1, one + i * total, err), 0);
    assert_int_equal(tscv_net_run(net, img, N, batch, err), 0);
    /* bit for bit, not nearly: readings compare confidences to thresholds */
    assert_memory_equal(one, batch, sizeof *one * N * (size_t)total);
    for (int i = 0; i < N; i++) /* each head a distribution */
        for (int hd = 0, off = 0; hd < in->noutputs; off += in->out[hd++].nclass) {
            double sum = 0;
            for (int k = 0; k < in->out[hd].nclass; k++)
                sum += batch[i * total + off + k];
            assert_true(fabs(sum - 1) < 1e-4);
        }
    for (int i = 0; i < N; i++)
        ts_image_free(&img[i]);
    tscv_net_destroy(net);
}

/* Each shipped net at the card size its reader warps to (the playing card
 * 128 x 180, its corner patch 31 x 56; the Gang of Four card 104 x 162,
 * its corner 28 x 44): the net's own input shrink included. */
static const struct {
    const char *file;
    int w, h;
} NETS[] = {
    {"playing.tsnet", 31, 56},    {"playing-fast.tsnet", 31, 56}, {"playing-find.tsnet", 31, 56},
    {"playing-view.tsnet", 31, 56},
    {"playing-face.tsnet", 128, 180},
    {"gof-card.tsnet", 104, 162}, {"gof-index.tsnet", 28, 44},    {"family.tsnet", 128, 180},
};

/* Runs check on every shipped net over windows of the photo. */
static void each_net(void (*check)(const char *, const ts_image *, int, int))
{
    if (!shared_file_exists(PHOTO))
        skip();
    ts_image photo;
    char err[256];
    assert_int_equal(ts_image_load(PHOTO, &photo, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof NETS / sizeof NETS[0]; i++)
        check(NETS[i].file, &photo, NETS[i].w, NETS[i].h);
    ts_image_free(&photo);
}

static void test_batch_equals_one_by_one(void **state)
{
    (void)state;
    each_net(check_net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_equals_one_by_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
