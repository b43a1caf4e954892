/* Small helpers shared by the subcommands. */
#include <string.h>

#include "cmd.h"

int cmd_is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}
