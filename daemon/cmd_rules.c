/* `tablesight rules GAME ...`: dispatches to one file per game (rules_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "codes.h"
#include "json.h"
#include "clock.h"
#include "rules_cli.h"

static const cmd_entry GAMES[] = {
    {"set", rules_cli_set, "SET: every Set on a table, hints, the connection-grid variant"},
    {"gof", rules_cli_gof, "Gang of Four: legal plays from a hand against the trick"},
    {"qwirkle", rules_cli_qwirkle, "Qwirkle Cards: table groups, plays, rearrangements"},
    {"eleusis", rules_cli_eleusis, "Eleusis: judge cards against a secret rule"},
    {"sapngwu", rules_cli_sapngwu, "Sap Ng Wu (Chinese dominoes): plays and wu"},
    {"table", rules_cli_table, "any game: a table state by zone, as the live daemon sees it"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: tablesight rules GAME [OPTIONS]\n\ngames:\n");
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        fprintf(f, "  %-8s %s\n", GAMES[i].name, GAMES[i].what);
    fprintf(f, "\n'tablesight rules GAME --help' describes each game's options.\n"
               "Exit status: 0 an answer, 1 the answer is 'none' (no Set, pass, no play),\n"
               "2 usage error or a malformed card code.\n");
}

int cmd_rules(int argc, char **argv)
{
    return cmd_dispatch("rules", GAMES, sizeof GAMES / sizeof GAMES[0], argc, argv, usage);
}

/* ---- Helpers shared by the game commands (declared in rules_cli.h) ---------------------- */


double rules_cli_now_us(void)
{
    return ts_now() * 1e6;
}

const char *rules_cli_code(ts_family fam, int idx, char buf[TS_CODE_MAXLEN])
{
    ts_code c = {(uint8_t)fam, (uint8_t)idx};
    ts_code_format(c, buf);
    return buf;
}

ts_writer rules_cli_json(ts_json *j)
{
    ts_json_init(j);
    return ts_json_writer(j);
}

int rules_cli_emit_json(ts_json *j, const char *who)
{
    int ok = !j->buf.failed;
    if (ok)
        printf("%s\n", j->buf.data);
    else
        fprintf(stderr, "%s: out of memory\n", who);
    ts_json_free(j);
    return ok;
}

int rules_cli_bench_runs(const char *cmd, int argc, char **argv, int dflt)
{
    if (!optarg && !(optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9'))
        return dflt; /* an optional number of runs: --bench=N, or --bench N as before */
    int runs;
    const char *v = optarg ? optarg : argv[optind++];
    return cmd_whole_int(cmd, "--bench", v, 1, 100000000, &runs) < 0 ? -1 : runs;
}

int rules_cli_bench_json(const char *who, const char *name, int runs, const rules_cli_time *t,
                         int n)
{
    ts_json j;
    ts_json_init(&j);
    ts_json_obj(&j);
    ts_json_key(&j, "bench");
    ts_json_str(&j, name);
    ts_json_key(&j, "runs");
    ts_json_int(&j, runs);
    for (int i = 0; i < n; i++) {
        ts_json_key(&j, t[i].key);
        ts_json_num(&j, t[i].us, 1);
    }
    ts_json_end(&j);
    return rules_cli_emit_json(&j, who) ? 0 : 2;
}
