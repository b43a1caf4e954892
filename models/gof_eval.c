/* ts-gof-eval: the Gang of Four reader measured on rendered tables, the way
 * the pipeline runs it (until `tablesight eval --game gof` covers it):
 * find candidates with the shared detector and the class's aspect range,
 * take a candidate unless it overlaps one already taken, warp, read; a
 * candidate read as no card leaves its place to the next one.
 *
 *   ts-gof-eval FIRST_SEED COUNT [--cards N] [--layouts grid,touching,fan,pile]
 *               [--models DIR] [--floor F] [--list] [--truth] [--detect-only]
 *
 * Each layout renders COUNT tables (seeds FIRST_SEED...) of N cards
 * (default 12) at 1280x720, saved and decoded as the simulated camera's JPEG.
 * A card counts as read when a taken candidate's centre lies on it (the
 * topmost card there) and its reading is at or above the class's floor with
 * the right code; "wrong" is a reading at or above the floor with another
 * code. Cards are grouped by their visible fraction (render JSON's
 * "visible"): fully visible (>= 0.99) and at least half visible (>= 0.5).
 * Time is find + warp + read per table: this thread's CPU time (the machine
 * may be shared), one OpenCV thread, median over the tables.
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
#include "readers/gof_edges.h"
#include "readers/gof_find.h"
#include "readers/readers.h"
#include "geom.h"
#include "render.h"

enum { MAX_CAND = 256 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: the machine is shared */
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

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ts-gof-eval FIRST_SEED COUNT [--cards N] [--layouts a,b] "
                        "[--models DIR] [--list]\n");
        return 2;
    }
    long first = atol(argv[1]), count = atol(argv[2]);
    int ncards = 12, list = 0, detect_only = 0, shared = 0, truth = 0;
    float floor_arg = 0;
    const char *layouts = "grid,touching,fan,pile", *models = NULL;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--cards") && i + 1 < argc)
            ncards = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--layouts") && i + 1 < argc)
            layouts = argv[++i];
        else if (!strcmp(argv[i], "--models") && i + 1 < argc)
            models = argv[++i];
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--floor") && i + 1 < argc)
            floor_arg = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--truth"))
            truth = 1;
        else if (!strcmp(argv[i], "--shared"))
            shared = 1;
        else if (!strcmp(argv[i], "--detect-only"))
            detect_only = 1;
        else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    tscv_set_threads(1);
    const ts_reader_class *cls = &ts_gof_reader_class;
    const float conf_floor = floor_arg > 0 ? floor_arg : cls->conf_floor;
    char err[256];
    ts_reader_config cfg = {NULL, models};
    void *rd = detect_only ? NULL : cls->create(&cfg, err, sizeof err);
    if (!rd && !detect_only) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ts_detect_params dp;
    ts_detect_defaults(&dp);
    dp.min_aspect = cls->min_aspect;
    dp.max_aspect = cls->max_aspect;
    ts_detector *det = ts_detector_create(&dp);
    /* the class's own finder (the reader's find() runs this) unless --shared */
    ts_gof_finder *finder = shared ? NULL : ts_gof_finder_create(cls->min_aspect, cls->max_aspect);
    ts_quad *cand = malloc(sizeof *cand * MAX_CAND);
    double *times = malloc(sizeof *times * (size_t)count);
    double *find_times = malloc(sizeof *times * (size_t)count);
    ts_image card = {0};
    char lay[256];
    snprintf(lay, sizeof lay, "%s", layouts);
    tally all_full = {0}, all_half = {0};
    int all_false = 0;
    for (char *name = strtok(lay, ","); name; name = strtok(NULL, ",")) {
        int li = ts_layout_from_name(name);
        if (li < 0) {
            fprintf(stderr, "unknown layout %s\n", name);
            return 2;
        }
        tally full = {0}, half = {0};
        int false_reads = 0;
        long ntaken = 0, ncand = 0;
        for (long s = first; s < first + count; s++) {
            ts_scene_spec spec = {.family = TS_FAM_GOF, .w = 1280, .h = 720, .seed = (uint64_t)s};
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
            free(jpg);

            double t0 = now_ms();
            /* the reader's find() (the finder, then the surest quad per place) */
            int nc = finder && rd ? cls->find(rd, &img, cand, MAX_CAND, err)
                     : finder     ? ts_gof_find(finder, &img, cand, MAX_CAND, err)
                                  : ts_detect(det, &img, cand, MAX_CAND, err);
            double t_find = now_ms() - t0;
            find_times[s - first] = t_find;
            if (truth) { /* the true quads, topmost first: the reader alone */
                nc = 0;
                for (int i = sc.ncards - 1; i >= 0; i--, nc++)
                    for (int k = 0; k < 4; k++)
                        cand[nc].q[k] = sc.cards[i].quad[(k + 2 * (i % 2)) % 4];
            }
            if (nc < 0) {
                fprintf(stderr, "seed %ld: %s\n", s, err);
                return 1;
            }
            for (int c = 0; finder && !rd && c < nc; c++) /* the reader's find() snaps */
                ts_gof_snap_edges(&img, &cand[c]);
            ncand += nc;
            if (getenv("GOF_CANDS")) /* every candidate, in the order tried */
                for (int c = 0; c < nc; c++)
                    printf("cand %d score %.1f  %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f\n", c,
                           cand[c].score, cand[c].q[0].x, cand[c].q[0].y, cand[c].q[1].x,
                           cand[c].q[1].y, cand[c].q[2].x, cand[c].q[2].y, cand[c].q[3].x,
                           cand[c].q[3].y);
            ts_quad taken[MAX_CAND];
            ts_reading reads[MAX_CAND];
            /* detect_only: a candidate is a card; "right" = on its true corners */
            int nt = ts_reader_take(cls, rd, &img, cand, nc, &card, taken, reads, NULL, MAX_CAND,
                                    err);
            if (nt < 0) {
                fprintf(stderr, "seed %ld: %s\n", s, err);
                return 1;
            }
            ntaken += nt;
            times[s - first] = now_ms() - t0;

            /* each reading to the card it lies on */
            int got[TS_RENDER_MAX_CARDS];
            for (int i = 0; i < sc.ncards; i++)
                got[i] = -1;
            for (int t = 0; t < nt; t++) {
                int on = ts_scene_card_under(&sc, taken[t].q);
                if (on < 0 || got[on] >= 0) {
                    false_reads += reads[t].conf >= conf_floor;
                    continue;
                }
                got[on] = t;
                if (detect_only) { /* corners within 6% of the short side, either way up */
                    const ts_pt *g = sc.cards[on].quad;
                    float side = hypotf(g[1].x - g[0].x, g[1].y - g[0].y), best = 1e9f;
                    for (int turn = 0; turn < 4; turn += 2) {
                        float e = 0;
                        for (int k = 0; k < 4; k++)
                            e = fmaxf(e, hypotf(taken[t].q[(k + turn) % 4].x - g[k].x,
                                                taken[t].q[(k + turn) % 4].y - g[k].y));
                        best = fminf(best, e);
                    }
                    if (best < 0.06f * side)
                        reads[t].code = sc.cards[on].code;
                    reads[t].conf = best / side; /* shown by --list */
                    if (getenv("GOF_QUADS"))
                        printf("det %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f  true %.0f,%.0f %.0f,%.0f "
                               "%.0f,%.0f %.0f,%.0f\n",
                               taken[t].q[0].x, taken[t].q[0].y, taken[t].q[1].x, taken[t].q[1].y,
                               taken[t].q[2].x, taken[t].q[2].y, taken[t].q[3].x, taken[t].q[3].y,
                               g[0].x, g[0].y, g[1].x, g[1].y, g[2].x, g[2].y, g[3].x, g[3].y);
                }
            }
            for (int i = 0; i < sc.ncards; i++) {
                float v = sc.cards[i].visible;
                int t = got[i];
                int above = t >= 0 && (detect_only || reads[t].conf >= conf_floor);
                int ok = above && reads[t].code.idx == sc.cards[i].code.idx;
                int wrong = above && !ok;
                tally *g[2] = {v >= 0.99f ? &full : NULL, v >= 0.5f ? &half : NULL};
                for (int k = 0; k < 2; k++)
                    if (g[k]) {
                        g[k]->n++;
                        g[k]->ok += ok;
                        g[k]->wrong += wrong;
                    }
                if (getenv("GOF_DUMP")) { /* every card: for choosing the floor */
                    char want[TS_CODE_MAXLEN], saw[TS_CODE_MAXLEN] = "-";
                    ts_code_format(sc.cards[i].code, want);
                    if (t >= 0)
                        ts_code_format(reads[t].code, saw);
                    printf("dump %s %ld %d %.3f %s %s %.4f\n", name, s, i, v, want, saw,
                           t >= 0 ? reads[t].conf : 0.0);
                }
                if (list && v >= 0.5f && !ok) {
                    char want[TS_CODE_MAXLEN], saw[TS_CODE_MAXLEN] = "-";
                    ts_code_format(sc.cards[i].code, want);
                    if (t >= 0)
                        ts_code_format(reads[t].code, saw);
                    printf("  %s seed %ld card %d %s visible %.2f: read %s conf %.2f\n", name, s,
                           i, want, v, saw, t >= 0 ? reads[t].conf : 0.0);
                }
            }
            ts_image_free(&img);
            ts_scene_free(&sc);
        }
        qsort(times, (size_t)count, sizeof *times, cmp_double);
        qsort(find_times, (size_t)count, sizeof *times, cmp_double);
        printf("%-9s full %4d/%4d %.1f%% (wrong %d)  half+ %4d/%4d %.1f%% (wrong %d)  "
               "false %d  median %.2f ms (find %.2f; %.1f candidates, %.1f cards taken per table)\n",
               name, full.ok, full.n, 100.0 * full.ok / (full.n ? full.n : 1), full.wrong, half.ok,
               half.n, 100.0 * half.ok / (half.n ? half.n : 1), half.wrong, false_reads,
               times[count / 2], find_times[count / 2], (double)ncand / count,
               (double)ntaken / count);
        all_full.n += full.n, all_full.ok += full.ok, all_full.wrong += full.wrong;
        all_half.n += half.n, all_half.ok += half.ok, all_half.wrong += half.wrong;
        all_false += false_reads;
    }
    printf("%-9s full %4d/%4d %.1f%% (wrong %d)  half+ %4d/%4d %.1f%% (wrong %d)  false %d\n",
           "all", all_full.ok, all_full.n, 100.0 * all_full.ok / (all_full.n ? all_full.n : 1),
           all_full.wrong, all_half.ok, all_half.n,
           100.0 * all_half.ok / (all_half.n ? all_half.n : 1), all_half.wrong, all_false);
    ts_image_free(&card);
    free(times);
    free(find_times);
    free(cand);
    ts_detector_destroy(det);
    ts_gof_finder_destroy(finder);
    if (rd)
        cls->destroy(rd);
    return 0;
}
