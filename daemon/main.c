/* tablesight: camera-based card recognition assistant. Dispatches to subcommands. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} COMMANDS[] = {
    {"run", cmd_run, "live capture with on-screen hints (camera, video file or sample clip)"},
    {"scan", cmd_scan, "recognise cards in image files, print JSON lines, annotate"},
    {"eval", cmd_eval, "accuracy of recognition against a label file (image<TAB>codes)"},
    {"bench", cmd_bench, "median per-stage timings over image files"},
    {"referee", cmd_referee, "judge every move at a live table; --replay a finished session"},
    {"rules", cmd_rules, "the rules core: Sets, legal plays, Eleusis judgement, ..."},
    {"render", cmd_render, "render synthetic card tables with exact ground truth"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: tablesight [--help | --version] COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(f, "  %-7s %s\n", COMMANDS[i].name, COMMANDS[i].what);
    fprintf(f, "\n'tablesight COMMAND --help' describes each command; 'man tablesight' and\n"
               "'man tablesight-COMMAND' when installed.\n");
}

int main(int argc, char **argv)
{
    /* Options before the command only ("+": stop at the first operand). */
    static const struct option OPTS[] = {CMD_COMMON_OPTIONS, {0}};
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "+:h", OPTS, NULL)) != -1;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c == CMD_OPT_VERSION)
            return cmd_version();
        return cmd_usage_error(NULL, "unknown option '%s'", argv[optind - 1]);
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[optind];
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(name, COMMANDS[i].name) == 0) {
            int sub_argc = argc - optind;
            char **sub_argv = argv + optind;
            optind = 0; /* the command parses its own options afresh */
            return COMMANDS[i].fn(sub_argc, sub_argv);
        }
    return cmd_usage_error(NULL, "unknown command '%s'", name);
}
