/* Placeholder until this game's command lands. */
#include <stdio.h>

#include "rules_cli.h"

int rules_cli_sapngwu(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tablesight rules sapngwu: not available in this build yet\n");
    return 2;
}
