/* ts-playing-index-dump: the index patches the playing-card reader's
 * corner-index finder cuts from images, written as PNG for
 * train_playing.py (hard "not an index" examples from photos and renders
 * of other games, which hold no playing cards).
 *
 *   ts-playing-index-dump [--max N] [--draw DIR] [--list FILE] [--pairs-only 1] OUT_DIR IMAGE...
 *
 * Writes OUT_DIR/<image base>_<pair>_<stretch>.png (the patch as the reader
 * cuts it, TS_PLAYING_CORNER_W x _H of a 128 x 180 card), at most N pairs
 * (default 48, as the reader) per image; and OUT_DIR/<image base>_c<cand>_<turn>.png,
 * the two index corners of the outline finder's first N candidates. --draw
 * writes each image to DIR with its pairs drawn instead. --list writes one
 * line per pair patch: its file, the image, the rank and suit glyph centres
 * the card the pair implies and the patch's quad (8 numbers each, frame px), so a training tool can
 * tell a labelled card's index from the pairs on faces and walls.
 * --pairs-only 1 writes only the list, of the frame's own stretch (0), with
 * no PNG (train_playing.py --fans cuts its own patches from the frame).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdraw.h"
#include "imageio.h"
#include "readers/playing.h"

enum { MAX_PAIRS = 512, MAX_CAND = 256 };

int main(int argc, char **argv)
{
    int maxp = 48, a = 1, pairs_only = 0;
    const char *draw = NULL, *listp = NULL;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "--max") == 0)
            maxp = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--draw") == 0)
            draw = argv[a + 1];
        else if (strcmp(argv[a], "--list") == 0)
            listp = argv[a + 1];
        else if (strcmp(argv[a], "--pairs-only") == 0)
            pairs_only = atoi(argv[a + 1]);
    }
    if (argc - a < 2) {
        fprintf(stderr, "usage: ts-playing-index-dump [--max N] [--draw DIR] [--list FILE] [--pairs-only 1] OUT_DIR IMAGE...\n");
        return 2;
    }
    const char *dir = argv[a++];
    char err[512];
    ts_index_ink *ix = ts_index_ink_create(TS_PLAYING_INK_BLOBS);
    ts_playing_pair *pairs = malloc(sizeof *pairs * MAX_PAIRS);
    if (!ix || !pairs) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int pw = (int)lroundf(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_W);
    int ph = (int)lroundf(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_H);
    ts_image patch = {0}, card = {0};
    FILE *list = listp ? fopen(listp, "w") : NULL;
    if (listp && !list) {
        fprintf(stderr, "%s: cannot write\n", listp);
        return 1;
    }
    ts_playing_finder *finder = ts_playing_finder_create();
    ts_quad cand[MAX_CAND];
    if (!finder) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    long total = 0;
    for (; a < argc; a++) {
        ts_image img;
        if (ts_image_load(argv[a], &img, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        int n = ts_playing_index_pairs(ix, &img, pairs, MAX_PAIRS, err);
        if (n < 0) {
            fprintf(stderr, "%s: %s\n", argv[a], err);
            n = 0;
        }
        n = n < maxp ? n : maxp;
        if (draw) { /* the pairs on the image (rank -> suit), instead of patches */
            for (int i = 0; i < n; i++) {
                ts_pt l[2] = {pairs[i].rank, pairs[i].suit};
                tscv_polyline(&img, l, 2, 0, (ts_bgr){0, 200, 0}, 2, err);
                tscv_circle(&img, pairs[i].rank.x, pairs[i].rank.y, 3, (ts_bgr){0, 0, 255}, 2,
                            err);
            }
            const char *b = strrchr(argv[a], '/');
            char op[2048];
            snprintf(op, sizeof op, "%s/%s", draw, b ? b + 1 : argv[a]);
            ts_image_save(&img, op, err, sizeof err);
            ts_image_free(&img);
            continue;
        }
        const char *b = strrchr(argv[a], '/');
        b = b ? b + 1 : argv[a];
        for (int i = 0; i < n; i++)
            for (int s = 0; s < (pairs_only ? 1 : TS_PLAYING_NSTRETCH); s++) {
                ts_pt card[4], q[4];
                ts_playing_index_card(&pairs[i], s, card, q);
                if (tscv_warp_quad(&img, q, &patch, pw, ph, err) < 0)
                    continue;
                char op[2048];
                snprintf(op, sizeof op, "%s/%.200s_%03d_%d.png", dir, b, i, s);
                if (!pairs_only && ts_image_save(&patch, op, err, sizeof err) < 0)
                    continue;
                total++;
                if (list) {
                    fprintf(list, "%s\t%s\t%.1f %.1f %.1f %.1f", op, argv[a], pairs[i].rank.x,
                            pairs[i].rank.y, pairs[i].suit.x, pairs[i].suit.y);
                    for (int k = 0; k < 4; k++)
                        fprintf(list, " %.1f %.1f", card[k].x, card[k].y);
                    for (int k = 0; k < 4; k++)
                        fprintf(list, " %.1f %.1f", q[k].x, q[k].y);
                    fputc('\n', list);
                }
            }
        /* and the index corners of the outline finder's candidates */
        int nc = 0;
        if (!pairs_only) {
            nc = ts_playing_outlines(finder, &img, cand, MAX_CAND, err);
            nc = nc < 0 ? nc : ts_playing_find(finder, &img, NULL, 0, cand, nc, MAX_CAND, err);
        }
        for (int i = 0; i < nc && i < maxp; i++)
            for (int turn = 0; turn < 2; turn++) {
                ts_pt q[4];
                for (int k = 0; k < 4; k++)
                    q[k] = cand[i].q[(k + 2 * turn) & 3];
                if (tscv_warp_quad(&img, q, &card, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0)
                    continue;
                ts_image corner = ts_image_roi(&card, 0, 0, pw, ph);
                char op[2048];
                snprintf(op, sizeof op, "%s/%.200s_c%03d_%d.png", dir, b, i, turn);
                if (ts_image_save(&corner, op, err, sizeof err) == 0)
                    total++;
            }
        ts_image_free(&img);
    }
    if (list)
        fclose(list);
    ts_image_free(&patch);
    ts_image_free(&card);
    ts_playing_finder_destroy(finder);
    free(pairs);
    ts_index_ink_destroy(ix);
    fprintf(stderr, "%ld patches\n", total);
    return 0;
}
