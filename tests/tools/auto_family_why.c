/* Why `--game auto` chose what it did: for each image, every family
 * reading's cards (sure / unsure), its score and the face net's mean
 * P(its family), the chosen one marked.
 *
 *   auto_family_why IMAGE...
 */
#include <stdio.h>

#include "imageio.h"
#include "pipeline.h"

int main(int argc, char **argv)
{
    char err[512];
    ts_pipeline_config cfg = {.game = "auto"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "auto_family_why: %s\n", err);
        return 1;
    }
    int rc = 0;
    for (int a = 1; a < argc; a++) {
        ts_image img = {0};
        ts_frame_result out = {0};
        if (ts_image_load(argv[a], &img, err, sizeof err) < 0 ||
            ts_pipeline_process(p, &img, &out, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", argv[a], err);
            ts_image_free(&img);
            rc = 1;
            continue;
        }
        printf("%s: %s\n", argv[a], out.family >= 0 ? ts_family_name(out.family) : "none");
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
        ts_image_free(&img);
    }
    ts_pipeline_destroy(p);
    return rc;
}
