/* `tablesight rules gof`: legal Gang of Four plays from a hand, the verdict on
 * one play, and a benchmark (rules/gof.h does the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "codes.h"
#include "answers.h"
#include "gof.h"
#include "rules_cli.h"

enum {
    MAX_HAND = 64,
    MAX_PLAYS = 8192, /* more than a 16-card hand can ever make */
    BENCH_RUNS = 2000
};

static const char WHO[] = "tablesight rules gof";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight rules gof [--json] --hand CODES [--trick CODES] [--first-lead] "
            "[--top N]\n"
            "       tablesight rules gof [--json] --play CODES [--trick CODES] [--first-lead]\n"
            "       tablesight rules gof [--json] --bench [RUNS]\n"
            "\n"
            "Legal plays from a hand, best first: gangs, then more cards, then stronger;\n"
            "without --trick the hand leads. Passing is always allowed when following.\n"
            "CODES: colour G Y R + number 1-10 (R7, Y10), M1 the multicoloured 1, GP YP the\n"
            "phoenixes, RD the dragon; separated by spaces or commas, quoted as one argument.\n"
            "\n"
            "options:\n"
            "  --hand CODES   the cards in hand\n"
            "  --trick CODES  the combination to beat (omit when leading)\n"
            "  --first-lead   the game's first lead: 1-5 cards containing M1\n"
            "  --top N        list at most N plays (default all)\n"
            "  --play CODES   judge one play: is it a combination, does it beat --trick\n"
            "  --bench [RUNS] median microseconds to list all legal plays of random 16-card\n"
            "                 hands against random tricks (default %d runs)\n"
            "  --json         one JSON object instead of text\n"
            "\n"
            "Exit status: 0 a legal play exists (or --play is legal), 1 pass only (or the\n"
            "play is illegal), 2 usage error or bad code.\n",
            BENCH_RUNS);
}

/* ---- Text and JSON pieces ---------------------------------------------------------------- */

static const char *code_text(int idx, char buf[TS_CODE_MAXLEN])
{
    return rules_cli_code(TS_FAM_GOF, idx, buf);
}

static void print_combo(const ts_gof_combo *c)
{
    char name[24], b[TS_CODE_MAXLEN];
    printf("%-15s", ts_gof_combo_name(c, name));
    for (int i = 0; i < c->n; i++)
        printf(" %s", code_text(c->cards[i], b));
}

/* ---- Input ----------------------------------------------------------------------------------- */

static int parse_cards(const char *opt, const char *text, int *cards, int max)
{
    char err[128];
    int n = ts_code_parse_indices(TS_FAM_GOF, text, cards, max, err, sizeof err);
    if (n < 0)
        fprintf(stderr, "%s: %s: %s\n", WHO, opt, err);
    return n;
}

/* A hand can hold no more copies than the deck. */
static int check_hand(const int *hand, int n)
{
    int copies[TS_GOF_NKINDS] = {0};
    char b[TS_CODE_MAXLEN];
    for (int i = 0; i < n; i++)
        if (++copies[hand[i]] > ts_gof_deck_copies(hand[i])) {
            fprintf(stderr, "%s: --hand holds %d x %s, the deck only %d (a misread card?)\n", WHO,
                    copies[hand[i]], code_text(hand[i], b), ts_gof_deck_copies(hand[i]));
            return -1;
        }
    return 0;
}

/* Parses and classifies a combination option; prints why it is none. */
static int parse_combo(const char *opt, const char *text, ts_gof_combo *c, ts_gof_error *why)
{
    int cards[MAX_HAND];
    int n = parse_cards(opt, text, cards, MAX_HAND);
    if (n < 0)
        return -1;
    *why = ts_gof_classify(cards, n, c);
    return 0;
}

/* ---- Legal plays ------------------------------------------------------------------------------
 */

static int run_plays(const int *hand, int n, const ts_gof_combo *trick, int first_lead, int top,
                     int json)
{
    static ts_gof_combo plays[MAX_PLAYS];
    int count = ts_gof_legal_plays(hand, n, trick, first_lead, plays, MAX_PLAYS);
    int shown = count < MAX_PLAYS ? count : MAX_PLAYS;
    if (top >= 0 && top < shown)
        shown = top;
    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_gof_report_plays(&w, trick, first_lead, plays, shown, count);
        if (!rules_cli_emit_json(&j, WHO))
            return 2;
    } else {
        if (trick) {
            printf("trick: ");
            print_combo(trick);
            printf("\n");
        }
        if (count == 0 && first_lead)
            printf("no play: the first lead is 1-5 cards containing M1\n");
        else if (count == 0)
            printf("pass: nothing in hand beats the trick\n");
        else
            printf("%d legal play%s%s, best first:\n", count, count == 1 ? "" : "s",
                   trick ? " (or pass)" : "");
        for (int i = 0; i < shown; i++) {
            printf("  ");
            print_combo(&plays[i]);
            printf("\n");
        }
    }
    return count > 0 ? 0 : 1;
}

/* ---- One play
 * ------------------------------------------------------------------------------------ */

static int run_judge(const ts_gof_combo *play, ts_gof_error why, const ts_gof_combo *trick,
                     int first_lead, int json)
{
    const char *verdict =
        why != TS_GOF_OK ? ts_gof_error_text(why) : ts_gof_refusal(play, trick, first_lead);
    if (json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_gof_report_judge(&w, why == TS_GOF_OK ? play : NULL, verdict);
        if (!rules_cli_emit_json(&j, WHO))
            return 2;
    } else if (verdict) {
        printf("illegal: %s\n", verdict);
    } else {
        printf("legal: ");
        print_combo(play);
        printf("\n");
    }
    return verdict ? 1 : 0;
}

/* ---- Benchmark
 * ------------------------------------------------------------------------------------ */

static uint64_t bench_rng = 0x9E3779B97F4A7C15ull;
static int bench_rand(int n)
{
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return (int)(bench_rng % (uint64_t)n);
}

static int run_bench(int runs, int json)
{
    static ts_gof_combo plays[MAX_PLAYS];
    double *follow = malloc((size_t)runs * sizeof *follow);
    double *lead = malloc((size_t)runs * sizeof *lead);
    if (!follow || !lead) {
        free(follow);
        free(lead);
        fprintf(stderr, "%s: out of memory\n", WHO);
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        int deck[64], n = 0;
        for (int c = 0; c < 2 * TS_GOF_NUMBERS; c++)
            deck[n++] = c % TS_GOF_NUMBERS;
        for (int c = TS_GOF_M1; c < TS_GOF_NKINDS; c++)
            deck[n++] = c;
        for (int i = 0; i < 32; i++) { /* two 16-card hands */
            int k = i + bench_rand(n - i), t = deck[i];
            deck[i] = deck[k];
            deck[k] = t;
        }
        double t0 = rules_cli_now_us();
        int k = ts_gof_legal_plays(deck + 16, 16, NULL, 0, plays, MAX_PLAYS);
        lead[r] = rules_cli_now_us() - t0;
        ts_gof_combo trick = plays[bench_rand(k < MAX_PLAYS ? k : MAX_PLAYS)];
        t0 = rules_cli_now_us();
        ts_gof_legal_plays(deck, 16, &trick, 0, plays, MAX_PLAYS);
        follow[r] = rules_cli_now_us() - t0;
    }
    double mf = ts_median(follow, runs), ml = ts_median(lead, runs);
    free(follow);
    free(lead);
    if (json) {
        const rules_cli_time t[] = {{"median_us", mf}, {"lead_median_us", ml}};
        return rules_cli_bench_json(WHO, "gof_legal_plays", runs, t, 2);
    }
    printf("gof legal plays, random 16-card hand vs random trick: median %.1f us "
           "(leading: %.1f us), %d runs\n",
           mf, ml, runs);
    return 0;
}

/* ---- Arguments
 * --------------------------------------------------------------------------------------- */

int rules_cli_gof(int argc, char **argv)
{
    int hand[MAX_HAND], nhand = -1, json = 0, first_lead = 0, top = -1, bench = 0;
    const char *trick_text = NULL, *play_text = NULL;

    enum { O_JSON = CMD_OPT_LONG, O_FIRST_LEAD, O_BENCH, O_HAND, O_TRICK, O_PLAY, O_TOP };
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, O_JSON},
        {"first-lead", no_argument, NULL, O_FIRST_LEAD},
        {"bench", optional_argument, NULL, O_BENCH},
        {"hand", required_argument, NULL, O_HAND},
        {"trick", required_argument, NULL, O_TRICK},
        {"play", required_argument, NULL, O_PLAY},
        {"top", required_argument, NULL, O_TOP},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("rules gof", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        case O_JSON: json = 1; break;
        case O_FIRST_LEAD: first_lead = 1; break;
        case O_BENCH:
            if ((bench = rules_cli_bench_runs("rules gof", argc, argv, BENCH_RUNS)) < 0)
                return 2;
            break;
        case O_HAND:
            nhand = parse_cards("--hand", optarg, hand, MAX_HAND);
            if (nhand < 0 || check_hand(hand, nhand) < 0)
                return 2;
            break;
        case O_TRICK: trick_text = optarg; break;
        case O_PLAY: play_text = optarg; break;
        case O_TOP:
            if (cmd_whole_int("rules gof", "--top", optarg, 0, 1000000, &top) < 0)
                return 2;
            break;
        default: return 2;
        }
    }
    if (optind < argc)
        return cmd_usage_error("rules gof", "unexpected argument '%s' (cards go after --hand, "
                                            "--trick or --play)", argv[optind]);
    if (bench)
        return run_bench(bench, json);

    ts_gof_combo trick, play;
    ts_gof_error why;
    if (trick_text) {
        if (parse_combo("--trick", trick_text, &trick, &why) < 0)
            return 2;
        if (why != TS_GOF_OK) {
            fprintf(stderr, "%s: --trick is no combination: %s\n", WHO, ts_gof_error_text(why));
            return 2;
        }
    }
    if (play_text) {
        if (parse_combo("--play", play_text, &play, &why) < 0)
            return 2;
        return run_judge(&play, why, trick_text ? &trick : NULL, first_lead, json);
    }
    if (nhand < 0) {
        usage(stderr);
        return 2;
    }
    return run_plays(hand, nhand, trick_text ? &trick : NULL, first_lead, top, json);
}
