/* The tablesight subcommands. Each takes the arguments after its own name
 * (argv[0] is the subcommand name) and returns the process exit code:
 * 0 ok, 1 some input or output failed, 2 a usage error. */
#ifndef TS_CMD_H
#define TS_CMD_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

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

/* ---- Options (getopt_long) ----------------------------------------------
 *
 * Every command takes GNU-style options: "--opt value" or "--opt=value",
 * options before or after the operands, "--" ending the options, "-" as an
 * operand (standard input where a file is read), and a unique prefix of a
 * long name. Each command's table ends with CMD_COMMON_OPTIONS and a zero
 * entry:
 *
 *     static const struct option OPTS[] = {
 *         {"json", no_argument, NULL, 'j'},
 *         CMD_COMMON_OPTIONS, {0}};
 *     for (int c; (c = cmd_getopt("scan", argc, argv, OPTS)) != -1;)
 *         switch (c) { case 'h': ...; case CMD_OPT_VERSION: ...; case '?': return 2; }
 *     operands: argv[optind .. argc-1]
 *
 * main() resets getopt (optind = 0) before it calls a command.
 */
enum {
    CMD_OPT_VERSION = 0x100, /* --version */
    CMD_OPT_LONG = 0x101,    /* first value free for a command's long-only options */
};

#define CMD_COMMON_OPTIONS                                                                      \
    {"help", no_argument, NULL, 'h'}, { "version", no_argument, NULL, CMD_OPT_VERSION }

/* The next option of argv, as getopt_long returns it (its value in
 * optarg), or -1 when none is left. A usage error (unknown option, missing
 * or unexpected value) is printed as one line, "tablesight CMD: unknown
 * option '--x' (see --help)", and returned as '?'. */
int cmd_getopt(const char *cmd, int argc, char **argv, const struct option *opts);

/* Prints "tablesight VERSION" on stdout (for --version); returns 0. */
int cmd_version(void);

/* Prints "tablesight CMD: MESSAGE (see --help)" on stderr; returns 2, the
 * usage-error exit status. */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Option opt's value v as a whole number in lo..hi, in *out. Otherwise
 * prints "tablesight CMD: OPT takes a whole number LO..HI, not 'V' (see
 * --help)" and returns -1 (*out unchanged). */
int cmd_whole(const char *cmd, const char *opt, const char *v, long long lo, long long hi,
              long long *out);
/* The same for an int. */
int cmd_whole_int(const char *cmd, const char *opt, const char *v, int lo, int hi, int *out);

/* A table of subcommands (the program's commands, the rules' games). */
typedef struct {
    const char *name;
    int (*fn)(int, char **); /* gets argv from its own name on, getopt reset */
    const char *what;        /* one line for the usage text */
} cmd_entry;

/* Takes --help and --version before the subcommand's name (cmd: NULL for the
 * program itself, else "rules"), then runs the named entry of t[0..n).
 * usage(f) prints the whole help. Returns the entry's status, 0 for --help
 * and --version, 2 for a usage error (one line). */
int cmd_dispatch(const char *cmd, const cmd_entry *t, size_t n, int argc, char **argv,
                 void (*usage)(FILE *));

/* Reads all of standard input (at most max bytes). *data is malloc'd and
 * NUL-terminated; caller frees. Returns 0, or -1 with a one-line reason. */
int cmd_read_stdin(size_t max, uint8_t **data, size_t *len, char *err, size_t errlen);

/* The game name a result is reported under: the one asked for, or with
 * "auto" (or none) the family the cards were read as. */
const char *cmd_game_name(const char *asked, const ts_frame_result *r);

#endif
