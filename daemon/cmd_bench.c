/* tablesight bench: median per-stage times over image files. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cv/cvwrap.h"
#include "cmd.h"
#include "imageio.h"
#include "json.h"
#include "stats.h"

enum { STAGES = 5 };
static const char *const STAGE_NAMES[STAGES] = {"decode", "detect", "classify", "rules",
                                                "detect+classify+rules"};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight bench [--repeat N] [--json] [--profile NAME] [FILE...]\n"
            "\n"
            "Runs decode and process_frame over the files (default: the bundled samples,\n"
            "samples/demo/*.jpg) N times each (default 5) on one core and prints the\n"
            "median time of each stage: decode, detect, classify, rules, and the\n"
            "per-frame total without decode.\n");
}

int cmd_bench(int argc, char **argv)
{
    int repeat = 5, json = 0, first = argc;
    ts_processor_config cfg = {0};
    for (int i = 1; i < argc; i++) {
        if (cmd_is_help(argv[i])) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            if (repeat < 1 || repeat > 10000) {
                fprintf(stderr, "tablesight bench: --repeat takes 1..10000\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
            cfg.profile = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "tablesight bench: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            first = i;
            break;
        }
    }
    glob_t g = {0};
    char **files = argv + first;
    int nfiles = argc - first;
    if (nfiles == 0) {
        if (glob(TS_SOURCE_DIR "/samples/demo/*.jpg", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
            fprintf(stderr, "tablesight bench: no files given and no bundled samples found\n");
            return 2;
        }
        files = g.gl_pathv;
        nfiles = (int)g.gl_pathc;
    }
    char err[512];
    tscv_set_threads(1); /* one core, as the figures are quoted */
    ts_processor *p = ts_processor_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "tablesight bench: %s\n", err);
        globfree(&g);
        return 2;
    }
    size_t cap = (size_t)nfiles * (size_t)repeat;
    double *t[STAGES];
    for (int s = 0; s < STAGES; s++)
        t[s] = calloc(cap, sizeof(double));
    int n = 0, failed = 0, cards = 0;
    batch_progress prog;
    batch_progress_start(&prog, "bench", nfiles);
    for (int f = 0; f < nfiles; f++) {
        for (int r = 0; r < repeat; r++) {
            ts_image img;
            ts_frame_result res = {0};
            if (batch_process_file(p, files[f], NULL, &img, &res, err, sizeof err) < 0) {
                fprintf(stderr, "tablesight bench: %s\n", err);
                failed = 1;
                break;
            }
            ts_image_free(&img);
            t[0][n] = res.ms_decode;
            t[1][n] = res.ms_detect;
            t[2][n] = res.ms_classify;
            t[3][n] = res.ms_rules;
            t[4][n] = res.ms_detect + res.ms_classify + res.ms_rules;
            if (r == 0)
                cards += res.ncards;
            n++;
        }
        batch_progress_tick(&prog, f + 1);
    }
    batch_progress_end(&prog);
    double med[STAGES] = {0};
    for (int s = 0; s < STAGES; s++)
        med[s] = ts_median(t[s], n);
    if (json) {
        ts_json j;
        ts_json_init(&j);
        ts_json_obj(&j);
        ts_json_key(&j, "files");
        ts_json_int(&j, nfiles);
        ts_json_key(&j, "runs");
        ts_json_int(&j, n);
        ts_json_key(&j, "cards");
        ts_json_int(&j, cards);
        ts_json_key(&j, "median_ms");
        ts_json_obj(&j);
        for (int s = 0; s < STAGES; s++) {
            ts_json_key(&j, STAGE_NAMES[s]);
            ts_json_num(&j, med[s], 3);
        }
        ts_json_end(&j);
        ts_json_end(&j);
        puts(j.buf.data);
        ts_json_free(&j);
    } else {
        printf("%d files x %d runs, %d cards found per pass (one core)\n", nfiles, repeat, cards);
        for (int s = 0; s < STAGES; s++)
            printf("  %-22s median %8.3f ms\n", STAGE_NAMES[s], med[s]);
    }
    for (int s = 0; s < STAGES; s++)
        free(t[s]);
    globfree(&g);
    ts_processor_destroy(p);
    return failed;
}
