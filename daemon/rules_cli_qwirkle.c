/* `tablesight rules qwirkle`: check the table groups and list the plays a hand
 * allows, rearrangements included; plus a benchmark (rules/qwirkle.h does the
 * rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "cmd.h"
#include "codes.h"
#include "qwirkle.h"
#include "rules_cli.h"

enum { MAX_PLAYS = 512, BENCH_RUNS = 300, BENCH_TABLE = 30, BENCH_HAND = 9 };

static const char WHO[] = "tablesight rules qwirkle";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight rules qwirkle [--json] --table 'GROUP;GROUP;...' [--hand CODES]\n"
            "                                [--one-line] [--top N]\n"
            "       tablesight rules qwirkle [--json] --bench [RUNS]\n"
            "\n"
            "Checks every table group (3-6 cards, one colour with all shapes different or\n"
            "one shape with all colours different; 6 cards = a Qwirkle) and, with --hand,\n"
            "lists the plays best first: Qwirkles, then more cards. Kinds: new group,\n"
            "extend group N, rearrange (cards that need table cards moved, or a Qwirkle only\n"
            "a rearrangement completes) and most cards (the most one turn can lay). Every\n"
            "play leaves only valid groups; rearrangements show the whole table after.\n"
            "CODES: colour R O Y G B P + shape C (circle) X (criss-cross) D (diamond)\n"
            "S (square) T (starburst) L (clover), e.g. BX RL; groups are separated by ';'.\n"
            "Groups are numbered from 1 in text, from 0 in JSON.\n"
            "\n"
            "options:\n"
            "  --table TEXT   the groups on the table\n"
            "  --hand CODES   the cards in hand\n"
            "  --one-line     house rule: all cards laid in one turn share a colour or shape\n"
            "  --top N        list at most N plays (default all)\n"
            "  --bench [RUNS] median microseconds of the rearrangement search and of the\n"
            "                 whole play list for random %d-card tables and %d-card hands\n"
            "                 (default %d runs)\n"
            "  --json         one JSON object instead of text\n"
            "\n"
            "Exit status: 0 a play exists (without --hand: the table is valid), 1 none (the\n"
            "table is invalid), 2 usage error, bad code or more copies than the deck has.\n",
            BENCH_TABLE, BENCH_HAND, BENCH_RUNS);
}

/* ---- Text and JSON pieces -------------------------------------------------------------------- */

static const char *code_text(int idx, char buf[TS_CODE_MAXLEN])
{
    return rules_cli_code(TS_FAM_QWIRKLE, idx, buf);
}

static void print_cards(const uint8_t *cards, int n)
{
    char b[TS_CODE_MAXLEN];
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? " " : "", code_text(cards[i], b));
}

static void print_play(const ts_qw_play *p)
{
    printf("  %s", p->qwirkles ? "QWIRKLE " : "");
    switch (p->kind) {
    case TS_QW_NEW_GROUP:
        printf("new group (%s): ", ts_qw_line_name(p->line));
        break;
    case TS_QW_EXTEND:
        printf("extend group %d (%s): ", p->group + 1, ts_qw_line_name(p->line));
        break;
    case TS_QW_REARRANGE:
        printf("rearrange: lay ");
        break;
    case TS_QW_MOST_CARDS:
        printf("most cards (%d), rearranging: lay ", p->nplayed);
        break;
    }
    print_cards(p->played, p->nplayed);
    if (p->kind >= TS_QW_REARRANGE) {
        printf(" ->");
        for (int g = 0; g < p->after.n; g++) {
            printf(" [");
            print_cards(p->after.g[g].cards, p->after.g[g].n);
            printf("]");
        }
    }
    printf("\n");
}

/* ---- Table and plays ---------------------------------------------------------------------------
 */

static int run(const ts_qw_table *t, const int *hand, int nhand, int with_hand,
               const ts_qw_rules *rules, int top, int json)
{
    static ts_qw_play plays[MAX_PLAYS];
    int bad;
    int valid = ts_qw_check_table(t, &bad) == TS_QW_OK;
    int count = with_hand ? ts_qw_plays(t, hand, nhand, rules, plays, MAX_PLAYS) : 0;
    int shown = count < MAX_PLAYS ? count : MAX_PLAYS;
    if (top >= 0 && top < shown)
        shown = top;

    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_qw_report_answer(&w, t, with_hand ? plays : NULL, shown, count);
        if (!rules_cli_emit_json(&j, WHO))
            return 2;
    } else {
        printf("table: %d group%s\n", t->n, t->n == 1 ? "" : "s");
        for (int g = 0; g < t->n; g++) {
            ts_qw_error e = ts_qw_check_group(&t->g[g]);
            printf("  %d: ", g + 1);
            print_cards(t->g[g].cards, t->g[g].n);
            if (e != TS_QW_OK)
                printf("   error: %s\n", ts_qw_error_text(e));
            else
                printf("   %s%s\n", ts_qw_line_name(ts_qw_group_line(&t->g[g])),
                       t->g[g].n == TS_QW_QWIRKLE ? ", a Qwirkle: it leaves the table" : "");
        }
        if (!valid)
            printf("the table is not valid: group %d\n", bad + 1);
        if (with_hand) {
            if (count == 0)
                printf("no play from this hand\n");
            else
                printf("%d play%s, best first:\n", count, count == 1 ? "" : "s");
            for (int i = 0; i < shown; i++)
                print_play(&plays[i]);
        }
    }
    return with_hand ? (count > 0 ? 0 : 1) : (valid ? 0 : 1);
}

/* ---- Benchmark
 * ------------------------------------------------------------------------------------ */

static uint64_t bench_rng = 0x2545F4914F6CDD1Dull;
static int bench_rand(int n)
{
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return (int)(bench_rng % (uint64_t)n);
}

/* A random valid table of `cards` cards (groups of 3-5 in random lines) and a
 * random hand from the rest of the deck. */
static void random_game(ts_qw_table *t, int cards, int *hand, int nhand)
{
    int deck[TS_QW_NKINDS];
    for (int k = 0; k < TS_QW_NKINDS; k++)
        deck[k] = TS_QW_COPIES;
    t->n = 0;
    for (int total = 0; total < cards;) {
        int line = bench_rand(TS_QW_NLINES), size = 3 + bench_rand(3), left = cards - total;
        if (size > left || left - size < 3)
            size = left <= 5 ? left : 3; /* finish exactly on `cards` */
        int order[6];
        for (int j = 0; j < 6; j++)
            order[j] = j;
        for (int j = 5; j > 0; j--) {
            int r = bench_rand(j + 1), x = order[j];
            order[j] = order[r];
            order[r] = x;
        }
        ts_qw_group g = {0, {0}};
        for (int j = 0; j < size; j++) {
            int k = line < 6 ? line * 6 + order[j] : order[j] * 6 + line - 6;
            if (deck[k] == 0)
                break;
            g.cards[g.n++] = (uint8_t)k;
        }
        if (g.n < size)
            continue;
        for (int j = 0; j < g.n; j++)
            deck[g.cards[j]]--;
        t->g[t->n++] = g;
        total += g.n;
    }
    for (int i = 0; i < nhand;) {
        int k = bench_rand(TS_QW_NKINDS);
        if (deck[k] > 0) {
            deck[k]--;
            hand[i++] = k;
        }
    }
}

static int run_bench(int runs, int json)
{
    static ts_qw_play plays[MAX_PLAYS];
    double *search = malloc((size_t)runs * sizeof *search);
    double *list = malloc((size_t)runs * sizeof *list);
    if (!search || !list) {
        free(search);
        free(list);
        fprintf(stderr, "%s: out of memory\n", WHO);
        return 2;
    }
    double worst = 0;
    for (int r = 0; r < runs; r++) {
        ts_qw_table t, after;
        int hand[BENCH_HAND];
        uint8_t played[TS_QW_HAND_MAX];
        random_game(&t, BENCH_TABLE, hand, BENCH_HAND);
        double t0 = rules_cli_now_us();
        ts_qw_best_layout(&t, hand, BENCH_HAND, -1, 0, -1, &after, played);
        search[r] = rules_cli_now_us() - t0;
        t0 = rules_cli_now_us();
        ts_qw_plays(&t, hand, BENCH_HAND, NULL, plays, MAX_PLAYS);
        list[r] = rules_cli_now_us() - t0;
        worst = list[r] > worst ? list[r] : worst;
    }
    double ms = ts_median(search, runs), ml = ts_median(list, runs);
    free(search);
    free(list);
    if (json) {
        const rules_cli_time t[] = {
            {"median_us", ms}, {"plays_median_us", ml}, {"plays_max_us", worst}};
        return rules_cli_bench_json(WHO, "qwirkle_rearrangement", runs, t, 3);
    }
    printf("qwirkle rearrangement search, %d table cards + %d-card hand: median %.1f us; "
           "all plays: median %.1f us, max %.1f us; %d runs\n",
           BENCH_TABLE, BENCH_HAND, ms, ml, worst, runs);
    return 0;
}

/* ---- Arguments
 * ----------------------------------------------------------------------------------- */

int rules_cli_qwirkle(int argc, char **argv)
{
    static ts_qw_table table;
    int hand[TS_QW_HAND_MAX], nhand = 0, with_hand = 0, json = 0, top = -1, bench = 0;
    const char *table_text = NULL;
    ts_qw_rules rules = TS_QW_DEFAULTS;
    char err[160];

    enum { O_JSON = CMD_OPT_LONG, O_ONE_LINE, O_BENCH, O_TABLE, O_HAND, O_TOP };
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, O_JSON},
        {"one-line", no_argument, NULL, O_ONE_LINE},
        {"bench", optional_argument, NULL, O_BENCH},
        {"table", required_argument, NULL, O_TABLE},
        {"hand", required_argument, NULL, O_HAND},
        {"top", required_argument, NULL, O_TOP},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("rules qwirkle", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        case O_JSON: json = 1; break;
        case O_ONE_LINE: rules.one_line_per_turn = 1; break;
        case O_BENCH:
            if ((bench = rules_cli_bench_runs("rules qwirkle", argc, argv, BENCH_RUNS)) < 0)
                return 2;
            break;
        case O_TABLE: table_text = optarg; break;
        case O_HAND:
            with_hand = 1;
            nhand = ts_code_parse_indices(TS_FAM_QWIRKLE, optarg, hand, TS_QW_HAND_MAX, err,
                                          sizeof err);
            if (nhand < 0) {
                fprintf(stderr, "%s: --hand: %s\n", WHO, err);
                return 2;
            }
            break;
        case O_TOP:
            if (cmd_whole_int("rules qwirkle", "--top", optarg, 0, 1000000, &top) < 0)
                return 2;
            break;
        default: return 2;
        }
    }
    if (optind < argc)
        return cmd_usage_error("rules qwirkle", "unexpected argument '%s' (cards go after "
                                                "--table or --hand)", argv[optind]);
    if (bench)
        return run_bench(bench, json);
    if (!table_text) {
        usage(stderr);
        return 2;
    }
    if (ts_qw_parse_table(table_text, &table, err, sizeof err) < 0) {
        fprintf(stderr, "%s: --table: %s\n", WHO, err);
        return 2;
    }
    int card;
    if (ts_qw_too_many_copies(&table, hand, nhand, &card)) {
        char b[TS_CODE_MAXLEN];
        fprintf(stderr,
                "%s: more than %d copies of %s on the table and in hand (a misread card?)\n", WHO,
                TS_QW_COPIES, code_text(card, b));
        return 2;
    }
    return run(&table, hand, nhand, with_hand, &rules, top, json);
}
