/* `tablesight rules GAME ...`: one entry per game, each in its own file.
 * argv[0] is the game name; returns the exit code (0 ok, 1 rule answer "no"
 * where a command says so, 2 usage or malformed input). */
#ifndef TS_RULES_CLI_H
#define TS_RULES_CLI_H

#include "codes.h"
#include "json.h"
#include "json_writer.h"
#include "stats.h" /* ts_median */

int rules_cli_set(int argc, char **argv);     /* rules_cli_set.c */
int rules_cli_gof(int argc, char **argv);     /* rules_cli_gof.c */
int rules_cli_qwirkle(int argc, char **argv); /* rules_cli_qwirkle.c */
int rules_cli_eleusis(int argc, char **argv); /* rules_cli_eleusis.c */
int rules_cli_sapngwu(int argc, char **argv); /* rules_cli_sapngwu.c */
int rules_cli_table(int argc, char **argv);   /* rules_cli_table.c: any game, through rules/game.h */

/* Helpers the game commands share (cmd_rules.c). */
double rules_cli_now_us(void);              /* monotonic clock, microseconds */
const char *rules_cli_code(ts_family fam, int idx, char buf[TS_CODE_MAXLEN]);
/* Starts an answer's JSON in j (the caller emits it): the rules core writes
 * it through the returned writer (rules/answers.h). */
ts_writer rules_cli_json(ts_json *j);
/* Prints j's buffer as one line and frees j; 0 (with a message) if it ran out of memory. */
int rules_cli_emit_json(ts_json *j, const char *who);
/* --bench's optional run count, for the O_BENCH case of a getopt loop:
 * --bench=N or --bench N, else dflt; -1 (with a usage error naming cmd, e.g.
 * "rules gof") if N is not a positive whole number. */
int rules_cli_bench_runs(const char *cmd, int argc, char **argv, int dflt);
/* A bench's medians as one JSON line {"bench":name,"runs":runs,key:us,...}. */
typedef struct {
    const char *key;
    double us;
} rules_cli_time;
int rules_cli_bench_json(const char *who, const char *name, int runs, const rules_cli_time *t,
                         int n);

#endif
