/* ts-train-profile: rebuilds a SET deck profile's prototypes from labelled
 * single-card images (a crops label file: image<TAB>code).
 *
 *   ts-train-profile BASE.profile LABELS.tsv [--fold K/N] > NEW.profile
 *
 * Each prototype becomes the mean feature vector of its value; each feature's
 * scale the pooled within-value standard deviation. With --fold K/N, images
 * whose line number is K mod N are held out: they are not trained on, and the
 * new profile's accuracy on them is printed to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageio.h"
#include "profile.h"
#include "set_reader.h"

typedef struct {
    double sum[3][TS_PROFILE_MAX_FEAT], sum2[3][TS_PROFILE_MAX_FEAT];
    int n[3];
} stats;

static int read_card(ts_set_reader *rd, const char *path, ts_set_reading *out)
{
    char err[256];
    ts_image img;
    if (ts_image_load(path, &img, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (img.w > img.h) { /* readers take portrait cards */
        ts_image_apply_orientation(&img, 6);
    }
    int rc = ts_set_read(rd, &img, out, err);
    ts_image_free(&img);
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", path, err);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ts-train-profile BASE.profile LABELS.tsv [--fold K/N] > NEW.profile\n");
        return 2;
    }
    int fold_k = -1, fold_n = 0;
    if (argc >= 5 && strcmp(argv[3], "--fold") == 0 && sscanf(argv[4], "%d/%d", &fold_k, &fold_n) != 2)
        return 2;
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
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", argv[2]);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';

    ts_set_reader *rd = ts_set_reader_create(&prof);
    static const int attr_code[TS_ATTR_COUNT] = {TS_SET_COLOUR, TS_SET_SHAPE, TS_SET_SHADING};
    stats st[TS_ATTR_COUNT];
    memset(st, 0, sizeof st);
    char line[2048];
    int lineno = 0, held = 0;
    enum { MAXH = 20000 };
    static char held_path[MAXH][4096];
    static int held_code[MAXH];
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
            if (held < MAXH) {
                snprintf(held_path[held], sizeof held_path[held], "%s", path);
                held_code[held++] = idx;
            }
            continue;
        }
        ts_set_reading r;
        if (read_card(rd, path, &r) < 0 || !r.is_card)
            continue;
        for (int a = 0; a < TS_ATTR_COUNT; a++) {
            int v = ts_set_attr(idx, attr_code[a]);
            st[a].n[v]++;
            for (int i = 0; i < prof.attr[a].nfeat; i++) {
                st[a].sum[v][i] += r.feat[a][i];
                st[a].sum2[v][i] += (double)r.feat[a][i] * r.feat[a][i];
            }
        }
    }
    fclose(f);
    for (int a = 0; a < TS_ATTR_COUNT; a++) {
        ts_attr_model *m = &prof.attr[a];
        for (int i = 0; i < m->nfeat; i++) {
            double pooled = 0;
            int n = 0;
            for (int v = 0; v < 3; v++) {
                if (!st[a].n[v])
                    continue;
                double mean = st[a].sum[v][i] / st[a].n[v];
                double ss = st[a].sum2[v][i] - st[a].n[v] * mean * mean;
                m->proto[v][i] = (float)mean;
                if (st[a].n[v] > 1) {
                    double sd = sqrt(ss / (st[a].n[v] - 1));
                    m->spread[v][i] = (float)(sd > 0.005 ? sd : 0.005);
                }
                pooled += ss;
                n += st[a].n[v];
            }
            double sd = n > 1 ? sqrt(pooled / (n - 1)) : m->scale[i];
            m->scale[i] = (float)(sd > 0.005 ? sd : 0.005);
            /* A value's own spread, shrunk toward the pooled one: a tight
             * class learned from few odd samples should not be brittle. */
            for (int v = 0; v < 3; v++)
                if (m->spread[v][i] > 0)
                    m->spread[v][i] = (float)sqrt(0.5 * m->spread[v][i] * m->spread[v][i] +
                                                  0.5 * m->scale[i] * m->scale[i]);
        }
    }
    static char buf[8192];
    if (ts_profile_format(&prof, buf, sizeof buf) < 0)
        return 1;
    fputs(buf, stdout);

    if (held) { /* accuracy of the new profile on the held-out fold */
        ts_set_reader_destroy(rd);
        rd = ts_set_reader_create(&prof);
        int ok = 0, unread = 0, attr_ok[4] = {0}, wrong_conf = 0;
        for (int h = 0; h < held; h++) {
            ts_set_reading r;
            if (read_card(rd, held_path[h], &r) < 0 || !r.is_card) {
                unread++;
                fprintf(stderr, "not a card: %s\n", held_path[h]);
                continue;
            }
            for (int a = 0; a < 4; a++)
                attr_ok[a] += r.value[a] == ts_set_attr(held_code[h], a);
            fprintf(stderr, "conf %s %.3f\n", r.idx == held_code[h] ? "ok" : "bad", r.conf_all);
            if (r.idx == held_code[h])
                ok++;
            else {
                char got[8], want[8];
                ts_set_format(&prof.letters, r.idx, got);
                ts_set_format(&prof.letters, held_code[h], want);
                if (r.conf_all >= prof.conf_floor)
                    wrong_conf++;
                fprintf(stderr, "wrong %s as %s conf %.2f [%.3f %.3f | %.3f %.3f | %.3f %.3f]: %s\n",
                        want, got, r.conf_all, r.feat[0][0], r.feat[0][1], r.feat[1][0],
                        r.feat[1][1], r.feat[2][0], r.feat[2][1], held_path[h]);
            }
        }
        fprintf(stderr,
                "held out %d: correct %d (%.2f%%), not read %d, wrong above floor %d; "
                "count %.2f%% colour %.2f%% shape %.2f%% shading %.2f%%\n",
                held, ok, 100.0 * ok / held, unread, wrong_conf, 100.0 * attr_ok[0] / held,
                100.0 * attr_ok[1] / held, 100.0 * attr_ok[2] / held, 100.0 * attr_ok[3] / held);
    }
    ts_set_reader_destroy(rd);
    return 0;
}
