/* tablesight: camera-based card recognition assistant. Dispatches to subcommands. */
#include <stdio.h>

#include "cmd.h"

static const cmd_entry COMMANDS[] = {
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
    return cmd_dispatch(NULL, COMMANDS, sizeof COMMANDS / sizeof COMMANDS[0], argc, argv, usage);
}
