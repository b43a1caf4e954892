/* Small helpers shared by the subcommands. */
#include <string.h>

#include "cmd.h"

int cmd_is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

const char *cmd_game_name(const char *asked, const ts_frame_result *r)
{
    if (asked && strcmp(asked, "auto") != 0)
        return asked;
    return r->family >= 0 ? ts_family_name((ts_family)r->family) : "none";
}
