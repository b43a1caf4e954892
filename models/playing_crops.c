/* ts-playing-crops: the playing-card reader over a label file, as the
 * pipeline runs it (whole image as one card first, else the family's finder,
 * overlapping candidates skipped, cards below the floor unread), with card
 * accuracy per image kind; and with --dump DIR, the rectified cards of the
 * single-card images written out as training data for train_playing.py.
 *
 *   ts-playing-crops [--match S] [--skip S] [--dump DIR] [--models DIR] [--list]
 *                    LABELS.tsv
 *
 * Label lines: image<TAB>codes[<TAB>kind]. --match/--skip keep/drop images
 * whose path contains S (may repeat). --dump writes DIR/NAME.png (the
 * largest whole card the shared detector finds in each one-card image, as
 * the reader sees it, if card-shaped and not tiny) and DIR/labels.tsv; it
 * needs no model. --models DIR reads DIR/playing.tsnet
 * (default: the source tree's models/). --list prints every wrong image;
 * --draw DIR writes each wrong image there with what was read where.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cv/cvdraw.h"
#include "geom.h"
#include "imageio.h"
#include "reader.h"
#include "readers/playing.h"
#include "readers/readers.h"

enum { MAX_CAND = 256, MAX_CARDS = 32, MAX_KINDS = 16, MAX_FILTERS = 16 };

typedef struct {
    char name[64];
    int images, cards, correct, found, unread, wrong_images;
    double ms;
} tally;

/* CPU time of this thread: a shared machine's load does not count. */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double find_ms, read_ms;
static int nreads;

/* The quad of the whole image, portrait (first side short). */
static void whole_quad(const ts_image *img, ts_pt q[4])
{
    float w = (float)img->w, h = (float)img->h;
    if (w <= h) {
        q[0] = (ts_pt){0, 0}, q[1] = (ts_pt){w, 0}, q[2] = (ts_pt){w, h}, q[3] = (ts_pt){0, h};
    } else {
        q[0] = (ts_pt){w, 0}, q[1] = (ts_pt){w, h}, q[2] = (ts_pt){0, h}, q[3] = (ts_pt){0, 0};
    }
}

static int read_quad(void *rd, const ts_image *img, const ts_pt q[4], ts_image *card,
                     ts_reading *r, char *err)
{
    const ts_reader_class *cls = &ts_playing_reader_class;
    if (tscv_warp_quad(img, q, card, cls->card_w, cls->card_h, err) < 0)
        return -1;
    return cls->read(rd, card, r, err);
}

/* Reads an image the way the pipeline does; returns the count of cards. */
static int scan(void *rd, const ts_image *img, ts_image *card, ts_code *codes, int *read,
                ts_quad *where, char *err)
{
    const ts_reader_class *cls = &ts_playing_reader_class;
    float aspect = img->w > img->h ? (float)img->w / img->h : (float)img->h / img->w;
    ts_reading r;
    if (aspect > 1.25f && aspect < 1.6f) { /* maybe one card filling the image */
        ts_pt q[4];
        whole_quad(img, q);
        if (read_quad(rd, img, q, card, &r, err) < 0)
            return -1;
        if (r.is_card && r.conf >= cls->conf_floor) {
            codes[0] = r.code;
            read[0] = 1;
            memcpy(where[0].q, q, sizeof q);
            return 1;
        }
    }
    ts_quad cand[MAX_CAND], taken[MAX_CARDS];
    double t0 = now_ms();
    int nc = cls->find(rd, img, cand, MAX_CAND, err), nt = 0, n = 0;
    find_ms += now_ms() - t0;
    if (nc < 0)
        return -1;
    for (int i = 0; i < nc && n < MAX_CARDS; i++) {
        int seen = 0;
        for (int k = 0; k < nt && !seen; k++)
            seen = ts_quad_overlap(&taken[k], &cand[i]);
        if (seen)
            continue;
        double t1 = now_ms();
        /* the finder's own reading of a quad it returned (reader.h) */
        if (!cls->read_found(rd, cand[i].q, &r) &&
            read_quad(rd, img, cand[i].q, card, &r, err) < 0)
            return -1;
        read_ms += now_ms() - t1;
        nreads++;
        if (!r.is_card)
            continue;
        taken[nt++] = cand[i];
        where[n] = cand[i];
        codes[n] = r.code;
        read[n++] = r.conf >= cls->conf_floor;
    }
    return n;
}

static int kind_index(tally *t, int *nk, const char *kind)
{
    for (int i = 0; i < *nk; i++)
        if (strcmp(t[i].name, kind) == 0)
            return i;
    if (*nk == MAX_KINDS)
        return MAX_KINDS - 1;
    snprintf(t[*nk].name, sizeof t[*nk].name, "%s", kind);
    return (*nk)++;
}

static int keep(const char *path, char **match, int nm, char **skip, int ns)
{
    for (int i = 0; i < ns; i++)
        if (strstr(path, skip[i]))
            return 0;
    for (int i = 0; i < nm; i++)
        if (strstr(path, match[i]))
            return 1;
    return nm == 0;
}

int main(int argc, char **argv)
{
    char *match[MAX_FILTERS], *skip[MAX_FILTERS];
    int nm = 0, ns = 0, list = 0;
    const char *dump = NULL, *labels = NULL, *models = NULL, *draw = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--match") == 0 && i + 1 < argc && nm < MAX_FILTERS)
            match[nm++] = argv[++i];
        else if (strcmp(argv[i], "--skip") == 0 && i + 1 < argc && ns < MAX_FILTERS)
            skip[ns++] = argv[++i];
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            dump = argv[++i];
        else if (strcmp(argv[i], "--draw") == 0 && i + 1 < argc)
            draw = argv[++i];
        else if (strcmp(argv[i], "--models") == 0 && i + 1 < argc)
            models = argv[++i];
        else if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else if (argv[i][0] != '-' && !labels)
            labels = argv[i];
        else {
            fprintf(stderr, "usage: ts-playing-crops [--match S] [--skip S] [--dump DIR] "
                            "[--models DIR] [--list] LABELS.tsv\n");
            return 2;
        }
    }
    if (!labels) {
        fprintf(stderr, "ts-playing-crops: no label file\n");
        return 2;
    }
    FILE *lf = fopen(labels, "r");
    if (!lf) {
        perror(labels);
        return 1;
    }
    char base[1024];
    snprintf(base, sizeof base, "%s", labels);
    char *slash = strrchr(base, '/');
    if (slash)
        slash[1] = 0;
    else
        base[0] = 0;

    char err[512];
    void *rd = NULL;
    ts_detector *finder = NULL;
    FILE *out = NULL;
    if (dump) {
        char p[1200];
        snprintf(p, sizeof p, "%s/labels.tsv", dump);
        out = fopen(p, "w");
        /* the shared detector alone: whole cards with exact outlines */
        ts_detect_params dp;
        ts_detect_defaults(&dp);
        dp.min_aspect = 1.0f;
        dp.max_aspect = 2.0f;
        finder = ts_detector_create(&dp);
        if (!out || !finder) {
            fprintf(stderr, "ts-playing-crops: cannot write %s\n", p);
            return 1;
        }
    } else {
        ts_reader_config cfg = {.models_dir = models};
        rd = ts_playing_reader_class.create(&cfg, err, sizeof err);
        if (!rd) {
            fprintf(stderr, "ts-playing-crops: %s\n", err);
            return 1;
        }
    }

    tscv_set_threads(1); /* one-core figures */
    tally t[MAX_KINDS];
    memset(t, 0, sizeof t);
    int nk = 0;
    ts_image card = {0};
    char line[4096];
    while (fgets(line, sizeof line, lf)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *name = strtok(line, "\t"), *codes = strtok(NULL, "\t"), *kind = strtok(NULL, "\t");
        if (!name || !codes)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s%s", name[0] == '/' ? "" : base, name);
        if (!keep(path, match, nm, skip, ns))
            continue;
        ts_code want[MAX_CARDS];
        int nw = ts_code_parse_list(TS_FAM_PLAYING, codes, want, MAX_CARDS, err, sizeof err);
        if (nw < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            continue;
        }
        ts_image img;
        if (ts_image_load(path, &img, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        if (dump) { /* the largest candidate of a one-card image */
            if (nw == 1) {
                ts_quad cand[MAX_CAND];
                int nc = ts_detect(finder, &img, cand, MAX_CAND, err), best = -1;
                for (int i = 0; i < nc; i++)
                    if (best < 0 || cand[i].area > cand[best].area)
                        best = i;
                /* a cut-off card or a patch of background fits a card
                 * badly: keep well-shaped, sizeable quads only */
                if (best >= 0) {
                    const ts_pt *q = cand[best].q;
                    float a = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
                              (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
                    if (a < 1.0f || a > 2.1f || cand[best].area < 0.05f * img.w * img.h)
                        best = -1;
                }
                if (best >= 0 &&
                    tscv_warp_quad(&img, cand[best].q, &card, TS_PLAYING_CARD_W,
                                   TS_PLAYING_CARD_H, err) == 0) {
                    const char *b = strrchr(name, '/');
                    char op[2400], fn[600];
                    snprintf(fn, sizeof fn, "%.500s.png", b ? b + 1 : name);
                    snprintf(op, sizeof op, "%s/%s", dump, fn);
                    if (ts_image_save(&card, op, err, sizeof err) == 0)
                        fprintf(out, "%s\t%s\n", fn, codes);
                }
            }
            ts_image_free(&img);
            continue;
        }
        ts_code got[MAX_CARDS];
        int isread[MAX_CARDS];
        ts_quad where[MAX_CARDS];
        double t0 = now_ms();
        int ng = scan(rd, &img, &card, got, isread, where, err);
        double ms = now_ms() - t0;
        if (ng < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            ts_image_free(&img);
            continue;
        }
        tally *k = &t[kind_index(t, &nk, kind ? kind : "-")];
        int used[MAX_CARDS] = {0}, correct = 0, unread = 0;
        for (int i = 0; i < nw; i++)
            for (int j = 0; j < ng; j++)
                if (!used[j] && isread[j] && got[j].idx == want[i].idx) {
                    used[j] = 1;
                    correct++;
                    break;
                }
        for (int j = 0; j < ng; j++)
            unread += !isread[j];
        k->images++;
        k->cards += nw;
        k->correct += correct;
        k->found += ng;
        k->unread += unread;
        k->ms += ms;
        if (correct != nw || ng != nw) {
            k->wrong_images++;
            if (draw) { /* the wrong image with what was read where */
                for (int j = 0; j < ng; j++) {
                    char c[TS_CODE_MAXLEN + 1];
                    ts_code_format(got[j], c);
                    if (!isread[j])
                        strcat(c, "?");
                    ts_bgr col = isread[j] ? (ts_bgr){0, 200, 0} : (ts_bgr){0, 0, 255};
                    tscv_polyline(&img, where[j].q, 4, 1, col, 2, err);
                    tscv_text(&img, where[j].q[0].x, where[j].q[0].y + 20, c, 0.8, col, 2, err);
                }
                const char *b = strrchr(name, '/');
                char op[2400];
                snprintf(op, sizeof op, "%s/%s", draw, b ? b + 1 : name);
                ts_image_save(&img, op, err, sizeof err);
            }
            if (list) {
                printf("  %s: labelled %s; read", name, codes);
                for (int j = 0; j < ng; j++) {
                    char c[TS_CODE_MAXLEN];
                    ts_code_format(got[j], c);
                    printf(" %s%s", c, isread[j] ? "" : "?");
                }
                printf("\n");
            }
        }
        ts_image_free(&img);
    }
    fclose(lf);
    ts_image_free(&card);
    if (dump) {
        fclose(out);
        ts_detector_destroy(finder);
        return 0;
    }
    ts_playing_reader_class.destroy(rd);
    fprintf(stderr, "finder %.2f ms, %d candidate reads %.2f ms (%.3f ms each), CPU\n", find_ms,
            nreads, read_ms, nreads ? read_ms / nreads : 0);
    tally all = {.name = "all"};
    printf("%-20s %6s %6s %8s %6s %7s %6s %8s\n", "kind", "images", "cards", "correct", "acc%",
           "unread", "found", "cpu ms");
    for (int i = 0; i <= nk; i++) {
        tally *k = i < nk ? &t[i] : &all;
        if (i < nk) {
            all.images += k->images, all.cards += k->cards, all.correct += k->correct;
            all.found += k->found, all.unread += k->unread, all.ms += k->ms;
            all.wrong_images += k->wrong_images;
        }
        printf("%-20s %6d %6d %8d %6.2f %7d %6d %8.2f\n", k->name, k->images, k->cards,
               k->correct, k->cards ? 100.0 * k->correct / k->cards : 0, k->unread, k->found,
               k->images ? k->ms / k->images : 0);
    }
    return 0;
}
