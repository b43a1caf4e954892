/* The playing-card reader (vision/readers/playing.c) and its model.
 *
 * Real cards come from ../shared/data/playing, from series the model never
 * trained on (models/train_playing.py holds them out): the mathsvlog_card
 * crops (every card of one deck, already rectified) and the guillex7 photos
 * (one card on a wooden table, found by the family's finder). The tests skip
 * when ../shared is absent. Floors sit well under the measured accuracy, so
 * the tests catch regressions, not noise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shared_data.h"
#include "cv/cvdnn.h"
#include "geom.h"
#include "imageio.h"
#include "reader.h"
#include "readers/playing.h"
#include "readers/readers.h"

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";

#define have_shared() shared_file_exists(PLAYING_DIR "labels.tsv")

static ts_playing_reader *make_reader(void)
{
    char err[256];
    ts_playing_reader *r = ts_playing_reader_create(NULL, err, sizeof err);
    if (!r)
        fprintf(stderr, "%s\n", err);
    assert_non_null(r);
    return r;
}

/* The image's whole frame as a portrait card. */
static void warp_whole(const ts_image *img, ts_image *card)
{
    float w = (float)img->w, h = (float)img->h;
    ts_pt q[4] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
    if (w > h) {
        ts_pt l[4] = {{w, 0}, {w, h}, {0, h}, {0, 0}};
        memcpy(q, l, sizeof q);
    }
    char err[TSCV_ERR_MAX];
    assert_int_equal(tscv_warp_quad(img, q, card, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err), 0);
}

/* Code of a card whose file name ends in its code: _AS.jpg, _TS.jpg. */
static int code_from_name(const char *name, int *rank, int *suit)
{
    const char *u = strrchr(name, '_'), *dot = strrchr(name, '.');
    if (!u || !dot || dot - u < 3)
        return -1;
    const char *rs = u + 1;
    char r = dot - rs == 3 && rs[0] == '1' && rs[1] == '0' ? 'T' : rs[0];
    const char *pr = strchr(RANKS, r), *ps = strchr(SUITS, dot[-1]);
    if (!pr || !ps || !*pr || !*ps)
        return -1;
    *rank = (int)(pr - RANKS);
    *suit = (int)(ps - SUITS);
    return 0;
}

/* ---- The model file ----------------------------------------------------- */

static void test_model_header(void **state)
{
    (void)state;
    char err[256];
    tscv_net *net = tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_MODEL, err, sizeof err);
    if (!net)
        fprintf(stderr, "%s\n", err);
    assert_non_null(net);
    const tscv_net_info *in = tscv_net_get_info(net);
    assert_string_equal(in->name, "playing-index");
    assert_int_equal(in->in_w, 32);
    assert_int_equal(in->in_h, 56);
    assert_int_equal(in->in_c, 3);
    assert_int_equal(in->noutputs, 3);
    assert_string_equal(in->out[0].name, "rank");
    assert_string_equal(in->out[0].letters, RANKS);
    assert_string_equal(in->out[1].name, "suit");
    assert_string_equal(in->out[1].letters, SUITS);
    assert_string_equal(in->out[2].name, "index");
    assert_int_equal(in->out[2].nclass, 2);
    tscv_net_destroy(net);

    /* a file that is not a playing-card net is refused with a reason */
    ts_playing_reader *r = ts_playing_reader_create("/nonexistent", err, sizeof err);
    assert_null(r);
    assert_non_null(strstr(err, "/nonexistent"));
}

/* The fast net is a drop-in: same input and heads as the shipped one. */
static void test_fast_model_header(void **state)
{
    (void)state;
    char err[256];
    tscv_net *fast = tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_FAST_MODEL, err, sizeof err);
    tscv_net *net = tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_MODEL, err, sizeof err);
    assert_non_null(fast);
    assert_non_null(net);
    const tscv_net_info *a = tscv_net_get_info(fast), *b = tscv_net_get_info(net);
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->in_w, b->in_w);
    assert_int_equal(a->in_h, b->in_h);
    assert_int_equal(a->in_c, b->in_c);
    assert_int_equal(a->noutputs, b->noutputs);
    for (int h = 0; h < a->noutputs; h++) {
        assert_string_equal(a->out[h].name, b->out[h].name);
        assert_string_equal(a->out[h].letters, b->out[h].letters);
    }
    tscv_net_destroy(fast);
    tscv_net_destroy(net);
}

/* ---- Real cards of held-out series -------------------------------------- */

enum { NOUT = 13 + 4 + 2 };

static int arg_of(const float *p, int n)
{
    int a = 0;
    for (int k = 1; k < n; k++)
        a = p[k] > p[a] ? k : a;
    return a;
}

/* rank conf * suit conf * P(index), as the reader weighs a corner. */
static float corner_conf(const float *p)
{
    return p[arg_of(p, 13)] * p[13 + arg_of(p + 13, 4)] * p[13 + 4 + 1];
}

/* Where the fast net reads a corner TS_PLAYING_FAST_SURE (the reader then
 * skips the shipped net), the shipped net reads the same rank and suit: on
 * both index corners of the held-out mathsvlog crops (a deck neither net
 * trained on), and the fast net is that sure of most of them. */
static void test_fast_net_sure_agrees(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    char err[256];
    tscv_net *fast = tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_FAST_MODEL, err, sizeof err);
    tscv_net *net = tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_MODEL, err, sizeof err);
    assert_non_null(fast);
    assert_non_null(net);
    const int pw = (int)(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_W + 0.5f);
    const int ph = (int)(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_H + 0.5f);
    ts_image card[2] = {{0}, {0}};
    int sure = 0, agree = 0, n = 0;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 13; k++) {
            char path[1024];
            snprintf(path, sizeof path, PLAYING_DIR "images/mathsvlog_card_%s%c.jpg",
                     (char[]){RANKS[k], 0}, SUITS[s]);
            ts_image img;
            assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
            float w = (float)img.w, h = (float)img.h;
            /* the card upright and turned half a circle: its two index corners */
            const ts_pt q[2][4] = {{{0, 0}, {w, 0}, {w, h}, {0, h}},
                                   {{w, h}, {0, h}, {0, 0}, {w, 0}}};
            ts_image patch[2];
            for (int t = 0; t < 2; t++) {
                assert_int_equal(tscv_warp_quad(&img, q[t], &card[t], TS_PLAYING_CARD_W,
                                                TS_PLAYING_CARD_H, err),
                                 0);
                patch[t] = ts_image_roi(&card[t], 0, 0, pw, ph);
            }
            float pf[2 * NOUT], pn[2 * NOUT];
            assert_int_equal(tscv_net_run(fast, patch, 2, pf, err), 0);
            assert_int_equal(tscv_net_run(net, patch, 2, pn, err), 0);
            for (int t = 0; t < 2; t++, n++) {
                const float *a = pf + t * NOUT, *b = pn + t * NOUT;
                if (corner_conf(a) < TS_PLAYING_FAST_SURE)
                    continue;
                sure++;
                agree += arg_of(a, 13) == arg_of(b, 13) && arg_of(a + 13, 4) == arg_of(b + 13, 4);
            }
            ts_image_free(&img);
        }
    fprintf(stderr, "mathsvlog corners: the fast net sure of %d/%d, the shipped net agrees on %d\n",
            sure, n, agree);
    assert_int_equal(n, 104);
    assert_int_equal(agree, sure);
    assert_true(2 * sure >= n);
    for (int t = 0; t < 2; t++)
        ts_image_free(&card[t]);
    tscv_net_destroy(fast);
    tscv_net_destroy(net);
}

static void test_held_out_crops(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_playing_reader *r = make_reader();
    ts_image card = {0};
    int n = 0, ok = 0, wrong_sure = 0;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 13; k++) {
            char path[1024], err[TSCV_ERR_MAX];
            snprintf(path, sizeof path, PLAYING_DIR "images/mathsvlog_card_%s%c.jpg",
                     (char[]){RANKS[k], 0}, SUITS[s]);
            ts_image img;
            assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
            warp_whole(&img, &card);
            ts_playing_reading rd;
            assert_int_equal(ts_playing_read(r, &card, &rd, err), 0);
            n++;
            int right = rd.is_card && rd.rank == k && rd.suit == s;
            ok += right && rd.conf >= 0.5f;
            wrong_sure += !right && rd.is_card && rd.conf >= 0.5f;
            ts_image_free(&img);
        }
    fprintf(stderr, "mathsvlog crops: %d/%d read right, %d wrong above the floor\n", ok, n,
            wrong_sure);
    assert_int_equal(n, 52);
    assert_true(ok >= 48);
    assert_true(wrong_sure <= 2);
    ts_image_free(&card);
    ts_playing_reader_destroy(r);
}

static void test_held_out_photos(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    const ts_reader_class *cls = ts_reader_class_by_name("eleusis");
    assert_non_null(cls);
    assert_ptr_equal(cls, &ts_playing_reader_class);
    char err[256];
    void *rd = cls->create(NULL, err, sizeof err);
    assert_non_null(rd);
    ts_image card = {0};
    int n = 0, ok = 0;
    const char *names[] = {"AS", "2C", "5H", "7D", "9S", "TH", "JC", "QD", "KS", "KH", "3D", "8C"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[1024];
        snprintf(path, sizeof path, PLAYING_DIR "images/guillex7_template_%s.jpg", names[i]);
        int rank, suit;
        assert_int_equal(code_from_name(path, &rank, &suit), 0);
        ts_image img;
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        ts_quad q[64];
        int nq = cls->find(rd, &img, q, 64, err);
        assert_true(nq >= 0);
        int got = -1;
        for (int k = 0; k < nq && got < 0; k++) {
            ts_reading rr;
            assert_int_equal(tscv_warp_quad(&img, q[k].q, &card, cls->card_w, cls->card_h, err), 0);
            assert_int_equal(cls->read(rd, &card, &rr, err), 0);
            if (rr.is_card && rr.conf >= cls->conf_floor)
                got = rr.code.idx;
        }
        n++;
        ok += got == suit * 13 + rank;
        ts_image_free(&img);
    }
    fprintf(stderr, "guillex7 photos: %d/%d read right\n", ok, n);
    assert_true(ok >= n - 1);
    ts_image_free(&card);
    cls->destroy(rd);
}

/* ---- Upside down, and things that are not cards -------------------------- */

static void turn_180(const ts_image *src, ts_image *dst)
{
    assert_int_equal(ts_image_alloc(dst, src->w, src->h, src->channels), 0);
    for (int y = 0; y < src->h; y++) {
        const uint8_t *s = ts_image_row(src, src->h - 1 - y);
        uint8_t *d = ts_image_row(dst, y);
        for (int x = 0; x < src->w; x++)
            memcpy(d + x * src->channels, s + (src->w - 1 - x) * src->channels,
                   (size_t)src->channels);
    }
}

static void test_upside_down_reads_the_same(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    ts_playing_reader *r = make_reader();
    const char *files[] = {"mathsvlog_card_QS.jpg", "mathsvlog_card_7D.jpg", "vosloo_KC_00.jpg",
                           "mathsvlog_card_AH.jpg"};
    ts_image card = {0};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[1024], err[TSCV_ERR_MAX];
        snprintf(path, sizeof path, PLAYING_DIR "images/%s", files[i]);
        ts_image img, turned;
        assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
        warp_whole(&img, &card);
        turn_180(&card, &turned);
        ts_playing_reading a, b;
        assert_int_equal(ts_playing_read(r, &card, &a, err), 0);
        assert_int_equal(ts_playing_read(r, &turned, &b, err), 0);
        assert_true(a.is_card && b.is_card);
        assert_int_equal(a.rank, b.rank);
        assert_int_equal(a.suit, b.suit);
        /* both sure; a corner read surely is read alone, so the confidences
         * are each one corner's and may differ a little */
        assert_true(a.conf >= 0.9f && b.conf >= 0.9f);
        assert_float_equal(a.conf, b.conf, 0.05);
        int rank, suit; /* mathsvlog files are named by their card */
        if (code_from_name(files[i], &rank, &suit) == 0) {
            assert_int_equal(a.rank, rank);
            assert_int_equal(a.suit, suit);
        }
        ts_image_free(&img);
        ts_image_free(&turned);
    }
    ts_image_free(&card);
    ts_playing_reader_destroy(r);
}

static void test_not_a_card(void **state)
{
    (void)state;
    ts_playing_reader *r = make_reader();
    ts_image patch;
    assert_int_equal(ts_image_alloc(&patch, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, 3), 0);
    char err[TSCV_ERR_MAX];
    unsigned seed = 7;
    for (int kind = 0; kind < 3; kind++) {
        for (int y = 0; y < patch.h; y++) {
            uint8_t *p = ts_image_row(&patch, y);
            for (int x = 0; x < patch.w; x++) {
                seed = seed * 1103515245u + 12345u;
                int noise = (int)(seed >> 16) % 24 - 12;
                int base[3][3] = {{40, 90, 30},     /* green cloth */
                                  {60, 100, 150},   /* wooden desk */
                                  {235, 235, 235}}; /* a blank white sheet */
                for (int c = 0; c < 3; c++) {
                    int v = base[kind][c] + noise + (kind == 1 ? (x * 7 + y) % 23 : 0);
                    p[3 * x + c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
            }
        }
        ts_playing_reading rd;
        assert_int_equal(ts_playing_read(r, &patch, &rd, err), 0);
        fprintf(stderr, "patch %d: is_card %d conf %.3f\n", kind, rd.is_card, rd.conf);
        assert_true(!rd.is_card || rd.conf < 0.5f);
    }
    /* a card of the wrong size is an error, not a guess */
    ts_image small = ts_image_roi(&patch, 0, 0, 60, 90);
    ts_playing_reading rd;
    assert_int_equal(ts_playing_read(r, &small, &rd, err), -1);
    ts_image_free(&patch);
    ts_playing_reader_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_header),
        cmocka_unit_test(test_fast_model_header),
        cmocka_unit_test(test_fast_net_sure_agrees),
        cmocka_unit_test(test_held_out_crops),
        cmocka_unit_test(test_held_out_photos),
        cmocka_unit_test(test_upside_down_reads_the_same),
        cmocka_unit_test(test_not_a_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
