/* `tablesight rules table GAME`: a table state given as card codes per zone,
 * answered by the game interface (rules/game.h) — the same code the live
 * overlay, the referee and `scan` ask — as one JSON object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game.h"
#include "rules_cli.h"

#define PROG "tablesight rules table"

enum { CW = 60, CH = 90, GAP = 70, GROUP_GAP = 200, W = 4000, H = 1000 };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " GAME [--table CODES] [--hand CODES] [--trick CODES]\n"
            "                          [--mainline CODES] [--sideline CODES] [--hint N]\n"
            "                          [--first-lead]\n"
            "\n"
            "What GAME (set, setgrid, gof, qwirkle, qwtiles, eleusis, sapngwu) makes of a\n"
            "table: the JSON the live daemon and `scan` report for it (hints with card\n"
            "indices in the order given, count, headline; \"shown\": the cards the SET hint\n"
            "ladder shows).\n"
            "Cards of a zone lie in a row; ';' starts a new group (Qwirkle groups) or, for\n"
            "setgrid, a new grid row. Exit status: 0 answered, 2 usage or a bad code.\n");
}

typedef struct {
    int n;
    ts_card cards[TS_MAX_CARDS];
    int zone[TS_MAX_CARDS];
} table_text;

static int add_zone(table_text *t, const ts_game *g, int zone, const char *text, float y)
{
    float x = 100;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, " ,;\t");
        if (len == 0) {
            if (*p == ';') {
                if (g == &TS_GAME_SETGRID)
                    x = 100, y += CH + 10; /* the next grid row */
                else
                    x += GROUP_GAP;
            }
            p++;
            continue;
        }
        if (t->n == TS_MAX_CARDS) {
            fprintf(stderr, PROG ": more than %d cards\n", TS_MAX_CARDS);
            return -1;
        }
        ts_card *c = &t->cards[t->n];
        memset(c, 0, sizeof *c);
        if (ts_code_parse(g->family, p, len, &c->code) < 0) {
            fprintf(stderr, PROG ": '%.*s' is not a %s card code\n", (int)(len > 16 ? 16 : len), p,
                    ts_family_name(g->family));
            return -1;
        }
        ts_code_format(c->code, c->text);
        c->conf = 1;
        c->read = 1;
        c->quad[0] = (ts_pt){x, y};
        c->quad[1] = (ts_pt){x + CW, y};
        c->quad[2] = (ts_pt){x + CW, y + CH};
        c->quad[3] = (ts_pt){x, y + CH};
        t->zone[t->n++] = zone;
        x += g == &TS_GAME_SETGRID ? CW + 10 : GAP;
        p += len;
    }
    return 0;
}

int rules_cli_table(int argc, char **argv)
{
    if (argc < 2 || cmd_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const ts_game *g = ts_game_find(argv[1]);
    if (!g) {
        fprintf(stderr, PROG ": unknown game '%s'\n", argv[1]);
        return 2;
    }
    static table_text t;
    ts_game_opts opts = TS_GAME_OPTS_DEFAULT;
    static const struct {
        const char *opt;
        int zone;
    } ZONES[] = {{"--table", TS_ZONE_TABLE},       {"--hand", TS_ZONE_HAND},
                 {"--trick", TS_ZONE_TRICK},       {"--mainline", TS_ZONE_MAINLINE},
                 {"--sideline", TS_ZONE_SIDELINE}};
    for (int i = 2; i < argc; i++) {
        int done = 0;
        for (size_t z = 0; z < sizeof ZONES / sizeof ZONES[0] && !done; z++)
            if (strcmp(argv[i], ZONES[z].opt) == 0 && i + 1 < argc) {
                if (add_zone(&t, g, ZONES[z].zone, argv[++i], 100.0f + 200.0f * (float)z) < 0)
                    return 2;
                done = 1;
            }
        if (done)
            continue;
        if (strcmp(argv[i], "--hint") == 0 && i + 1 < argc) {
            if (cmd_whole_int("rules table", "--hint", argv[++i], 0, 3, &opts.hint_level) < 0)
                return 2;
        } else if (strcmp(argv[i], "--first-lead") == 0) {
            opts.first_lead = 1;
        } else if (cmd_is_help(argv[i])) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, PROG ": unknown argument or missing value: %s\n", argv[i]);
            return 2;
        }
    }
    ts_game_state s = {t.cards, t.n, t.zone, W, H};
    static ts_game_view v;
    ts_game_analyse(g, &s, &opts, &v);
    ts_json j;
    ts_writer w = rules_cli_json(&j);
    tw_obj(&w);
    tw_key(&w, "game");
    tw_str(&w, g->name);
    tw_key(&w, "cards");
    tw_arr(&w);
    for (int i = 0; i < t.n; i++) {
        tw_obj(&w);
        tw_key(&w, "code");
        tw_str(&w, t.cards[i].text);
        tw_key(&w, "zone");
        tw_str(&w, ts_zone_name(t.zone[i]));
        tw_end(&w);
    }
    tw_end(&w);
    ts_game_report(g, &v, &w);
    tw_end(&w);
    return rules_cli_emit_json(&j, PROG) ? 0 : 2;
}
