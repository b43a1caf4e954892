/* ts-gof-patches: training data for the Gang of Four index net.
 *
 * Renders tables (samples/render: every layout, several image sizes, the
 * renderer's tables, cameras, light and deck printings), saves and decodes
 * each as the camera's JPEG, and cuts the two corner patches the reader cuts
 * (readers/gof.h) from each card's true quad with a small random error, as a
 * detector would give it, either way up. A corner whose index is covered by
 * a later card or out of the frame is labelled "none"; so are patches cut
 * from quads shifted off the cards (table, card middles, neighbours).
 *
 *   ts-gof-patches FIRST_SEED COUNT OUT.bin [--cards [--part] [--shift] | --off]
 *
 * OUT.bin: records of 4 label bytes (number class, colour class or 255,
 * layout, the card's width in the frame in px up to 255) then TS_GOF_PATCH_H x TS_GOF_PATCH_W x 3 BGR bytes.
 *
 * --cards: whole cards instead (the card net, readers/gof.h), each record
 * TS_GOF_NET_H x TS_GOF_NET_W x 3 of the rectified card shrunk as the net's
 * loader shrinks it: cards at least half visible from their true quad a
 * little off, either way up, labelled with their card; quads off the cards
 * (shifted by part of a card, or anywhere) labelled "none"; with --part,
 * quads of part of a card (put_part), with --shift the card's quad moved a
 * little more than a finder's error (put_shift), labelled "none" too.
 *
 * --off: index patches of quads a finder places off the card, between the
 * little error above and the shifts "none" was cut from (which keep clear
 * of every index): the true quad shifted by up to 0.3 of the card and
 * scaled 0.6-1.25, either way up. A corner whose index region lies
 * OFF_NONE of the card's width or more from the card's own index is
 * "none" (the index cut by the patch's edge or not where the reader looks),
 * one within OFF_SAME is its card; between, and near another card's index,
 * nothing is written. The layout byte has OFF_FLAG set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"
#include "imageio.h"
#include "readers/gof.h"
#include "render.h"

typedef struct {
    uint64_t s;
} rng;

static double unit(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* Point (u, v) in card units (0..1 across, 0..1 down) of quad q. */
static ts_pt at(const ts_pt q[4], float u, float v)
{
    ts_pt a = {q[0].x + (q[1].x - q[0].x) * u, q[0].y + (q[1].y - q[0].y) * u};
    ts_pt b = {q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[2].y - q[3].y) * u};
    return (ts_pt){a.x + (b.x - a.x) * v, a.y + (b.y - a.y) * v};
}

static int inside(const ts_pt q[4], ts_pt p)
{
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        ts_pt a = q[k], b = q[(k + 1) % 4];
        float c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        pos += c > 0;
        neg += c < 0;
    }
    return !(pos && neg);
}

/* The index region of a card, in card units: top-left corner (k = 0) or
 * bottom-right (k = 1). */
static ts_pt index_at(const ts_pt q[4], int k, float u, float v)
{
    u = 0.03f + 0.2f * u;
    v = 0.03f + 0.22f * v;
    return k ? at(q, 1 - u, 1 - v) : at(q, u, v);
}

/* Share of card i's index k hidden by later cards or the frame's edge. */
static float hidden(const ts_scene *sc, int i, int k)
{
    int n = 0, hid = 0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 6; b++) {
            ts_pt p = index_at(sc->cards[i].quad, k, (a + 0.5f) / 5, (b + 0.5f) / 6);
            int h = p.x < 0 || p.y < 0 || p.x >= sc->img.w || p.y >= sc->img.h;
            for (int j = i + 1; j < sc->ncards && !h; j++)
                h = inside(sc->cards[j].quad, p);
            n++;
            hid += h;
        }
    return (float)hid / n;
}

/* True if the point lies near the index of any card that shows it. */
static int near_an_index(const ts_scene *sc, ts_pt p, float r)
{
    for (int i = 0; i < sc->ncards; i++)
        for (int k = 0; k < 2; k++) {
            ts_pt c = index_at(sc->cards[i].quad, k, 0.5f, 0.5f);
            if (hypotf(c.x - p.x, c.y - p.y) < r)
                return 1;
        }
    return 0;
}

/* Worst distance between the index regions (index_at) of corner k of quad
 * q and corner kc of quad c, over their four corners, in widths of c. */
static float index_offset(const ts_pt q[4], int k, const ts_pt c[4], int kc)
{
    float side = hypotf(c[1].x - c[0].x, c[1].y - c[0].y), e = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            ts_pt p = index_at(q, k, (float)a, (float)b), t = index_at(c, kc, (float)a, (float)b);
            e = fmaxf(e, hypotf(p.x - t.x, p.y - t.y));
        }
    return e / side;
}

/* True if the point lies near the index of a card other than card i. */
static int near_another_index(const ts_scene *sc, int i, ts_pt p, float r)
{
    for (int j = 0; j < sc->ncards; j++)
        for (int k = 0; k < 2 && j != i; k++) {
            ts_pt c = index_at(sc->cards[j].quad, k, 0.5f, 0.5f);
            if (hypotf(c.x - p.x, c.y - p.y) < r)
                return 1;
        }
    return 0;
}

static int put(FILE *f, const ts_image *patch, int num, int col, int layout, float width)
{
    uint8_t lab[4] = {(uint8_t)num, (uint8_t)(col < 0 ? 255 : col), (uint8_t)layout,
                      (uint8_t)fminf(width, 255)};
    if (fwrite(lab, 1, 4, f) != 4)
        return -1;
    for (int y = 0; y < patch->h; y++)
        if (fwrite(ts_image_row(patch, y), 1, 3 * (size_t)patch->w, f) != 3 * (size_t)patch->w)
            return -1;
    return 0;
}

/* Cuts both patches of quad q (corners clockwise from the one to map to the
 * rectified card's top-left). */
static int cut(const ts_image *img, const ts_pt q[4], ts_image *card, ts_image patch[2], char *err)
{
    if (tscv_warp_quad(img, q, card, TS_GOF_CARD_W, TS_GOF_CARD_H, err) < 0)
        return -1;
    ts_gof_corners(card, patch);
    return 0;
}

/* --cards --part: a quad of part of the card q (PART_SCALE of its size about a
 * point on it or near it, so it may run off the card), labelled "none": the
 * reader's resized quads (0.92-1.08) and snapped outlines a little off
 * must still read, a quad of half the card must not. */
static const float PART_SCALE[2] = {0.5f, 0.65f};

static int put_part(FILE *f, const ts_image *img, const ts_pt q[4], int li, float side, rng *r,
                    ts_image *card, ts_image *small, char *err)
{
    float s = PART_SCALE[0] + (PART_SCALE[1] - PART_SCALE[0]) * (float)unit(r);
    ts_pt c = at(q, (float)unit(r) * 1.6f - 0.3f, (float)unit(r) * 1.6f - 0.3f), p[4];
    for (int k = 0; k < 4; k++)
        p[k] = (ts_pt){c.x + (q[k].x - c.x) * s, c.y + (q[k].y - c.y) * s};
    if (tscv_warp_quad(img, p, card, TS_GOF_CARD_W, TS_GOF_CARD_H, err) < 0 ||
        tscv_resize(card, small, TS_GOF_NET_W, TS_GOF_NET_H, err) < 0)
        return -1;
    return put(f, small, TS_GOF_NUM_NONE, -1, li, side);
}

/* --cards --shift: the card's quad q moved SHIFT[] of the card along its
 * sides (in a random direction), labelled "none". The finder's pile-corner
 * quads land so (0.2-0.3 off along the card: a 6 read Y8 at 0.999 from its
 * loop), between the little error the net reads through (7% of a corner)
 * and the shifts "none" is cut from above (0.2-0.8). */
static const float SHIFT[2] = {0.14f, 0.25f};

static int put_shift(FILE *f, const ts_image *img, const ts_pt q[4], int li, float side, rng *r,
                     ts_image *card, ts_image *small, char *err)
{
    float a = 6.2831853f * (float)unit(r);
    float d = SHIFT[0] + (SHIFT[1] - SHIFT[0]) * (float)unit(r);
    float du = d * cosf(a), dv = d * sinf(a);
    ts_pt sh = {(q[1].x - q[0].x) * du + (q[3].x - q[0].x) * dv,
                (q[1].y - q[0].y) * du + (q[3].y - q[0].y) * dv}, p[4];
    for (int k = 0; k < 4; k++)
        p[k] = (ts_pt){q[k].x + sh.x, q[k].y + sh.y};
    if (tscv_warp_quad(img, p, card, TS_GOF_CARD_W, TS_GOF_CARD_H, err) < 0 ||
        tscv_resize(card, small, TS_GOF_NET_W, TS_GOF_NET_H, err) < 0)
        return -1;
    return put(f, small, TS_GOF_NUM_NONE, -1, li, side);
}

enum { OFF_FLAG = 0x80 };
/* --off's labels (index_offset): the little error of the true patches
 * (corners 3.5% of the card off) reaches about 0.05; the reader reads a
 * quad again at 0.92-1.08 of its size, an index region 0.06-0.07 off. */
static const float OFF_SAME = 0.05f, OFF_NONE = 0.12f;

/* --off: the patches of card i's true quad shifted and scaled off it. */
static int put_off(FILE *f, const ts_image *img, const ts_scene *sc, int i, int li, rng *r,
                   ts_image *card, ts_image patch[2], long *written, char *err)
{
    const ts_scene_card *c = &sc->cards[i];
    int num, col;
    ts_gof_labels(c->code.idx, &num, &col);
    float side = hypotf(c->quad[1].x - c->quad[0].x, c->quad[1].y - c->quad[0].y);
    ts_pt mid = at(c->quad, 0.5f, 0.5f);
    for (int m = 0; m < 2; m++) {
        int turn = unit(r) < 0.5 ? 2 : 0;
        float du = (float)(unit(r) - 0.5) * 0.6f, dv = (float)(unit(r) - 0.5) * 0.6f;
        float scale = 0.6f + 0.65f * (float)unit(r);
        ts_pt sh = {(c->quad[1].x - c->quad[0].x) * du + (c->quad[3].x - c->quad[0].x) * dv,
                    (c->quad[1].y - c->quad[0].y) * du + (c->quad[3].y - c->quad[0].y) * dv};
        ts_pt q[4];
        for (int k = 0; k < 4; k++) {
            ts_pt p = c->quad[(k + turn) % 4];
            q[k] = (ts_pt){mid.x + (p.x - mid.x) * scale + sh.x,
                           mid.y + (p.y - mid.y) * scale + sh.y};
        }
        if (cut(img, q, card, patch, err) < 0)
            return -1;
        for (int k = 0; k < 2; k++) {
            int own = turn ? 1 - k : k;
            float e = index_offset(q, k, c->quad, own);
            int lab = e >= OFF_NONE ? TS_GOF_NUM_NONE : e <= OFF_SAME ? num : -1;
            if (lab < 0 || near_another_index(sc, i, index_at(q, k, 0.5f, 0.5f), 0.25f * side) ||
                (lab == num && hidden(sc, i, own) > 0.1f))
                continue;
            if (put(f, &patch[k], lab, lab == num ? col : -1, li | OFF_FLAG, side) < 0)
                return -1;
            (*written)++;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int cards = 0, part = 0, shift = 0, off = 0, bad = argc < 4;
    for (int a = 4; a < argc; a++) {
        cards |= !strcmp(argv[a], "--cards");
        part |= !strcmp(argv[a], "--part");
        shift |= !strcmp(argv[a], "--shift");
        off |= !strcmp(argv[a], "--off");
        bad |= strcmp(argv[a], "--cards") && strcmp(argv[a], "--part") &&
               strcmp(argv[a], "--shift") && strcmp(argv[a], "--off");
    }
    if (bad || ((part || shift) && !cards) || (off && cards)) {
        fprintf(stderr, "usage: ts-gof-patches FIRST_SEED COUNT OUT.bin "
                        "[--cards [--part] [--shift] | --off]\n");
        return 2;
    }
    long first = atol(argv[1]), count = atol(argv[2]);
    FILE *f = fopen(argv[3], "wb");
    if (!f) {
        perror(argv[3]);
        return 1;
    }
    static const ts_layout layouts[] = {TS_LAYOUT_GRID,    TS_LAYOUT_TOUCHING, TS_LAYOUT_FAN,
                                        TS_LAYOUT_PILE,    TS_LAYOUT_SCATTER,  TS_LAYOUT_ROW};
    static const int sizes[][2] = {{1280, 720}, {1280, 720}, {960, 540}, {1600, 900}, {1920, 1080}};
    char err[TSCV_ERR_MAX];
    ts_image card = {0}, patch[2], small = {0};
    ts_image_alloc(&patch[0], TS_GOF_PATCH_W, TS_GOF_PATCH_H, 3);
    ts_image_alloc(&patch[1], TS_GOF_PATCH_W, TS_GOF_PATCH_H, 3);
    long written = 0;
    for (long s = first; s < first + count; s++) {
        rng r = {(uint64_t)s * 7919u + 17};
        int li = (int)(s % 6);
        const int *sz = sizes[(s / 6) % 5];
        ts_scene_spec spec = {.family = TS_FAM_GOF, .w = sz[0], .h = sz[1], .seed = (uint64_t)s};
        ts_render_deal(&spec, 6 + (int)(unit(&r) * 11), layouts[li]);
        ts_scene sc;
        if (ts_render_scene(&spec, &sc, err) < 0) {
            fprintf(stderr, "seed %ld: %s\n", s, err);
            return 1;
        }
        /* as the camera saved it */
        uint8_t *jpg;
        size_t len;
        ts_image img;
        if (ts_jpeg_encode(&sc.img, sc.info.jpeg_quality, &jpg, &len, err, sizeof err) < 0 ||
            ts_image_decode(jpg, len, &img, err, sizeof err) < 0) {
            fprintf(stderr, "seed %ld: %s\n", s, err);
            return 1;
        }
        free(jpg);
        for (int i = 0; i < sc.ncards; i++) {
            const ts_scene_card *c = &sc.cards[i];
            if (c->visible < 0.05f)
                continue;
            if (off) {
                if (put_off(f, &img, &sc, i, li, &r, &card, patch, &written, err) < 0) {
                    fprintf(stderr, "%s\n", err);
                    return 1;
                }
                continue;
            }
            int num, col;
            ts_gof_labels(c->code.idx, &num, &col);
            float side = hypotf(c->quad[1].x - c->quad[0].x, c->quad[1].y - c->quad[0].y);
            /* the true quad, a little off, either way up */
            int turn = unit(&r) < 0.5 ? 2 : 0;
            ts_pt q[4];
            for (int k = 0; k < 4; k++) {
                q[k] = c->quad[(k + turn) % 4];
                q[k].x += (float)(unit(&r) - 0.5) * 0.07f * side;
                q[k].y += (float)(unit(&r) - 0.5) * 0.07f * side;
            }
            if (cut(&img, q, &card, patch, err) < 0) {
                fprintf(stderr, "%s\n", err);
                return 1;
            }
            if (cards) {
                if (c->visible >= 0.5f &&
                    (tscv_resize(&card, &small, TS_GOF_NET_W, TS_GOF_NET_H, err) < 0 ||
                     put(f, &small, num, col, li, side) < 0))
                    return 1;
                written += c->visible >= 0.5f;
                /* off the card: shifted by a part of a card, or anywhere;
                 * not where another card lies nearly the same way; and
                 * a quad of part of the card (the finder's quad from an
                 * index of the wrong size, or from the big numeral's
                 * strokes), which the net read as the half numeral it
                 * shows (a 6's lower loop as an 8 at 0.999) */
                for (int m = 0; m < 2; m++) {
                    float du = (float)((unit(&r) < 0.5 ? -1 : 1) * (0.25 + 0.5 * unit(&r)));
                    float dv = (float)((unit(&r) < 0.5 ? -1 : 1) * (0.2 + 0.6 * unit(&r)));
                    if (unit(&r) < 0.4) /* along one side only: the neighbour's half */
                        *(unit(&r) < 0.5 ? &du : &dv) = 0;
                    ts_pt d = {0, 0};
                    if (m == 1) {
                        d.x = (float)(unit(&r) * img.w) - c->quad[0].x;
                        d.y = (float)(unit(&r) * img.h) - c->quad[0].y;
                        du = dv = 0;
                    }
                    ts_pt sh = {(q[1].x - q[0].x) * du + (q[3].x - q[0].x) * dv + d.x,
                                (q[1].y - q[0].y) * du + (q[3].y - q[0].y) * dv + d.y};
                    ts_pt s4[4], ctr = {0, 0};
                    for (int k = 0; k < 4; k++) {
                        s4[k] = (ts_pt){q[k].x + sh.x, q[k].y + sh.y};
                        ctr.x += s4[k].x / 4, ctr.y += s4[k].y / 4;
                    }
                    int near = 0;
                    for (int j = 0; j < sc.ncards && !near; j++) {
                        ts_pt cj = at(sc.cards[j].quad, 0.5f, 0.5f);
                        near = sc.cards[j].visible > 0.3f &&
                               hypotf(cj.x - ctr.x, cj.y - ctr.y) < 0.3f * side;
                    }
                    if (near)
                        continue;
                    if (tscv_warp_quad(&img, s4, &card, TS_GOF_CARD_W, TS_GOF_CARD_H, err) < 0 ||
                        tscv_resize(&card, &small, TS_GOF_NET_W, TS_GOF_NET_H, err) < 0 ||
                        put(f, &small, TS_GOF_NUM_NONE, -1, li, side) < 0)
                        return 1;
                    written++;
                }
                if (part && c->visible >= 0.5f &&
                    put_part(f, &img, q, li, side, &r, &card, &small, err) < 0)
                    return 1;
                written += part && c->visible >= 0.5f;
                if (shift && c->visible >= 0.5f &&
                    put_shift(f, &img, q, li, side, &r, &card, &small, err) < 0)
                    return 1;
                written += shift && c->visible >= 0.5f;
                continue;
            }
            for (int k = 0; k < 2; k++) {
                float h = hidden(&sc, i, turn ? 1 - k : k);
                if (h <= 0.1f)
                    put(f, &patch[k], num, col, li, side), written++;
                else if (h >= 0.6f)
                    put(f, &patch[k], TS_GOF_NUM_NONE, -1, li, side), written++;
            }
            /* off the card: a quad shifted by a part of a card, and one at
             * random; kept only where no index is near */
            for (int m = 0; m < 2; m++) {
                ts_pt d = {0, 0};
                float du = (float)((unit(&r) < 0.5 ? -1 : 1) * (0.2 + 0.6 * unit(&r)));
                float dv = (float)((unit(&r) < 0.5 ? -1 : 1) * (0.2 + 0.6 * unit(&r)));
                if (m == 1) {
                    d.x = (float)(unit(&r) * img.w) - c->quad[0].x;
                    d.y = (float)(unit(&r) * img.h) - c->quad[0].y;
                    du = dv = 0;
                }
                ts_pt sh = {(c->quad[1].x - c->quad[0].x) * du + (c->quad[3].x - c->quad[0].x) * dv,
                            (c->quad[1].y - c->quad[0].y) * du + (c->quad[3].y - c->quad[0].y) * dv};
                for (int k = 0; k < 4; k++)
                    q[k] = (ts_pt){c->quad[(k + turn) % 4].x + sh.x + d.x,
                                   c->quad[(k + turn) % 4].y + sh.y + d.y};
                if (cut(&img, q, &card, patch, err) < 0)
                    return 1;
                for (int k = 0; k < 2; k++) {
                    ts_pt ctr = index_at(q, k, 0.5f, 0.5f);
                    if (!near_an_index(&sc, ctr, 0.25f * side))
                        put(f, &patch[k], TS_GOF_NUM_NONE, -1, li, side), written++;
                }
            }
        }
        ts_image_free(&img);
        ts_scene_free(&sc);
    }
    ts_image_free(&card);
    ts_image_free(&small);
    ts_image_free(&patch[0]);
    ts_image_free(&patch[1]);
    if (fclose(f) != 0) {
        perror(argv[3]);
        return 1;
    }
    fprintf(stderr, "%ld patches from %ld scenes\n", written, count);
    return 0;
}
