/* The Gang of Four reader (vision/readers/gof.c) on rendered cards and
 * tables: seeds 50000.. are used by nothing else (training 20000.., held
 * aside 30000.., the reported floors 40000..). Thresholds are floors under
 * the measured accuracy, so the test catches regressions, not noise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>
#define FOUND_PCT 65 /* measured 54/72 (36/72 before the finder kept every
                        * binarisation's candidates): a floor under it */

#include "cv/cvdnn.h"
#include "cv/cvwrap.h"
#include "reader.h"
#include "readers/gof.h"
#include "readers/gof_edges.h"
#include "readers/gof_index.h"
#include "geom.h"
#include "imageio.h"
#include "readers/readers.h"
#include "render.h"
#include "render_table.h"
#include "gof_tables.h"

/* A card face as the pipeline would hand it: rendered upright, resized to
 * the class's card size, optionally turned half a turn. */
static void face(ts_code code, uint64_t deck, int turned, ts_image *card)
{
    ts_image f, a, small = {0};
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_render_face(code, TS_DECK_CLASSIC, 4, deck, deck + code.idx, &f, &a, err),
                     0);
    assert_int_equal(tscv_resize(&f, &small, cls->card_w, cls->card_h, err), 0);
    assert_int_equal(ts_image_alloc(card, cls->card_w, cls->card_h, 3), 0);
    for (int y = 0; y < card->h; y++)
        for (int x = 0; x < card->w; x++) {
            int sx = turned ? card->w - 1 - x : x, sy = turned ? card->h - 1 - y : y;
            memcpy(ts_image_row(card, y) + 3 * x, ts_image_row(&small, sy) + 3 * sx, 3);
        }
    ts_image_free(&f);
    ts_image_free(&a);
    ts_image_free(&small);
}

static void test_model_header(void **state)
{
    (void)state;
    char err[256];
    tscv_net *net = tscv_net_load(TS_SOURCE_DIR "/models/gof-index.tsnet", err, sizeof err);
    assert_non_null(net);
    const tscv_net_info *in = tscv_net_get_info(net);
    assert_string_equal(in->name, "gof-index");
    assert_int_equal(in->in_w, TS_GOF_PATCH_W);
    assert_int_equal(in->in_h, TS_GOF_PATCH_H);
    assert_int_equal(in->in_c, 3);
    assert_int_equal(in->noutputs, 2);
    assert_string_equal(in->out[0].name, "number");
    assert_string_equal(in->out[0].letters, "123456789TPDX");
    assert_string_equal(in->out[1].name, "colour");
    assert_string_equal(in->out[1].letters, "GYRM");
    tscv_net_destroy(net);

    /* a model that is not this reader's is refused with a reason */
    ts_reader_config cfg = {NULL, "/nonexistent-models"};
    assert_null(cls->create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "gof-index.tsnet"));
    cfg = (ts_reader_config){"nosuchdeck", NULL};
    assert_null(cls->create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "nosuchdeck"));
}

/* Every kind of card, upright and turned, on three printings: the same code. */
static void test_upside_down_reads_the_same(void **state)
{
    (void)state;
    void *r = make_reader();
    char err[TSCV_ERR_MAX];
    int n = 0, ok = 0, same = 0;
    for (uint64_t deck = 50001; deck <= 50003; deck++)
        for (int idx = 0; idx < 64; idx++) {
            ts_code code = {TS_FAM_GOF, (uint8_t)idx};
            if (idx >= 30 && idx < 60)
                continue;
            ts_reading up, down;
            ts_image a, b;
            face(code, deck, 0, &a);
            face(code, deck, 1, &b);
            assert_int_equal(cls->read(r, &a, &up, err), 0);
            assert_int_equal(cls->read(r, &b, &down, err), 0);
            n++;
            ok += up.is_card && up.code.idx == idx && up.conf >= cls->conf_floor;
            same += up.is_card == down.is_card && up.code.idx == down.code.idx;
            ts_image_free(&a);
            ts_image_free(&b);
        }
    cls->destroy(r);
    fprintf(stderr, "faces: %d/%d read right, %d/%d the same turned\n", ok, n, same, n);
    assert_true(ok >= n * 90 / 100); /* measured 97/102 */
    assert_true(same >= n * 97 / 100); /* measured 102/102 */
}

/* Things that are not Gang of Four cards: no reading above the floor. */
static void test_non_cards(void **state)
{
    (void)state;
    void *r = make_reader();
    char err[TSCV_ERR_MAX];
    ts_image img;
    ts_reading rd;
    assert_int_equal(ts_image_alloc(&img, cls->card_w, cls->card_h, 3), 0);
    /* blank beige stock, a dark table, noise */
    uint64_t s = 99;
    for (int kind = 0; kind < 3; kind++) {
        for (int y = 0; y < img.h; y++)
            for (int x = 0; x < img.w; x++) {
                uint8_t *p = ts_image_row(&img, y) + 3 * x;
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                int v = (int)(s >> 56);
                if (kind == 0)
                    p[0] = 190, p[1] = 220, p[2] = 235;
                else if (kind == 1)
                    p[0] = p[1] = p[2] = (uint8_t)(40 + v / 16);
                else
                    p[0] = (uint8_t)v, p[1] = (uint8_t)(v * 7), p[2] = (uint8_t)(v * 13);
            }
        assert_int_equal(cls->read(r, &img, &rd, err), 0);
        assert_true(!rd.is_card || rd.conf < cls->conf_floor);
    }
    ts_image_free(&img);
    /* a SET card */
    ts_image f, a;
    ts_code set = {TS_FAM_SET, 40};
    assert_int_equal(ts_render_face(set, TS_DECK_CLASSIC, 4, 7, 7, &f, &a, err), 0);
    ts_image card = {0};
    assert_int_equal(tscv_resize(&f, &card, cls->card_w, cls->card_h, err), 0);
    assert_int_equal(cls->read(r, &card, &rd, err), 0);
    assert_true(!rd.is_card || rd.conf < cls->conf_floor);
    ts_image_free(&f);
    ts_image_free(&a);
    ts_image_free(&card);
    /* a card of the wrong size is an error, not a guess */
    assert_int_equal(ts_image_alloc(&img, 50, 50, 3), 0);
    assert_int_equal(cls->read(r, &img, &rd, err), -1);
    ts_image_free(&img);
    cls->destroy(r);
}

/* read_table_vis of the fully visible cards, as rendered. */
static void read_table(void *r, uint64_t seed, ts_layout layout, int *n, int *ok, int *wrong)
{
    read_table_vis(r, seed, layout, 0.99f, 0, n, ok, wrong);
}

/* Whole tables, found and read as the pipeline does. */
static void test_rendered_tables(void **state)
{
    (void)state;
    void *r = make_reader();
    int n = 0, ok = 0, wrong = 0;
    for (uint64_t seed = 50000; seed < 50006; seed++)
        read_table(r, seed, seed % 2 ? TS_LAYOUT_GRID : TS_LAYOUT_TOUCHING, &n, &ok, &wrong);
    cls->destroy(r);
    fprintf(stderr, "tables: %d/%d fully visible cards read, %d wrong readings\n", ok, n, wrong);
    /* measured 70/70 read, 0 wrong (session 10: the card size from two lone
     * cards, a blob along the frame's edges no card); 58/70, 0 wrong at the
     * floor of 0.9 as main b23d47e
     * (66/70 in session 8 before its later changes; 63/70 before session
     * 8's corner cards of every outline, seams followed and the card net
     * alone held to 0.99; 61/70, 1 wrong before
     * session 7's surest quad per place and dissent cap; 48/70 before the
     * second Otsu level and the index finder, 30/70 before the whole-card
     * net and the edge snapping): the finder, not the reader, is the limit
     * (with the true quads the reader reads 94-99% of such cards) */
    assert_true(n >= 60);
    assert_true(ok >= n * 75 / 100);
    assert_true(wrong <= 1);
}

/* Blocks of touching cards and piles, found and read as the pipeline does:
 * a block's split lines follow its seams (cards a little apart, far cells
 * smaller at a slant) and a pile's cards come from its outline's right-angled
 * corners, with the card size of the lone cards. Seeds never tuned on. */
static void test_blocks_and_piles_read(void **state)
{
    (void)state;
    void *r = make_reader();
    int n[2] = {0, 0}, ok[2] = {0, 0}, wrong = 0;
    for (uint64_t seed = 50200; seed < 50204; seed++) {
        read_table(r, seed, TS_LAYOUT_TOUCHING, &n[0], &ok[0], &wrong);
        read_table(r, seed, TS_LAYOUT_PILE, &n[1], &ok[1], &wrong);
    }
    cls->destroy(r);
    fprintf(stderr, "blocks: %d/%d, piles: %d/%d fully visible cards read, %d wrong\n", ok[0],
            n[0], ok[1], n[1], wrong);
    /* measured 45/45 and 21/24, 2 wrong (50202: a G10 two thirds visible
     * read right from its own outline, whose centre lies on the corner of
     * the Y2 above it; 50201: an R3 read R7 at 0.92); session 8: 22/24, 1
     * wrong (50203: a Y2 under a Y3 read right from a quad whose centre
     * lies on the Y3); session 7's finder: 39/45 and 17/24, 1 wrong
     * (ts-render-eval 50200 4 --layouts touching,pile) */
    assert_true(n[0] >= 40 && n[1] >= 15);
    assert_true(ok[0] >= n[0] * 90 / 100);
    assert_true(ok[1] >= n[1] * 80 / 100);
    assert_true(wrong <= 2);
}

/* A striped cloth as light as the stock: its stripes' pieces have a card's
 * outline, fill the outline candidates and set the lone card size at half
 * the cards'. The cards come from their corner indices (room kept for them
 * after the outlines, sized by the cards whose both indices show), a card
 * in a pile at the index that shows (its index view). Seeds of session
 * 11's tuning range (68000-68039), at least half visible cards. */
static void test_striped_cloth_read_by_indices(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {68016, TS_LAYOUT_TOUCHING}, {68009, TS_LAYOUT_ROW}, {68009, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("striped cloth", t, 3, 0.5f, &n, &ok, &wrong);
    /* measured 28/35, 0 wrong (17/35 at session 12's start, before the
     * merged index numerals and symbols were split; main 4703b19: 0/35) */
    assert_true(n >= 30);
    assert_true(ok >= 24);
    assert_true(wrong == 0);
}

/* Piles whose cards' index numeral and symbol run together into one blob of
 * ink (blur, a large index: their gap is 1.5 mm) and are split at its neck,
 * a card sized by the lone cards when its numeral-to-symbol step is a pixel
 * off. Seeds of session 12's tuning range (68000-68039), at least half
 * visible cards. */
static void test_merged_indices_read(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {68023, TS_LAYOUT_PILE}, {68027, TS_LAYOUT_PILE}, {68032, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("merged indices", t, 3, 0.5f, &n, &ok, &wrong);
    /* measured 30/33, 1 wrong (a card under others in 68032; 0 since
     * part_unheld);
     * 25/33, 1 wrong at the session's start (7915166) */
    assert_true(n >= 30);
    assert_true(ok >= 28);
    assert_true(wrong <= 1);
}

/* Rows played with gaps of a few pixels between their cards, seen at a
 * slant: each row is one stock blob whose cells (a card and a gap) are
 * shorter than a card split from a block may be; they are offered when
 * the table shows dark between them (gof_find.c LINE_LO). Seeds of session
 * 13's tuning range (81000-81039), fully visible cards. */
static void test_slanted_rows_read(void **state)
{
    (void)state;
    static const table_ref t[] = {{81037, TS_LAYOUT_ROW}, {81038, TS_LAYOUT_ROW}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("slanted rows", t, 2, 0.99f, &n, &ok, &wrong);
    /* measured 23/24, 0 wrong (main af4940d: 11/24, 1 wrong) */
    assert_true(n >= 24);
    assert_true(ok >= 21);
    assert_true(wrong == 0);
}

/* Piles whose top card shows a big 8, 5 or 10 over a stock shaded by the
 * light: its index card is on the stock by the ring of places about its
 * edge (gof_find.c stock_inside), and its view is not dropped for a card
 * under it (gof.c). Seeds of session 13's tuning range, at least half
 * visible cards. */
static void test_pile_tops_read(void **state)
{
    (void)state;
    static const table_ref t[] = {{81003, TS_LAYOUT_PILE}, {81004, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("pile tops", t, 2, 0.5f, &n, &ok, &wrong);
    /* measured 17/20, 0 wrong (main af4940d: 14/20); 15/20 since a full
     * blurred index 8 (81003's R8) counts as a printed cloth's dot
     * (gof_index.c round_blob) */
    assert_true(n >= 20);
    assert_true(ok >= 15);
    assert_true(wrong == 0);
}

/* Piles whose corner cards (a card sized by the lone cards along a blob's
 * corner, gof_find.c) lie across the cards over them: a reading no corner's
 * index holds is not sure (gof.c part_unheld). Tuning seeds 68005, 68008,
 * 68031, 68032, at least half visible cards. */
static void test_covered_corner_cards_not_misread(void **state)
{
    (void)state;
    static const table_ref t[] = {{68005, TS_LAYOUT_PILE},
                                  {68008, TS_LAYOUT_PILE},
                                  {68031, TS_LAYOUT_PILE},
                                  {68032, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("covered corner cards", t, 4, 0.5f, &n, &ok, &wrong);
    /* measured 35/43, 0 wrong; 35/43, 5 wrong without part_unheld */
    assert_true(n >= 43);
    assert_true(ok >= 33);
    assert_true(wrong == 0);
}

/* Piles whose cards under others show their index only at a corner the
 * place pick passed over (a card over the corner quad took its place):
 * offered again as index views (gof.c offer_views). Session 19's tuning
 * seeds 109001, 109003, 109015, at least half visible cards. */
static void test_pile_corner_views_read(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {109001, TS_LAYOUT_PILE}, {109003, TS_LAYOUT_PILE}, {109015, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("pile corner views", t, 3, 0.5f, &n, &ok, &wrong);
    /* measured 31/35, 0 wrong (without offer_views: 28/35) */
    assert_true(n >= 35);
    assert_true(ok >= 30);
    assert_true(wrong == 0);
}

/* Every card of a dealt grid is offered by the finder, on tables seen at a
 * slant (the renderer's cameras look down at 20-50 degrees, so far cards
 * look longer or squatter than 87:56): some candidate lies on the card's
 * true corners, within 8% of its short side, either way up. */
static void test_finder_offers_every_grid_card(void **state)
{
    (void)state;
    void *r = make_reader();
    char err[TSCV_ERR_MAX];
    ts_quad cand[256];
    int n = 0, found = 0;
    for (uint64_t seed = 50100; seed < 50106; seed++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_GOF, seed, TS_LAYOUT_GRID, 0, &sc, err), 0);
        int nc = cls->find(r, &sc.img, cand, 256, err);
        assert_true(nc >= 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f)
                continue;
            const ts_pt *g = sc.cards[i].quad;
            float side = hypotf(g[1].x - g[0].x, g[1].y - g[0].y);
            int hit = 0;
            for (int c = 0; c < nc && !hit; c++)
                for (int turn = 0; turn < 4 && !hit; turn += 2) {
                    float e = 0;
                    for (int k = 0; k < 4; k++)
                        e = fmaxf(e, hypotf(cand[c].q[(k + turn) % 4].x - g[k].x,
                                            cand[c].q[(k + turn) % 4].y - g[k].y));
                    hit = e < 0.08f * side;
                }
            n++;
            found += hit;
        }
        ts_scene_free(&sc);
    }
    cls->destroy(r);
    fprintf(stderr, "grid cards offered: %d/%d\n", found, n);
    assert_true(n >= 60);
    assert_true(found >= n * FOUND_PCT / 100);
}

/* Sides snapped to the card's edges at full resolution: a true quad moved
 * off by up to 8% of the short side (what the decimated search gives) comes
 * (each corner at random: tilted sides) ends up closer: half of them
 * within 4%, on tables of every kind of cloth and light. */
static void test_snap_edges(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    int n = 0, close_before = 0, close_after = 0;
    double sum_before = 0, sum_after = 0;
    uint64_t r = 12345;
    for (uint64_t seed = 50200; seed < 50208; seed++) {
        ts_scene sc;
        ts_layout layout = seed % 2 ? TS_LAYOUT_SCATTER : TS_LAYOUT_GRID;
        assert_int_equal(render_table(TS_FAM_GOF, seed, layout, 0, &sc, err), 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f)
                continue;
            const ts_pt *g = sc.cards[i].quad;
            float side = hypotf(g[1].x - g[0].x, g[1].y - g[0].y);
            ts_quad q;
            float before = 0, after = 0;
            for (int k = 0; k < 4; k++) {
                float d[2];
                for (int j = 0; j < 2; j++) { /* -8%..8% of the short side */
                    r = r * 6364136223846793005ull + 1442695040888963407ull;
                    d[j] = ((float)(r >> 40) / (float)(1 << 24) - 0.5f) * 0.16f * side;
                }
                q.q[k] = (ts_pt){g[k].x + d[0], g[k].y + d[1]};
                before = fmaxf(before, hypotf(d[0], d[1]));
            }
            ts_gof_snap_edges(&sc.img, &q);
            for (int k = 0; k < 4; k++)
                after = fmaxf(after, hypotf(q.q[k].x - g[k].x, q.q[k].y - g[k].y));
            n++;
            close_before += before < 0.04f * side;
            close_after += after < 0.04f * side;
            sum_before += before / side, sum_after += after / side;
        }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "snapped: %d/%d within 4%% (before %d); mean worst corner %.3f (before %.3f)\n",
            close_after, n, close_before, sum_after / n, sum_before / n);
    assert_true(n >= 60);
    assert_true(close_after >= n * 40 / 100); /* measured 51/96 */
    assert_true(sum_after < 0.75 * sum_before); /* measured 0.056 vs 0.085 */
}

/* Whether quad q lies on true card g: centres within 15% of the card's
 * short side, short sides within 15%. */
static int on_card(const ts_quad *q, const ts_pt g[4])
{
    ts_pt a = {0, 0}, b = {0, 0};
    for (int k = 0; k < 4; k++)
        a.x += q->q[k].x / 4, a.y += q->q[k].y / 4, b.x += g[k].x / 4, b.y += g[k].y / 4;
    float side = ts_dist(g[0], g[1]), qs = ts_dist(q->q[0], q->q[1]);
    return ts_dist(a, b) < 0.15f * side && fabsf(qs - side) < 0.15f * side;
}

/* Cards edge to edge in blocks and rows: most fully visible cards whose
 * index is large enough to read are offered by their index alone (no
 * outline). Cards whose short side is under
 * 110 px (index numeral under ~12 px) are left out: there the numeral and
 * its symbol merge into one blob and the outline finder has to do. */
static void test_index_offers_touching_cards(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    ts_index_ink *ix = ts_index_ink_create(TS_GOF_INK_BLOBS);
    assert_non_null(ix);
    ts_quad cand[256];
    int n = 0, found = 0, offers = 0, good = 0;
    for (uint64_t seed = 50300; seed < 50310; seed++) {
        ts_scene sc;
        ts_layout layout = seed % 2 ? TS_LAYOUT_ROW : TS_LAYOUT_TOUCHING;
        assert_int_equal(render_table(TS_FAM_GOF, seed, layout, 0, &sc, err), 0);
        int nc = ts_gof_index_cards(ix, &sc.img, NULL, NULL, NULL, cand, 256, err);
        assert_true(nc >= 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f || ts_dist(sc.cards[i].quad[0], sc.cards[i].quad[1]) < 110)
                continue;
            int hit = 0;
            for (int c = 0; c < nc && !hit; c++)
                hit = on_card(&cand[c], sc.cards[i].quad);
            n++;
            found += hit;
        }
        for (int c = 0; c < nc; c++) {
            if (cand[c].score < 2) /* one index only: the finder checks these on the stock */
                continue;
            int hit = 0;
            for (int i = 0; i < sc.ncards && !hit; i++)
                hit = on_card(&cand[c], sc.cards[i].quad);
            offers++;
            good += hit;
        }
        ts_scene_free(&sc);
    }
    ts_index_ink_destroy(ix);
    /* the offers alone are not sure (a numeral stroke and a glyph of the
     * table's pattern pair up too): the finder keeps those of the lone
     * cards' size on card stock, and the reader says which are cards */
    fprintf(stderr, "index: %d/%d large touching cards offered; %d/%d two-index offers on a card\n",
            found, n, good, offers);
    assert_true(n >= 20);
    assert_true(found >= n * 55 / 100); /* measured 37/56 */
}

/* The cards a part of the frame gives (the finder looks only where the
 * stock is not explained by lone cards) lie where the whole frame's do, in
 * frame coordinates (from the same card's other index, or another pair of
 * glyphs, they may differ by a few percent): all but a few (an index at the
 * part's edge, whose local threshold differs). */
static void test_index_roi(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    ts_index_ink *ix = ts_index_ink_create(TS_GOF_INK_BLOBS);
    assert_non_null(ix);
    ts_scene sc;
    assert_int_equal(render_table(TS_FAM_GOF, 50301, TS_LAYOUT_ROW, 0, &sc, err), 0);
    ts_quad all[256], part[256];
    int na = ts_gof_index_cards(ix, &sc.img, NULL, NULL, NULL, all, 256, err);
    const int roi[4] = {0, 0, 640, 720};
    int np = ts_gof_index_cards(ix, &sc.img, roi, NULL, NULL, part, 256, err);
    assert_true(na >= 0 && np >= 0);
    /* the part's offers on a card of the table (the others, a big
     * numeral's strokes paired into cards of other sizes, the finder
     * drops by size) */
    int same = 0, on = 0;
    for (int i = 0; i < np; i++) {
        if (ts_scene_card_under(&sc, part[i].q) < 0)
            continue;
        int hit = 0;
        for (int j = 0; j < na && !hit; j++)
            hit = on_card(&part[i], all[j].q);
        same += hit;
        on++;
    }
    fprintf(stderr, "index in a part: %d/%d cards on a card as in the whole frame (%d offers, %d)\n",
            same, on, np, na);
    assert_true(on > 0);
    assert_true(same >= on * 80 / 100);
    ts_scene_free(&sc);
    ts_index_ink_destroy(ix);
}

/* Cards on a pale or two-tone table (seeds whose cloth is light: the plain
 * Otsu level falls between the table's two tones): the whole finder and
 * reader still read most fully visible cards, none wrong. */
static void test_pale_tables_read(void **state)
{
    (void)state;
    void *r = make_reader();
    int n = 0, ok = 0, wrong = 0;
    /* 21007 (a pale cloth) and 21008 (a light cloth with dark dots) as
     * tuned on; the share asserted is what the other layouts of the same
     * tables give */
    static const uint64_t seeds[] = {21007, 21008};
    for (int s = 0; s < 2; s++)
        read_table(r, seeds[s], TS_LAYOUT_TOUCHING, &n, &ok, &wrong);
    cls->destroy(r);
    fprintf(stderr, "pale tables: %d/%d fully visible cards read, %d wrong\n", ok, n, wrong);
    /* measured 20/22, 0 wrong (15/22 before session 8's corner cards) */
    assert_true(n >= 20);
    assert_true(ok >= n * 60 / 100);
    assert_true(wrong == 0);
}

/* Cards as bright as the table in the finder's stock score: a grey-white
 * stock on yellow wood (60014), a beige stock on a pale grey cloth (60028).
 * Their hue still differs from the table's, and the finder looks at that
 * where the stock score leaves stock unexplained. Session 9's tuning
 * tables (60000-60039), asserted as a regression floor. */
static void test_cards_as_bright_as_table(void **state)
{
    (void)state;
    void *r = make_reader();
    int n = 0, ok = 0, wrong = 0;
    read_table(r, 60014, TS_LAYOUT_GRID, &n, &ok, &wrong);
    read_table(r, 60028, TS_LAYOUT_SCATTER, &n, &ok, &wrong);
    cls->destroy(r);
    fprintf(stderr, "cards as bright as the table: %d/%d read, %d wrong\n", ok, n, wrong);
    /* measured 24/24, 0 wrong (1/24 before the table's hue was looked at) */
    assert_true(n >= 22);
    assert_true(ok >= n * 85 / 100);
    assert_true(wrong == 0);
}

/* Tables where one shape set the card size wrong (session 10's tuning
 * tables 65000-65039, asserted as a regression floor): a pale printed cloth
 * whose light tone runs along the frame's edges, once taken for one huge
 * card (65038, a block of 12 on green dots: 1/12 read); a row of 12 on
 * blue stripes, where one stripe of a card's outline dropped every cell of
 * the row (65030: 0/12); and a grid where two edges of a card's shape but
 * short, the top of an 8, were taken for a whole card (65037: Y8 read Y2
 * at 0.99). */
static void test_card_size_not_misled(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {65038, TS_LAYOUT_TOUCHING}, {65030, TS_LAYOUT_ROW}, {65037, TS_LAYOUT_GRID}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("card size not misled (fully visible)", t, 3, 0.99f, &n, &ok, &wrong);
    /* measured 34/35, 0 wrong at session 12's end; 31/35 when written (11/11,
     * 8/12, 12/12); main 698de57 read 12 of
     * them, 1 wrong (ts-render-eval on the same tables) */
    assert_true(n >= 34);
    assert_true(ok >= n * 80 / 100);
    assert_true(wrong == 0);
}

/* A polka-dot cloth as light as the card stock (session 14's tuning table
 * 87017): no edge or colour tells the cards from the cloth, but the cloth's
 * dots are everywhere and the cards' margins are smooth, and the finder
 * takes the smooth blobs where stock is left unexplained on a patterned
 * table (gof_find.c's smooth_image). */
static void test_polka_dot_cloth_read(void **state)
{
    (void)state;
    static const table_ref t[] = {{87017, TS_LAYOUT_GRID}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("polka-dot cloth (fully visible)", t, 1, 0.99f, &n, &ok, &wrong);
    /* measured 10/12, 0 wrong; 4/12 before the smooth blobs */
    assert_true(n == 12);
    assert_true(ok >= 9);
    assert_true(wrong == 0);
}

/* A quad sheared across a card (a split of a row a little off, the edges of
 * a card under another) is read right or left unread, never read as another
 * card: the card net, the upright and the turned corner each see the card
 * differently, and a view sure of another card caps the reading below the
 * floor. Each fully visible card of a few rendered rows, its true quad
 * sheared along the long side by 10-25% of the short side either way. */
static void test_sheared_quads_not_misread(void **state)
{
    (void)state;
    void *r = make_reader();
    char err[TSCV_ERR_MAX];
    ts_image card = {0};
    int n = 0, ok = 0, wrong = 0;
    for (uint64_t seed = 50200; seed < 50204; seed++) {
        ts_scene sc;
        ts_layout layout = seed % 2 ? TS_LAYOUT_ROW : TS_LAYOUT_GRID;
        assert_int_equal(render_table(TS_FAM_GOF, seed, layout, 0, &sc, err), 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f)
                continue;
            const ts_pt *g = sc.cards[i].quad;
            for (int k = -2; k <= 2; k++) {
                if (!k)
                    continue;
                float sh = 0.05f + 0.05f * (k < 0 ? -k : k), sg = k < 0 ? -1.0f : 1.0f;
                /* along the long side (g[1] -> g[2]) by sh of the short side */
                float lx = g[2].x - g[1].x, ly = g[2].y - g[1].y, ll = hypotf(lx, ly);
                float d = sg * sh * hypotf(g[1].x - g[0].x, g[1].y - g[0].y) / ll;
                ts_quad q;
                q.q[0] = (ts_pt){g[0].x + d * lx, g[0].y + d * ly};
                q.q[1] = (ts_pt){g[1].x - d * lx, g[1].y - d * ly};
                q.q[2] = (ts_pt){g[2].x - d * lx, g[2].y - d * ly};
                q.q[3] = (ts_pt){g[3].x + d * lx, g[3].y + d * ly};
                ts_reading rd;
                assert_int_equal(tscv_warp_quad(&sc.img, q.q, &card, cls->card_w, cls->card_h, err), 0);
                assert_int_equal(cls->read(r, &card, &rd, err), 0);
                n++;
                if (rd.is_card && rd.conf >= cls->conf_floor) {
                    ok += rd.code.idx == sc.cards[i].code.idx;
                    wrong += rd.code.idx != sc.cards[i].code.idx;
                }
            }
        }
        ts_scene_free(&sc);
    }
    ts_image_free(&card);
    cls->destroy(r);
    fprintf(stderr, "sheared quads: %d read right, %d wrong of %d\n", ok, wrong, n);
    /* measured 118 right, 1 wrong of 192 (130 right, 2 wrong before session
     * 9's rule that a 6 or 9 needs an index holding it first: a sheared
     * quad's corners miss the index); without the dissent cap 149 right, 8
     * wrong (session 7) */
    assert_true(n >= 150);
    assert_true(ok >= n * 58 / 100);
    assert_true(wrong <= 3);
}

/* A lone card's outline joined to a neighbour's corner (grid and touching
 * cards on a dark cloth) is a quad with one corner off, its opposite sides
 * 17-28 degrees apart, that shears the card: a 5 read 3 at 0.998 by the card
 * net and the upright corner, the turned corner holding the 5. Such a quad
 * (ts_gof_skew above 8 degrees) whose corners do not both hold the reading
 * is unread, and a surer quad takes the place. The two tables of seeds
 * 100000-100039 (tuned on) that read one card wrong so (session 15). */
static void test_skewed_outlines_not_misread(void **state)
{
    (void)state;
    /* a card's sides are parallel; a quad with one corner moved is not */
    const ts_pt rect[4] = {{100, 100}, {160, 100}, {160, 193}, {100, 193}};
    const ts_pt off[4] = {{100, 100}, {160, 80}, {160, 193}, {100, 193}};
    assert_true(ts_gof_skew(rect) < 0.01f);
    assert_true(ts_gof_skew(off) > 0.3f);
    static const table_ref t[] = {{100001, TS_LAYOUT_GRID}, {100001, TS_LAYOUT_TOUCHING}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("skewed outlines", t, 2, 0.99f, &n, &ok, &wrong);
    /* measured 24/24 read, 0 wrong (22/24, 2 wrong before) */
    assert_true(n >= 22);
    assert_true(ok >= n - 1);
    assert_int_equal(wrong, 0);
}

/* Cards as pale as the cloth under them (100033's grid: a beige cloth, no
 * outline found) come from their indices, sized by the numeral-to-symbol
 * step: 10-12% off, a G9 read G6 by the card net, a Y8 whose turned corner
 * saw a phoenix, both unread. Read again at 0.92 and 1.08 of that size
 * about the index (gof.c's resize_index_card), both read (session 15; a
 * tuning seed of 100000-100039). */
static void test_pale_index_cards_resized(void **state)
{
    (void)state;
    static const table_ref t[] = {{100033, TS_LAYOUT_GRID}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("pale index cards", t, 1, 0.99f, &n, &ok, &wrong);
    /* measured 12/12 read, 0 wrong (10/12 before) */
    assert_int_equal(n, 12);
    assert_true(ok >= 12);
    assert_int_equal(wrong, 0);
}

/* A snapped outline a few pixels off (a side on the table's print, on the
 * next card of a row) reads unsure where the true quad reads sure: read
 * again at 0.94 and 1.06 of its size (gof.c's OUTLINE_RESIZE), taking a 6
 * or 9 from a resized quad only when it is the card read unsure. Rows and a scatter of seeds 100000-100039
 * (tuned on, session 15) that lost a card so. */
static void test_outlines_resized(void **state)
{
    (void)state;
    static const table_ref t[] = {{100036, TS_LAYOUT_ROW},
                                  {100022, TS_LAYOUT_ROW},
                                  {100024, TS_LAYOUT_SCATTER},
                                  {100018, TS_LAYOUT_SCATTER}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("resized outlines", t, 4, 0.99f, &n, &ok, &wrong);
    /* measured 48/48 read, 0 wrong (44/48 without) */
    assert_true(n >= 40);
    assert_true(ok >= n - 1);
    assert_int_equal(wrong, 0);
}

/* A quad over part of a card (half to three quarters of it, about a point
 * on or beside it) shows half a numeral and one or no index: it is no
 * card, or a card below the floor. Most sure wrong readings on seeds
 * 100000-100039 and 103000-103039 are on quads 0.8-1.8 of a card off the
 * card they are counted on, half numerals read whole (100019's scatter: a
 * 6's lower loop read Y8 at 0.999 from a pile-corner quad 0.2 off the
 * card; 103026's: R6 at 1.000 from a quad of half a card). Each
 * fully visible card of a few rendered tables, at 0.55 and 0.7 of its size
 * about nine points of a 3x3 grid over it and a little past it. */
static void test_part_quads_not_read(void **state)
{
    (void)state;
    void *r = make_reader();
    char err[TSCV_ERR_MAX];
    ts_image card = {0};
    int n = 0, sure = 0;
    for (uint64_t seed = 50400; seed < 50404; seed++) {
        ts_scene sc;
        ts_layout layout = seed % 2 ? TS_LAYOUT_SCATTER : TS_LAYOUT_GRID;
        assert_int_equal(render_table(TS_FAM_GOF, seed, layout, 1, &sc, err), 0);
        for (int i = 0; i < sc.ncards; i++) {
            if (sc.cards[i].visible < 0.99f)
                continue;
            const ts_pt *g = sc.cards[i].quad;
            for (int p = 0; p < 18; p++) {
                float u = -0.1f + 0.6f * (float)(p % 3), v = -0.1f + 0.6f * (float)(p / 3 % 3);
                ts_pt c = ts_quad_point(g, u, v);
                ts_quad q;
                ts_quad_scale_about(g, c, p < 9 ? 0.55f : 0.7f, q.q);
                ts_reading rd;
                assert_int_equal(tscv_warp_quad(&sc.img, q.q, &card, cls->card_w, cls->card_h, err), 0);
                assert_int_equal(cls->read(r, &card, &rd, err), 0);
                n++;
                sure += rd.is_card && rd.conf >= cls->conf_floor;
            }
        }
        ts_scene_free(&sc);
    }
    ts_image_free(&card);
    cls->destroy(r);
    fprintf(stderr, "part quads: %d of %d read above the floor\n", sure, n);
    /* measured 9 of 864 with the shipped nets (session 16); a card net
     * trained on such quads as "none" (ts-gof-patches --cards --part) read
     * 0, but fewer cards on the tables (models/README.md), so not shipped */
    assert_true(n >= 800);
    assert_true(sure <= 12);
}

/* A blob of one card is that card: the corners of its outline offer it
 * again sized by the lone cards, not its own foreshortened sides, a little
 * off it, where a small 6's index read 8 sure (gof_find.c is_pile,
 * on_blob; such a corner may only confirm the outline's reading, gof.c
 * confirms_outline). Tuning tables 100019 scatter, 100009 row, 100022
 * pile: each had one such sure wrong reading, at least half visible
 * cards. */
static void test_lone_card_corners_not_misread(void **state)
{
    (void)state;
    static const table_ref t[] = {{100019, TS_LAYOUT_SCATTER},
                                  {100009, TS_LAYOUT_ROW},
                                  {100022, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("lone card corners", t, 3, 0.5f, &n, &ok, &wrong);
    /* measured 23/35, 1 wrong (ts-render-eval before is_pile: 3 sure wrong
     * on these tables, Y6 read Y8 twice and G6 read G8); the one left is
     * 100019's Y6 read Y8 on such a corner, its outline too short to be a
     * card's (no outline reading to overrule; with such corners unread
     * unless they confirm one: 0 wrong, but 87000-87039 lost 5 pile and
     * block cards) */
    assert_true(n >= 35);
    assert_true(ok >= 21);
    assert_true(wrong <= 1);
}

/* ... and where such a corner reads the card its outline read unsure, it
 * confirms it: tables where dropping those corners (session 16's rule) lost
 * a G9, a Y9 and a Y6, fully visible, their outlines read at 0.6, and an
 * RD with no outline (gof.c overrules_outline). Tuning tables 105012,
 * 105005 and 103023 scatter, 103007 row. */
static void test_lone_card_corners_confirm(void **state)
{
    (void)state;
    static const table_ref t[] = {{105012, TS_LAYOUT_SCATTER},
                                  {105005, TS_LAYOUT_SCATTER},
                                  {103023, TS_LAYOUT_SCATTER},
                                  {103007, TS_LAYOUT_ROW}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("lone card corners confirm", t, 4, 0.99f, &n, &ok, &wrong);
    /* measured 46/48, 0 wrong (such corners never read: 42/48) */
    assert_true(n >= 48);
    assert_true(ok >= 45);
    assert_true(wrong == 0);
}

/* Piles with no lone card: the card size comes from the pile's outlines,
 * and only those of a card's shape may set it (gof_find.c card_shaped): on
 * 105037 a 10 over a 7 made a clean trapezoid that sized the corner cards
 * at twice the cards. Tuning seeds, at least half visible cards. */
static void test_pile_sized_by_card_shapes(void **state)
{
    (void)state;
    static const table_ref t[] = {{105037, TS_LAYOUT_PILE}, {107026, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("pile sized by card shapes", t, 2, 0.5f, &n, &ok, &wrong);
    /* measured 19/21, 0 wrong (main 4ac6601: 6/21) */
    assert_true(n >= 21);
    assert_true(ok >= 17);
    assert_true(wrong == 0);
}

/* Small yellow 6s and 9s whose one corner the index net reads as the twin,
 * the card net and the other corner agreeing (gof.c TWIN_DISSENT). Tuning
 * seeds, fully visible cards. */
static void test_small_sixes_and_nines_read(void **state)
{
    (void)state;
    static const table_ref t[] = {{105010, TS_LAYOUT_SCATTER},
                                  {105012, TS_LAYOUT_SCATTER},
                                  {105013, TS_LAYOUT_SCATTER}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("small sixes and nines", t, 3, 0.99f, &n, &ok, &wrong);
    /* measured 33/36, 0 wrong (main 4ac6601: 29/36) */
    assert_true(n >= 36);
    assert_true(ok >= 32);
    assert_true(wrong == 0);
}

/* Small 6s and 9s whose outline lies a few pixels off: the corner patches
 * cut their 3-4 px indices, which read as a 4 or a 2, so no index holds
 * the card the card net reads and it is capped; read again at another size
 * (gof.c OUTLINE_RESIZE) an index holds it. The same card only: its twin
 * from a resized quad stays unread. Tuning seeds 109000 and 111000, fully
 * visible cards. */
static void test_resized_sixes_and_nines_read(void **state)
{
    (void)state;
    static const table_ref t[] = {{109009, TS_LAYOUT_SCATTER}, {109024, TS_LAYOUT_SCATTER},
                                  {109008, TS_LAYOUT_ROW},     {109026, TS_LAYOUT_ROW},
                                  {111001, TS_LAYOUT_SCATTER}, {111034, TS_LAYOUT_SCATTER}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("resized sixes and nines", t, 6, 0.99f, &n, &ok, &wrong);
    /* measured 71/72, 0 wrong (main 565561e: 64/72) */
    assert_true(n >= 72);
    assert_true(ok >= 70);
    assert_int_equal(wrong, 0);
}

/* Blocks of touching cards split along seams into cells a third of a card
 * off: the cells cover the block, but only lone cards explain stock to the
 * index finder (gof_find.c INDEX_EXPLAINS), so it looks there and its cards
 * set the cells right. Touching rows of tuning seeds 109000 and 111000 on
 * dark cloth, felt and carpet. */
static void test_split_blocks_read_by_indices(void **state)
{
    (void)state;
    static const table_ref t[] = {{109031, TS_LAYOUT_TOUCHING},
                                  {109038, TS_LAYOUT_TOUCHING},
                                  {111014, TS_LAYOUT_TOUCHING}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("split blocks", t, 3, 0.99f, &n, &ok, &wrong);
    /* measured 35/35, 0 wrong (before, cells explaining the stock: 30/35, 1 wrong) */
    assert_true(n >= 35);
    assert_true(ok >= 34);
    assert_int_equal(wrong, 0);
}

/* Cards on printed cloths as light as their stock, found by their indices
 * where no outline shows: the cloth's dots pair up by the thousand, more
 * contrasting than a yellow index, and must neither take the index finder's
 * room nor be read (gof_index.c round_blob, gof_find.c index_on_stock).
 * Tuning seeds, fully visible cards. */
static void test_printed_cloth_indices(void **state)
{
    (void)state;
    static const table_ref t[] = {{107036, TS_LAYOUT_SCATTER},
                                  {107024, TS_LAYOUT_ROW},
                                  {107002, TS_LAYOUT_ROW}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("printed cloth indices", t, 3, 0.99f, &n, &ok, &wrong);
    /* measured 33/36, 0 wrong (main 4ac6601, ts-render-eval: 24/36) */
    assert_true(n >= 36);
    assert_true(ok >= 31);
    assert_true(wrong == 0);
}

/* Pile tops seen at a slant: a top lying across the view is foreshortened
 * unlike the lone cards (61 px across where they are 87), so neither its
 * corners' cards of the lone cards' size nor its index card (sized by
 * them) lay on it; the corner's own edges do (gof_find.c foreshortened),
 * and an index card far up the frame is sized for its row (side_at). A
 * card read sure twice is reported once (gof.c drop_unsure_twins). Piles
 * of this session's tuning seeds on felt and dark cloth, at least half
 * visible cards. */
static void test_foreshortened_pile_tops_read(void **state)
{
    (void)state;
    static const table_ref t[] = {
        {115024, TS_LAYOUT_PILE}, {115018, TS_LAYOUT_PILE}, {115033, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("foreshortened pile tops", t, 3, 0.5f, &n, &ok, &wrong);
    /* measured 25/33, 1 wrong (115018's G9, a quarter visible, read right
     * from its index view on the GP over it); main 3fb7f21: 18/33, 1 wrong */
    assert_true(n >= 33);
    assert_true(ok >= 23);
    assert_true(wrong <= 1);
}

/* A phoenix or dragon (its index a creature the index finder does not
 * see) or a card whose index a glint washes out, in a block of touching
 * cards whose split failed or in a row laid with gaps, has no candidate of
 * its own; the cards beside it, found by their indices, offer it edge to
 * edge or a row's step on (gof.c offer_beside). Tuning tables 117006,
 * 117012, 117020 touching and 115031, 115017 rows, fully visible cards. */
static void test_touching_cards_beside_known(void **state)
{
    (void)state;
    static const table_ref t[] = {{117006, TS_LAYOUT_TOUCHING},
                                  {117012, TS_LAYOUT_TOUCHING},
                                  {117020, TS_LAYOUT_TOUCHING},
                                  {115031, TS_LAYOUT_ROW},
                                  {115017, TS_LAYOUT_ROW}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("touching cards beside known ones", t, 5, 0.99f, &n, &ok, &wrong);
    /* measured 57/58, 0 wrong (117020's R10 under a glint is left: its
     * stock is white); 51/58 without offer_beside */
    assert_true(n >= 58);
    assert_true(ok >= 56);
    assert_true(wrong == 0);
}

/* An outline run on past its card (a stripe of a printed cloth as light as
 * the stock joined to its end) no longer hides the index card on it
 * (gof_find.c on_lone_card: 119029's R3 and Y8), and a pile top's index
 * card whose far sides snapped to the cards under it is read at a card's
 * length, its sure view keeping the place an unsure one took (gof.c
 * read_shaped, sure_in_stead: 117016's R6). Tuning tables 119029 scatter
 * and 117016 pile, fully visible cards. */
static void test_index_cards_not_hidden(void **state)
{
    (void)state;
    static const table_ref t[] = {{119029, TS_LAYOUT_SCATTER}, {117016, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("index cards not hidden", t, 2, 0.99f, &n, &ok, &wrong);
    /* measured 11/16, 0 wrong; main b9c294b: 8/16 */
    assert_true(n >= 16);
    assert_true(ok >= 11);
    assert_true(wrong == 0);
}

/* Small yellow and red 6s and 9s whose indices the index net cannot read
 * (each corner a 1, a 3 or a 4 at 0.2-0.6) are read from the card net's big
 * numeral when it holds the card at 0.7 or more, both corners show an
 * index and none takes the card for its twin (gof.c CARD_SIX_NINE); a quad
 * a tenth of a card off shows one index and stays capped (119026's Y6, read
 * Y9 at 0.999 by the card net there, is no second, false card). Tuning
 * tables 117034 and 117029 scatter, 117019 row and 119026 touching, fully
 * visible cards. */
static void test_sixes_and_nines_by_card_net(void **state)
{
    (void)state;
    static const table_ref t[] = {{117034, TS_LAYOUT_SCATTER},
                                  {117029, TS_LAYOUT_SCATTER},
                                  {117019, TS_LAYOUT_ROW},
                                  {119026, TS_LAYOUT_TOUCHING}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("sixes and nines by the card net", t, 4, 0.99f, &n, &ok, &wrong);
    /* measured 45/48, 1 wrong (117034's Y4 read Y1 at 0.99, as on main);
     * main b9c294b: 42/48, 1 wrong */
    assert_true(n >= 48);
    assert_true(ok >= 45);
    assert_true(wrong <= 1);
}

/* A row laid unevenly is one blob whose long sides, fitted as two straight
 * lines, cut a card set lower than the others: each cell of the line takes
 * its long sides where the outline runs along its own stretch (gof_find.c
 * line_cells: 119021's G2, a fifth of its length cut off, was read G9 at
 * 0.97). A pile with no lone card and no card showing both indices sizes
 * the cards of its indices by the size three or more of them share
 * (gof_find.c index_size_ok: 119035's R2 on top and R10). Tuning tables
 * 119021 row and 119035 pile, fully visible cards. */
static void test_uneven_rows_and_bare_piles(void **state)
{
    (void)state;
    static const table_ref t[] = {{119021, TS_LAYOUT_ROW}, {119035, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("uneven rows and bare piles", t, 2, 0.99f, &n, &ok, &wrong);
    /* measured 15/15, 1 wrong;
     * main c8d88ff: 12/15, 2 wrong */
    assert_true(n >= 15);
    assert_true(ok >= 15);
    assert_true(wrong <= 1);
}

/* Printed cloths whose print the stock image averages away or takes for
 * stock (gof_find.c tone_image, two_modes, session 26): on polka-dot
 * cloths (tuning 121011, 123017) the dots, 5 px across, vanish when each
 * colour is closed over 12 px, and the cards' stock stands apart from the
 * cloth's ground in chroma; on orange and white stripes (123006) the cards
 * lie between the two stripes' chromas, far from both. Scatters, fully
 * visible cards. */
static void test_dotted_and_striped_cloths(void **state)
{
    (void)state;
    static const table_ref t[] = {{121011, TS_LAYOUT_SCATTER},
                                  {123017, TS_LAYOUT_SCATTER},
                                  {123006, TS_LAYOUT_SCATTER}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("dotted and striped cloths", t, 3, 0.99f, &n, &ok, &wrong);
    /* measured 24/36, 0 wrong; main a581260: 8/36 (ts-render-eval: 1 + 3 + 4), 0 wrong */
    assert_true(n == 36);
    assert_true(ok >= 20);
    assert_true(wrong == 0);
}

/* A pile's top read at its index view whose index lies on the whole card
 * of a sure view under it was dropped as a second card there (gof.c
 * lies_over, session 27): the top leaves the lower card's index uncovered,
 * covers its far corner and shows its own other index. Tuning piles
 * 123010 (G4 over R8), 123015 (G3), 123028 (R6), 123006 (Y7), at least
 * half visible cards; 87004 (a Y2's index read Y7 at 0.98 over a Y5) and
 * 124003 (a Y4 view's card run the wrong way, over an R2) keep no wrong
 * card. */
static void test_pile_tops_over_views(void **state)
{
    (void)state;
    static const table_ref t[] = {{123010, TS_LAYOUT_PILE}, {123015, TS_LAYOUT_PILE},
                                  {123028, TS_LAYOUT_PILE}, {123006, TS_LAYOUT_PILE},
                                  {87004, TS_LAYOUT_PILE},  {124003, TS_LAYOUT_PILE}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("pile tops over views", t, 6, 0.5f, &n, &ok, &wrong);
    /* measured 54/67, 0 wrong; main 102cd5a: 50/67, 0 wrong */
    assert_true(n == 67);
    assert_true(ok >= 53);
    assert_true(wrong == 0);
}

/* A pile's index whose numeral and symbol merge into one blob was split at
 * the blob's narrowest place, which for a 3 or a 6 can be the numeral's
 * waist: the pair then ran the wrong way and implied a card off the stock
 * (gof_index.c split_merged, session 28: the narrowest place near each
 * end too). Tuning piles 125017 (its R3 top) and 125035 (a Y6), fully
 * visible cards; 127014 and 127021, where the second split's one-index
 * cards read a 6 as G1 at 0.996 and a 3 as R1 at 0.999, and 107036's
 * scatter, where a short blob's second cut read an R1's index as R3 at
 * 0.999, keep no false card. */
static void test_numerals_cut_at_the_waist(void **state)
{
    (void)state;
    static const table_ref t[] = {{125017, TS_LAYOUT_PILE},
                                  {125035, TS_LAYOUT_PILE},
                                  {127014, TS_LAYOUT_PILE},
                                  {127021, TS_LAYOUT_PILE},
                                  {107036, TS_LAYOUT_SCATTER}};
    int n = 0, ok = 0, wrong = 0;
    read_camera_tables("numerals cut at the waist", t, 5, 0.99f, &n, &ok, &wrong);
    /* measured 30/32, 0 wrong; main 0aa88bb: 28/32, 0 wrong (ts-render-eval) */
    assert_true(n == 32);
    assert_true(ok >= 30);
    assert_true(wrong == 0);
}

int main(void)
{
    tscv_set_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_header),
        cmocka_unit_test(test_uneven_rows_and_bare_piles),
        cmocka_unit_test(test_dotted_and_striped_cloths),
        cmocka_unit_test(test_pile_tops_over_views),
        cmocka_unit_test(test_numerals_cut_at_the_waist),
        cmocka_unit_test(test_touching_cards_beside_known),
        cmocka_unit_test(test_upside_down_reads_the_same),
        cmocka_unit_test(test_non_cards),
        cmocka_unit_test(test_rendered_tables),
        cmocka_unit_test(test_blocks_and_piles_read),
        cmocka_unit_test(test_striped_cloth_read_by_indices),
        cmocka_unit_test(test_merged_indices_read),
        cmocka_unit_test(test_covered_corner_cards_not_misread),
        cmocka_unit_test(test_pile_corner_views_read),
        cmocka_unit_test(test_slanted_rows_read),
        cmocka_unit_test(test_pile_tops_read),
        cmocka_unit_test(test_finder_offers_every_grid_card),
        cmocka_unit_test(test_snap_edges),
        cmocka_unit_test(test_index_offers_touching_cards),
        cmocka_unit_test(test_index_roi),
        cmocka_unit_test(test_pale_tables_read),
        cmocka_unit_test(test_sheared_quads_not_misread),
        cmocka_unit_test(test_cards_as_bright_as_table),
        cmocka_unit_test(test_card_size_not_misled),
        cmocka_unit_test(test_polka_dot_cloth_read),
        cmocka_unit_test(test_skewed_outlines_not_misread),
        cmocka_unit_test(test_pale_index_cards_resized),
        cmocka_unit_test(test_outlines_resized),
        cmocka_unit_test(test_part_quads_not_read),
        cmocka_unit_test(test_lone_card_corners_not_misread),
        cmocka_unit_test(test_lone_card_corners_confirm),
        cmocka_unit_test(test_pile_sized_by_card_shapes),
        cmocka_unit_test(test_small_sixes_and_nines_read),
        cmocka_unit_test(test_printed_cloth_indices),
        cmocka_unit_test(test_resized_sixes_and_nines_read),
        cmocka_unit_test(test_split_blocks_read_by_indices),
        cmocka_unit_test(test_foreshortened_pile_tops_read),
        cmocka_unit_test(test_index_cards_not_hidden),
        cmocka_unit_test(test_sixes_and_nines_by_card_net),
    };
    /* TS_TEST_FILTER=test_pile* runs a part */
    if (getenv("TS_TEST_FILTER"))
        cmocka_set_test_filter(getenv("TS_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
