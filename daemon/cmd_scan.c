/* tablesight scan: recognise the cards in image files, one JSON line each. */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cmd.h"
#include "imageio.h"
#include "result_json.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight scan [--game GAME] [--profile NAME] [--annotate DIR]\n"
            "                       [--max-pixels N] FILE...\n"
            "       tablesight scan [OPTIONS] - < photo.jpg\n"
            "\n"
            "Finds and reads every card in each image (JPEG or PNG) and prints one JSON\n"
            "object per image (ARCHITECTURE.md output contract): cards with code,\n"
            "confidence, read flag and corners, and every Set among the read cards.\n"
            "\n"
            "  --game GAME       the cards to read: set, playing (eleusis), gof, qwirkle,\n"
            "                    domino (sapngwu), or auto: told from the cards, per image\n"
            "                    (default: the profile's family, else set)\n"
            "  --profile NAME    deck profile: classic, seecards (set); tiles, cards\n"
            "                    (qwirkle); chinese, double-six (domino); or a SET profile path\n"
            "  --annotate DIR    also write DIR/<image>.annotated.jpg with outlines, codes,\n"
            "                    each Set (or play) numbered on its cards and listed in a\n"
            "                    legend, unread cards marked with why (inputs with the same\n"
            "                    name get <image>-2, -3, ...; stderr says so)\n"
            "  --max-pixels N    refuse images larger than N pixels (\"50M\" = 50 million),\n"
            "                    checked before decoding (default 250M); JPEGs above 24M\n"
            "                    pixels are decoded at 1/2, 1/4 or 1/8 size\n"
            "\n"
            "  -h, --help        this text\n"
            "      --version     the version\n"
            "\n"
            "Options may come before or after the files; '--' ends them. A FILE of '-' is\n"
            "an image read from standard input (its source in the JSON is \"-\", its\n"
            "annotated copy DIR/stdin.annotated.jpg).\n"
            "\n"
            "A file that cannot be read (not a regular file, truncated, not JPEG/PNG, too\n"
            "large) is reported on stderr with the reason and skipped; the exit status is\n"
            "1 if any file failed, 2 on a usage error. A greyscale photo is answered (no\n"
            "card can be read: SET, Qwirkle and Gang of Four need colour) with a line on\n"
            "stderr saying so.\n");
}

int cmd_scan(int argc, char **argv)
{
    ts_pipeline_config cfg = {0};
    const char *annotate = NULL;
    ts_decode_limits lim = {0};
    static const struct option OPTS[] = {
        {"game", required_argument, NULL, 'g'},
        {"profile", required_argument, NULL, 'p'},
        {"annotate", required_argument, NULL, 'a'},
        {"max-pixels", required_argument, NULL, 'm'},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("scan", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'g': cfg.game = optarg; break;
        case 'p': cfg.profile = optarg; break;
        case 'a': annotate = optarg; break;
        case 'm':
            if (batch_parse_pixels(optarg, &lim.max_pixels) < 0)
                return cmd_usage_error("scan", "--max-pixels takes a number of pixels (1 to "
                                               "4000M), not '%s'", optarg);
            break;
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        default: return 2;
        }
    }
    int first = optind;
    if (first >= argc)
        return cmd_usage_error("scan", "no image given (FILE..., or - for standard input)");
    int stdin_uses = 0;
    for (int i = first; i < argc; i++)
        stdin_uses += strcmp(argv[i], "-") == 0;
    if (stdin_uses > 1)
        return cmd_usage_error("scan", "standard input (-) can be read only once");
    char err[512];
    if (annotate && batch_mkdir(annotate, err, sizeof err) < 0) {
        fprintf(stderr, "tablesight scan: %s\n", err);
        return 2;
    }
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "tablesight scan: %s\n", err);
        return 2;
    }
    int failed = 0;
    ts_json j;
    ts_json_init(&j);
    batch_names names = {0};
    batch_progress prog;
    batch_progress_start(&prog, "scan", argc - first);
    for (int i = first; i < argc; i++) {
        ts_image img;
        ts_table t;
        int rc = batch_process_file(p, argv[i], &lim, &img, &t, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "tablesight scan: %s\n", err);
        if (rc < 0) {
            failed = 1;
            continue;
        }
        ts_json_reset(&j);
        ts_result_json(&j, &t, argv[i], 0, cmd_game_name(cfg.game, &t.frame));
        puts(j.buf.data ? j.buf.data : "{}");
        fflush(stdout);
        char out[4096];
        int renamed = 0;
        if (annotate && batch_annotate(&img, &t, annotate, argv[i], &names, &renamed, out,
                                       sizeof out, err, sizeof err) < 0) {
            fprintf(stderr, "tablesight scan: %s\n", err);
            failed = 1;
        } else if (renamed) {
            fprintf(stderr, "tablesight scan: %s: annotated as %s (another input has the same "
                            "name)\n", argv[i], out);
        }
        ts_image_free(&img);
        batch_progress_tick(&prog, i - first + 1);
    }
    batch_progress_end(&prog);
    batch_names_free(&names);
    ts_json_free(&j);
    ts_pipeline_destroy(p);
    return failed;
}
