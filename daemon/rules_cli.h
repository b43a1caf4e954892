/* `tablesight rules GAME ...`: one entry per game, each in its own file.
 * argv[0] is the game name; returns the exit code (0 ok, 1 rule answer "no"
 * where a command says so, 2 usage or malformed input). */
#ifndef TS_RULES_CLI_H
#define TS_RULES_CLI_H

int rules_cli_set(int argc, char **argv);     /* rules_cli_set.c */
int rules_cli_gof(int argc, char **argv);     /* rules_cli_gof.c */
int rules_cli_qwirkle(int argc, char **argv); /* rules_cli_qwirkle.c */
int rules_cli_eleusis(int argc, char **argv); /* rules_cli_eleusis.c */
int rules_cli_sapngwu(int argc, char **argv); /* rules_cli_sapngwu.c */

#endif
