/* The small-net evaluator (vision/convnet.c) against a plain reference
 * written here (double sums, the layers as the nets in models/ define
 * them), its AVX2 path against its plain path byte for byte, and every
 * shipped model through it against OpenCV's dnn (vision/cv/cvdnn.h) on
 * crops of real photos and on a drawn image. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "convnet.h"
#include "cv/cvdnn.h"
#include "image.h"
#include "imageio.h"
#include "shared_data.h"

static uint32_t rng = 1;

static float frand(void) /* in [-1, 1) */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / (float)(1 << 23) - 1;
}

/* Reference layers on unbordered c x h x w maps. */
static void ref_conv(const float *in, int c, int h, int w, int out, const float *wt,
                     const float *b, int relu, float *o)
{
    for (int k = 0; k < out; k++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double a = b[k];
                for (int i = 0; i < c; i++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++) {
                            int yy = y + ky - 1, xx = x + kx - 1;
                            if (yy >= 0 && yy < h && xx >= 0 && xx < w)
                                a += (double)wt[((k * c + i) * 3 + ky) * 3 + kx] *
                                     in[(i * h + yy) * w + xx];
                        }
                o[(k * h + y) * w + x] = relu && a < 0 ? 0 : (float)a;
            }
}

static void ref_pool(const float *in, int c, int h, int w, float *o)
{
    for (int k = 0; k < c; k++)
        for (int y = 0; y < h / 2; y++)
            for (int x = 0; x < w / 2; x++) {
                const float *p = in + (k * h + 2 * y) * w + 2 * x;
                float m = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[w], p[w + 1]));
                o[(k * (h / 2) + y) * (w / 2) + x] = m;
            }
}

static void ref_dense(const float *in, int n, int out, const float *wt, const float *b, int relu,
                      float *o)
{
    for (int k = 0; k < out; k++) {
        double a = b[k];
        for (int i = 0; i < n; i++)
            a += (double)wt[k * n + i] * in[i];
        o[k] = relu && a < 0 ? 0 : (float)a;
    }
}

static float *rand_floats(int n)
{
    float *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    for (int i = 0; i < n; i++)
        v[i] = frand();
    return v;
}

/* conv, conv, pool, conv, pool, conv (no pool), dense, two heads: the
 * layers every net in models/ is made of, on sizes whose lines are shorter
 * and longer than a vector step and whose channels are not a multiple of
 * the four done at once. */
static void check_shape(int c, int h, int w, const int ch[4])
{
    ts_convnet *net = ts_convnet_create(c, h, w);
    assert_non_null(net);
    float *x = rand_floats(c * h * w);
    for (int i = 0; i < c * h * w; i++)
        x[i] = (x[i] + 1) / 2; /* inputs are 0..1 */
    int cc = c, hh = h, ww = w;
    float *cur = malloc((size_t)c * h * w * sizeof *cur);
    assert_non_null(cur);
    memcpy(cur, x, (size_t)c * h * w * sizeof *cur);
    float *wts[8], *bs[8];
    int nw = 0;
    for (int k = 0; k < 6; k++) {
        if (k == 2 || k == 4) {
            assert_int_equal(ts_convnet_pool2(net), 0);
            float *o = malloc((size_t)cc * (hh / 2) * (ww / 2) * sizeof *o);
            assert_non_null(o);
            ref_pool(cur, cc, hh, ww, o);
            free(cur);
            cur = o, hh /= 2, ww /= 2;
            continue;
        }
        int out = ch[k == 5 ? 3 : k == 3 ? 2 : k];
        wts[nw] = rand_floats(out * cc * 9), bs[nw] = rand_floats(out);
        for (int i = 0; i < out * cc * 9; i++)
            wts[nw][i] *= 0.5f;
        int relu = k != 1; /* one convolution without its ReLU */
        assert_int_equal(ts_convnet_conv3(net, out, wts[nw], bs[nw], 0), 0);
        if (relu)
            assert_int_equal(ts_convnet_relu(net), 0);
        float *o = malloc((size_t)out * hh * ww * sizeof *o);
        assert_non_null(o);
        ref_conv(cur, cc, hh, ww, out, wts[nw], bs[nw], relu, o);
        free(cur);
        cur = o, cc = out, nw++;
    }
    int n = cc * hh * ww;
    float *wd = rand_floats(20 * n), *bd = rand_floats(20), *hid = malloc(20 * sizeof *hid);
    assert_non_null(hid);
    assert_int_equal(ts_convnet_dense(net, 20, wd, bd, 1), 0);
    ref_dense(cur, n, 20, wd, bd, 1, hid);
    float *w1 = rand_floats(13 * 20), *b1 = rand_floats(13), *w2 = rand_floats(3 * 20),
          *b2 = rand_floats(3);
    assert_int_equal(ts_convnet_head(net, 13, w1, b1), 0);
    assert_int_equal(ts_convnet_head(net, 3, w2, b2), 0);
    assert_int_equal(ts_convnet_outputs(net), 16);
    assert_int_equal(ts_convnet_pool2(net), -1); /* nothing after the heads */
    float ref[16], plain[16], vec[16];
    ref_dense(hid, 20, 13, w1, b1, 0, ref);
    ref_dense(hid, 20, 3, w2, b2, 0, ref + 13);
    assert_int_equal(ts_convnet_run(net, x, plain, 0), 0);
    assert_int_equal(ts_convnet_run(net, x, vec, 1), 0);
    assert_memory_equal(plain, vec, sizeof plain);
    for (int k = 0; k < 16; k++)
        assert_true(fabsf(plain[k] - ref[k]) <= 1e-4f * (1 + fabsf(ref[k])));
    /* a second run over the same buffers gives the same bytes */
    assert_int_equal(ts_convnet_run(net, x, vec, 1), 0);
    assert_memory_equal(plain, vec, sizeof plain);
    for (int k = 0; k < nw; k++)
        free(wts[k]), free(bs[k]);
    free(wd), free(bd), free(hid), free(w1), free(b1), free(w2), free(b2);
    free(cur), free(x);
    ts_convnet_destroy(net);
}

static void test_against_reference(void **state)
{
    (void)state;
    check_shape(3, 50, 32, (const int[]){12, 24, 32, 8});
    check_shape(3, 44, 28, (const int[]){12, 24, 32, 4});
    check_shape(1, 56, 40, (const int[]){8, 8, 16, 16});
    check_shape(3, 13, 9, (const int[]){6, 5, 7, 3}); /* short lines: the scalar steps */
    check_shape(2, 20, 11, (const int[]){16, 4, 9, 12});
}

static void test_refuses_misfits(void **state)
{
    (void)state;
    assert_null(ts_convnet_create(0, 10, 10));
    ts_convnet *net = ts_convnet_create(1, 1, 1);
    assert_non_null(net);
    assert_int_equal(ts_convnet_pool2(net), -1); /* 1x1 cannot pool */
    assert_int_equal(ts_convnet_relu(net), -1);  /* no layer yet */
    float z[4] = {0};
    assert_int_equal(ts_convnet_run(net, z, z, 1), -1); /* no heads */
    assert_int_equal(ts_convnet_dense(net, 2, z, z, 0), 0);
    assert_int_equal(ts_convnet_conv3(net, 2, z, z, 0), -1); /* no convolution after dense */
    ts_convnet_destroy(net);
}

/* Crops of a real photo (or, without the shared data, a drawn image) at
 * several places and sizes, BGR and grey. */
static int test_images(ts_image *img, ts_image crops[12])
{
    char err[256];
    const char *path = TS_SHARED_DIR "/data/playing/images/guillex7_template_AC.jpg";
    if (!shared_file_exists(path) || ts_image_load(path, img, err, sizeof err) < 0) {
        assert_int_equal(ts_image_alloc(img, 300, 400, 3), 0);
        for (int y = 0; y < img->h; y++)
            for (int x = 0; x < 3 * img->w; x++)
                ts_image_row(img, y)[x] = (uint8_t)((x * 7 + y * 3 + (x * y) % 17) & 255);
    }
    int n = 0;
    for (int k = 0; k < 12; k++) {
        int w = img->w / (2 + k % 3), h = img->h / (2 + k % 4);
        int x = (img->w - w) * (k % 5) / 4, y = (img->h - h) * (k % 7) / 6;
        crops[n++] = ts_image_roi(img, x, y, w, h);
    }
    return n;
}

static void test_models_agree_with_opencv(void **state)
{
    (void)state;
    static const char *const models[] = {"gof-card",     "gof-index",    "playing",
                                         "playing-find", "playing-face", "family"};
    ts_image img, crops[12];
    int n = test_images(&img, crops);
    for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
        char path[512], err[256];
        snprintf(path, sizeof path, "%s/models/%s.tsnet", TS_SOURCE_DIR, models[m]);
        tscv_net *net = tscv_net_load(path, err, sizeof err);
        assert_non_null(net);
        /* every shipped model has the shape the own evaluator runs */
        assert_int_equal(tscv_net_engine(net, TSCV_NET_OWN), TSCV_NET_OWN);
        const tscv_net_info *in = tscv_net_get_info(net);
        int total = 0;
        for (int h = 0; h < in->noutputs; h++)
            total += in->out[h].nclass;
        size_t len = (size_t)n * (size_t)total;
        float *own = malloc(len * sizeof *own), *plain = malloc(len * sizeof *plain),
              *cv = malloc(len * sizeof *cv);
        assert_non_null(own);
        assert_non_null(plain);
        assert_non_null(cv);
        assert_int_equal(tscv_net_run(net, crops, n, own, err), 0);
        assert_int_equal(tscv_net_engine(net, TSCV_NET_OWN_PLAIN), TSCV_NET_OWN_PLAIN);
        assert_int_equal(tscv_net_run(net, crops, n, plain, err), 0);
        assert_int_equal(tscv_net_engine(net, TSCV_NET_OPENCV), TSCV_NET_OPENCV);
        assert_int_equal(tscv_net_run(net, crops, n, cv, err), 0);
        assert_memory_equal(own, plain, len * sizeof *own);
        float worst = 0;
        for (size_t k = 0; k < len; k++)
            worst = fmaxf(worst, fabsf(own[k] - cv[k]));
        printf("%-13s %d crops: largest probability difference from OpenCV %.2g\n", models[m],
               n, (double)worst);
        assert_true(worst < 1e-4f);
        /* a grey image into a colour net and a colour one into a grey net */
        ts_image grey;
        assert_int_equal(ts_image_alloc(&grey, 60, 90, 1), 0);
        for (int y = 0; y < grey.h; y++)
            for (int x = 0; x < grey.w; x++)
                ts_image_row(&grey, y)[x] = (uint8_t)(x * 3 + y);
        tscv_net_engine(net, TSCV_NET_OWN);
        assert_int_equal(tscv_net_run(net, &grey, 1, own, err), 0);
        tscv_net_engine(net, TSCV_NET_OPENCV);
        assert_int_equal(tscv_net_run(net, &grey, 1, cv, err), 0);
        for (int k = 0; k < total; k++)
            assert_true(fabsf(own[k] - cv[k]) < 1e-4f);
        ts_image_free(&grey);
        free(own), free(plain), free(cv);
        tscv_net_destroy(net);
    }
    ts_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_refuses_misfits),
        cmocka_unit_test(test_models_agree_with_opencv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
