/* `tablesight referee`: the live daemon judging moves (run --referee), and
 * --replay LOGDIR: a finished session's verdicts and evidence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "referee_log.h"

static const char USAGE[] =
    "usage: tablesight referee [RUN OPTIONS]        judge the moves at a live table\n"
    "       tablesight referee --replay LOGDIR      a finished session\n"
    "\n"
    "A move is a stable change between two settled tables, so a hand passing over\n"
    "the table is no move. Each verdict (time, game, zone, cards, verdict, reason)\n"
    "is a JSON line in LOGDIR/verdicts.jsonl (and on --json/--socket), with a\n"
    "before/after JPEG pair; it shows in large text near the move for a few seconds.\n"
    "A move that cannot be judged (an unread card, too many changes at once) says\n"
    "\"cannot judge\" and why. Every option of `tablesight run` applies (--game,\n"
    "--source, --zones, --rule FILE for the Eleusis dealer, --log DIR, ...).\n"
    "\n"
    "Exit status: as `run`; --replay: 0, 1 when the log has no verdict, 2 when it\n"
    "cannot be read.\n";

int cmd_referee(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cmd_is_help(argv[i])) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--replay") == 0) {
            if (i + 1 >= argc || argc != 3) {
                fprintf(stderr, "tablesight referee: --replay takes the log directory alone\n");
                return 2;
            }
            char err[512];
            int n = ts_referee_replay(argv[i + 1], stdout, err, sizeof err);
            if (n < 0) {
                fprintf(stderr, "tablesight referee: %s\n", err);
                return 2;
            }
            return n > 0 ? 0 : 1;
        }
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        fprintf(stderr, "tablesight referee: out of memory\n");
        return 1;
    }
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    args[argc] = "--referee";
    int rc = cmd_run(argc + 1, args);
    free(args);
    return rc;
}
