/* `tablesight rules set`: every Set on a table, the hint ladder, and the
 * connection-grid variant of seed 000 (rules/set.h does the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "cmd.h"
#include "codes.h"
#include "rules_cli.h"
#include "set.h"

enum {
    MAX_CARDS = 162, /* a table; duplicates are reported, not refused */
    MAX_HAND = 24,
    MARGIN = 2, /* empty cells around a grid: the open table */
    MAX_GRID = TS_SET_GRID_MAX - 2 * MARGIN,
    MAX_SETS = 1080
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight rules set [--json] [--deck N] CODES...\n"
            "       tablesight rules set [--json] --hint N CODES...\n"
            "       tablesight rules set [--json] --grid ROWS --hand CODES [--one] [--apart]\n"
            "                            [--top N]\n"
            "\n"
            "Every Set among the cards on the table (positions count from 0), a warning\n"
            "when two cards are identical (one deck has none: a recognition conflict), and\n"
            "the table decision: take a Set, deal 3 more, or the round is over.\n"
            "CODES are classic SET codes: count 1-3, colour R G P, shape D O S (diamond,\n"
            "oval, squiggle), shading S T O (solid, striped, open), e.g. 2GST 1PDO; any\n"
            "number of arguments, each one or more codes separated by spaces or commas.\n"
            "\n"
            "options:\n"
            "  --deck N     cards left in the deck (default 81 minus the table)\n"
            "  --hint N     hint ladder: 1 = one card of a Set, 2 = two of its cards, 3 = the Set\n"
            "  --grid ROWS  connection variant (接配遊戲): the table as a grid, rows separated by\n"
            "               '/', cells by spaces, '.' for an empty cell, e.g.\n"
            "               '1RDS 2GOT 3PSO / . 1GDO .'. Moves place 1 or 2 hand cards on empty\n"
            "               cells, also just outside the grid (rows/columns -2..size+1); a\n"
            "               move scores 1 per Set of 3 consecutive cards in a row, column or\n"
            "               diagonal through a placed card. Every placed card must be in\n"
            "               such a Set, and two placed cards touch (see --apart)\n"
            "  --hand CODES with --grid: the cards in hand\n"
            "  --one        with --grid: place one card per move (default: one or two)\n"
            "  --apart      with --grid: two placed cards need not touch each other\n"
            "  --top N      with --grid: list the best N moves (default 10)\n"
            "  --json       one JSON object instead of text\n"
            "\n"
            "Exit status: 0 a Set (or a move) exists, 1 none, 2 usage error or bad code.\n");
}

static const char *code_text(int idx, char buf[TS_CODE_MAXLEN])
{
    return rules_cli_code(TS_FAM_SET, idx, buf);
}

static int print_json(ts_json *j)
{
    return rules_cli_emit_json(j, "tablesight rules set");
}

/* ---- Table: every Set ----------------------------------------------------------------- */

static int run_table(const int *cards, int n, int deck_left, int json)
{
    static int sets[MAX_SETS][3];
    int nsets = ts_set_find_all(cards, n, sets, MAX_SETS);
    int shown = nsets < MAX_SETS ? nsets : MAX_SETS;
    int di, dj, dup = ts_set_has_duplicates(cards, n, &di, &dj);
    ts_set_table_state st = ts_set_table_decision(cards, n, deck_left);
    char b[3][TS_CODE_MAXLEN];

    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_set_report_table(&w, cards, n, (const int(*)[3])sets, shown, nsets, st);
        if (!print_json(&j))
            return 2;
    } else {
        if (dup)
            printf("warning: cards %d and %d are both %s; one deck has no duplicates, so one "
                   "of them is misread\n",
                   di, dj, code_text(cards[di], b[0]));
        printf("%d cards, %d Set%s\n", n, nsets, nsets == 1 ? "" : "s");
        for (int s = 0; s < shown; s++)
            printf("  %s %s %s   (cards %d %d %d)\n", code_text(cards[sets[s][0]], b[0]),
                   code_text(cards[sets[s][1]], b[1]), code_text(cards[sets[s][2]], b[2]),
                   sets[s][0], sets[s][1], sets[s][2]);
        if (st == TS_SET_DEAL_THREE)
            printf("no Set: deal 3 more cards (asking for them with a Set on the table costs "
                   "a solo player 1 point)\n");
        else if (st == TS_SET_ROUND_OVER)
            printf("no Set and the deck is empty: the round is over\n");
    }
    return nsets > 0 ? 0 : 1;
}

static int run_hint(const int *cards, int n, int level, int json)
{
    int pos[3];
    int k = ts_set_hint(cards, n, level, pos);
    char b[TS_CODE_MAXLEN];
    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_set_report_hint(&w, cards, level, pos, k);
        if (!print_json(&j))
            return 2;
    } else if (k == 0) {
        printf("no Set on the table\n");
    } else {
        printf("hint %d:", level);
        for (int i = 0; i < k; i++)
            printf(" %s (card %d)", code_text(cards[pos[i]], b), pos[i]);
        printf("\n");
    }
    return k > 0 ? 0 : 1;
}

/* ---- Connection grid --------------------------------------------------------------------- */

/* Parses ROWS into g with a margin of empty cells; *rows, *cols get the size
 * as written. Returns 0, or -1 with a message in err. */
static int parse_grid(const char *text, ts_set_grid *g, int *rows, int *cols, char *err,
                      size_t errlen)
{
    ts_set_grid_clear(g, TS_SET_GRID_MAX, TS_SET_GRID_MAX);
    int r = 0, width = 0;
    for (const char *p = text;; r++) {
        const char *end = strchr(p, '/');
        if (!end)
            end = p + strlen(p);
        if (r >= MAX_GRID) {
            snprintf(err, errlen, "more than %d rows", MAX_GRID);
            return -1;
        }
        int c = 0;
        for (const char *q = p; q < end;) {
            while (q < end && (*q == ' ' || *q == ',' || *q == '\t'))
                q++;
            if (q == end)
                break;
            const char *tok = q;
            while (q < end && *q != ' ' && *q != ',' && *q != '\t')
                q++;
            if (c >= MAX_GRID) {
                snprintf(err, errlen, "row %d has more than %d cells", r, MAX_GRID);
                return -1;
            }
            int idx = TS_SET_EMPTY;
            if (!(q - tok == 1 && *tok == '.') &&
                ts_set_parse(NULL, tok, (size_t)(q - tok), &idx) < 0) {
                snprintf(err, errlen, "row %d: '%.*s' is not a set card code or '.'", r,
                         (int)(q - tok > 32 ? 32 : q - tok), tok);
                return -1;
            }
            g->cell[MARGIN + r][MARGIN + c++] = (signed char)idx;
        }
        if (c > width)
            width = c;
        if (!*end)
            break;
        p = end + 1;
    }
    *rows = r + 1;
    *cols = width;
    g->rows = *rows + 2 * MARGIN;
    g->cols = width + 2 * MARGIN;
    return 0;
}

static int run_grid(const char *grid_text, const int *hand, int nhand,
                    const ts_set_grid_rules *rules, int top, int json)
{
    static ts_set_grid g;
    char err[160], b[TS_CODE_MAXLEN];
    int rows, cols;
    if (parse_grid(grid_text, &g, &rows, &cols, err, sizeof err) < 0) {
        fprintf(stderr, "tablesight rules set: --grid: %s\n", err);
        return 2;
    }

    ts_set_grid_move *moves = calloc((size_t)(top > 0 ? top : 1), sizeof *moves);
    if (!moves) {
        fprintf(stderr, "tablesight rules set: out of memory\n");
        return 2;
    }
    int n = ts_set_grid_moves(&g, hand, nhand, rules, moves, top);
    int shown = n < top ? n : top;
    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_set_report_grid(&w, rows, cols, MARGIN, hand, nhand, moves, shown, n);
        if (!print_json(&j)) {
            free(moves);
            return 2;
        }
    } else if (n == 0) {
        printf("no move completes a Set: draw a card\n");
    } else {
        printf("grid %dx%d, %d cards in hand: %d move%s, best first\n", rows, cols, nhand, n,
               n == 1 ? "" : "s");
        for (int m = 0; m < shown; m++) {
            printf("  +%d  ", moves[m].score);
            for (int p = 0; p < moves[m].ncards; p++)
                printf("%s%s at row %d col %d", p ? ", " : "", code_text(hand[moves[m].hand[p]], b),
                       moves[m].row[p] - MARGIN, moves[m].col[p] - MARGIN);
            printf("\n");
        }
    }
    free(moves);
    return n > 0 ? 0 : 1;
}

/* ---- Arguments ------------------------------------------------------------------------------ */

/* Appends the codes of text to list[*n..max); prints the error and returns -1. */
static int add_codes(const char *what, const char *text, int *list, int *n, int max)
{
    char err[128];
    if (*n >= max) {
        fprintf(stderr, "tablesight rules set: %stoo many cards (at most %d)\n", what, max);
        return -1;
    }
    int got = ts_code_parse_indices(TS_FAM_SET, text, list + *n, max - *n, err, sizeof err);
    if (got < 0) {
        if (strstr(err, "too many cards"))
            snprintf(err, sizeof err, "too many cards (at most %d)", max);
        fprintf(stderr, "tablesight rules set: %s%s\n", what, err);
        return -1;
    }
    *n += got;
    return 0;
}

int rules_cli_set(int argc, char **argv)
{
    static int cards[MAX_CARDS];
    int hand[MAX_HAND];
    int n = 0, nhand = 0, json = 0, hint = 0, deck = -1, top = 10, have_hand = 0;
    const char *grid = NULL;
    ts_set_grid_rules rules = TS_SET_GRID_DEFAULTS;

    enum { O_JSON = CMD_OPT_LONG, O_ONE, O_APART, O_HINT, O_DECK, O_TOP, O_GRID, O_HAND };
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, O_JSON},
        {"one", no_argument, NULL, O_ONE},
        {"apart", no_argument, NULL, O_APART},
        {"hint", required_argument, NULL, O_HINT},
        {"deck", required_argument, NULL, O_DECK},
        {"top", required_argument, NULL, O_TOP},
        {"grid", required_argument, NULL, O_GRID},
        {"hand", required_argument, NULL, O_HAND},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("rules set", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        case O_JSON: json = 1; break;
        case O_ONE: rules.max_cards = 1; break;
        case O_APART: rules.pair_may_be_apart = 1; break;
        case O_HINT:
            if (cmd_whole_int("rules set", "--hint", optarg, 1, 3, &hint) < 0)
                return 2;
            break;
        case O_DECK:
            if (cmd_whole_int("rules set", "--deck", optarg, 0, 81, &deck) < 0)
                return 2;
            break;
        case O_TOP:
            if (cmd_whole_int("rules set", "--top", optarg, 0, 1000000, &top) < 0)
                return 2;
            break;
        case O_GRID: grid = optarg; break;
        case O_HAND:
            have_hand = 1;
            if (add_codes("--hand: ", optarg, hand, &nhand, MAX_HAND) < 0)
                return 2;
            break;
        default: return 2;
        }
    }
    for (int i = optind; i < argc; i++)
        if (add_codes("", argv[i], cards, &n, MAX_CARDS) < 0)
            return 2;

    if (grid) {
        if (!have_hand || n > 0) {
            fprintf(stderr, "tablesight rules set: --grid takes the table and --hand the "
                            "cards in hand (no other codes)\n");
            return 2;
        }
        return run_grid(grid, hand, nhand, &rules, top, json);
    }
    if (have_hand) {
        fprintf(stderr, "tablesight rules set: --hand goes with --grid\n");
        return 2;
    }
    if (n == 0) {
        usage(stderr);
        return 2;
    }
    if (hint > 0)
        return run_hint(cards, n, hint, json);
    return run_table(cards, n, deck >= 0 ? deck : (n < 81 ? 81 - n : 0), json);
}
