/* ts-render-eval: one family's finder and reader measured on rendered
 * tables, the way the pipeline runs them, and where the cards are lost.
 *
 *   ts-render-eval --game G FIRST_SEED COUNT [--layouts grid,touching,...]
 *                  [--cards N] [--profile P] [--models DIR] [--floor F]
 *                  [--shared] [--list] [--dump DIR]
 *
 * Each layout renders COUNT tables (seeds FIRST_SEED...) of N cards (12) at
 * 1280x720 as `tablesight render` does, saved and decoded as the simulated
 * camera's JPEG, and runs them as the pipeline does: the class's find (or
 * the shared detector with the class's aspect range, when the class has no
 * finder or with --shared), a candidate taken unless it overlaps one taken
 * already, one read as no card leaving its place to the next. A card counts
 * as read when a taken candidate's centre lies on it (the topmost card
 * there) and its reading is at or above the floor (the class's, or --floor)
 * with the right code (or, a covered card read on its own corners, the
 * card under it there that it fits: ts_scene_card_read); "wrong" is a
 * reading above the floor with another code, "false" one on no card. Cards are grouped by visible fraction: fully
 * (>= 0.99) and at least half (>= 0.5). For each card of the second group
 * not read, the loss is put down to:
 *   find    no candidate within 10% of the card's width of its corners
 *   read    the best such candidate does not read right above the floor
 *   order   it does, but another candidate took the place
 * "truth" reads every such card on its true corners (the reader alone).
 * Time is find + warp + read per table: this thread's CPU time (the
 * machine is shared), one OpenCV thread, median over the tables. At the
 * end, the tally per table style (the render's "table"), and for Chinese
 * domino cards by how much of each end shows. --list prints every card of
 * the second group not read (a domino card with how much of each end
 * shows); --dump writes each table with a lost card as
 * DIR/LAYOUT_SEED.jpg with DIR/LAYOUT_SEED.txt: every candidate (corners,
 * taken or not, its reading) and every card (code, visible fraction,
 * corners), to look at.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cv/cvwrap.h"
#include "detect.h"
#include "imageio.h"
#include "reader.h"
#include "geom.h"
#include "render.h"

enum { MAX_CAND = 256 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    int n, ok, wrong;
} tally;

/* The fraction of Chinese domino card i's pip group at end k (0 the printed
 * top) that shows: in the frame and under no later card. */
static float end_visible(const ts_scene *sc, int i, int k, int w, int h)
{
    const ts_pt *q = sc->cards[i].quad;
    int shown = 0, n = 0;
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++, n++) {
            float u = (2 + 22 * (a + 0.5f) / 8) / 26, v = (3 + 22 * (b + 0.5f) / 8) / 82;
            if (k)
                v += 54.0f / 82;
            float x = (1 - u) * (1 - v) * q[0].x + u * (1 - v) * q[1].x + u * v * q[2].x +
                      (1 - u) * v * q[3].x;
            float y = (1 - u) * (1 - v) * q[0].y + u * (1 - v) * q[1].y + u * v * q[2].y +
                      (1 - u) * v * q[3].y;
            int on = x >= 0 && y >= 0 && x < w && y < h;
            for (int j = i + 1; j < sc->ncards && on; j++)
                on = !ts_point_in_quad(sc->cards[j].quad, x, y);
            shown += on;
        }
    return (float)shown / n;
}

enum { MAX_STYLES = 16 };

/* The tallies of one table style. */
typedef struct {
    const char *name;
    tally full, half;
} style_tally;

static style_tally *style_of(style_tally *st, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(st[i].name, name))
            return &st[i];
    if (*n == MAX_STYLES)
        return &st[MAX_STYLES - 1];
    st[*n] = (style_tally){.name = name};
    return &st[(*n)++];
}

static void dump_table(const char *dir, const char *layout, long seed, const uint8_t *jpg,
                       size_t len, const ts_scene *sc, const ts_quad *cand, int nc,
                       const int *taken_as, const ts_reading *reads)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%ld.jpg", dir, layout, seed);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(jpg, 1, len, f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/%s_%ld.txt", dir, layout, seed);
    f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "table %s blur %.2f noise %.2f tilt %.1f\n", sc->info.table, sc->info.blur_px,
            sc->info.noise, sc->info.tilt_deg);
    for (int i = 0; i < sc->ncards; i++) {
        char c[TS_CODE_MAXLEN];
        ts_code_format(sc->cards[i].code, c);
        fprintf(f, "card %d %s %.3f", i, c, sc->cards[i].visible);
        for (int k = 0; k < 4; k++)
            fprintf(f, " %.1f %.1f", sc->cards[i].quad[k].x, sc->cards[i].quad[k].y);
        fprintf(f, "\n");
    }
    for (int c = 0; c < nc; c++) {
        int t = taken_as[c];
        char code[TS_CODE_MAXLEN] = "-";
        if (t >= 0)
            ts_code_format(reads[t].code, code);
        fprintf(f, "cand %d %d %s %.3f", c, t, code, t >= 0 ? reads[t].conf : 0.0);
        for (int k = 0; k < 4; k++)
            fprintf(f, " %.1f %.1f", cand[c].q[k].x, cand[c].q[k].y);
        fprintf(f, "\n");
    }
    fclose(f);
}

static int usage(void)
{
    fprintf(stderr, "usage: ts-render-eval --game G FIRST_SEED COUNT [--layouts a,b] [--cards N] "
                    "[--profile P] [--models DIR] [--floor F] [--shared] [--list] [--dump DIR]\n");
    return 2;
}

int main(int argc, char **argv)
{
    long first = -1, count = -1;
    int list = 0, ncards = 12, shared = 0;
    float floor_arg = 0;
    const char *layouts = "grid,touching,scatter,pile,fan,row", *profile = NULL, *dump = NULL,
               *models = NULL, *game = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc)
            game = argv[++i];
        else if (!strcmp(argv[i], "--layouts") && i + 1 < argc)
            layouts = argv[++i];
        else if (!strcmp(argv[i], "--cards") && i + 1 < argc)
            ncards = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
            profile = argv[++i];
        else if (!strcmp(argv[i], "--models") && i + 1 < argc)
            models = argv[++i];
        else if (!strcmp(argv[i], "--floor") && i + 1 < argc)
            floor_arg = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
            dump = argv[++i];
        else if (!strcmp(argv[i], "--shared"))
            shared = 1;
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (argv[i][0] != '-' && first < 0)
            first = atol(argv[i]);
        else if (argv[i][0] != '-' && count < 0)
            count = atol(argv[i]);
        else
            return usage();
    }
    const ts_reader_class *cls = game ? ts_reader_class_by_name(game) : NULL;
    if (!cls || first < 0 || count <= 0 || ncards < 1 || ncards > TS_RENDER_MAX_CARDS) {
        if (game && !cls)
            fprintf(stderr, "ts-render-eval: unknown game '%s'\n", game);
        return usage();
    }
    tscv_set_threads(1);
    const float conf_floor = floor_arg > 0 ? floor_arg : cls->conf_floor;
    char err[256];
    ts_reader_config cfg = {profile, models};
    void *rd = cls->create(&cfg, err, sizeof err);
    if (!rd) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ts_detect_params dp;
    ts_detect_defaults(&dp);
    dp.min_aspect = cls->min_aspect;
    dp.max_aspect = cls->max_aspect;
    ts_detector *det = cls->find && !shared ? NULL : ts_detector_create(&dp);
    ts_quad *cand = malloc(sizeof *cand * MAX_CAND);
    double *times = malloc(sizeof *times * (size_t)count);
    double *find_times = malloc(sizeof *times * (size_t)count);
    ts_image card = {0};
    char lay[256];
    snprintf(lay, sizeof lay, "%s", layouts);
    tally all_full = {0}, all_half = {0}, all_truth = {0};
    int all_lost[3] = {0, 0, 0}, all_false = 0;
    style_tally styles[MAX_STYLES];
    int nstyles = 0;
    int ends_n[4] = {0}, ends_ok[4] = {0};
    for (char *name = strtok(lay, ","); name; name = strtok(NULL, ",")) {
        int li = ts_layout_from_name(name);
        if (li < 0) {
            fprintf(stderr, "unknown layout %s\n", name);
            return 2;
        }
        tally full = {0}, half = {0}, truth = {0};
        int lost[3] = {0, 0, 0}, false_reads = 0;
        for (long s = first; s < first + count; s++) {
            ts_scene_spec spec = {.family = cls->family, .w = 1280, .h = 720, .seed = (uint64_t)s};
            ts_render_deal(&spec, ncards, (ts_layout)li);
            ts_scene sc;
            uint8_t *jpg;
            size_t len;
            ts_image img;
            if (ts_render_scene(&spec, &sc, err) < 0 ||
                ts_jpeg_encode(&sc.img, sc.info.jpeg_quality, &jpg, &len, err, sizeof err) < 0 ||
                ts_image_decode(jpg, len, &img, err, sizeof err) < 0) {
                fprintf(stderr, "seed %ld: %s\n", s, err);
                return 1;
            }

            double t0 = now_ms();
            int nc = det ? ts_detect(det, &img, cand, MAX_CAND, err)
                         : cls->find(rd, &img, cand, MAX_CAND, err);
            find_times[s - first] = now_ms() - t0;
            if (nc < 0) {
                fprintf(stderr, "seed %ld: %s\n", s, err);
                return 1;
            }
            ts_quad taken[MAX_CAND];
            ts_reading reads[MAX_CAND];
            int taken_as[MAX_CAND];
            int nt = ts_reader_take(cls, rd, &img, cand, nc, &card, taken, reads, taken_as,
                                    MAX_CAND, err);
            if (nt < 0) {
                fprintf(stderr, "seed %ld: %s\n", s, err);
                return 1;
            }
            times[s - first] = now_ms() - t0;

            int got[TS_RENDER_MAX_CARDS];
            for (int i = 0; i < sc.ncards; i++)
                got[i] = -1;
            for (int t = 0; t < nt; t++) {
                int on = ts_scene_card_read(&sc, taken[t].q);
                if (on >= 0 && got[on] < 0)
                    got[on] = t;
                else if (reads[t].conf >= conf_floor) {
                    false_reads++;
                    if (list) {
                        char saw[TS_CODE_MAXLEN];
                        ts_code_format(reads[t].code, saw);
                        printf("  %s seed %ld false %s %.2f at %.0f,%.0f%s  table %s\n", name, s,
                               saw, reads[t].conf, taken[t].q[0].x, taken[t].q[0].y,
                               on >= 0 ? " (twice)" : "", sc.info.table);
                    }
                }
            }
            style_tally *sty = style_of(styles, &nstyles, sc.info.table);
            int lost_here = 0;
            for (int i = 0; i < sc.ncards; i++) {
                float v = sc.cards[i].visible;
                int t = got[i];
                int above = t >= 0 && reads[t].conf >= conf_floor;
                int ok = above && reads[t].code.idx == sc.cards[i].code.idx;
                int wrong = above && !ok;
                tally *g[4] = {v >= 0.99f ? &full : NULL, v >= 0.5f ? &half : NULL,
                               v >= 0.99f ? &sty->full : NULL, v >= 0.5f ? &sty->half : NULL};
                for (int k = 0; k < 4; k++)
                    if (g[k]) {
                        g[k]->n++;
                        g[k]->ok += ok;
                        g[k]->wrong += wrong;
                    }
                if (v < 0.5f)
                    continue;
                /* the reader alone, on the true corners */
                ts_reading tr;
                if (tscv_warp_quad(&img, sc.cards[i].quad, &card, cls->card_w, cls->card_h, err) <
                        0 ||
                    cls->read(rd, &card, &tr, err) < 0)
                    return 1;
                int tr_ok =
                    tr.is_card && tr.conf >= conf_floor && tr.code.idx == sc.cards[i].code.idx;
                truth.n++;
                truth.ok += tr_ok;
                float e0 = 0, e1 = 0; /* each end's shown fraction (dominoes) */
                if (cls->family == TS_FAM_DOMINO) {
                    /* half visible cards by how much their ends show */
                    e0 = end_visible(&sc, i, 0, img.w, img.h);
                    e1 = end_visible(&sc, i, 1, img.w, img.h);
                    float lo = fminf(e0, e1);
                    int cls_ = lo >= 0.99f ? 0 : lo >= 0.5f ? 1 : lo > 0 ? 2 : 3;
                    ends_n[cls_]++;
                    ends_ok[cls_] += ok;
                }
                truth.wrong += tr.is_card && tr.conf >= conf_floor && !tr_ok;
                if (ok)
                    continue;
                lost_here = 1;
                /* why not */
                float best = 1e9f;
                int bi = -1;
                for (int c = 0; c < nc; c++) {
                    float e = ts_scene_corner_error(cand[c].q, sc.cards[i].quad);
                    if (e < best)
                        best = e, bi = c;
                }
                int why = 0;
                ts_reading br = {0};
                if (bi >= 0 && best < 0.10f) {
                    if (tscv_warp_quad(&img, cand[bi].q, &card, cls->card_w, cls->card_h, err) <
                            0 ||
                        cls->read(rd, &card, &br, err) < 0)
                        return 1;
                    int br_ok =
                        br.is_card && br.conf >= conf_floor && br.code.idx == sc.cards[i].code.idx;
                    why = br_ok ? 2 : 1;
                }
                lost[why]++;
                if (list) {
                    static const char *const WHY[3] = {"find", "read", "order"};
                    char want[TS_CODE_MAXLEN], saw[TS_CODE_MAXLEN] = "-",
                                               tsaw[TS_CODE_MAXLEN] = "-";
                    ts_code_format(sc.cards[i].code, want);
                    if (t >= 0)
                        ts_code_format(reads[t].code, saw);
                    if (tr.is_card)
                        ts_code_format(tr.code, tsaw);
                    printf("  %s seed %ld card %d %s vis %.2f: %-5s read %s %.2f  "
                           "best cand %.3f (#%d %.2f)  truth %s %.2f (%.2f %.2f)",
                           name, s, i, want, v, WHY[why], saw,
                           t >= 0 ? reads[t].conf : 0.0, best, bi, br.conf, tsaw, tr.conf,
                           tr.attr_conf[0], tr.attr_conf[1]);
                    if (cls->family == TS_FAM_DOMINO)
                        printf("  ends %.2f %.2f", e0, e1);
                    printf("  table %s\n", sc.info.table);
                }
            }
            if (dump && lost_here)
                dump_table(dump, name, s, jpg, len, &sc, cand, nc, taken_as, reads);
            free(jpg);
            ts_image_free(&img);
            ts_scene_free(&sc);
        }
        qsort(times, (size_t)count, sizeof *times, cmp_double);
        qsort(find_times, (size_t)count, sizeof *times, cmp_double);
        printf(
            "%-9s full %4d/%4d %.1f%% (wrong %d)  half+ %4d/%4d %.1f%% (wrong %d)  false %d  "
            "lost: find %d read %d order %d  truth %d/%d (wrong %d)  median %.2f ms (find %.2f)\n",
            name, full.ok, full.n, 100.0 * full.ok / (full.n ? full.n : 1), full.wrong, half.ok,
            half.n, 100.0 * half.ok / (half.n ? half.n : 1), half.wrong, false_reads, lost[0],
            lost[1], lost[2], truth.ok, truth.n, truth.wrong, times[count / 2],
            find_times[count / 2]);
        fflush(stdout);
        all_full.n += full.n, all_full.ok += full.ok, all_full.wrong += full.wrong;
        all_half.n += half.n, all_half.ok += half.ok, all_half.wrong += half.wrong;
        all_truth.n += truth.n, all_truth.ok += truth.ok, all_truth.wrong += truth.wrong;
        for (int k = 0; k < 3; k++)
            all_lost[k] += lost[k];
        all_false += false_reads;
    }
    printf("%-9s full %4d/%4d %.1f%% (wrong %d)  half+ %4d/%4d %.1f%% (wrong %d)  false %d  "
           "lost: find %d read %d order %d  truth %d/%d (wrong %d)\n",
           "all", all_full.ok, all_full.n, 100.0 * all_full.ok / (all_full.n ? all_full.n : 1),
           all_full.wrong, all_half.ok, all_half.n,
           100.0 * all_half.ok / (all_half.n ? all_half.n : 1), all_half.wrong, all_false,
           all_lost[0], all_lost[1], all_lost[2], all_truth.ok, all_truth.n, all_truth.wrong);
    static const char *const ENDS[4] = {"both ends whole", "less shown end >= half",
                                        "less shown end partly", "one end covered"};
    for (int k = 0; k < 4 && cls->family == TS_FAM_DOMINO; k++)
        printf("  half+ cards, %-24s %4d/%4d read\n", ENDS[k], ends_ok[k], ends_n[k]);
    for (int i = 0; i < nstyles; i++)
        printf("  %-12s full %4d/%4d %.1f%% (wrong %d)  half+ %4d/%4d %.1f%% (wrong %d)\n",
               styles[i].name, styles[i].full.ok, styles[i].full.n,
               100.0 * styles[i].full.ok / (styles[i].full.n ? styles[i].full.n : 1),
               styles[i].full.wrong, styles[i].half.ok, styles[i].half.n,
               100.0 * styles[i].half.ok / (styles[i].half.n ? styles[i].half.n : 1),
               styles[i].half.wrong);
    ts_image_free(&card);
    free(times);
    free(find_times);
    free(cand);
    ts_detector_destroy(det);
    cls->destroy(rd);
    return 0;
}
