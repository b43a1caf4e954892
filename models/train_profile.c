/* ts-train-profile: rebuilds a SET deck profile's prototypes from labelled
 * single-card images (a crops label file: image<TAB>code).
 *
 *   ts-train-profile BASE LABELS.tsv [--fold K/N] [--modes M] [--dump] > NEW.profile
 *
 * BASE (a profile name or path) gives the letters, the floor and how many
 * features each attribute has. For every attribute value the tool measures
 * the cards of that value and splits them into up to M modes by k-means (the
 * same ink photographed by a webcam and by a DSLR); each mode becomes a
 * prototype: its mean, and its standard deviation shrunk halfway toward the
 * attribute's pooled one, so a tight mode learned from few cards is not
 * brittle. With --fold K/N, lines whose number is K mod N are held out: not
 * trained on, and read with the new profile afterwards; the accuracy on them
 * goes to stderr (--dump adds one line per held-out card).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageio.h"
#include "profile.h"
#include "set_reader.h"

enum { MAX_CARDS = 20000, F = TS_PROFILE_MAX_FEAT };

typedef struct {
    int idx;                       /* SET index (label) */
    float feat[TS_ATTR_COUNT][F];  /* measured features */
} sample;

static const int ATTR_CODE[TS_ATTR_COUNT] = {TS_SET_COLOUR, TS_SET_SHAPE, TS_SET_SHADING};

static int read_card(ts_set_reader *rd, const char *path, ts_set_reading *out)
{
    char err[256];
    ts_image img;
    if (ts_image_load(path, &img, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (img.w > img.h) /* the reader takes portrait cards */
        ts_image_apply_orientation(&img, 6);
    int rc = ts_set_read(rd, &img, out, err);
    ts_image_free(&img);
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", path, err);
    return rc;
}

/* ---- Fitting ------------------------------------------------------------ */

static float dist2(const float *a, const float *b, const float *scale, int nf)
{
    float s = 0;
    for (int i = 0; i < nf; i++) {
        float z = (a[i] - b[i]) / scale[i];
        s += z * z;
    }
    return s;
}

/* Fits up to `modes` prototypes to the n feature vectors x (stride F) of one
 * value: k-means seeded by farthest points, in units of the pooled scale. */
static int fit_modes(const float *x, int n, int nf, const float *scale, int modes,
                     float proto[][F], float spread[][F])
{
    if (n == 0)
        return 0;
    int k = modes;
    if (k > n / 30) /* a mode needs enough cards to mean something */
        k = n / 30;
    if (k < 1)
        k = 1;
    int *assign = calloc((size_t)n, sizeof *assign);
    memcpy(proto[0], x, sizeof(float) * F);
    for (int c = 1; c < k; c++) { /* farthest from the seeds so far */
        int far = 0;
        float best = -1;
        for (int j = 0; j < n; j++) {
            float d = 1e30f;
            for (int e = 0; e < c; e++) {
                float dd = dist2(x + j * F, proto[e], scale, nf);
                d = dd < d ? dd : d;
            }
            if (d > best) {
                best = d;
                far = j;
            }
        }
        memcpy(proto[c], x + far * F, sizeof(float) * F);
    }
    for (int iter = 0; iter < 30; iter++) {
        for (int j = 0; j < n; j++) {
            int b = 0;
            for (int c = 1; c < k; c++)
                if (dist2(x + j * F, proto[c], scale, nf) < dist2(x + j * F, proto[b], scale, nf))
                    b = c;
            assign[j] = b;
        }
        for (int c = 0; c < k; c++) {
            double sum[F] = {0};
            int cnt = 0;
            for (int j = 0; j < n; j++)
                if (assign[j] == c) {
                    for (int i = 0; i < nf; i++)
                        sum[i] += x[j * F + i];
                    cnt++;
                }
            for (int i = 0; i < nf && cnt; i++)
                proto[c][i] = (float)(sum[i] / cnt);
        }
    }
    int out = 0;
    for (int c = 0; c < k; c++) {
        double ss[F] = {0};
        int cnt = 0;
        for (int j = 0; j < n; j++)
            if (assign[j] == c) {
                for (int i = 0; i < nf; i++) {
                    double d = x[j * F + i] - proto[c][i];
                    ss[i] += d * d;
                }
                cnt++;
            }
        if (cnt < 5 && k > 1)
            continue; /* an outlier's own mode would only memorise it */
        for (int i = 0; i < nf; i++) {
            double sd = cnt > 1 ? sqrt(ss[i] / (cnt - 1)) : scale[i];
            if (sd < 0.005)
                sd = 0.005;
            proto[out][i] = proto[c][i];
            spread[out][i] = (float)sqrt(0.5 * sd * sd + 0.5 * scale[i] * scale[i]);
        }
        out++;
    }
    free(assign);
    return out;
}

static void train(ts_profile *prof, const sample *s, int n, int modes)
{
    static float x[MAX_CARDS * F];
    for (int a = 0; a < TS_ATTR_COUNT; a++) {
        ts_attr_model *m = &prof->attr[a];
        int nf = m->nfeat;
        /* Pooled within-value standard deviation: the attribute's scale. */
        double sum[3][F] = {{0}}, sum2[3][F] = {{0}};
        int cnt[3] = {0};
        for (int j = 0; j < n; j++) {
            int v = ts_set_attr(s[j].idx, ATTR_CODE[a]);
            cnt[v]++;
            for (int i = 0; i < nf; i++) {
                sum[v][i] += s[j].feat[a][i];
                sum2[v][i] += (double)s[j].feat[a][i] * s[j].feat[a][i];
            }
        }
        for (int i = 0; i < nf; i++) {
            double pooled = 0;
            int tot = 0;
            for (int v = 0; v < 3; v++)
                if (cnt[v]) {
                    pooled += sum2[v][i] - sum[v][i] * sum[v][i] / cnt[v];
                    tot += cnt[v];
                }
            double sd = tot > 3 ? sqrt(pooled / (tot - 3)) : m->scale[i];
            m->scale[i] = (float)(sd > 0.005 ? sd : 0.005);
        }
        for (int v = 0; v < 3; v++) {
            int k = 0;
            for (int j = 0; j < n; j++)
                if (ts_set_attr(s[j].idx, ATTR_CODE[a]) == v)
                    memcpy(x + (k++) * F, s[j].feat[a], sizeof(float) * F);
            if (k == 0)
                continue; /* keep the base profile's prototypes */
            memset(m->spread[v], 0, sizeof m->spread[v]);
            m->nmodes[v] = fit_modes(x, k, nf, m->scale, modes, m->proto[v], m->spread[v]);
        }
    }
}

/* ---- Command ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: ts-train-profile BASE LABELS.tsv [--fold K/N] [--modes M] [--dump] > "
               "NEW.profile\n\n"
               "Rebuilds the prototypes of deck profile BASE (a name in models/ or a path)\n"
               "from labelled single-card images (LABELS.tsv: image<TAB>code) and prints the\n"
               "new profile. --fold K/N holds out the lines whose number is K mod N and\n"
               "reports the new profile's accuracy on them (--dump: one line per card);\n"
               "--modes M fits up to M prototypes per attribute value (default 2).\n");
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: ts-train-profile BASE LABELS.tsv [--fold K/N] [--modes M] "
                        "[--dump] > NEW.profile\n");
        return 2;
    }
    int fold_k = -1, fold_n = 0, modes = 2, dump = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--fold") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%d/%d", &fold_k, &fold_n) != 2 || fold_n < 2) {
                fprintf(stderr, "ts-train-profile: --fold takes K/N with N >= 2\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc) {
            modes = atoi(argv[++i]);
            if (modes < 1 || modes > TS_PROFILE_MAX_MODES) {
                fprintf(stderr, "ts-train-profile: --modes takes 1..%d\n", TS_PROFILE_MAX_MODES);
                return 2;
            }
        } else if (strcmp(argv[i], "--dump") == 0) {
            dump = 1;
        } else {
            fprintf(stderr, "ts-train-profile: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    char err[256];
    ts_profile prof;
    if (ts_profile_load(argv[1], NULL, &prof, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    char dir[1024] = "";
    const char *slash = strrchr(argv[2], '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - argv[2]), argv[2]);

    ts_set_reader *rd = ts_set_reader_create(&prof);
    static sample train_set[MAX_CARDS];
    static char held_path[MAX_CARDS][512];
    static int held_code[MAX_CARDS];
    int ntrain = 0, nheld = 0, lineno = 0;
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char *code = tab + 1;
        code[strcspn(code, " \r\n")] = '\0';
        int idx;
        if (ts_set_parse(&prof.letters, code, strlen(code), &idx) < 0) {
            fprintf(stderr, "%s:%d: bad code '%s'\n", argv[2], lineno, code);
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s%s", dir, line);
        if (fold_n > 0 && lineno % fold_n == fold_k) {
            if (nheld < MAX_CARDS) {
                snprintf(held_path[nheld], sizeof held_path[nheld], "%.511s", path);
                held_code[nheld++] = idx;
            }
            continue;
        }
        ts_set_reading r;
        if (ntrain == MAX_CARDS || read_card(rd, path, &r) < 0 || !r.is_card)
            continue;
        train_set[ntrain].idx = idx;
        memcpy(train_set[ntrain].feat, r.feat, sizeof r.feat);
        ntrain++;
    }
    fclose(f);
    ts_set_reader_destroy(rd);
    train(&prof, train_set, ntrain, modes);
    static char buf[16384];
    if (ts_profile_format(&prof, buf, sizeof buf) < 0) {
        fprintf(stderr, "ts-train-profile: profile too large to format\n");
        return 1;
    }
    fputs(buf, stdout);
    fprintf(stderr, "trained on %d cards\n", ntrain);

    if (nheld) { /* accuracy of the new profile on the held-out fold */
        rd = ts_set_reader_create(&prof);
        int ok = 0, unread = 0, wrong_read = 0, attr_ok[4] = {0};
        for (int h = 0; h < nheld; h++) {
            ts_set_reading r;
            if (read_card(rd, held_path[h], &r) < 0 || !r.is_card) {
                unread++;
                if (dump)
                    fprintf(stderr, "not a card: %s\n", held_path[h]);
                continue;
            }
            for (int a = 0; a < 4; a++)
                attr_ok[a] += r.value[a] == ts_set_attr(held_code[h], a);
            ok += r.idx == held_code[h];
            wrong_read += r.idx != held_code[h] && r.conf_all >= prof.conf_floor;
            if (dump) {
                char got[8], want[8];
                ts_set_format(&prof.letters, r.idx, got);
                ts_set_format(&prof.letters, held_code[h], want);
                fprintf(stderr, "%s %s as %s conf %.2f: %s\n", r.idx == held_code[h] ? "ok" : "wrong",
                        want, got, r.conf_all, held_path[h]);
            }
        }
        fprintf(stderr,
                "held out %d: correct %d (%.2f%%), not a card %d, wrong above the floor %d; "
                "count %.2f%% colour %.2f%% shape %.2f%% shading %.2f%%\n",
                nheld, ok, 100.0 * ok / nheld, unread, wrong_read, 100.0 * attr_ok[0] / nheld,
                100.0 * attr_ok[1] / nheld, 100.0 * attr_ok[2] / nheld, 100.0 * attr_ok[3] / nheld);
        ts_set_reader_destroy(rd);
    }
    return 0;
}
