/* vision/tinynet.c against a plain reference forward pass (channel-first,
 * one multiply-add at a time) on made-up nets of awkward sizes: channels
 * that are no multiple of the vector width, sides the tiles do not divide,
 * an odd side pooled, dense layers from the features and from each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "tinynet.h"

enum { MAXF = 4096 };

static uint32_t seed = 1;

static float rnd(void) /* -1 .. 1 */
{
    seed = seed * 1664525u + 1013904223u;
    return (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
}

static void fill(float *v, int n, float scale)
{
    for (int i = 0; i < n; i++)
        v[i] = rnd() * scale;
}

/* Reference layers on channel-first arrays. */
static void ref_conv(const float *in, int c, int w, int h, const float *wt, const float *b,
                     int cout, int relu, float *out)
{
    for (int o = 0; o < cout; o++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double s = b[o];
                for (int i = 0; i < c; i++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++) {
                            int yy = y + ky - 1, xx = x + kx - 1;
                            if (yy >= 0 && yy < h && xx >= 0 && xx < w)
                                s += (double)wt[((o * c + i) * 3 + ky) * 3 + kx] *
                                     in[(i * h + yy) * w + xx];
                        }
                out[(o * h + y) * w + x] = relu && s < 0 ? 0 : (float)s;
            }
}

static void ref_pool(const float *in, int c, int w, int h, float *out)
{
    int w2 = w / 2, h2 = h / 2;
    for (int i = 0; i < c; i++)
        for (int y = 0; y < h2; y++)
            for (int x = 0; x < w2; x++) {
                const float *p = in + (i * h + 2 * y) * w + 2 * x;
                float m = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[w], p[w + 1]));
                out[(i * h2 + y) * w2 + x] = m;
            }
}

static void ref_dense(const float *in, int nin, const float *wt, const float *b, int nout,
                      int relu, float *out)
{
    for (int o = 0; o < nout; o++) {
        double s = b[o];
        for (int i = 0; i < nin; i++)
            s += (double)wt[o * nin + i] * in[i];
        out[o] = relu && s < 0 ? 0 : (float)s;
    }
}

/* A net of two convolutions (c -> 5 -> 12 channels, the second without a
 * ReLU), a pool, one more convolution (12 -> 9) and pool, a hidden dense
 * layer and two heads, on a w x h image of c channels. */
static void check_net(int w, int h, int c)
{
    static float w1[5 * 3 * 9], b1[5], w2[12 * 5 * 9], b2[12], w3[9 * 12 * 9], b3[9];
    static float wd[7 * MAXF], bd[7], wh1[3 * 7], bh1[3], wh2[4 * 7], bh2[4];
    fill(w1, 5 * c * 9, 0.5f), fill(b1, 5, 0.1f), fill(w2, 12 * 5 * 9, 0.3f), fill(b2, 12, 0.1f);
    fill(w3, 9 * 12 * 9, 0.3f), fill(b3, 9, 0.1f);
    int w4 = w / 2 / 2, h4 = h / 2 / 2, nfeat = 9 * w4 * h4;
    assert_true(nfeat <= MAXF);
    fill(wd, 7 * nfeat, 0.2f), fill(bd, 7, 0.1f), fill(wh1, 21, 0.5f), fill(bh1, 3, 0.1f);
    fill(wh2, 28, 0.5f), fill(bh2, 4, 0.1f);

    ts_tinynet *t = ts_tinynet_create(w, h, c);
    assert_non_null(t);
    assert_int_equal(ts_tinynet_conv(t, 5, c, w1, b1), 0);
    assert_int_equal(ts_tinynet_relu(t), 0);
    assert_int_equal(ts_tinynet_conv(t, 12, 4, w2, b2), -1); /* not the features' channels */
    assert_int_equal(ts_tinynet_conv(t, 12, 5, w2, b2), 0);
    assert_int_equal(ts_tinynet_pool(t), 0);
    assert_int_equal(ts_tinynet_conv(t, 9, 12, w3, b3), 0);
    assert_int_equal(ts_tinynet_relu(t), 0);
    assert_int_equal(ts_tinynet_pool(t), 0);
    assert_int_equal(ts_tinynet_nfeatures(t), nfeat);
    int hid = ts_tinynet_dense(t, TS_TINYNET_FEATURES, 7, wd, bd);
    assert_int_equal(hid, 0);
    assert_int_equal(ts_tinynet_relu(t), 0);
    assert_int_equal(ts_tinynet_dense(t, hid, 3, wh1, bh1), 1);
    assert_int_equal(ts_tinynet_dense(t, hid, 4, wh2, NULL), 2);
    assert_int_equal(ts_tinynet_conv(t, 4, 9, w3, b3), -1); /* no convolution after dense */

    /* the image, bytes channel-last, and the reference's input */
    static uint8_t img[64 * 64 * 3];
    static float x[3 * 64 * 64], a[12 * 64 * 64], b[12 * 64 * 64];
    for (int i = 0; i < w * h * c; i++) {
        img[i] = (uint8_t)(rnd() * 127.5f + 127.5f);
        int px = i / c, ch = i % c;
        x[ch * w * h + px] = img[i] * (float)(1.0 / 255);
    }
    ref_conv(x, c, w, h, w1, b1, 5, 1, a);
    ref_conv(a, 5, w, h, w2, b2, 12, 0, b);
    ref_pool(b, 12, w, h, a);
    ref_conv(a, 12, w / 2, h / 2, w3, b3, 9, 1, b);
    ref_pool(b, 9, w / 2, h / 2, a);
    float hidden[7], want[7], zero[4] = {0};
    ref_dense(a, nfeat, wd, bd, 7, 1, hidden);
    ref_dense(hidden, 7, wh1, bh1, 3, 0, want);
    ref_dense(hidden, 7, wh2, zero, 4, 0, want + 3);

    float got[7];
    const int outs[2] = {1, 2};
    ts_tinynet_run(t, img, (size_t)w * c, outs, 2, got);
    for (int k = 0; k < 7; k++)
        assert_true(fabsf(got[k] - want[k]) <= 1e-4f * (1 + fabsf(want[k])));
    /* again: the scratch left from the first run changes nothing */
    float again[7];
    ts_tinynet_run(t, img, (size_t)w * c, outs, 2, again);
    assert_memory_equal(got, again, sizeof got);
    ts_tinynet_destroy(t);
}

static void test_matches_reference(void **state)
{
    (void)state;
    check_net(13, 11, 3); /* odd sides, pooled to 6 x 5 and 3 x 2 */
    check_net(24, 40, 3);
    check_net(17, 9, 1);
    check_net(40, 56, 1);
}

static void test_refuses(void **state)
{
    (void)state;
    assert_null(ts_tinynet_create(8, 8, 2));
    ts_tinynet *t = ts_tinynet_create(8, 8, 3);
    assert_non_null(t);
    assert_int_equal(ts_tinynet_relu(t), -1); /* nothing to apply it to */
    float w[3 * 9] = {0};
    assert_int_equal(ts_tinynet_conv(t, 1, 3, w, NULL), 0);
    assert_int_equal(ts_tinynet_relu(t), 0);
    assert_int_equal(ts_tinynet_relu(t), -1); /* twice */
    assert_int_equal(ts_tinynet_pool(t), 0);
    assert_int_equal(ts_tinynet_relu(t), -1); /* after a pool */
    assert_int_equal(ts_tinynet_dense(t, 0, 2, w, NULL), -1); /* no such dense layer */
    ts_tinynet_destroy(t);
    ts_tinynet_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_reference),
        cmocka_unit_test(test_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
