/* tablesight bench: median per-stage times over image files. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cv/cvwrap.h"
#include "cmd.h"
#include "datadir.h"
#include "imageio.h"
#include "json.h"
#include "stats.h"

enum { STAGES = 6 };
static const char *const STAGE_NAMES[STAGES] = {"decode", "detect", "rectify", "read", "rules",
                                                "detect+rectify+read+rules"};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight bench [--repeat N] [--json] [--game GAME] [--profile NAME]\n"
            "                        [FILE...]\n"
            "\n"
            "Runs decode and the pipeline over the files (default: the bundled samples,\n"
            "samples/demo/*.jpg) N times each (default 5) on one core and prints the\n"
            "median time of each stage: decode, detect, rectify, read (with --game auto,\n"
            "each family's reader too), rules, and the per-frame total without decode.\n"
            "--game and --profile are those of scan. Options may follow the files.\n"
            "\n"
            "  --json          one JSON object instead of text\n"
            "  -h, --help      this text\n"
            "      --version   the version\n");
}

int cmd_bench(int argc, char **argv)
{
    int repeat = 5, json = 0, first = argc;
    ts_pipeline_config cfg = {0};
    static const struct option OPTS[] = {
        {"repeat", required_argument, NULL, 'r'},
        {"json", no_argument, NULL, 'j'},
        {"profile", required_argument, NULL, 'p'},
        {"game", required_argument, NULL, 'g'},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("bench", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'r':
            if (cmd_whole_int("bench", "--repeat", optarg, 1, 10000, &repeat) < 0)
                return 2;
            break;
        case 'j': json = 1; break;
        case 'p': cfg.profile = optarg; break;
        case 'g': cfg.game = optarg; break;
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        default: return 2;
        }
    }
    first = optind;
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], "-") == 0)
            return cmd_usage_error("bench", "reads each file --repeat times: no standard input");
    glob_t g = {0};
    char **files = argv + first;
    int nfiles = argc - first;
    if (nfiles == 0) {
        char demo[4096], pattern[4200];
        ts_data_path("samples/demo", demo, sizeof demo);
        snprintf(pattern, sizeof pattern, "%s/*.jpg", demo);
        if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
            fprintf(stderr, "tablesight bench: no files given and no bundled samples in %s\n",
                    demo);
            return 2;
        }
        files = g.gl_pathv;
        nfiles = (int)g.gl_pathc;
    }
    char err[512];
    tscv_set_threads(1); /* one core, as the figures are quoted */
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "tablesight bench: %s\n", err);
        globfree(&g);
        return 2;
    }
    size_t cap = (size_t)nfiles * (size_t)repeat;
    double *t[STAGES];
    double *by[TS_FAM_COUNT];
    for (int s = 0; s < STAGES; s++)
        t[s] = calloc(cap, sizeof(double));
    for (int f = 0; f < TS_FAM_COUNT; f++)
        by[f] = calloc(cap, sizeof(double));
    int n = 0, failed = 0, cards = 0;
    batch_progress prog;
    batch_progress_start(&prog, "bench", nfiles);
    for (int f = 0; f < nfiles; f++) {
        for (int r = 0; r < repeat; r++) {
            ts_image img;
            ts_table tab;
            if (batch_process_file(p, files[f], NULL, &img, &tab, err, sizeof err) < 0) {
                fprintf(stderr, "tablesight bench: %s\n", err);
                failed = 1;
                break;
            }
            ts_image_free(&img);
            const ts_frame_result *res = &tab.frame;
            t[0][n] = res->ms_decode;
            t[1][n] = res->ms_detect;
            t[2][n] = res->ms_rectify;
            t[3][n] = res->ms_read;
            t[4][n] = tab.ms_rules;
            t[5][n] = res->ms_total + tab.ms_rules;
            for (int k = 0; k < TS_FAM_COUNT; k++)
                by[k][n] = res->ms_read_by[k];
            if (r == 0)
                cards += res->ncards;
            n++;
        }
        batch_progress_tick(&prog, f + 1);
    }
    batch_progress_end(&prog);
    double med[STAGES] = {0};
    for (int s = 0; s < STAGES; s++)
        med[s] = ts_median(t[s], n);
    /* Each family's reader alone, when more than one ran (--game auto). */
    double med_by[TS_FAM_COUNT] = {0};
    int ran = 0;
    for (int k = 0; k < TS_FAM_COUNT; k++) {
        med_by[k] = ts_median(by[k], n);
        ran += ts_pipeline_family(p) < 0;
    }
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
        for (int k = 0; k < TS_FAM_COUNT && ran; k++) {
            char key[32];
            snprintf(key, sizeof key, "read_%s", ts_family_name((ts_family)k));
            ts_json_key(&j, key);
            ts_json_num(&j, med_by[k], 3);
        }
        ts_json_end(&j);
        ts_json_end(&j);
        puts(j.buf.data);
        ts_json_free(&j);
    } else {
        printf("%d files x %d runs, %d cards found per pass (one core)\n", nfiles, repeat, cards);
        for (int s = 0; s < STAGES; s++)
            printf("  %-26s median %8.3f ms\n", STAGE_NAMES[s], med[s]);
        for (int k = 0; k < TS_FAM_COUNT && ran; k++)
            printf("    read %-21s median %8.3f ms\n", ts_family_name((ts_family)k), med_by[k]);
    }
    for (int s = 0; s < STAGES; s++)
        free(t[s]);
    for (int k = 0; k < TS_FAM_COUNT; k++)
        free(by[k]);
    globfree(&g);
    ts_pipeline_destroy(p);
    return failed;
}
