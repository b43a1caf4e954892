/* Placeholder until this game's command lands. */
#include <stdio.h>

#include "rules_cli.h"

int rules_cli_qwirkle(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tablesight rules qwirkle: not available in this build yet\n");
    return 2;
}
