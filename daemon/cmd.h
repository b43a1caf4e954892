/* The tablesight subcommands. Each takes the arguments after its own name
 * (argv[0] is the subcommand name) and returns the process exit code. */
#ifndef TS_CMD_H
#define TS_CMD_H

#include "pipeline.h"

int cmd_scan(int argc, char **argv);   /* cmd_scan.c   */
int cmd_eval(int argc, char **argv);   /* cmd_eval.c   */
int cmd_bench(int argc, char **argv);  /* cmd_bench.c  */
int cmd_rules(int argc, char **argv);  /* cmd_rules.c  */
int cmd_render(int argc, char **argv); /* cmd_render.c */
int cmd_run(int argc, char **argv);    /* cmd_run.c    */
int cmd_referee(int argc, char **argv); /* cmd_referee.c */

/* True if s is "-h" or "--help". */
int cmd_is_help(const char *s);

/* The game name a result is reported under: the one asked for, or with
 * "auto" (or none) the family the cards were read as. */
const char *cmd_game_name(const char *asked, const ts_frame_result *r);

#endif
