/* Placeholder until this subcommand lands. */
#include <stdio.h>

#include "cmd.h"

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tablesight run: not available in this build yet\n");
    return 2;
}
