/* Why `--game auto` chose what it did: for each image, every family
 * reading's cards (sure / unsure), its score and the face net's mean
 * P(its family), the chosen one marked.
 *
 *   auto_family_why IMAGE...
 *   auto_family_why --dump FILE IMAGE...   also keeps every reading and
 *                                          finder candidate in FILE
 *   auto_family_why --replay FILE          the choice alone, again, from FILE
 *   auto_family_why --replay-why FILE      the same, with every reading's weights
 *                                          and cards (code, sure, conf, corners)
 *   auto_family_why --replay-staged FILE   the choice as the pipeline's stages make
 *                                          it (later readers skipped when a stage
 *                                          settles it) and the stage, 0-2; a choice
 *                                          unlike the full one is told on stderr
 *
 * Running seven families' finders and readers takes about a second a
 * frame; the choice takes milliseconds. So a change to the chooser
 * (vision/auto_family.c) is measured on a thousand images by replaying a
 * dump made once by this same build (a raw dump: valid only for the build
 * that wrote it). --dump and --replay print one line 'IMAGE<TAB>family'
 * per image, as tests/tools/auto_family.sh reads scan's output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_family.h"
#include "imageio.h"
#include "pipeline.h"
#include "reader.h"

enum { MAX_READINGS = 16, CANDS = 6 };

/* One image's record in a dump. */
typedef struct {
    char path[1024];
    int n;
    char name[MAX_READINGS][16], profile[MAX_READINGS][16];
    ts_frame_result r[MAX_READINGS];
    int ncand[MAX_READINGS];
    ts_quad cand[MAX_READINGS][CANDS];
} record;

static void print_why(ts_pipeline *p, const char *path, const ts_frame_result *out)
{
    printf("%s: %s\n", path, out->family >= 0 ? ts_family_name(out->family) : "none");
    for (int i = 0; i < ts_pipeline_auto_readings(p); i++) {
        const char *name, *prof;
        double score, face;
        const ts_frame_result *r = ts_pipeline_auto_reading(p, i, &name, &prof, &score, &face);
        int sure = 0;
        for (int k = 0; k < r->ncards; k++)
            sure += r->cards[k].read;
        printf("  %-8s %-10s score %6.2f face %.2f  cards %2d sure %2d\n", name, prof, score,
               face, r->ncards, sure);
    }
}

static void keep(ts_pipeline *p, const char *path, FILE *dump)
{
    static record rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.path, sizeof rec.path, "%s", path);
    rec.n = ts_pipeline_auto_readings(p);
    if (rec.n > MAX_READINGS)
        rec.n = MAX_READINGS;
    for (int i = 0; i < rec.n; i++) {
        const char *name, *prof;
        double score, face;
        rec.r[i] = *ts_pipeline_auto_reading(p, i, &name, &prof, &score, &face);
        snprintf(rec.name[i], sizeof rec.name[i], "%s", name);
        snprintf(rec.profile[i], sizeof rec.profile[i], "%s", prof);
        const ts_quad *c = ts_pipeline_auto_candidates(p, i, &rec.ncand[i]);
        if (rec.ncand[i] > CANDS)
            rec.ncand[i] = CANDS;
        memcpy(rec.cand[i], c, sizeof c[0] * (size_t)rec.ncand[i]);
    }
    fwrite(&rec, sizeof rec, 1, dump);
}

/* The stage a reader runs in (as pipeline.c's stage_of). */
static int stage_of(const char *name)
{
    return strcmp(name, "gof") == 0 ? 2 : strcmp(name, "playing") == 0;
}

/* The choice the pipeline's stages make from record rec (readers of later
 * stages empty while a stage's choice is settled, see
 * ts_auto_family_settled); the stage it was made at in *stage. */
static int staged_choice(ts_auto_family *a, const record *rec, const ts_image *img,
                         const ts_reader_class *const *cls, int *stage, char *err)
{
    static ts_frame_result part[MAX_READINGS];
    int best = -1;
    for (*stage = 0; *stage <= 2; ++*stage) {
        ts_quad cand[MAX_READINGS * CANDS];
        int ncand = 0, may = 0;
        for (int i = 0; i < rec->n; i++) {
            part[i] = rec->r[i];
            if (stage_of(rec->name[i]) > *stage)
                part[i].ncards = 0;
            may |= ts_auto_family_may_settle(&part[i]);
        }
        if (*stage < 2 && !may)
            continue;
        for (int k = 0; k < CANDS; k++)
            for (int i = 0; i < rec->n; i++)
                if (stage_of(rec->name[i]) <= *stage && k < rec->ncand[i])
                    cand[ncand++] = rec->cand[i][k];
        ts_auto_weight w[MAX_READINGS];
        best = ts_auto_family_choose(a, img, cls, part, rec->n, cand, ncand, w, err);
        if (best == -2 || (best >= 0 && ts_auto_family_settled(&w[best])))
            return best;
    }
    *stage = 2;
    return best;
}

/* The choice again from each record of a dump. */
static int replay(const char *file, int why, int stages)
{
    FILE *in = fopen(file, "rb");
    char err[TSCV_ERR_MAX];
    if (!in) {
        fprintf(stderr, "auto_family_why: cannot open %s\n", file);
        return 1;
    }
    ts_auto_family *a = ts_auto_family_create(NULL, err, sizeof err);
    if (!a) {
        fprintf(stderr, "auto_family_why: %s\n", err);
        fclose(in);
        return 1;
    }
    static record rec;
    int rc = 0;
    while (fread(&rec, sizeof rec, 1, in) == 1) {
        const ts_reader_class *cls[MAX_READINGS];
        ts_quad cand[MAX_READINGS * CANDS];
        int ncand = 0;
        for (int i = 0; i < rec.n; i++)
            cls[i] = ts_reader_class_by_name(rec.name[i]);
        /* as the pipeline hands them over: each finder's best first */
        for (int k = 0; k < CANDS; k++)
            for (int i = 0; i < rec.n; i++)
                if (k < rec.ncand[i])
                    cand[ncand++] = rec.cand[i][k];
        ts_image img = {0};
        if (ts_image_load(rec.path, &img, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", rec.path, err);
            rc = 1;
            continue;
        }
        ts_auto_weight w[MAX_READINGS];
        int best = ts_auto_family_choose(a, &img, cls, rec.r, rec.n, cand, ncand, w, err);
        int stage = 2;
        if (stages && best != -2) { /* the staged choice, and the full one if it differs */
            int full = best;
            best = staged_choice(a, &rec, &img, cls, &stage, err);
            if (best >= 0 && full >= 0 && best != full)
                fprintf(stderr, "%s: staged %s, full %s\n", rec.path,
                        ts_family_name(cls[best]->family), ts_family_name(cls[full]->family));
        }
        if (best == -2) {
            fprintf(stderr, "%s: %s\n", rec.path, err);
            rc = 1;
        } else {
            printf("%s\t%s", rec.path, best >= 0 ? ts_family_name(cls[best]->family) : "none");
            printf(stages ? "\tstage %d\n" : "\n", stage);
            for (int i = 0; why && i < rec.n; i++) {
                int sure = 0;
                for (int k = 0; k < rec.r[i].ncards; k++)
                    sure += rec.r[i].cards[k].read;
                printf("  %c %-8s %-10s score %6.2f conf %6.2f face %.2f counted %2d votes %2d"
                       " backed %2d  cards %2d sure %2d\n",
                       i == best ? '*' : ' ', rec.name[i], rec.profile[i], w[i].score, w[i].conf,
                       w[i].face, w[i].counted, w[i].votes, w[i].backed, rec.r[i].ncards, sure);
                for (int k = 0; k < rec.r[i].ncards; k++) {
                    const ts_card *c = &rec.r[i].cards[k];
                    printf("      %-6s %s %.2f (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f)\n",
                           c->text, c->read ? "sure  " : "unsure", c->conf, c->quad[0].x,
                           c->quad[0].y, c->quad[1].x, c->quad[1].y, c->quad[2].x, c->quad[2].y,
                           c->quad[3].x, c->quad[3].y);
                }
            }
        }
        ts_image_free(&img);
    }
    ts_auto_family_destroy(a);
    fclose(in);
    return rc;
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc == 3 && strcmp(argv[1], "--replay") == 0)
        return replay(argv[2], 0, 0);
    if (argc == 3 && strcmp(argv[1], "--replay-why") == 0)
        return replay(argv[2], 1, 0);
    if (argc == 3 && strcmp(argv[1], "--replay-staged") == 0)
        return replay(argv[2], 0, 1);
    FILE *dump = NULL;
    int first = 1;
    if (argc >= 3 && strcmp(argv[1], "--dump") == 0) {
        if (!(dump = fopen(argv[2], "wb"))) {
            fprintf(stderr, "auto_family_why: cannot write %s\n", argv[2]);
            return 1;
        }
        first = 3;
    }
    ts_pipeline_config cfg = {.game = "auto", .auto_all = 1}; /* every reading kept */
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "auto_family_why: %s\n", err);
        if (dump)
            fclose(dump);
        return 1;
    }
    int rc = 0;
    for (int a = first; a < argc; a++) {
        ts_image img = {0};
        ts_frame_result out = {0};
        if (ts_image_load(argv[a], &img, err, sizeof err) < 0 ||
            ts_pipeline_process(p, &img, &out, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", argv[a], err);
            ts_image_free(&img);
            rc = 1;
            continue;
        }
        if (dump) {
            keep(p, argv[a], dump);
            printf("%s\t%s\n", argv[a], out.family >= 0 ? ts_family_name(out.family) : "none");
            fflush(stdout);
        } else {
            print_why(p, argv[a], &out);
        }
        ts_image_free(&img);
    }
    ts_pipeline_destroy(p);
    if (dump && fclose(dump) != 0) {
        fprintf(stderr, "auto_family_why: writing the dump failed\n");
        rc = 1;
    }
    return rc;
}
