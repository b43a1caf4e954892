/* ts-qwirkle: measures and scores the Qwirkle reader on labelled images, and
 * dumps the features models/fit_qwirkle.py fits the deck profiles from.
 *
 *   ts-qwirkle eval  [--profile P] [--crops] LABELS.tsv   per image and total
 *   ts-qwirkle dump  [--profile P] [--crops] LABELS.tsv   one line per piece:
 *        image  code-read  conf  colour features  shape features  cx cy
 *        found  ink-fraction  contrast  the render's label there ("-": none)
 *
 * Scenes go through the reader's own find (or the shared detector), warp
 * and read, as the pipeline does; --crops reads each image as one piece.
 * With a render's JSON beside a scene image (NAME.json), eval also scores
 * cards by position: fully visible, and at least half visible.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "imageio.h"
#include "reader.h"
#include "readers/qwirkle.h"

enum { MAXQ = 512, MAXGT = 64 };

typedef struct {
    int idx;
    float q[4][2];
    float visible;
} gt_card;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of this thread: on a shared, loaded machine wall time measures
 * the neighbours (OpenCV runs on this thread alone: tscv_set_threads(1)). */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The render JSON's cards (code, quad, visible); a small fixed-shape scan. */
static int load_gt(const char *path, const ts_reader_class *cls, void *rd, gt_card *gt, int max)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    int k = 0;
    char *p = buf;
    (void)cls;
    (void)rd;
    while (k < max && (p = strstr(p, "{\"code\":\""))) {
        p += 9;
        char code[8] = {0};
        int i = 0;
        while (*p && *p != '"' && i < 7)
            code[i++] = *p++;
        ts_code c;
        if (ts_code_parse(TS_FAM_QWIRKLE, code, strlen(code), &c) < 0)
            continue;
        gt[k].idx = c.idx;
        char *q = strstr(p, "\"quad\":");
        if (!q || sscanf(q, "\"quad\":[[%f,%f],[%f,%f],[%f,%f],[%f,%f]]", &gt[k].q[0][0],
                         &gt[k].q[0][1], &gt[k].q[1][0], &gt[k].q[1][1], &gt[k].q[2][0],
                         &gt[k].q[2][1], &gt[k].q[3][0], &gt[k].q[3][1]) != 8)
            continue;
        char *v = strstr(p, "\"visible\":");
        gt[k].visible = v ? (float)atof(v + 10) : 1;
        k++;
    }
    return k;
}

static int inside(const float q[4][2], float x, float y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; i++) {
        const float *a = q[i], *b = q[(i + 1) % 4];
        float c = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        pos |= c > 0;
        neg |= c < 0;
    }
    return !(pos && neg);
}

int main(int argc, char **argv)
{
    const char *profile = NULL, *labels = NULL, *mode = argc > 1 ? argv[1] : "";
    int crops = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            profile = argv[++i];
        else if (strcmp(argv[i], "--crops") == 0)
            crops = 1;
        else
            labels = argv[i];
    }
    int dump = strcmp(mode, "dump") == 0;
    if ((!dump && strcmp(mode, "eval") != 0) || !labels) {
        fprintf(stderr, "usage: ts-qwirkle eval|dump [--profile P] [--crops] LABELS.tsv\n");
        return 2;
    }
    tscv_set_threads(1);
    const ts_reader_class *cls = ts_reader_class_by_name("qwirkle");
    char err[256];
    ts_reader_config cfg = {profile, NULL};
    void *rd = cls->create(&cfg, err, sizeof err);
    if (!rd) {
        fprintf(stderr, "ts-qwirkle: %s\n", err);
        return 1;
    }
    FILE *lf = fopen(labels, "r");
    if (!lf) {
        fprintf(stderr, "ts-qwirkle: %s: cannot open\n", labels);
        return 1;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", labels);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        strcpy(dir, "./");
    char line[8192];
    long tot_lab = 0, tot_ok = 0, tot_extra = 0, full_n = 0, full_ok = 0, half_n = 0, half_ok = 0;
    double *times = malloc(100000 * sizeof *times);
    int ntimes = 0;
    ts_quad *quads = malloc(MAXQ * sizeof *quads);
    static double bench[100000];
    int nbench = 0;
    while (fgets(line, sizeof line, lf)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = 0;
        char path[16384];
        snprintf(path, sizeof path, "%s%s", line[0] == '/' ? "" : dir, line);
        ts_code lab[MAXQ];
        int nlab = ts_code_parse_list(TS_FAM_QWIRKLE, tab + 1, lab, MAXQ, err, sizeof err);
        if (nlab < 0) { /* the deck's own letters: W for the tiles' white */
            char fixed[8192];
            snprintf(fixed, sizeof fixed, "%s", tab + 1);
            for (char *c = fixed; *c; c++)
                if (*c == 'W' && (c == fixed || c[-1] == ' '))
                    *c = 'P';
            nlab = ts_code_parse_list(TS_FAM_QWIRKLE, fixed, lab, MAXQ, err, sizeof err);
        }
        if (nlab < 0) {
            fprintf(stderr, "%s: %s\n", line, err);
            continue;
        }
        ts_image img = {0};
        if (ts_image_load(path, &img, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        if (getenv("QWBENCH") && !crops) { /* find + warp + read, repeated: the median */
            double tt[15];
            ts_image wb = {0};
            for (int rep = 0; rep < 15; rep++) {
                double a = cpu_ms();
                int k = cls->find(rd, &img, quads, MAXQ, err);
                ts_quad tk[MAXQ];
                int ntk = 0;
                for (int i = 0; i < k; i++) {
                    int sk = 0;
                    for (int j = 0; j < ntk && !sk; j++)
                        sk = ts_quad_overlap(&tk[j], &quads[i]);
                    if (sk || tscv_warp_quad(&img, quads[i].q, &wb, cls->card_w, cls->card_h, err) < 0)
                        continue;
                    ts_reading r;
                    if (cls->read(rd, &wb, &r, err) == 0 && r.is_card)
                        tk[ntk++] = quads[i];
                }
                tt[rep] = cpu_ms() - a;
            }
            for (int i = 1; i < 15; i++)
                for (int j = i; j > 0 && tt[j] < tt[j - 1]; j--) {
                    double t = tt[j];
                    tt[j] = tt[j - 1];
                    tt[j - 1] = t;
                }
            printf("bench %s %.2f ms (thread CPU, median of 15)\n", line, tt[7]);
            bench[nbench++] = tt[7];
            ts_image_free(&wb);
        }
        char jpath[16400];
        snprintf(jpath, sizeof jpath, "%s", path);
        char *dot = strrchr(jpath, '.');
        gt_card gt[MAXGT];
        int ngt = -1;
        if (dot && !crops) {
            strcpy(dot, ".json");
            ngt = load_gt(jpath, cls, rd, gt, MAXGT);
        }
        double t0 = now_ms(), find_cpu = 0;
        int nq;
        if (crops) {
            nq = 1;
            quads[0] = (ts_quad){{{0, 0}, {(float)img.w, 0}, {(float)img.w, (float)img.h},
                                  {0, (float)img.h}}, 1, 0};
        } else {
            double c0 = cpu_ms();
            nq = cls->find(rd, &img, quads, MAXQ, err);
            find_cpu = cpu_ms() - c0;
            if (nq < 0) {
                fprintf(stderr, "%s: %s\n", line, err);
                ts_image_free(&img);
                continue;
            }
        }
        double cf0 = cpu_ms();
        int read_idx[MAXQ], nread = 0;
        float read_conf[MAXQ];
        ts_quad taken[MAXQ];
        ts_image warp = {0};
        for (int i = 0; i < nq; i++) {
            int skip = 0;
            for (int j = 0; j < nread && !skip; j++)
                skip = ts_quad_overlap(&taken[j], &quads[i]);
            if (skip)
                continue;
            if (tscv_warp_quad(&img, quads[i].q, &warp, cls->card_w, cls->card_h, err) < 0)
                break;
            if (getenv("QWSAVE")) {
                char wp[600];
                snprintf(wp, sizeof wp, "%s/%03d.png", getenv("QWSAVE"), i);
                ts_image_save(&warp, wp, err, sizeof err);
            }
            ts_reading r;
            if (cls->read(rd, &warp, &r, err) < 0)
                break;
            if (dump) {
                char code[TS_CODE_MAXLEN];
                if (r.is_card)
                    cls->format(rd, r.code, code);
                else
                    strcpy(code, "--");
                /* features again, for the fit */
                qw_symbol *s = qw_symbol_create();
                qw_measure m;
                int tiles = profile && strcmp(profile, "tiles") == 0;
                if (s && qw_symbol_measure(s, &warp, tiles, &m, err) == 0) {
                    float cx = 0, cy = 0;
                    for (int k = 0; k < 4; k++) {
                        cx += quads[i].q[k].x / 4;
                        cy += quads[i].q[k].y / 4;
                    }
                    printf("%s\t%s\t%.3f", line, code, r.conf);
                    for (int k = 0; k < QW_NCFEAT; k++)
                        printf("\t%.4f", m.colour[k]);
                    for (int k = 0; k < QW_NSFEAT; k++)
                        printf("\t%.4f", m.shape[k]);
                    /* the render's own label of the card here, if any */
                    char gcode[TS_CODE_MAXLEN] = "-";
                    for (int g = 0; g < ngt; g++)
                        if (gt[g].visible >= 0.5f && inside(gt[g].q, cx, cy))
                            cls->format(rd, (ts_code){TS_FAM_QWIRKLE, (uint8_t)gt[g].idx}, gcode);
                    printf("\t%.0f\t%.0f\t%d\t%.3f\t%.1f\t%s\n", cx, cy, m.found, m.ink_frac,
                           m.contrast, gcode);
                }
                qw_symbol_destroy(s);
            }
            if (!r.is_card)
                continue;
            taken[nread] = quads[i];
            read_conf[nread] = r.conf;
            read_idx[nread++] = r.code.idx;
        }
        double t1 = now_ms();
        times[ntimes++] = t1 - t0;
        ts_image_free(&warp);
        /* multiset score */
        int used[MAXQ] = {0}, ok = 0, extra = 0;
        for (int i = 0; i < nread; i++) {
            if (read_conf[i] < cls->conf_floor)
                continue;
            int hit = 0;
            for (int j = 0; j < nlab && !hit; j++)
                if (!used[j] && lab[j].idx == read_idx[i]) {
                    used[j] = 1;
                    hit = 1;
                }
            ok += hit;
            extra += !hit;
        }
        tot_lab += nlab;
        tot_ok += ok;
        tot_extra += extra;
        /* by position, with a render's JSON */
        int fok = 0, fn = 0;
        for (int g = 0; g < ngt; g++) {
            if (gt[g].visible < 0.5f)
                continue;
            int hit = 0;
            for (int i = 0; i < nread && !hit; i++) {
                float cx = 0, cy = 0;
                for (int k = 0; k < 4; k++) {
                    cx += taken[i].q[k].x / 4;
                    cy += taken[i].q[k].y / 4;
                }
                hit = inside(gt[g].q, cx, cy) && read_idx[i] == gt[g].idx &&
                      read_conf[i] >= cls->conf_floor;
            }
            half_n++;
            half_ok += hit;
            if (!hit && getenv("QWMISS")) {
                char gc[TS_CODE_MAXLEN];
                cls->format(rd, (ts_code){TS_FAM_QWIRKLE, (uint8_t)gt[g].idx}, gc);
                /* what was read there, if anything: finding or reading */
                char rc[TS_CODE_MAXLEN] = "-";
                float rconf = 0;
                for (int i = 0; i < nread; i++) {
                    float cx = 0, cy = 0;
                    for (int k = 0; k < 4; k++) {
                        cx += taken[i].q[k].x / 4;
                        cy += taken[i].q[k].y / 4;
                    }
                    if (inside(gt[g].q, cx, cy)) {
                        cls->format(rd, (ts_code){TS_FAM_QWIRKLE, (uint8_t)read_idx[i]}, rc);
                        rconf = read_conf[i];
                    }
                }
                fprintf(stderr, "miss %s %s vis %.2f at %.0f %.0f read %s conf %.2f\n", line, gc,
                        gt[g].visible, (gt[g].q[0][0] + gt[g].q[2][0]) / 2,
                        (gt[g].q[0][1] + gt[g].q[2][1]) / 2, rc, rconf);
            }
            if (gt[g].visible >= 0.999f) {
                full_n++;
                full_ok += hit;
                fn++;
                fok += hit;
            }
        }
        if (!dump)
            printf("%s\tlabels %d\tfound %d\tread %d\tread-right %d\twrong-or-extra %d\t%.1f ms%s\n", line, nlab, nq, nread, ok,
                   extra, t1 - t0, fn && fok < fn ? "\tMISS-FULL" : "");
        if (!dump && getenv("QWTIME"))
            printf("  find %.2f ms cpu, warp+read %.2f ms cpu, %d candidates\n", find_cpu, cpu_ms() - cf0, nq);
        ts_image_free(&img);
    }
    fclose(lf);
    for (int i = 1; i < ntimes; i++) /* median time */
        for (int j = i; j > 0 && times[j] < times[j - 1]; j--) {
            double t = times[j];
            times[j] = times[j - 1];
            times[j - 1] = t;
        }
    for (int i = 1; i < nbench; i++)
        for (int j = i; j > 0 && bench[j] < bench[j - 1]; j--) {
            double t = bench[j];
            bench[j] = bench[j - 1];
            bench[j - 1] = t;
        }
    if (nbench)
        printf("BENCH median over images %.2f ms (find + warp + read, thread CPU)\n",
               bench[nbench / 2]);
    if (!dump) {
        printf("TOTAL labels %ld read-right %ld (%.2f%%) wrong-or-extra %ld median %.2f ms\n",
               tot_lab, tot_ok, 100.0 * tot_ok / (tot_lab ? tot_lab : 1), tot_extra,
               ntimes ? times[ntimes / 2] : 0);
        if (half_n)
            printf("RENDER fully-visible %ld/%ld (%.2f%%) half-visible %ld/%ld (%.2f%%)\n", full_ok,
                   full_n, 100.0 * full_ok / full_n, half_ok, half_n, 100.0 * half_ok / half_n);
    }
    free(times);
    free(quads);
    cls->destroy(rd);
    return 0;
}
