/* tablesight: camera-based card recognition assistant. Dispatches to subcommands. */
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
    fprintf(f, "usage: tablesight COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(f, "  %-7s %s\n", COMMANDS[i].name, COMMANDS[i].what);
    fprintf(f, "\n'tablesight COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || cmd_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            return COMMANDS[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "tablesight: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
