/* Overlay: what is drawn where, checked on pixels of a plain synthetic frame. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fontconfig/fontconfig.h>

#include "imageio.h"
#include "overlay.h"
#include "overlay_cairo.h"

enum { W = 1280, H = 720 };
static const uint8_t CLOTH[3] = {40, 90, 30}; /* dark green table, B,G,R */

static ts_image cloth(void)
{
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, W, H, 3), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            memcpy(ts_image_row(&img, y) + 3 * x, CLOTH, 3);
    return img;
}

static const uint8_t *at(const ts_image *img, int x, int y)
{
    return ts_image_row(img, y) + 3 * x;
}

static int is_cloth(const ts_image *img, int x, int y)
{
    return memcmp(at(img, x, y), CLOTH, 3) == 0;
}

static int near(const uint8_t *p, const unsigned char c[3], int tol)
{
    for (int i = 0; i < 3; i++)
        if (abs((int)p[i] - (int)c[i]) > tol)
            return 0;
    return 1;
}

/* Whether any pixel within r of (x, y) is close to colour c. */
static int colour_near(const ts_image *img, int x, int y, int r, const unsigned char c[3])
{
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && y + dy >= 0 && x + dx < img->w && y + dy < img->h &&
                near(at(img, x + dx, y + dy), c, 40))
                return 1;
    return 0;
}

/* An axis-aligned card at (x, y), 120 x 180, clockwise from top-left. */
static void card(ts_table *r, int x, int y, const char *text, int read)
{
    ts_card *c = &r->frame.cards[r->frame.ncards++];
    memset(c, 0, sizeof *c);
    c->quad[0] = (ts_pt){(float)x, (float)y};
    c->quad[1] = (ts_pt){(float)x + 120, (float)y};
    c->quad[2] = (ts_pt){(float)x + 120, (float)y + 180};
    c->quad[3] = (ts_pt){(float)x, (float)y + 180};
    snprintf(c->text, sizeof c->text, "%s", text);
    c->conf = read ? 0.95f : 0.2f;
    c->read = read;
}

static ts_table *table_of_three(void)
{
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = W;
    r.frame.h = H;
    card(&r, 100, 100, "1RDS", 1);
    card(&r, 400, 100, "2RDS", 1);
    card(&r, 700, 100, "3RDS", 1);
    r.nsets = 1;
    r.sets[0][0] = 0, r.sets[0][1] = 1, r.sets[0][2] = 2;
    return &r;
}

/* The SET hint ladder: nothing, one card of a Set, two, the Set. */
static void set_hint_ladder(void **state)
{
    (void)state;
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    for (int level = 0; level <= 4; level++) {
        ts_table *r = table_of_three();
        for (int i = 0; i < 3; i++)
            ts_code_parse(TS_FAM_SET, r->frame.cards[i].text, 4, &r->frame.cards[i].code);
        r->frame.family = TS_FAM_SET;
        ts_table_rules rules = {.game = &TS_GAME_SET, .set_opts = 1};
        rules.opts.hint_level = level;
        ts_table_solve_with(r, &rules);
        assert_int_equal(r->nsets, 1);
        ts_image img = cloth();
        assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
        int ringed = 0;
        for (int i = 0; i < 3; i++) {
            int found = 0;
            for (int y = 100 - 25; y < 100 && !found; y++)
                found = near(at(&img, 160 + 300 * i, y), c0, 40);
            ringed += found;
        }
        assert_int_equal(ringed, level >= 3 ? 3 : level);
        ts_image_free(&img);
    }
}

/* Gang of Four: the best play ringed on the hand; nothing beats: PASS. */
static void plays_on_the_hand(void **state)
{
    (void)state;
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = W;
    r.frame.h = H;
    r.frame.family = TS_FAM_GOF;
    card(&r, 500, 80, "G5", 1); /* the trick, top half */
    card(&r, 200, 450, "R9", 1); /* the hand, bottom half */
    card(&r, 700, 450, "G3", 1);
    for (int i = 0; i < 3; i++)
        ts_code_parse(TS_FAM_GOF, r.frame.cards[i].text, strlen(r.frame.cards[i].text),
                      &r.frame.cards[i].code);
    ts_table_solve(&r);
    assert_int_equal(r.zone[0], TS_ZONE_TRICK);
    assert_int_equal(r.zone[1], TS_ZONE_HAND);
    assert_int_equal(r.view.count, 1); /* R9 */
    ts_image img = cloth();
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    int found = 0;
    for (int y = 450 - 25; y < 450 && !found; y++)
        found = near(at(&img, 260, y), c0, 40);
    assert_true(found);
    for (int y = 450 - 25; y < 450; y++) /* G3 beats nothing: no ring */
        assert_false(near(at(&img, 760, y), c0, 40));
    ts_image_free(&img);
    r.frame.cards[1].code.idx = 0; /* R9 -> G1: nothing beats G5 */
    snprintf(r.frame.cards[1].text, sizeof r.frame.cards[1].text, "G1");
    ts_table_solve(&r);
    assert_true(r.view.pass);
    assert_string_equal(r.view.headline, "pass: nothing beats the single");
}

/* A verdict is drawn large, in its colour, near the move. */
static void verdict_near_the_move(void **state)
{
    (void)state;
    ts_image img = cloth();
    static ts_table empty;
    ts_overlay_opts oo = {.hide_sets = 1, .verdict = "not a Set: colour", .verdict_kind = TS_VERDICT_ILLEGAL,
                          .verdict_x = 900, .verdict_y = 500};
    assert_int_equal(ts_overlay_draw(&img, &empty, &oo), 0);
    static const unsigned char red[3] = {40, 40, 230};
    assert_true(colour_near(&img, 900, 500, 40, red));
    assert_true(is_cloth(&img, 100, 100));
    ts_image_free(&img);
}

static void outlines_cards_and_leaves_the_rest(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    r->nsets = 0;
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    static const unsigned char white[3] = {255, 255, 255};
    /* Middle of each card's top edge is white; far from any card is untouched. */
    for (int i = 0; i < 3; i++)
        assert_true(colour_near(&img, 160 + 300 * i, 100, 2, white));
    assert_true(is_cloth(&img, 1100, 500));
    assert_true(is_cloth(&img, 50, 400));
    /* The code is drawn on a dark backing at the card's centre. */
    const uint8_t *mid = at(&img, 160, 190);
    assert_false(memcmp(mid, CLOTH, 3) == 0);
    ts_image_free(&img);
}

static void set_ring_has_the_set_colour_outside_the_card(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    /* The ring lies just outside the card edge (above the top edge). */
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int y = 100 - 25; y < 100 && !found; y++)
            found = near(at(&img, 160 + 300 * i, y), c0, 40);
        assert_true(found);
    }
    /* A card in no Set gets no ring. */
    card(r, 100, 400, "1GOO", 1);
    ts_image img2 = cloth();
    assert_int_equal(ts_overlay_draw(&img2, r, NULL), 0);
    for (int y = 400 - 25; y < 400; y++)
        assert_false(near(at(&img2, 160, y), c0, 40));
    ts_image_free(&img);
    ts_image_free(&img2);
}

static void card_in_two_sets_shows_both_colours(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table *r = table_of_three();
    card(r, 100, 400, "1GDS", 1);
    card(r, 400, 400, "1PDS", 1);
    r->nsets = 2; /* card 0 is in both */
    r->sets[1][0] = 0, r->sets[1][1] = 3, r->sets[1][2] = 4;
    assert_int_equal(ts_overlay_draw(&img, r, NULL), 0);
    unsigned char c0[3], c1[3];
    ts_overlay_set_colour(0, c0);
    ts_overlay_set_colour(1, c1);
    assert_false(memcmp(c0, c1, 3) == 0);
    int y0 = -1, y1 = -1; /* scan upward from card 0's top edge */
    for (int y = 99; y > 100 - 40; y--) {
        if (y0 < 0 && near(at(&img, 160, y), c0, 40))
            y0 = y;
        if (y1 < 0 && near(at(&img, 160, y), c1, 40))
            y1 = y;
    }
    assert_true(y0 > 0 && y1 > 0);
    assert_true(y1 < y0); /* the second Set's ring is further out */
    ts_image_free(&img);
}

static void unread_card_is_dashed_grey_with_question_mark(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    card(&r, 300, 300, "2GST", 0);
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    static const unsigned char white[3] = {255, 255, 255}, grey[3] = {170, 170, 170};
    /* Along the top edge: separate grey dashes, no white outline. */
    int dashes = 0, in_dash = 0, whites = 0;
    for (int x = 305; x < 415; x++) {
        const uint8_t *p = at(&img, x, 300);
        int g = near(p, grey, 30);
        dashes += g && !in_dash;
        in_dash = g;
        whites += near(p, white, 10);
    }
    assert_true(dashes >= 4);
    assert_int_equal(whites, 0);
    /* The best guess is not printed: the centre shows "?" (light strokes on dark). */
    int light = 0;
    for (int y = 370; y < 410; y++)
        for (int x = 340; x < 380; x++)
            light += near(at(&img, x, y), grey, 60);
    assert_true(light > 5);
    ts_image_free(&img);
}

static void hide_sets_draws_no_rings(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_overlay_opts o = {.hide_sets = 1};
    assert_int_equal(ts_overlay_draw(&img, table_of_three(), &o), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_false(near(at(&img, x, y), c0, 20));
    ts_image_free(&img);
}

static void status_and_stale_marker(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    ts_overlay_opts o = {.status = "30.0 fps  12 ms  set  videotestsrc"};
    assert_int_equal(ts_overlay_draw(&img, &r, &o), 0);
    assert_false(is_cloth(&img, 5, 5));     /* status band */
    assert_true(is_cloth(&img, 640, 400)); /* not stale: frame untouched */
    ts_image_free(&img);

    img = cloth();
    o.stale = 1;
    o.stale_reason = "no frame for 3 s, retrying";
    assert_int_equal(ts_overlay_draw(&img, &r, &o), 0);
    const uint8_t *p = at(&img, 640, 400); /* dimmed */
    assert_true(p[1] < CLOTH[1]);
    static const unsigned char red[3] = {40, 40, 230};
    assert_true(colour_near(&img, 2, 360, 2, red)); /* red border */
    ts_image_free(&img);
}

static void rejects_bad_input_and_skips_wild_quads(void **state)
{
    (void)state;
    ts_image img = cloth();
    ts_table r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ts_overlay_draw(NULL, &r, NULL), -1);
    assert_int_equal(ts_overlay_draw(&img, NULL, NULL), -1);
    ts_image grey;
    assert_int_equal(ts_image_alloc(&grey, 10, 10, 1), 0);
    assert_int_equal(ts_overlay_draw(&grey, &r, NULL), -1);
    ts_image_free(&grey);

    card(&r, 100, 100, "1RDS", 1);
    r.frame.cards[0].quad[2].x = NAN;
    card(&r, 100, 100, "1RDS", 1);
    r.frame.cards[1].quad[1].x = 1e30f;
    r.nsets = 1; /* indices out of range and on skipped cards are ignored */
    r.sets[0][0] = 0, r.sets[0][1] = 1, r.sets[0][2] = 99;
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    r.frame.ncards = 1000; /* clamped to TS_MAX_CARDS */
    assert_int_equal(ts_overlay_draw(&img, &r, NULL), 0);
    ts_image_free(&img);
}

static void draws_on_a_padded_stride_view(void **state)
{
    (void)state;
    /* A view into a wider buffer (as a GStreamer frame with row padding). */
    ts_image big = cloth();
    ts_image view = ts_image_roi(&big, 0, 0, 640, 360);
    ts_table *r = table_of_three();
    assert_int_equal(ts_overlay_draw(&view, r, NULL), 0);
    assert_true(is_cloth(&big, 1000, 100)); /* nothing right of the view */
    assert_true(is_cloth(&big, 300, 600));  /* nor below it */
    ts_image_free(&big);
}

static void tiny_frame_does_not_crash(void **state)
{
    (void)state;
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, 8, 6, 3), 0);
    memset(img.buf, 0, (size_t)img.stride * 6);
    ts_overlay_opts o = {.status = "x", .stale = 1};
    assert_int_equal(ts_overlay_draw(&img, table_of_three(), &o), 0);
    ts_image_free(&img);
}


/* ---- The draw list ---------------------------------------------------------- */

static int count_items(const ts_overlay_list *l, ts_ov_shape shape, ts_ov_role role, int card,
                       int group)
{
    int n = 0;
    for (int k = 0; k < l->n; k++) {
        const ts_ov_item *it = &l->item[k];
        n += it->shape == shape && it->role == role && (card < -1 || it->card == card) &&
             (group < 0 || it->group == group);
    }
    return n;
}

/* Nine cards in a 3x3 grid, every row, column and diagonal a Set: 8 Sets, each
 * card in 2 to 4 of them. */
static ts_table *table_of_eight_sets(void)
{
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = W;
    r.frame.h = H;
    r.frame.family = TS_FAM_SET;
    static const char *codes[9] = {"1RDS", "2GDS", "3PDS", "2GOT", "3POT", "1ROT", "3PSO", "1RSO", "2GSO"};
    for (int i = 0; i < 9; i++) {
        card(&r, 150 + 300 * (i % 3), 40 + 230 * (i / 3), codes[i], 1);
        ts_code_parse(TS_FAM_SET, codes[i], 4, &r.frame.cards[i].code);
    }
    ts_table_solve(&r);
    return &r;
}

/* Eight Sets: numbered badges 1-8 (three each), a legend row per Set under the
 * headline, no rings stacked on the cards. */
static void many_sets_are_numbered_with_a_legend(void **state)
{
    (void)state;
    ts_table *r = table_of_eight_sets();
    assert_true(r->nsets >= 8);
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    assert_int_equal(ts_overlay_build(&l, r, NULL, W, H), 0);
    int rows = 0;
    for (int k = 1; k <= r->nsets; k++) {
        assert_int_equal(count_items(&l, TS_OV_BADGE, TS_OVR_HINT, -2, k), 3);
        int row = count_items(&l, TS_OV_ROW, TS_OVR_LEGEND, -2, k);
        assert_int_equal(row, k <= 8 ? 1 : row); /* past the eighth, as many as fit */
        rows += row;
    }
    /* A legend too long for the frame ends in a row saying where the rest are. */
    int more = 0;
    for (int k = 0; k < l.n; k++)
        more += l.item[k].shape == TS_OV_ROW && strstr(l.item[k].text, "see the numbers") != NULL;
    assert_int_equal(more, rows < r->nsets);
    assert_int_equal(count_items(&l, TS_OV_POLY, TS_OVR_HINT, -2, -1), 0);
    /* Each badge sits on its card (they have room), none on another. */
    ts_ov_disc *d = calloc((size_t)l.n, sizeof *d);
    assert_non_null(d);
    ts_overlay_layout_badges(&l, 1, 1, W, H, ts_overlay_cv_measure, NULL, d);
    for (int k = 0; k < l.n; k++) {
        const ts_ov_item *it = &l.item[k];
        if (it->shape != TS_OV_BADGE)
            continue;
        const ts_pt *q = r->frame.cards[it->card].quad;
        assert_true(d[k].x > q[0].x && d[k].x < q[1].x && d[k].y > q[0].y && d[k].y < q[2].y);
        for (int j = 0; j < k; j++)
            if (l.item[j].shape == TS_OV_BADGE)
                assert_true(hypotf(d[j].x - d[k].x, d[j].y - d[k].y) >= d[j].R + d[k].R);
    }
    free(d);
    /* Distinct colours for the first eight. */
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < a; b++) {
            unsigned char ca[3], cb[3];
            ts_overlay_set_colour(a, ca);
            ts_overlay_set_colour(b, cb);
            assert_true(abs(ca[0] - cb[0]) + abs(ca[1] - cb[1]) + abs(ca[2] - cb[2]) > 60);
        }
    /* On pixels: a badge's colour shows on card 4 (in four Sets). */
    ts_image img = cloth();
    assert_int_equal(ts_overlay_render(&img, &l), 0);
    unsigned char c0[3];
    ts_overlay_set_colour(0, c0);
    int seen = 0;
    for (int y = 0; y < H && !seen; y++)
        for (int x = 0; x < W && !seen; x++)
            seen = near(at(&img, x, y), c0, 20);
    assert_true(seen);
    ts_image_free(&img);
    ts_overlay_list_free(&l);
}

/* A crowded table: 15 cards (w x h frame px, turned by deg), close together in
 * a 5 x 3 grid; the codes make many Sets, some cards in four or more. */
static ts_table *crowded_table(int fw, int fh, float cw, float ch, float deg)
{
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = fw;
    r.frame.h = fh;
    r.frame.family = TS_FAM_SET;
    static const char *codes[15] = {"1RDS", "2GDS", "3PDS", "2GOT", "3POT", "1ROT", "3PSO", "1RSO",
                                    "2GSO", "1GDT", "2PDO", "3RDT", "1POS", "2ROO", "3GST"};
    float a = deg * (float)M_PI / 180, ca = cosf(a), sa = sinf(a);
    float gx = fw / 5.0f, gy = fh / 3.0f;
    for (int i = 0; i < 15; i++) {
        ts_card *c = &r.frame.cards[r.frame.ncards++];
        memset(c, 0, sizeof *c);
        float mx = gx * (0.5f + (float)(i % 5)), my = gy * (0.5f + (float)(i / 5));
        const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 4; k++) {
            float x = corner[k][0] * cw / 2, y = corner[k][1] * ch / 2;
            c->quad[k] = (ts_pt){mx + x * ca - y * sa, my + x * sa + y * ca};
        }
        snprintf(c->text, sizeof c->text, "%s", codes[i]);
        c->conf = 0.95f;
        c->read = 1;
        ts_code_parse(TS_FAM_SET, codes[i], 4, &c->code);
    }
    ts_table_solve(&r);
    return &r;
}

/* Whether a disc touches a box. */
static int disc_on_box(const ts_ov_disc *d, const ts_ov_textbox *b)
{
    float nx = fmaxf(b->x, fminf(d->x, b->x + b->w)), ny = fmaxf(b->y, fminf(d->y, b->y + b->h));
    return hypotf(d->x - nx, d->y - ny) < d->R;
}

/* Checks one layout: no badge covers any card's code, none covers another,
 * every badge in the picture. Returns the badges counted. */
static int check_badges(const ts_overlay_list *l, double s, double u, int ow, int oh,
                        ts_ov_measure measure, void *ctx)
{
    ts_ov_disc *d = calloc((size_t)l->n, sizeof *d);
    assert_non_null(d);
    ts_overlay_layout_badges(l, s, u, ow, oh, measure, ctx, d);
    int badges = 0;
    for (int k = 0; k < l->n; k++) {
        if (l->item[k].shape != TS_OV_BADGE)
            continue;
        badges++;
        assert_true(d[k].x - d[k].R >= 0 && d[k].y - d[k].R >= 0 && d[k].x + d[k].R <= ow &&
                    d[k].y + d[k].R <= oh);
        for (int j = 0; j < l->n; j++) {
            const ts_ov_item *t = &l->item[j];
            if (t->shape == TS_OV_TEXT && t->role == TS_OVR_CODE) {
                ts_ov_textbox b;
                ts_overlay_text_box(t, s, u, ow, oh, measure, ctx, &b);
                if (disc_on_box(&d[k], &b))
                    fail_msg("badge %s of card %d covers the code %s of card %d (%dx%d)",
                             l->item[k].text, l->item[k].card, t->text, t->card, ow, oh);
            }
            if (j < k && l->item[j].shape == TS_OV_BADGE &&
                hypotf(d[j].x - d[k].x, d[j].y - d[k].y) < d[j].R + d[k].R)
                fail_msg("badges %d and %d overlap", j, k);
        }
    }
    free(d);
    return badges;
}

/* On a crowded table (12-15 cards, many Sets) the numbered badges never hide
 * a card's code, nor each other: checked on the draw list's layout with both
 * renderers' text sizes, cards upright, sideways and turned, in the window's,
 * the recording's and a small stream's sizes. */
static void badges_leave_every_code_readable(void **state)
{
    (void)state;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 64);
    cairo_t *cr = cairo_create(surf);
    static const struct {
        int fw, fh;
        float cw, ch, deg;
    } TABLES[] = {
        {1280, 720, 110, 165, 0}, {1280, 720, 165, 110, 0}, {1280, 720, 120, 170, 25},
        {1920, 1080, 170, 250, 0}, {1920, 1080, 250, 170, -15}, {640, 360, 60, 90, 0},
        {1280, 720, 80, 120, 0},   {1280, 720, 120, 80, 10},    {1920, 1080, 110, 160, -30},
    };
    static const int OUT[][2] = {{1280, 720}, {1920, 1080}, {1920, 1200}, {960, 540}};
    for (size_t t = 0; t < sizeof TABLES / sizeof TABLES[0]; t++) {
        ts_table *r = crowded_table(TABLES[t].fw, TABLES[t].fh, TABLES[t].cw, TABLES[t].ch,
                                    TABLES[t].deg);
        assert_true(r->nsets >= 6);
        ts_overlay_list l;
        ts_overlay_list_init(&l);
        assert_int_equal(ts_overlay_build(&l, r, NULL, r->frame.w, r->frame.h), 0);
        int most = 0; /* Sets through the busiest card */
        for (int i = 0; i < r->frame.ncards; i++) {
            int n = count_items(&l, TS_OV_BADGE, TS_OVR_HINT, i, -1);
            most = n > most ? n : most;
        }
        assert_true(most >= 4);
        for (size_t o = 0; o < sizeof OUT / sizeof OUT[0]; o++) {
            int ow = OUT[o][0], oh = OUT[o][1];
            double s = fmin((double)ow / l.w, (double)oh / l.h);
            int vw = (int)lround(l.w * s), vh = (int)lround(l.h * s);
            double u = ts_overlay_unit(vw, vh);
            int n = check_badges(&l, s, u, vw, vh, ts_overlay_cairo_measure, cr);
            assert_int_equal(n, count_items(&l, TS_OV_BADGE, TS_OVR_HINT, -2, -1));
            check_badges(&l, s, u, vw, vh, ts_overlay_cv_measure, NULL);
        }
        ts_overlay_list_free(&l);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
}

/* The recording and the HTTP stream: a 640x360 frame is annotated at
 * 1280x720, its codes as tall as the window draws them (14 px at 720 lines,
 * not 7), and a phone's stream half as large again; a 1080p frame is not
 * scaled. */
static void small_video_is_annotated_at_a_legible_size(void **state)
{
    (void)state;
    ts_table *r = table_of_three();
    for (int i = 0; i < r->frame.ncards; i++)
        for (int k = 0; k < 4; k++)
            r->frame.cards[i].quad[k].x /= 2, r->frame.cards[i].quad[k].y /= 2;
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    assert_int_equal(ts_overlay_build(&l, r, NULL, 640, 360), 0);
    ts_image small;
    assert_int_equal(ts_image_alloc(&small, 640, 360, 3), 0);
    memset(small.buf, 60, (size_t)small.stride * 360);
    const ts_ov_item *code = NULL;
    for (int k = 0; k < l.n && !code; k++)
        if (l.item[k].role == TS_OVR_CODE)
            code = &l.item[k];
    assert_non_null(code);
    ts_image out = {0};
    static const double SCALE[2] = {1, 1.5};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ts_overlay_annotate(&out, &small, &l, 720, SCALE[k]), 0);
        assert_int_equal(out.w, 1280);
        assert_int_equal(out.h, 720);
        ts_ov_textbox b;
        double u = ts_overlay_unit(out.w, out.h) * SCALE[k];
        ts_overlay_text_box(code, 2, u, out.w, out.h, ts_overlay_cv_measure, NULL, &b);
        assert_true(b.h - 8 * u >= 14 * SCALE[k] - 1); /* the box less its padding */
        /* Drawn there: the code's backing is dark on the grey frame. */
        const uint8_t *px = ts_image_row(&out, (int)(b.y + 2)) + 3 * (int)(b.x + 2);
        assert_true(px[0] < 50);
    }
    ts_image big;
    assert_int_equal(ts_image_alloc(&big, 1920, 1080, 3), 0);
    memset(big.buf, 60, (size_t)big.stride * 1080);
    assert_int_equal(ts_overlay_annotate(&out, &big, &l, 720, 1), 0);
    assert_int_equal(out.w, 1920);
    ts_image_free(&big);
    ts_image_free(&out);
    ts_image_free(&small);
    ts_overlay_list_free(&l);
}

/* A card unseen for TS_OVERLAY_GONE_AFTER frames: faint dashed outline, no
 * code, no badge or ring; a Set through it is not drawn. */
static void gone_card_is_faint_and_carries_no_hint(void **state)
{
    (void)state;
    ts_table *r = table_of_three();
    int missing[3] = {0, TS_OVERLAY_GONE_AFTER - 1, 0};
    ts_overlay_opts o = {.missing = missing};
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    assert_int_equal(ts_overlay_build(&l, r, &o, W, H), 0);
    /* One missed frame is noise: still drawn as present, with its Set. */
    assert_int_equal(count_items(&l, TS_OV_TEXT, TS_OVR_CODE, 1, -1), 1);
    assert_true(count_items(&l, TS_OV_BADGE, TS_OVR_HINT, 1, -1) > 0);
    missing[1] = TS_OVERLAY_GONE_AFTER;
    assert_int_equal(ts_overlay_build(&l, r, &o, W, H), 0);
    assert_int_equal(count_items(&l, TS_OV_POLY, TS_OVR_GONE, 1, -1), 1);
    assert_int_equal(count_items(&l, TS_OV_TEXT, TS_OVR_CODE, 1, -1), 0);
    assert_int_equal(count_items(&l, TS_OV_POLY, TS_OVR_CARD, 1, -1), 0);
    assert_int_equal(count_items(&l, TS_OV_BADGE, TS_OVR_HINT, -2, -1), 0);
    assert_int_equal(count_items(&l, TS_OV_POLY, TS_OVR_HINT, -2, -1), 0);
    float a0 = 0;
    for (int k = 0; k < l.n; k++)
        if (l.item[k].role == TS_OVR_GONE)
            a0 = l.item[k].alpha;
    assert_true(a0 > 0 && a0 < 1);
    missing[1] = 7; /* fading as it stays unseen */
    assert_int_equal(ts_overlay_build(&l, r, &o, W, H), 0);
    for (int k = 0; k < l.n; k++)
        if (l.item[k].role == TS_OVR_GONE)
            assert_true(l.item[k].alpha < a0);
    ts_overlay_list_free(&l);
}

static void unread_card_says_why(void **state)
{
    (void)state;
    static ts_table r;
    memset(&r, 0, sizeof r);
    card(&r, 300, 300, "2GST", 0); /* conf 0.2 */
    card(&r, 700, 300, "1RDS", 0);
    r.frame.cards[1].conf = 0.01f;
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    assert_int_equal(ts_overlay_build(&l, &r, NULL, W, H), 0);
    int unsure = 0, not_card = 0, legend = 0;
    for (int k = 0; k < l.n; k++) {
        const ts_ov_item *it = &l.item[k];
        assert_true(it->role != TS_OVR_CODE); /* no guess printed */
        unsure += it->card == 0 && strstr(it->text, "unsure (20%)") != NULL;
        not_card += it->card == 1 && strstr(it->text, "not a card") != NULL;
        legend += it->shape == TS_OV_ROW && strstr(it->text, "2 unread") != NULL;
    }
    assert_int_equal(unsure, 1);
    assert_int_equal(not_card, 1);
    assert_int_equal(legend, 1);
    ts_overlay_list_free(&l);
}

/* Text at screen resolution: a 640x360 frame's code drawn by the cairo
 * renderer on a 1280x720 window is twice as tall as drawn on the frame itself. */
static int text_height(const uint8_t *px, int stride, int bpp, int x0, int x1, int y0, int y1)
{
    int top = -1, bottom = -1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = px + (size_t)y * stride + (size_t)x * bpp;
            if (p[0] > 200 && p[1] > 200 && p[2] > 200) {
                if (top < 0)
                    top = y;
                bottom = y;
            }
        }
    return top < 0 ? 0 : bottom - top + 1;
}

static void cairo_draws_text_at_the_window_size(void **state)
{
    (void)state;
    static ts_table r;
    memset(&r, 0, sizeof r);
    r.frame.w = 640, r.frame.h = 360;
    card(&r, 200, 90, "3PDS", 1); /* 120 x 180 frame px, centre (260, 180) */
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    assert_int_equal(ts_overlay_build(&l, &r, &(ts_overlay_opts){.hide_sets = 1}, 640, 360), 0);

    ts_image small;
    assert_int_equal(ts_image_alloc(&small, 640, 360, 3), 0);
    memset(small.buf, 40, (size_t)small.stride * 360);
    assert_int_equal(ts_overlay_render(&small, &l), 0);
    int h_small = text_height(small.buf, small.stride, 3, 230, 290, 165, 195);

    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 720);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 40 / 255.0, 40 / 255.0, 40 / 255.0);
    cairo_paint(cr);
    assert_int_equal(ts_overlay_render_cairo(cr, 1280, 720, &l), 0);
    cairo_surface_flush(surf);
    int h_big = text_height(cairo_image_surface_get_data(surf), cairo_image_surface_get_stride(surf),
                            4, 460, 580, 330, 390);
    assert_true(h_small >= 5);
    assert_true(h_big >= 12);         /* 14 px capitals at 720 screen lines */
    assert_true(h_big >= 2 * h_small - 2);
    /* Letterboxed (fullscreen on a 4:3 screen): the card is still outlined
     * where the video is shown, 1280x720 centred in 1280x960. */
    cairo_surface_t *box = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 960);
    cairo_t *cb = cairo_create(box);
    assert_int_equal(ts_overlay_render_cairo(cb, 1280, 960, &l), 0);
    cairo_surface_flush(box);
    const uint8_t *d = cairo_image_surface_get_data(box);
    int st = cairo_image_surface_get_stride(box), white = 0;
    for (int y = 120 + 178; y < 120 + 184; y++) /* the top edge: y = 90 * 2 + 120 */
        white += d[(size_t)y * st + 520 * 4] > 200;
    assert_true(white > 0);
    cairo_destroy(cb);
    cairo_surface_destroy(box);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    ts_image_free(&small);
    ts_overlay_list_free(&l);
    /* The font caches live as long as the process: free them for LeakSanitizer. */
    cairo_debug_reset_static_data();
    FcFini();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_hint_ladder),
        cmocka_unit_test(plays_on_the_hand),
        cmocka_unit_test(verdict_near_the_move),
        cmocka_unit_test(outlines_cards_and_leaves_the_rest),
        cmocka_unit_test(set_ring_has_the_set_colour_outside_the_card),
        cmocka_unit_test(card_in_two_sets_shows_both_colours),
        cmocka_unit_test(unread_card_is_dashed_grey_with_question_mark),
        cmocka_unit_test(hide_sets_draws_no_rings),
        cmocka_unit_test(status_and_stale_marker),
        cmocka_unit_test(rejects_bad_input_and_skips_wild_quads),
        cmocka_unit_test(draws_on_a_padded_stride_view),
        cmocka_unit_test(tiny_frame_does_not_crash),
        cmocka_unit_test(many_sets_are_numbered_with_a_legend),
        cmocka_unit_test(badges_leave_every_code_readable),
        cmocka_unit_test(small_video_is_annotated_at_a_legible_size),
        cmocka_unit_test(gone_card_is_faint_and_carries_no_hint),
        cmocka_unit_test(unread_card_says_why),
        cmocka_unit_test(cairo_draws_text_at_the_window_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
