/* Placeholder until this subcommand lands. */
#include <stdio.h>

#include "cmd.h"

int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tablesight bench: not available in this build yet\n");
    return 2;
}
